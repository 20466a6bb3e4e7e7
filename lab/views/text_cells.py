"""How wide a text is in display cells (a CJK character takes two), and word wrap by that width:
the SVG pictures lay out their labels, English or Chinese, with these; and a terminal view that
chooses its layout by the width it is given."""

from __future__ import annotations

import unicodedata

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult


def cells(text: str) -> int:
    """Display width: CJK characters take two cells."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap(text: str, width: int) -> list[str]:
    """Word wrap by display width (CJK counted double)."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if cells(candidate) > width and line:
            lines.append(line)
            candidate = word
        line = candidate
    return [*lines, line] if line else lines


class ByWidth:
    """A rich renderable that is `wide` when the console has at least `at` columns, else
    `narrow`: a table for a wide terminal, the same facts stacked one under another below."""

    def __init__(self, wide: RenderableType, narrow: RenderableType, at: int) -> None:
        self.wide, self.narrow, self.at = wide, narrow, at

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield self.wide if options.max_width >= self.at else self.narrow
