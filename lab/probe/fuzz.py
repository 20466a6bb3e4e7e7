"""`lab probe TARGET --fuzz N`: generated scripts against a target, the smallest breaker printed.

Hypothesis draws N scripts of one to four answers, each answer one to three blocks — the target's
harmless call, an unknown tool, a schema-invalid input, text — with a declared stop_reason that
may disagree with the blocks, sometimes after a 529. Each script runs as a trial (the target as a
program, over loopback) and is judged by the wire invariants of lab/probe/wire_promises.py.
Hypothesis then shrinks the first breaker (at most SHRINKS more trials, however long they take), and
the smallest is written out as a script file that `lab serve FILE` plays to any harness. What the
command shows (progress on stderr, the script or its JSON) is lab/views/probe_fuzz.py's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from lab.probe.scripts import UNKNOWN_TOOL, invalid_input
from lab.probe.target import Target
from lab.probe.verdict import Case

BLOCKS = ("call", "unknown", "invalid", "text")
DECLARED = (None, "end_turn", "tool_use")  # None: what the blocks imply
SHRINKS = 100  # trials the shrinker may run after the first breaker (hypothesis needs ~10-50)

# A generated script: answers, each (block kinds, declared stop_reason, a 529 first?).
Answer = tuple[tuple[str, ...], str | None, bool]


def scripts() -> Any:
    """The hypothesis strategy for generated scripts (imported only when fuzzing)."""
    from hypothesis import strategies as st

    answer = st.tuples(
        st.lists(st.sampled_from(BLOCKS), min_size=1, max_size=3).map(tuple),
        st.sampled_from(DECLARED),
        st.booleans(),
    )
    return st.lists(answer, min_size=1, max_size=4).map(tuple)


def steps(generated: tuple[Answer, ...], call: tuple[str, dict]) -> list:
    """The script steps for a generated script and a target's call; "done." ends it."""
    from lab.model import overloaded, text, tool_use, turn

    name, input = call
    make = {
        "call": lambda: tool_use(name, input),
        "unknown": lambda: tool_use(UNKNOWN_TOOL, {"query": "anything"}),
        "invalid": lambda: tool_use(name, invalid_input(input)),
        "text": lambda: text("Working on it."),
    }
    script: list = []
    for kinds, declared, fault_first in generated:
        if fault_first:
            script.append(overloaded())
        script.append(turn(*[make[k]() for k in kinds], stop_reason=declared))
    return [*script, turn("done.")]


def source(generated: tuple[Answer, ...], call: tuple[str, dict], header: str) -> str:
    """The script as a Python file for `lab serve FILE`."""
    name, input = call
    block = {
        "call": f"tool_use({name!r}, {input!r})",
        "unknown": f'tool_use("{UNKNOWN_TOOL}", {{"query": "anything"}})',
        "invalid": f"tool_use({name!r}, {invalid_input(input)!r})",
        "text": 'text("Working on it.")',
    }
    lines = []
    for kinds, declared, fault_first in generated:
        if fault_first:
            lines.append("    overloaded(),")
        stop = f", stop_reason={declared!r}" if declared else ""
        lines.append(f"    turn({', '.join(block[k] for k in kinds)}{stop}),")
    lines.append('    turn("done."),')
    return "\n".join(
        [
            f'"""{header}',
            "",
            "Serve it, then paste the export lines it prints into the harness's shell:",
            "    lab serve THIS_FILE.py",
            '"""',
            "",
            "from lab.model import overloaded, text, tool_use, turn  # noqa: F401",
            "",
            "SCRIPT = [",
            *lines,
            "]",
            "",
        ]
    )


def size(generated: tuple[Answer, ...]) -> tuple[int, int]:
    return len(generated), sum(len(kinds) + fault for kinds, _, fault in generated)


@dataclass
class Found:
    generated: tuple[Answer, ...]
    problems: list[tuple[str, str]]  # (invariant, why)


Progress = Callable[[int, "Found | None"], None]  # (trials run, the smallest breaker so far)
Problems = list[tuple[str, str]]  # (invariant, why) for each wire invariant a trial broke


def problems_of(
    generated: tuple[Answer, ...], target: Target, timeout: float, warm: Any
) -> Problems:
    """Run a generated script as one trial of `target`; the wire invariants it broke."""
    from lab.probe.bench import run_trial
    from lab.probe.conversation import stages_from_script
    from lab.probe.wire_promises import WireRun, wire_problems

    case = Case(
        id="F",
        title="a generated script",
        checks="the wire invariants",
        kept_when="no wire invariant breaks",
        script=lambda setting: stages_from_script(steps(generated, setting.call)),
    )  # no rules: the wire invariants below judge the trial
    trial = run_trial(target, case, timeout=timeout, warm=warm).trial
    return wire_problems(WireRun.from_trial(trial)) if trial else []


@contextmanager
def shrinking_by_trials() -> Iterator[None]:
    """Let the trial budget, not the clock, end the shrinking. Hypothesis stops shrinking after
    five minutes (engine.MAX_SHRINKING_SECONDS, patchable for this purpose): fine in process,
    where a call takes microseconds, but a trial here takes seconds, so the search stopped
    half-way (a three-call breaker where the same search in process reaches one)."""
    from hypothesis.internal.conjecture import engine

    saved = engine.MAX_SHRINKING_SECONDS
    engine.MAX_SHRINKING_SECONDS = 10**9
    try:
        yield
    finally:
        engine.MAX_SHRINKING_SECONDS = saved


def fuzz(
    target: Target,
    examples: int,
    timeout: float,
    cold: bool = False,
    on_trial: Progress | None = None,
) -> tuple[Found | None, int]:
    """The smallest generated script that breaks a wire invariant (None), and trials run."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample

    from lab.probe.bench import warm_starts

    seen: dict[tuple[Answer, ...], Problems] = {}
    best: Found | None = None
    budget = examples + SHRINKS  # generation, then the shrinker's trials

    def breaks(generated: tuple[Answer, ...]) -> bool:
        nonlocal best
        if generated not in seen:
            if len(seen) >= budget:
                return False  # out of trials: what was found stands
            seen[generated] = problems_of(generated, target, timeout, warm)
            if seen[generated] and (best is None or size(generated) < size(best.generated)):
                best = Found(generated, seen[generated])
            if on_trial is not None:
                on_trial(len(seen), best)
        return bool(seen[generated])

    rules = settings(
        max_examples=examples,
        database=None,
        derandomize=True,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    with warm_starts([target], cold) as warm, shrinking_by_trials():
        try:
            smallest = find(scripts(), breaks, settings=rules)
        except NoSuchExample:
            return None, len(seen)
    return Found(smallest, seen[smallest]), len(seen)


def breaker_source(found: Found, target: Target, trials: int, rerun: str) -> str:
    """The smallest breaker as a `lab serve` script file, its header saying how it was found."""
    from lab.probe.bench import fill

    broke = "; ".join(f"{name}: {why}" for name, why in found.problems)
    header = f"Found by `{rerun}` ({trials} trials): breaks {broke}"
    return source(found.generated, fill(target.call, "{dir}"), header)
