"""Where two runs part ways (the break): the first unit whose facts differ, and in it the first
line one run has and the other has not. Comparing facts per call rather than events by position
keeps a reordering or a parallel tray from hiding the real break."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from lab.views.transcript_lines import Line, lines_of


@dataclass(frozen=True)
class Divergence:
    """The break: the first unit whose facts differ, and the line on each side that shows it
    (None on a side that has no such line)."""

    turn: int
    unit: tuple[int, int, str]
    left: Line | None
    right: Line | None


def units(lines: list[Line]) -> dict[tuple[int, int, str], list[Line]]:
    found: dict[tuple[int, int, str], list[Line]] = {}
    for line in lines:
        found.setdefault(line.unit, []).append(line)
    return found


def first_unmatched(ours: list[Line], theirs: list[Line]) -> Line | None:
    """Our first compared line whose fact the other side does not have (counted)."""
    left = Counter(line.key for line in theirs if line.key is not None)
    for line in ours:
        if line.key is None:
            continue
        if left[line.key]:
            left[line.key] -= 1
        else:
            return line
    return None


def first_reordered(ours: list[Line], theirs: list[Line]) -> tuple[Line | None, Line | None]:
    a = [line for line in ours if line.key is not None]
    b = [line for line in theirs if line.key is not None]
    for x, y in zip(a, b, strict=False):
        if x.key != y.key:
            return x, y
    return None, None


def divergence(a: list[Line], b: list[Line]) -> Divergence | None:
    """The unit whose facts differ earliest in the runs (head, each call, tail), and the first
    line each side has that the other has not; with the same facts everywhere, the first
    reordering."""
    left, right = units(a), units(b)
    found = []
    for unit in set(left) | set(right):
        ours, theirs = left.get(unit, []), right.get(unit, [])
        x, y = first_unmatched(ours, theirs), first_unmatched(theirs, ours)
        if x is not None or y is not None:
            when = min(line.at for line in (x, y) if line is not None)
            found.append((when, unit, x, y))
    if found:
        _, unit, x, y = min(found, key=lambda f: (f[0], f[1]))
        return Divergence(unit[0], unit, x, y)
    for unit in sorted(set(left) | set(right)):  # same facts, another order
        x, y = first_reordered(left.get(unit, []), right.get(unit, []))
        if x is not None:
            return Divergence(unit[0], unit, x, y)
    return None


def first_divergence(a: Any, b: Any, lang: str = "en") -> Divergence | None:
    """Where two runs (Runs, Steppers, traces) part ways, or None when they do not."""
    return divergence(lines_of(a, lang), lines_of(b, lang))
