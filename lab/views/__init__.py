"""What the lab shows: every table, transcript, picture and page the commands and the notebooks
print, made from runs, outcomes, a kill matrix or a probe's cells. Nothing here runs anything.

report.py        verdict tables, `lab show`, trays, histories, the switchboard, and their JSON
transcript.py    a run line by line, and the first divergence of two runs (the break), rendered;
                 transcript_lines.py the run as lines, divergence.py the break,
                 transcript_words.py their words
harness_words.py the harness's stage, gate and reason strings read in Chinese; switch_words.py
                 and invariant_words.py the switches' and the invariants' prose in Chinese
compare_table.py  `lab compare PRESET`;  predict_view.py  predict-then-run's verdicts and questions
panorama.py      one call's path on one SVG picture, each experiment's break lit
html_report.py   the `lab report --html` page;  rich_html.py  rich renderables as HTML or text
matrix.py        the kill matrix (`lab matrix`) as tables and JSON
probe_matrix.py  the probe's matrix and evidence (`lab probe`);  probe_html.py  its HTML report
exercise_results.py  `lab check`: a student's results with hints, the teacher's list
text_cells.py    text width in display cells (CJK counts double), for SVG labels; a layout
                 chosen by the terminal's width
"""
