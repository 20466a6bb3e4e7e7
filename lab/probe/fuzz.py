"""`lab probe TARGET --fuzz N`: generated scripts against a target, the smallest breaker printed.

Hypothesis draws N scripts of one to four answers, each answer one to three blocks — the target's
harmless call, an unknown tool, a schema-invalid input, text — with a declared stop_reason that
may disagree with the blocks, sometimes after a 529. Each script runs as a trial (the target as a
program, over loopback) and is judged by the wire invariants of lab/probe/wire.py. Hypothesis
then shrinks the first breaker (at most N more trials), and the smallest is printed as a script
file that `lab serve FILE` plays to any harness.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from lab.probe.cases import UNKNOWN_TOOL, Case, Verdict, invalid_input
from lab.probe.target import Target

if TYPE_CHECKING:
    from rich.console import Console

BLOCKS = ("call", "unknown", "invalid", "text")
DECLARED = (None, "end_turn", "tool_use")  # None: what the blocks imply

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
            "Serve it, then point the harness at the printed ANTHROPIC_BASE_URL:",
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
    problems: list[tuple[str, str]]


def fuzz(
    target: Target, examples: int, timeout: float, cold: bool = False
) -> tuple[Found | None, int]:
    """The smallest generated script that breaks a wire invariant (None), and trials run."""
    from hypothesis import HealthCheck, Phase, find, settings
    from hypothesis.errors import NoSuchExample

    from lab.probe.bench import run_trial, warm_starts
    from lab.probe.conversation import stages_from_script
    from lab.probe.wire import WireRun, wire_problems

    seen: dict[tuple[Answer, ...], list[tuple[str, str]]] = {}
    budget = 2 * examples  # generation, then as many trials again for shrinking

    def breaks(generated: tuple[Answer, ...]) -> bool:
        if generated not in seen:
            if len(seen) >= budget:
                return False  # out of trials: what was found stands
            case = Case(
                id="F",
                title="a generated script",
                checks="the wire invariants",
                kept_when="no wire invariant breaks",
                stages=lambda setting: stages_from_script(steps(generated, setting.call)),
                judge=lambda trial: Verdict("n/a", ""),
            )
            cell = run_trial(target, case, timeout=timeout, warm=warm)
            trial = cell.trial
            seen[generated] = wire_problems(WireRun.from_trial(trial)) if trial else []
        return bool(seen[generated])

    rules = settings(
        max_examples=examples,
        database=None,
        derandomize=True,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    with warm_starts([target], cold) as warm:
        try:
            smallest = find(scripts(), breaks, settings=rules)
        except NoSuchExample:
            return None, len(seen)
    return Found(smallest, seen[smallest]), len(seen)


def fuzz_command(
    target: Target,
    examples: int,
    timeout: float,
    as_json: bool,
    rerun: str,
    out: Console,
    cold: bool = False,
) -> int:
    """Print the smallest breaker as a `lab serve` script; exit 1 when one was found."""
    from lab.probe.bench import fill

    found, trials = fuzz(target, examples, timeout, cold)
    call = fill(target.call, "{dir}")
    if found is None:
        message = f"{target.name}: none of {trials} generated scripts broke a wire invariant"
        if as_json:
            print(json.dumps({"target": target.name, "trials": trials, "found": None}))
        else:
            out.print(message)
        return 0
    broke = "; ".join(f"{name}: {why}" for name, why in found.problems)
    header = f"Found by `{rerun}` ({trials} trials): breaks {broke}"
    text = source(found.generated, call, header)
    if as_json:
        record = {"target": target.name, "trials": trials, "problems": found.problems}
        print(json.dumps({**record, "script": text}, ensure_ascii=False))
    else:
        print(text, end="")
    return 1
