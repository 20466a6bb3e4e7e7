"""The teacher's kit: the notebooks in one language, the printable worksheet (the lesson plan and
the answer key are documents in docs/teacher/; the projector slides are lab/views/slides.py)."""
