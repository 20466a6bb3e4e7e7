"""The probe's grades: what one cell of the matrix says, the way conformance suites grade.

Autobahn grades Pass / Non-Strict / Fail / Informational and h2spec keeps strict cases apart; the
probe does the same so that a maintainer can read a cell and agree with it:

- kept        the promise held;
- fail        a MUST broken: a request the API rejects, a call run that must not run, a call
              silently lost, a crash on the model's input, giving up after a transient fault
              while reporting success;
- non-strict  a SHOULD missed: an error text without is_error, parallel results split across
              turns, retry-after ignored, no retry under default settings;
- info        unspecified behaviour reported as a fact (a typed exception to the caller with
              the history intact and nothing run; how a partial stream was treated);
- n/a         the case does not apply to this target (no permission system, no such mode);
- not reached the target never got a script answer (404, refused, exit or timeout first);
- inconclusive  the probe's own machine was too busy to judge: the program was still making
              progress when the wall-clock cap stopped it (idle.py). Not a grade of the target.
"""

from __future__ import annotations

from dataclasses import dataclass

KEPT, FAIL, NON_STRICT, INFO, NA, NOT_REACHED = (
    "kept",
    "fail",
    "non-strict",
    "info",
    "n/a",
    "not reached",
)
INCONCLUSIVE = "inconclusive"
GRADES = (KEPT, FAIL, NON_STRICT, INFO, NA, NOT_REACHED, INCONCLUSIVE)
# Worst first: when one case runs in both answer modes, the cell shows the worse of the two (a
# finding in one mode before the other mode's busy machine).
SEVERITY = {FAIL: 0, NOT_REACHED: 1, NON_STRICT: 2, INCONCLUSIVE: 3, INFO: 4, KEPT: 5, NA: 6}


def worse(a: str, b: str) -> str:
    """The worse of two grades (fail before non-strict before info before kept)."""
    return a if SEVERITY[a] <= SEVERITY[b] else b


@dataclass(frozen=True)
class Verdict:
    kind: str  # one of GRADES
    because: str  # one line: the rule's outcome
    evidence: tuple[str, ...] = ()  # the requests, answers, exit status and files that decided
