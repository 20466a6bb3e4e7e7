"""Errors in what the user gave (a flag, a value, an id, a file): one readable line each.

The `lab` command prints their lines and exits 2; anything else that escapes is a bug of
the lab (exit 3). Each part of the lab derives its own: ExperimentError, LiveError, ...
"""

from __future__ import annotations

import argparse


class InputError(Exception):
    """Something the user gave is wrong; `lines` says what (and where), one problem a line."""

    prefix = "lab: error: "  # printed before each line

    def __init__(self, *lines: str) -> None:
        super().__init__("\n".join(lines))
        self.lines = list(lines)


class UsageError(InputError):
    """A bad command line: one readable line, exit 2."""


class StdoutError(InputError):
    """stdout cannot take the output (closed, a full disk): one line, exit 2."""


def at_least_one(text: str) -> int:
    """An argparse type: a whole number >= 1 (argparse names the option in its error)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{value} is less than 1")
    return value
