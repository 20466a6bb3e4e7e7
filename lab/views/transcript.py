"""Runs explained line by line in the chapter's words, and where two runs part ways: the break.

This module renders: one run turn by turn, two runs one after the other or side by side with
the first divergence marked. The lines come from transcript_lines.py (a run as units of facts),
the break from divergence.py, the words from transcript_words.py; their names are importable
from here too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from lab.views.divergence import (
    Divergence,
    divergence,
    first_divergence,
    first_reordered,
    first_unmatched,
    units,
)
from lab.views.transcript_lines import (
    HEAD,
    MARK_STYLE,
    PERMISSION_HOOK,
    TAIL,
    Facts,
    Line,
    Turn,
    block_text,
    body,
    call_of,
    disagrees,
    event_line,
    facts_of,
    first_message_text,
    in_head,
    in_tail,
    lines_of,
    one_line,
    show,
)
from lab.views.transcript_words import WORDS

__all__ = [
    "HEAD",
    "MARK_STYLE",
    "PERMISSION_HOOK",
    "SIDE_BY_SIDE_WIDTH",
    "TAIL",
    "WORDS",
    "Divergence",
    "Facts",
    "Line",
    "Turn",
    "block_text",
    "body",
    "call_of",
    "disagrees",
    "divergence",
    "divergence_header",
    "event_line",
    "facts_of",
    "first_divergence",
    "first_message_text",
    "first_reordered",
    "first_unmatched",
    "in_head",
    "in_tail",
    "lines_of",
    "lines_view",
    "one_after_the_other",
    "one_line",
    "rendered",
    "show",
    "side_by_side",
    "transcript",
    "units",
]


# -- rendering -------------------------------------------------------------------------------
def rendered(line: Line, mark: Line | None, w: dict[str, str]) -> RenderableType:
    """A line at its indent; a multi-line output continues two columns further in."""
    first, *rest = line.text.split("\n", allow_blank=True)
    if mark is not None and line is mark:
        first.stylize(MARK_STYLE)
        first.append(w["mark"], "bold red")
    shown = Padding(first, (0, 0, 0, line.indent), expand=False)
    if not rest:
        return shown
    more = Text("\n").join(rest)
    return Group(shown, Padding(more, (0, 0, 0, line.indent + 2), expand=False))


def lines_view(lines: Sequence[Line], mark: Line | None = None, lang: str = "en") -> Group:
    w = WORDS[lang]
    out: list[RenderableType] = []
    for i, line in enumerate(lines):
        if i and line.turn != lines[i - 1].turn:
            out.append(Text(""))
        out.append(rendered(line, mark, w))
    return Group(*out)


def transcript(source: Any, lang: str = "en", limit: int | None = None) -> Group:
    """One run turn by turn (tool outputs and results whole unless `limit`)."""
    return lines_view(lines_of(source, lang, limit), None, lang)


def divergence_header(split: Divergence | None, titles: Sequence[str], lang: str) -> Group:
    """The break in a few lines: the turn, and on each side the line that shows it."""
    w = WORDS[lang]
    if split is None:
        return Group(Text(w["no_divergence"], "green"))
    parts: list[RenderableType] = [Text(w["divergence"].format(turn=split.turn), "bold red")]
    for title, line in zip(titles, (split.left, split.right), strict=True):
        shown = Text(w["nothing"], "dim")
        if line is not None:
            shown = Text(one_line(line.text.plain, 300), line.text.style)
        parts += [Text(f"  {title}{w['colon']}", "bold"), Text("    ") + shown]
    return Group(*parts)


def one_after_the_other(
    a: Any, b: Any, titles: Sequence[str], lang: str = "en", limit: int | None = None
) -> Group:
    """Both runs, one after the other, each with the first divergence marked."""
    left, right = lines_of(a, lang, limit), lines_of(b, lang, limit)
    split = divergence(left, right)
    marks = (split.left, split.right) if split else (None, None)
    parts: list[RenderableType] = [divergence_header(split, titles, lang)]
    for title, lines, mark in zip(titles, (left, right), marks, strict=True):
        parts += [Text(""), Text(title, "bold underline reverse"), lines_view(lines, mark, lang)]
    return Group(*parts)


# Characters per line of a side-by-side view on a page (the report, a notebook): 150 cells of
# 12px DejaVu Sans Mono (7.2px each) and the <pre>'s padding fit a 1200 px page.
SIDE_BY_SIDE_WIDTH = 150


def side_by_side(
    a: Any,
    b: Any,
    titles: Sequence[str] = ("baseline", "switched"),
    turns: Sequence[int] | None = None,
    lang: str = "en",
    limit: int | None = 400,
) -> Group:
    """Two runs turn by turn in two columns; the first divergence marked on both sides."""
    w = WORDS[lang]
    left, right = lines_of(a, lang, limit), lines_of(b, lang, limit)
    split = divergence(left, right)
    marks = (split.left, split.right) if split else (None, None)
    table = Table(box=box.SIMPLE_HEAD, show_lines=True, expand=True, pad_edge=False)
    table.add_column("", width=3, no_wrap=True)
    table.add_column(titles[0], ratio=1, overflow="fold")
    table.add_column(titles[1], ratio=1, overflow="fold")
    shown = turns if turns is not None else sorted({x.turn for x in left + right})
    for turn in shown:
        ours = [x for x in left if x.turn == turn]
        theirs = [x for x in right if x.turn == turn]
        same = [x.key for x in ours] == [x.key for x in theirs]
        before = split is not None and turn < split.turn
        label = Text(str(turn), "dim" if same else "bold")
        if split is not None and turn == split.turn:
            label = Text(f"{turn}◀", "bold red")
        cells = [
            lines_view(xs, mark, lang) if xs else Text(w["no_turn"], "dim")
            for xs, mark in ((ours, marks[0]), (theirs, marks[1]))
        ]
        table.add_row(label, *cells, style="dim" if same and before else "")
    return Group(divergence_header(split, titles, lang), table)
