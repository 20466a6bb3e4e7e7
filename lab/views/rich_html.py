"""Any rich renderable as HTML (a self-contained <pre>, inline styles, a light theme that reads
on white) or as plain text: how the notebooks and the HTML reports show what the terminal shows."""

from __future__ import annotations

import io

from rich.console import Console, RenderableType
from rich.terminal_theme import TerminalTheme

WIDTH = 120  # characters per line of a single view

# A light theme for HTML: the ANSI colours darkened so they read well on white.
LIGHT = TerminalTheme(
    (255, 255, 255),
    (28, 28, 28),
    [
        (28, 28, 28),
        (190, 30, 30),
        (20, 130, 40),
        (150, 105, 0),
        (30, 80, 200),
        (150, 40, 150),
        (0, 120, 140),
        (120, 120, 120),
    ],
    [
        (90, 90, 90),
        (220, 50, 50),
        (30, 160, 60),
        (180, 130, 0),
        (60, 110, 230),
        (180, 60, 180),
        (0, 150, 170),
        (240, 240, 240),
    ],
)
PRE = (
    "<pre style=\"font-family:Menlo,'DejaVu Sans Mono',consolas,'Courier New',monospace;"
    "font-size:12px;line-height:1.35;color:{foreground};background:{background};"
    'padding:6px 8px;overflow-x:auto;white-space:pre">{code}</pre>'
)


def to_html(renderable: RenderableType, width: int = WIDTH) -> str:
    """Any rich renderable as a self-contained HTML <pre> with inline styles."""
    console = Console(
        record=True,
        width=width,
        file=io.StringIO(),
        force_terminal=True,
        force_jupyter=False,
        color_system="truecolor",
    )
    console.print(renderable)
    return console.export_html(theme=LIGHT, inline_styles=True, code_format=PRE)


def to_text(renderable: RenderableType, width: int = WIDTH) -> str:
    """Any rich renderable as plain text (no colours)."""
    console = Console(width=width, file=io.StringIO(), force_jupyter=False, color_system=None)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get().rstrip("\n")
