"""How wide a text is in display cells (a CJK character takes two), and word wrap by that width:
the SVG pictures lay out their labels, English or Chinese, with these."""

from __future__ import annotations

import unicodedata


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
