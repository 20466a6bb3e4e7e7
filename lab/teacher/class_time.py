"""How many minutes of class a notebook's cells take, by a stated rule of thumb: the lesson plan's
minutes are checked against it (tests/test_lesson_plan.py) and benchmarks/class_walk.py measures
how long the same cells take to run.

The rule: half a minute to read a Markdown cell or to run a code cell and look at what it shows;
a question (its `check(...)` cell) a minute and a half, for writing the prediction, checking it
and talking about it; the opening imports cell and the `prediction = ...` cells nothing beyond
that. A cell tagged `skip-in-class` still runs with the others (later cells may need it) but the
class does not stop at it: it costs no class time.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SKIP_TAG = "skip-in-class"
MINUTES = {"markdown": 0.5, "code": 0.5, "question": 1.5, "setup": 0.0, "prediction": 0.0}
CHECK = re.compile(r"^check\(\"([^\"]+)\"", re.M)


@dataclass(frozen=True)
class Cell:
    kind: str  # a key of MINUTES
    skipped: bool
    source: str

    @property
    def minutes(self) -> float:
        return 0.0 if self.skipped else MINUTES[self.kind]


def class_cells(source: str) -> list[Cell]:
    """The cells of a jupytext percent source, each with its kind and whether a class skips it."""
    found: list[Cell] = []
    chunks = re.split(r"^(?=# %%)", source, flags=re.M)[1:]
    for chunk in chunks:
        marker, _, body = chunk.partition("\n")
        skipped = SKIP_TAG in marker
        if marker.startswith("# %% [markdown]"):
            kind = "markdown"
        elif not any(c.kind in ("setup", "code", "question", "prediction") for c in found):
            kind = "setup"
        elif body.startswith("prediction = "):
            kind = "prediction"
        elif CHECK.search(body):
            kind = "question"
        else:
            kind = "code"
        found.append(Cell(kind, skipped, body))
    return found


def class_minutes(source: str) -> float:
    """The minutes of class a notebook takes by the rule above, skipped cells aside."""
    return sum(cell.minutes for cell in class_cells(source))


def questions_asked(source: str) -> list[str]:
    """The ids of the questions a notebook checks, in order."""
    return CHECK.findall(source)
