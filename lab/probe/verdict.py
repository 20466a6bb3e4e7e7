"""A probe case as data, and the one function that grades a trial by it.

A case is its script (the stages it plays), an ordered table of rules and the evidence to show.
A rule is a named promise and the grade the case gives when that promise breaks; the promise
says, in one line, what broke. A rule whose grade is `kept` or `info` is an alternative the
case accepts (a thread the server holds, a failure reported with a non-zero exit): it is a row
like the others, named, so a reader sees it in the table instead of in an `if`.

`verdict(case, trial)` walks the table, first broken promise first, and returns its grade with
its reason; when every promise holds, the case's `kept` line. No other code decides a grade
(tests/test_verdict.py checks it from the source).

Two wires (lab/probe/which_wire.py), one table: a case that has no meaning on a wire names the wire
and why in `off_wire` (its cell is n/a), and a row that asks for something one wire cannot say
(the Messages API's `is_error` flag) names the wires it reads in `wires`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from lab.kernel.record import TRANSIENT
from lab.probe.conversation import Stage
from lab.probe.grades import INCONCLUSIVE, INFO, KEPT, NA, NOT_REACHED, Verdict
from lab.probe.trial import Setting, Trial
from lab.probe.which_wire import WIRES

Promise = Callable[[Trial], str | None]  # None: it holds; else one line: what broke
Evidence = Callable[[Trial], Sequence[str | Sequence[str]]]  # lines (a quoted request: a list)


@dataclass(frozen=True)
class Rule:
    """One row of a case's table: a promise, and the grade when it breaks."""

    promise: Promise
    grade: str
    wires: tuple[str, ...] = WIRES  # the wires whose requests can say what it asks

    @property
    def name(self) -> str:
        return self.promise.__name__


def no_evidence(trial: Trial) -> Sequence[str]:
    return ()


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    checks: str  # the seed's guarantee or the API fact under test
    kept_when: str  # the rule, in one sentence
    script: Callable[[Setting], list[Stage]]
    rules: tuple[Rule, ...] = ()  # in order: the first broken promise decides
    kept: Callable[[Trial], str] = lambda trial: "every promise held"  # the kept line
    evidence: Evidence = no_evidence
    needs_denied_call: bool = False  # only for targets with a permission system
    grade: str = ""  # the evidence grade of the claim: 【一】 code, 【二】 docs, 【三】 analysis
    outcomes: str = ""  # which outcome is which, and why (the README's case table)
    # The wires the case has no meaning on, each with why (its cell there is n/a).
    off_wire: Mapping[str, str] = field(default_factory=dict)
    # The title on a wire that names the fault otherwise (the chat wire's 503 for a 529).
    wire_titles: Mapping[str, str] = field(default_factory=dict)
    # The contract variables the case sets, asking the program to turn a feature on through its
    # own settings (LAB_PROBE_THINKING=1): a program that cannot, or does not, reads n/a.
    asks: tuple[tuple[str, str], ...] = ()  # (name, value) pairs
    files: tuple[tuple[str, bytes], ...] = ()  # put in the working folder beside notes.txt
    accepts: tuple[str, ...] = field(init=False, default=())  # the alternatives, by name

    def title_on(self, wire: str | None) -> str:
        """The title in the words of `wire` (None: the case's own, the Messages wire's)."""
        return self.wire_titles.get(wire or "", self.title)

    def __post_init__(self) -> None:
        named = tuple(r.name for r in self.rules if r.grade in (KEPT, INFO))
        object.__setattr__(self, "accepts", named)


def lines_of(evidence: Sequence[str | Sequence[str]]) -> tuple[str, ...]:
    """Evidence items (a line, or the lines of a quoted request) in order, blanks left out."""
    lines: list[str] = []
    for item in evidence:
        lines += [item] if isinstance(item, str) else list(item)
    return tuple(line for line in lines if line)


def verdict(case: Case, trial: Trial | None, absent: str = "") -> Verdict:
    """The case's grade for the trial: `n/a` without one (`absent` says why), or on a wire the
    case has no meaning on; `not reached` when the target never got a script answer; `n/a` when
    it asked in the answer mode the case cannot use; else the first broken rule's grade and
    reason (of the rows its wire can say), or kept."""
    if trial is None:
        return Verdict(NA, absent)
    if (off := case.off_wire.get(trial.wire)) is not None:
        return Verdict(NA, f"{off} ({trial.wire} wire)", (trial.exit.line(),))
    for rule in LIMIT_RULES:  # before all else: a limit that says nothing about the target
        if (broken := rule.promise(trial)) is not None:
            return Verdict(rule.grade, broken, shown_for(case, trial))
    if not trial.reached_script():
        return Verdict(NOT_REACHED, "the target never got a script answer", unreached(trial))
    if (wrong := wrong_mode(case, trial)) is not None:
        return Verdict(NA, wrong, (trial.exit.line(),))
    shown = shown_for(case, trial)
    for rule in case.rules:
        if trial.wire in rule.wires and (broken := rule.promise(trial)) is not None:
            return Verdict(rule.grade, broken, shown)
    return Verdict(KEPT, case.kept(trial), shown)


def unreached(trial: Trial) -> tuple[str, ...]:
    """The evidence of a trial that never got a script answer: its first requests, its end."""
    seen = [e.line() for e in trial.exchanges[:3]] or ["no request reached the fake API"]
    return (*seen, trial.exit.line())


def shown_for(case: Case, trial: Trial) -> tuple[str, ...]:
    """The case's evidence, ending with how the trial stood if its limit stopped it."""
    if not trial.reached_script():
        return unreached(trial)
    shown = lines_of(case.evidence(trial))
    # Every cell quotes the first request the API refused (a tool's invalid schema is refused
    # on the first request, whatever the case): the 400's own text, where the case shows none.
    refused = next(iter(trial.rejections()), None)
    if refused is not None and not any(refused.answer in line for line in shown):
        shown += (f"rejected: {refused.line()}",)
    if trial.exit.progress is not None and trial.exit.line() not in shown:
        shown += (trial.exit.line(),)
    return shown


def wrong_mode(case: Case, trial: Trial) -> str | None:
    """The target asked for a streamed answer where the case needs JSON, or the reverse."""
    for k, stage in enumerate(trial.stages):
        first = next(iter(trial.played(k)), None)
        if stage.mode and first is not None and first.stream != (stage.mode == "stream"):
            asked, needed = ("a streamed", "a JSON") if first.stream else ("a JSON", "a streamed")
            return f"the target asked for {asked} answer; {case.id} needs {needed} one"
    return None


# ---------------------------------------------------------------- rules every case carries
# A trial stopped at its time limit (lab/probe/idle.py) says something about the target only if
# the target was idle on a machine that let it work, and not waiting as it was told to.


def judged_on_a_free_machine(trial: Trial) -> str | None:
    """Stopped at the cap while mostly wanting CPU on a loaded machine: the machine's doing."""
    progress = trial.exit.progress
    if progress is None or not progress.machine_busy:
        return None
    return f"machine busy: {trial.exit.line()}"


def not_waiting_to_retry(trial: Trial) -> str | None:
    """Stopped while quiet after a transient fault (as retry-after told it, or on its own
    back-off): it was waiting to ask again, not hanging."""
    progress = trial.exit.progress
    last = trial.exchanges[-1] if trial.exchanges else None
    if progress is None or last is None or not (progress.reason == "idle" or progress.told):
        return None
    fault = last.played.step if last.played and last.played.kind == "fault" else None
    status = getattr(fault, "status", None)
    if status not in TRANSIENT:
        return None
    told = getattr(fault, "retry_after", None)
    wait = f"retry-after {told:g} s" if told is not None else "no retry-after"
    return (
        f"still waiting to ask again after request #{last.number}'s {status} ({wait}) when "
        "the limit came; it may have retried"
    )


LIMIT_RULES = (
    Rule(judged_on_a_free_machine, INCONCLUSIVE),
    Rule(not_waiting_to_retry, INFO),
)
