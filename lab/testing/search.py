"""Searching for counterexamples with hypothesis: the kill matrix and the hunt.

A search generates cases, runs each under one set of switches and checks every invariant on
the run; whenever one breaks, hypothesis shrinks the case, and the smallest failing case seen
for each invariant is kept. It is deterministic (derandomized, no example database) and
bounded (a fixed number of generated cases and of extra runs spent on shrinking), so `lab
matrix` prints the same table every time. Nothing is written where it runs: hypothesis's own
files (its cache of constants found in the code) go to a temp folder, removed afterwards.
"""

from __future__ import annotations

import functools
import gc
import importlib
import multiprocessing
import signal
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import strategies as st
from hypothesis.configuration import set_hypothesis_home_dir

from lab.kernel.switches import Switches, switch_info, switch_names
from lab.model import Turn
from lab.testing.case import Case, RuleSet
from lab.testing.focus import focused_cases
from lab.testing.invariants import BY_NAME, INVARIANTS, Invariant, broken

MATRIX_EXAMPLES = 100  # generated cases per switch
MATRIX_SHRINKS = 100  # extra runs per newly broken invariant, to shrink its counterexample
HUNT_EXAMPLES = 150
HUNT_SHRINKS = 400

Tick = Callable[[int], None]  # told the number of runs so far


class Budget(BaseException):
    """Ends a search pass once its shrink budget is spent (hypothesis lets it through)."""


class InvariantBroken(Exception):
    """Raised inside the search so hypothesis shrinks the case; one subclass per invariant,
    so hypothesis tells the failures apart and shrinks each on its own."""


BROKEN: dict[str, type[InvariantBroken]] = {
    inv.name: type(f"{inv.title.title().replace(' ', '')}Broken", (InvariantBroken,), {})
    for inv in INVARIANTS
}


_STORAGE: dict[str, str | None] = {"folder": None}  # the temp folder in use, if any


@contextmanager
def storage_in_temp() -> Iterator[None]:
    """Point hypothesis's storage (by default `.hypothesis/` in the working directory) at a
    temp folder for the duration, then remove it. Nested uses share the outer folder: the
    kill matrix keeps one for all its forked workers and removes it after they are gone."""
    if _STORAGE["folder"] is not None:
        yield
        return
    with tempfile.TemporaryDirectory(prefix="lab-hypothesis-") as folder:
        _STORAGE["folder"] = folder
        set_hypothesis_home_dir(folder)
        try:
            yield
        finally:
            set_hypothesis_home_dir(None)  # back to HYPOTHESIS_STORAGE_DIRECTORY or the default
            _STORAGE["folder"] = None


def search_settings(examples: int) -> settings:
    return settings(
        max_examples=examples,
        database=None,  # nothing remembered between runs: same command, same answer
        derandomize=True,
        deadline=None,
        phases=(Phase.generate, Phase.shrink),
        suppress_health_check=list(HealthCheck),
        verbosity=Verbosity.quiet,
        report_multiple_bugs=True,
    )


@dataclass(frozen=True)
class Finding:
    """The smallest case seen that breaks one invariant, and what broke."""

    invariant: Invariant
    case: Case
    reason: str

    @property
    def size(self) -> int:
        return self.case.size


def smaller(case: Case, than: Finding | None) -> bool:
    """Fewer ingredients first; between equals, the shorter printout reads better."""
    return than is None or (case.size, len(repr(case))) < (than.size, len(repr(than.case)))


def search(
    switches: Switches,
    *,
    examples: int = MATRIX_EXAMPLES,
    shrinks: int = MATRIX_SHRINKS,
    strategy: st.SearchStrategy[Case] | None = None,
    invariants: list[Invariant] | None = None,
    tick: Tick | None = None,
) -> dict[str, Finding]:
    """The smallest counterexample found for each invariant the switches break.

    Passes repeat until one finds nothing new: each pass ignores the invariants already
    found, so an invariant that usually breaks alongside another still gets its own case."""
    strategy = focused_cases() if strategy is None else strategy
    invariants = INVARIANTS if invariants is None else invariants
    seen: dict[str, list[tuple[Invariant, str]]] = {}  # repr(case) -> what it breaks
    best: dict[str, Finding] = {}
    found_before: set[str] = set()
    state = {"runs": 0, "shrink_runs": 0, "failing": False}

    def probe(case: Case) -> None:
        key = repr(case)
        if key not in seen:
            if state["failing"] and state["shrink_runs"] >= shrinks:
                raise Budget
            seen[key] = broken(case.run(switches), invariants)
            state["runs"] += 1
            state["shrink_runs"] += state["failing"]
            if tick:
                tick(state["runs"])
        for invariant, reason in seen[key]:
            if smaller(case, best.get(invariant.name)):
                best[invariant.name] = Finding(invariant, case, reason)
        new = [(inv, reason) for inv, reason in seen[key] if inv.name not in found_before]
        if new:
            state["failing"] = True
            raise BROKEN[new[0][0].name](new[0][1])

    with storage_in_temp():
        while True:
            state.update(failing=False, shrink_runs=0)
            run_pass = search_settings(examples)(given(strategy)(probe))
            try:
                try:
                    run_pass()
                except* InvariantBroken:
                    pass  # already recorded in `best`; anything else is an error and propagates
            except Budget:
                pass
            new = set(best) - found_before
            if not new:
                return best
            found_before |= new


@dataclass(frozen=True)
class Row:
    """One row of the kill matrix: a switch flipped (None: the reference harness)."""

    switch: str | None
    value: Any
    findings: dict[str, Finding]

    @property
    def caught(self) -> bool:
        return bool(self.findings)


def flipped_value(name: str) -> Any:
    """The faulty value of a switch: the opposite of the reference's."""
    return not getattr(Switches(), name)


def strategy_for(name: str | None) -> st.SearchStrategy[Case]:
    """Cases for one switch: every kind, thickened for the mechanism the switch belongs to."""
    return focused_cases(switch_info(name)["mechanism"]) if name else focused_cases()


def matrix_row(
    name: str | None,
    *,
    examples: int = MATRIX_EXAMPLES,
    shrinks: int = MATRIX_SHRINKS,
    tick: Tick | None = None,
) -> Row:
    """The invariants a switch's fault breaks (name None: the reference harness, which should
    break none)."""
    value = flipped_value(name) if name else None
    switches = Switches().flipped(**{name: value}) if name else Switches()
    strategy = strategy_for(name)
    findings = search(switches, examples=examples, shrinks=shrinks, strategy=strategy, tick=tick)
    return Row(name, value, findings)


@dataclass(frozen=True)
class Matrix:
    reference: Row
    rows: list[Row]

    @property
    def caught(self) -> int:
        return sum(row.caught for row in self.rows)

    @property
    def score(self) -> float:
        """Switches whose fault at least one invariant catches, over all switches."""
        return self.caught / len(self.rows)


RowDone = Callable[[Row], None]  # told each row as it is finished


def import_the_sdk() -> None:
    """Import the SDK now, once: not in every forked worker, and not in the middle of a
    hypothesis run, where a Ctrl-C inside an import would come out as a RuntimeError."""
    importlib.import_module("lab.model.client")


def leave_interrupts_to_the_parent() -> None:
    """In a worker: ignore Ctrl-C (the terminal sends it to every process of the group); the
    parent stops, and leaving its pool terminates every worker at once."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def kill_matrix(
    *,
    examples: int = MATRIX_EXAMPLES,
    shrinks: int = MATRIX_SHRINKS,
    jobs: int = 1,
    done: RowDone | None = None,
) -> Matrix:
    """Every invariant against the reference harness and against each switch flipped alone.

    Rows are independent and each is deterministic, so `jobs` processes may share them out
    without changing the result. The workers are forked (spawning would re-run `python -m
    lab` in each of them), so the caller must not be running threads, e.g. a progress bar
    that refreshes itself."""
    names: list[str | None] = [None, *switch_names()]
    rows: dict[str | None, Row] = {}
    import_the_sdk()

    def finished(row: Row) -> None:
        rows[row.switch] = row
        if done:
            done(row)

    with storage_in_temp():  # one folder for every worker, removed once they are gone
        if jobs > 1 and "fork" in multiprocessing.get_all_start_methods():
            one_row = functools.partial(matrix_row, examples=examples, shrinks=shrinks)
            gc.freeze()  # forked workers then share the parent's objects instead of copying
            try:
                context = multiprocessing.get_context("fork")
                # Leaving the `with` terminates the workers: at the end, on an error, on Ctrl-C.
                with context.Pool(jobs, initializer=leave_interrupts_to_the_parent) as pool:
                    for row in pool.imap_unordered(one_row, names):
                        finished(row)
            finally:
                gc.unfreeze()
        else:
            for name in names:
                finished(matrix_row(name, examples=examples, shrinks=shrinks))
    return Matrix(rows[None], [rows[name] for name in switch_names()])


def without(items: tuple, i: int) -> tuple:
    return items[:i] + items[i + 1 :]


def simpler_turns(step: Turn) -> Iterator[Turn]:
    """The turn without one of its blocks (a tool turn keeps a call), or without its declared
    stop_reason."""
    calls = sum(b["type"] == "tool_use" for b in step.blocks)
    for i, block in enumerate(step.blocks):
        if block["type"] == "text" and calls or block["type"] == "tool_use" and calls > 1:
            yield Turn(without(step.blocks, i), step.stop_reason)
    if step.stop_reason is not None:
        yield Turn(step.blocks, None)


def simpler_rules(rules: RuleSet) -> Iterator[RuleSet]:
    if rules.course:
        yield RuleSet()
    for kind in ("deny", "ask", "allow", "deny_list"):
        for i in range(len(getattr(rules, kind))):
            shorter: dict[str, Any] = {kind: without(getattr(rules, kind), i)}
            yield replace(rules, **shorter)
    if rules.default != "allow":
        yield replace(rules, default="allow")


def simpler_cases(case: Case) -> Iterator[Case]:
    """Every way to drop one ingredient of a case: a turn, a block, a declared stop_reason,
    a file, a rule, an answer, a hook, a tool, the trim, the stream, the thinking."""
    script = case.script
    for i in range(len(script) - 1):
        yield replace(case, script=without(script, i))
    for i, step in enumerate(script):
        if not isinstance(step, Turn):
            continue  # a fault step goes whole (above) or not at all
        for simpler in simpler_turns(step):
            yield replace(case, script=(*script[:i], simpler, *script[i + 1 :]))
    for rules in simpler_rules(case.rules):
        yield replace(case, rules=rules)
    if isinstance(case.human, str):
        yield replace(case, human=())
    for name in ("files", "human", "hooks", "tools"):
        items = getattr(case, name)
        for i in range(len(items) if isinstance(items, tuple) else 0):
            shorter: dict[str, Any] = {name: without(items, i)}
            yield replace(case, **shorter)
    if case.keep_last is not None:
        yield replace(case, keep_last=None)
    if case.stream:
        yield replace(case, stream=False)
    if case.thinking:
        yield replace(case, thinking=False)


def tidy(case: Case, breaks: Callable[[Case], bool]) -> Case:
    """A last, greedy pass after hypothesis's shrink: drop ingredients one at a time for as
    long as the case still breaks, so nothing is left that the failure does not need."""
    while True:
        key = (case.size, len(repr(case)))
        simpler = (c for c in simpler_cases(case) if (c.size, len(repr(c))) < key)
        found = next((c for c in simpler if breaks(c)), None)
        if found is None:
            return case
        case = found


def hunt(
    name: str,
    *,
    invariant: str | None = None,
    examples: int = HUNT_EXAMPLES,
    shrinks: int = HUNT_SHRINKS,
    tick: Tick | None = None,
) -> Finding | None:
    """The smallest case that breaks an invariant (any, or the one named) with `name` flipped:
    hypothesis searches and shrinks, then `tidy` drops whatever is left over."""
    switches = Switches().flipped(**{name: flipped_value(name)})
    chosen = [BY_NAME[invariant]] if invariant else INVARIANTS
    import_the_sdk()
    findings = search(
        switches,
        examples=examples,
        shrinks=shrinks,
        strategy=strategy_for(name),
        invariants=chosen,
        tick=tick,
    )
    if not findings:
        return None
    best = min(findings.values(), key=lambda f: (f.size, INVARIANTS.index(f.invariant)))

    def breaks(case: Case) -> bool:
        return any(inv is best.invariant for inv, _ in broken(case.run(switches), [best.invariant]))

    case = tidy(best.case, breaks)
    reason = broken(case.run(switches), [best.invariant])[0][1]
    return Finding(best.invariant, case, reason)
