"""`lab report --html FILE`: one self-contained page for the projector — the panorama, the claims
table with evidence grades, and every experiment's two runs side by side, the break marked."""

from __future__ import annotations

import html

from lab.chapter.experiment import MECHANISMS, Outcome
from lab.views import transcript
from lab.views.panorama import panorama_svg
from lab.views.report import flips_text, grade_label, show
from lab.views.rich_html import to_html
from lab.views.source_words import SOURCES

WIDTH = transcript.SIDE_BY_SIDE_WIDTH  # characters per line of a transcript on the page

# The claims table's column heads.
HEAD = {
    "en": ("id", "mechanism", "claim", "grade", "switch", "before → after", "reproduced"),
    "zh": ("编号", "机制", "论断", "证据等级", "改动", "之前 → 之后", "复现"),
}
WORDS = {
    "en": {
        "title": "harness-lab · one loop, and what hangs outside it",
        "panorama": "The panorama",
        "claims": "The chapter's claims, measured now",
        "runs": "Every experiment, side by side",
        "yes": "✓",
        "no": "✗",
        "baseline": "baseline",
        "degraded": "degraded",
        "takeaway": "takeaway",
        "error": "error",
        ":": ": ",
        "wrote": "wrote {path} ({n} experiments)",
        "font": "Chinese needs a CJK font on this machine (e.g. Noto Sans CJK SC or "
        "WenQuanYi Micro Hei).",
    },
    "zh": {
        "title": "harness-lab · 一个循环，和挂在它外面的东西",
        "panorama": "机制全景",
        "claims": "本章的论断，当场测量",
        "runs": "每个实验的两次运行，并排对照",
        "yes": "✓",
        "no": "✗",
        "baseline": "基线",
        "degraded": "退化",
        "takeaway": "口播落点",
        "error": "错误",
        ":": "：",
        "wrote": "已写出 {path}（{n} 个实验）",
        "font": "中文需要本机装有中日韩字体（例如 Noto Sans CJK SC 或文泉驿微米黑）。",
    },
}

STYLE = """
body { font-family: 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', 'PingFang SC', 'Microsoft YaHei',
       system-ui, sans-serif; margin: 24px auto; max-width: 1180px; color: #1c1c1c; }
h1 { font-size: 26px; } h2 { font-size: 21px; margin-top: 34px; border-bottom: 2px solid #ddd; }
table.claims { border-collapse: collapse; font-size: 14px; width: 100%; }
table.claims th, table.claims td { border-bottom: 1px solid #e4e4e4; padding: 5px 7px;
  text-align: left; vertical-align: top; }
table.claims td.obs { font-family: 'DejaVu Sans Mono', Menlo, monospace; font-size: 12.5px;
  overflow-wrap: anywhere; }
/* short labels never break: a narrow Chinese column would stack one character per line */
table.claims th, table.claims td:nth-child(-n+2), table.claims td:last-child {
  white-space: nowrap; }
table.claims td:nth-child(3) { min-width: 9em; } table.claims td.grade { min-width: 12em; }
td.ok { color: #14822c; font-weight: bold; } .bad { color: #c01e1e; font-weight: bold; }
section.run { margin-top: 26px; } section.run h3 { font-size: 17px; margin-bottom: 4px; }
p.takeaway { font-style: italic; margin: 2px 0 6px; } p.note { color: #666; font-size: 12px; }
@page { size: A3 landscape; margin: 12mm; }
"""


def source_of(outcome: Outcome) -> str:
    """The claim's source without the grade's own words it may begin with ("beyond the seed:
    ..."), which the grade already says."""
    experiment = outcome.experiment
    source = experiment.source
    for words in {grade_label(experiment.grade, lang) for lang in ("en", "zh")}:
        source = source.removeprefix(words).lstrip(": ")
    return source


def grade_of(outcome: Outcome, lang: str) -> str:
    """【一】, 【二】, 【三】 or "beyond the seed", and the claim's source in `lang`. A source with
    no Chinese (an experiment of your own): a Chinese page shows the grade, the English source
    on hovering it."""
    label = grade_label(outcome.experiment.grade, lang)
    if lang == "zh":
        source = SOURCES.get(outcome.experiment.id)
        return f"{label}：{source}" if source else label
    source = source_of(outcome)
    return f"{label}: {source}" if source else label


def grade_attributes(outcome: Outcome, lang: str) -> str:
    """The grade cell's class; on a Chinese page with no Chinese source, the English one shown
    on hover."""
    if lang == "en" or outcome.experiment.id in SOURCES or not source_of(outcome):
        return ' class="grade"'
    return f' class="grade" title="{html.escape(source_of(outcome))}"'


def claims_table(outcomes: list[Outcome], lang: str) -> str:
    w = WORDS[lang]
    rows = ["<tr>" + "".join(f"<th>{html.escape(h)}</th>" for h in HEAD[lang]) + "</tr>"]
    for o in outcomes:
        e = o.experiment
        mechanism = f"{e.mechanism} {MECHANISMS[e.mechanism][1 if lang == 'zh' else 0]}"
        observed = "<br>".join(
            html.escape(f"{r.observable} {show(r.before)} → {show(r.after)}") for r in o.rows
        )
        if o.error is not None:  # the experiment's own code raised: its line, as `lab run` shows
            observed = f'<span class="bad">✗ {w["error"]}: {html.escape(o.error)}</span>'
        ok = (
            f'<td class="ok">{w["yes"]}</td>' if o.reproduced else f'<td class="bad">{w["no"]}</td>'
        )
        cells = [
            f'<td><a href="#{e.id}">{e.id}</a></td>',
            f"<td>{html.escape(mechanism)}</td>",
            f"<td>{html.escape(e.title[lang])}</td>",
            f"<td{grade_attributes(o, lang)}>{html.escape(grade_of(o, lang))}</td>",
            f'<td class="obs">{html.escape(flips_text(dict(e.flips)))}</td>',
            f'<td class="obs">{observed}</td>',
            ok,
        ]
        rows.append(f'<tr data-experiment="{e.id}">' + "".join(cells) + "</tr>")
    return '<table class="claims">' + "".join(rows) + "</table>"


def run_section(outcome: Outcome, lang: str) -> str:
    w = WORDS[lang]
    e = outcome.experiment
    head = (
        f'<section class="run" id="{e.id}"><h3>{e.id} · {html.escape(e.title[lang])}</h3>'
        f'<p class="takeaway">{w["takeaway"]}{w[":"]}{html.escape(e.takeaway[lang])}</p>'
    )
    if outcome.before is None or outcome.after is None:  # its own code raised: no runs to show
        return (
            f'{head}<p class="bad">✗ {w["error"]}: {html.escape(str(outcome.error))}</p></section>'
        )
    titles = (w["baseline"], f"{w['degraded']} ({flips_text(dict(e.flips))})")
    pair = transcript.side_by_side(outcome.before, outcome.after, titles, None, lang, 400)
    return f"{head}{to_html(pair, WIDTH)}</section>"


def page(outcomes: list[Outcome], lang: str = "en") -> str:
    """The whole page as one string: no script, no external file, no network."""
    w = WORDS[lang]
    code = "zh-CN" if lang == "zh" else "en"
    parts = [
        f'<!DOCTYPE html><html lang="{code}"><head><meta charset="utf-8">',
        f"<title>{html.escape(w['title'])}</title><style>{STYLE}</style></head><body>",
        f"<h1>{html.escape(w['title'])}</h1>",
        f'<h2 id="panorama">{w["panorama"]}</h2>',
        panorama_svg(outcomes, lang),
        f'<p class="note">{html.escape(w["font"])}</p>',
        f'<h2 id="claims">{w["claims"]}</h2>',
        claims_table(outcomes, lang),
        f'<h2 id="runs">{w["runs"]}</h2>',
        *(run_section(o, lang) for o in outcomes),
        "</body></html>",
    ]
    return "\n".join(parts)


def wrote_note(path: object, n: int, lang: str = "en") -> str:
    """What `lab report` says once the page is written."""
    return WORDS[lang]["wrote"].format(path=path, n=n)
