"""Errors in what the user gave (a flag, a value, an id, a file): one readable line each.

The `lab` command prints their lines and exits 2; anything else that escapes is a bug of
the lab (exit 3). Each part of the lab derives its own: ExperimentError, LiveError, ...
"""

from __future__ import annotations


class InputError(Exception):
    """Something the user gave is wrong; `lines` says what (and where), one problem a line."""

    prefix = "lab: error: "  # printed before each line

    def __init__(self, *lines: str) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)


class UsageError(InputError):
    """A bad command line: one readable line, exit 2."""
