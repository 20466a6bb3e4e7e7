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

from collections.abc import Iterable
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


def recorded(kind: str, because: str, evidence: Iterable[str]) -> Verdict:
    """A verdict read back from a shard's `--json` (decided there by verdict(), not here)."""
    if kind not in GRADES:
        raise ValueError(f"not a grade: {kind!r}")
    return Verdict(kind, because, tuple(evidence))


# ---------------------------------------------------------------- what a grade does to a run
# One policy for `lab probe`, `lab serve`, `lab probe --fuzz` and the JUnit writer: the exit
# status a cell of each grade asks for (when it counts, see `counts`), and its JUnit element
# (None: the testcase passed; non-strict and info say their grade in its properties).
EXIT_OK, EXIT_FAIL, EXIT_NOT_REACHED = 0, 1, 4


@dataclass(frozen=True)
class Consequence:
    exit: int
    junit: str | None


POLICY: dict[str, Consequence] = {
    FAIL: Consequence(EXIT_FAIL, "failure"),
    NOT_REACHED: Consequence(EXIT_NOT_REACHED, "error"),
    NA: Consequence(EXIT_OK, "skipped"),
    NON_STRICT: Consequence(EXIT_OK, None),
    INFO: Consequence(EXIT_OK, None),
    KEPT: Consequence(EXIT_OK, None),
    # The probe's machine was too busy to judge: nothing is said of the target.
    INCONCLUSIVE: Consequence(EXIT_OK, "skipped"),
}
# When two cells ask for different statuses, the first of these wins.
EXIT_ORDER = (EXIT_NOT_REACHED, EXIT_FAIL, EXIT_OK)


def counts(grade: str, claimed: bool, program: bool) -> bool:
    """Whether a cell's grade reaches the exit status: a fail only on a case the target claims
    to keep (a built-in target's claims; a --cmd program and a served case claim theirs), not
    reached only for a program the user named (a built-in peer not reached is shown, not failed)."""
    return {FAIL: claimed, NOT_REACHED: program}.get(grade, False)


def exit_status(grades: Iterable[str], failed: bool = False) -> int:
    """The exit status of a run whose counted cells read `grades` (`failed`: it broke in a way
    no grade names, as a served script left unconsumed): the first of EXIT_ORDER asked for."""
    asked = {POLICY[grade].exit for grade in grades} | ({EXIT_FAIL} if failed else set())
    return next(code for code in EXIT_ORDER if code in asked | {EXIT_OK})


def breaker_exit(found: bool) -> int:
    """`lab probe --fuzz`: a breaker found is a broken MUST (a wire invariant), a fail."""
    return exit_status([FAIL] if found else [])
