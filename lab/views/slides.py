"""`lab report --slides FILE`: the projector deck — a title screen with the panorama, then one
experiment per screen in large type (claim, grade, switch, before → after, where the runs part,
the takeaway); ←/→, PageUp/PageDown, Home/End move between screens. One self-contained HTML file.
"""

from __future__ import annotations

import html

from rich.cells import cell_len, set_cell_size

from lab.chapter.experiment import MECHANISMS, Outcome
from lab.views.html_report import grade_of
from lab.views.observable_words import GLOSSES
from lab.views.panorama import PROJECTOR, panorama_svg
from lab.views.report import flips_text, show
from lab.views.transcript import first_divergence, one_line

WORDS = {
    "en": {
        "title": "harness-lab · one loop, and what hangs outside it",
        "subtitle": "{n} experiments, one per screen. Each flips one switch of the reference "
        "harness and shows the guarantee it breaks.",
        "keys": "→ / ← next and back · Home / End first and last",
        "switch": "switch",
        "observable": "observable",
        "before": "reference",
        "after": "switched",
        "reproduced": "as expected",
        "part": "The runs part in turn {turn}",
        "same": "The two runs do not part.",
        "nothing": "(nothing)",
        "error": "error",
    },
    "zh": {
        "title": "harness-lab · 一个循环，和挂在它外面的东西",
        "subtitle": "{n} 个实验，一屏一个。每个实验拨动参考实现的一个开关，看它打破哪一条保证。",
        "keys": "→ / ← 下一屏、上一屏 · Home / End 第一屏、最后一屏",
        "switch": "改动",
        "observable": "观测量",
        "before": "参考实现",
        "after": "拨动之后",
        "reproduced": "符合预期",
        "part": "两次运行在第 {turn} 轮分道扬镳",
        "same": "两次运行没有分歧。",
        "nothing": "（无）",
        "error": "错误",
    },
}

# Sizes in rem of a root font that follows the screen: 28 px on a 1280×720 projector.
STYLE = """
:root { font-size: min(2.2vw, 3.9vh); }
* { box-sizing: border-box; }
html, body { margin: 0; height: 100%; background: #fff; color: #1c1c1c; overflow: hidden;
  font-family: 'Noto Sans CJK SC', 'WenQuanYi Micro Hei', 'PingFang SC', 'Microsoft YaHei',
  system-ui, sans-serif; }
section.slide { width: 100vw; height: 100vh; padding: 1.1rem 1.6rem 0.9rem; overflow: hidden;
  display: flex; flex-direction: column; gap: 0.55rem; }
section.slide[hidden] { display: none; }
.top { font-size: 0.8rem; color: #666; display: flex; justify-content: space-between;
  gap: 1rem; } .top span:last-child { white-space: nowrap; }
h1 { font-size: 1.4rem; line-height: 1.25; margin: 0; }
.switch, .line { font-family: 'DejaVu Sans Mono', Menlo, monospace; overflow-wrap: anywhere; }
.switch { font-size: 0.75rem; color: #333; }
table { border-collapse: collapse; font-size: 0.85rem; }
th, td { text-align: left; padding: 0.12rem 0.9rem 0.12rem 0; vertical-align: top;
  border-bottom: 1px solid #e4e4e4; overflow-wrap: anywhere; }
td.value { font-family: 'DejaVu Sans Mono', Menlo, monospace; font-size: 0.75rem; }
.ok { color: #14822c; font-weight: bold; } .bad { color: #c01e1e; font-weight: bold; }
.part { font-size: 0.72rem; }
.part b { color: #c01e1e; }
.line { font-size: 0.62rem; color: #333; margin-left: 1rem; }
.takeaway { margin-top: auto; font-size: 1rem; font-weight: bold; line-height: 1.3;
  border-left: 0.3rem solid #c01e1e; padding-left: 0.7rem; }
.title h1 { font-size: 1.7rem; }
.title p { font-size: 0.9rem; margin: 0; }
.title svg { flex: 1 1 auto; min-height: 0; width: 100%; height: auto; }
.keys { font-size: 0.7rem; color: #666; }
@media print { html, body { overflow: visible; height: auto; }
  section.slide { display: flex !important; page-break-after: always; } }
@page { size: 1280px 720px; margin: 0; }
"""

# ←/→ (and PageUp/PageDown, space) move one screen, Home/End to the ends; the screen shown is
# the URL's fragment, so a link (or a reload) opens the same one.
SCRIPT = """
const slides = [...document.querySelectorAll('section.slide')];
let current = 0;
function show(i) {
  current = Math.max(0, Math.min(slides.length - 1, i));
  slides.forEach((s, j) => { s.hidden = j !== current; });
  try { history.replaceState(null, '', '#' + slides[current].id); } catch (e) {}
}
const MOVES = {ArrowRight: 1, ArrowDown: 1, PageDown: 1, ' ': 1,
               ArrowLeft: -1, ArrowUp: -1, PageUp: -1, Backspace: -1};
document.addEventListener('keydown', (event) => {
  if (event.key === 'Home') show(0);
  else if (event.key === 'End') show(slides.length - 1);
  else if (event.key in MOVES) show(current + MOVES[event.key]);
  else return;
  event.preventDefault();
});
function fromFragment() {
  const i = slides.findIndex((s) => '#' + s.id === location.hash);
  show(i < 0 ? 0 : i);
}
window.addEventListener('hashchange', fromFragment);
window.deck = {show, slides, current: () => current};
fromFragment();
"""


def title_slide(outcomes: list[Outcome], lang: str) -> str:
    w = WORDS[lang]
    return (
        '<section class="slide title" id="start">'
        f"<h1>{html.escape(w['title'])}</h1>"
        f"<p>{html.escape(w['subtitle'].format(n=len(outcomes)))}</p>"
        f"{panorama_svg(outcomes, lang, PROJECTOR)}"
        f'<p class="keys">{html.escape(w["keys"])}</p></section>'
    )


def observable_cell(name: str, lang: str) -> str:
    """The observable's name, its Chinese gloss under it in the zh deck."""
    gloss = GLOSSES.get(name) if lang == "zh" else None
    small = f'<br><span class="part">{html.escape(gloss)}</span>' if gloss else ""
    return html.escape(name) + small


def rows_table(outcome: Outcome, lang: str) -> str:
    w = WORDS[lang]
    head = "".join(
        f"<th>{html.escape(w[k])}</th>" for k in ("observable", "before", "after", "reproduced")
    )
    rows = []
    for row in outcome.rows:
        ok = row.after == row.expected_after and row.before == row.expected_before
        mark = '<td class="ok">✓</td>' if ok else '<td class="bad">✗</td>'
        rows.append(
            f"<tr><td>{observable_cell(row.observable, lang)}</td>"
            f'<td class="value">{html.escape(one_line(show(row.before), 60))}</td>'
            f'<td class="value">{html.escape(one_line(show(row.after), 60))}</td>{mark}</tr>'
        )
    return f"<table><tr>{head}</tr>{''.join(rows)}</table>"


def fitted(text: str, cells: int) -> str:
    """On one line, cut with … past `cells` columns: a Chinese character takes two, so a zh line
    takes no more room on the screen than an en one of the same limit."""
    text = text.replace("\n", "⏎")
    return text if cell_len(text) <= cells else set_cell_size(text, cells - 1).rstrip() + "…"


def where_they_part(outcome: Outcome, lang: str) -> str:
    """The turn where the two runs part, and the line on each side that shows it."""
    w = WORDS[lang]
    if outcome.before is None or outcome.after is None:
        return f'<p class="bad">✗ {w["error"]}: {html.escape(str(outcome.error))}</p>'
    split = first_divergence(outcome.before, outcome.after, lang)
    if split is None:
        return f'<p class="part">{html.escape(w["same"])}</p>'
    lines = []
    for title, line in ((w["before"], split.left), (w["after"], split.right)):
        text = w["nothing"] if line is None else line.text.plain
        # one row of the projector's monospace line holds about 106 columns
        lines.append(f'<div class="line">{html.escape(fitted(f"{title}: {text}", 104))}</div>')
    return (
        f'<div class="part"><b>◀ {html.escape(w["part"].format(turn=split.turn))}</b>'
        f"{''.join(lines)}</div>"
    )


def experiment_slide(outcome: Outcome, index: int, total: int, lang: str) -> str:
    w = WORDS[lang]
    e = outcome.experiment
    mechanism = MECHANISMS[e.mechanism][1 if lang == "zh" else 0]
    return (
        f'<section class="slide" id="{html.escape(e.id)}" hidden>'
        f'<div class="top"><span>{html.escape(e.id)} · {html.escape(e.mechanism)} '
        f"{html.escape(mechanism)} · {html.escape(one_line(grade_of(outcome, lang), 170))}</span>"
        f"<span>{index} / {total}</span></div>"
        f"<h1>{html.escape(e.title[lang])}</h1>"
        f'<div class="switch">{html.escape(w["switch"])}: '
        f"{html.escape(flips_text(dict(e.flips)))}</div>"
        f"{rows_table(outcome, lang)}"
        f"{where_they_part(outcome, lang)}"
        f'<div class="takeaway">{html.escape(e.takeaway[lang])}</div>'
        "</section>"
    )


def page(outcomes: list[Outcome], lang: str = "en") -> str:
    """The deck as one string: inline style and script, no other file, no network."""
    w = WORDS[lang]
    code = "zh-CN" if lang == "zh" else "en"
    total = len(outcomes)
    slides = [title_slide(outcomes, lang)]
    slides += [experiment_slide(o, i, total, lang) for i, o in enumerate(outcomes, 1)]
    return "\n".join(
        [
            f'<!DOCTYPE html><html lang="{code}"><head><meta charset="utf-8">',
            f"<title>{html.escape(w['title'])}</title><style>{STYLE}</style></head><body>",
            *slides,
            f"<script>{SCRIPT}</script></body></html>",
        ]
    )
