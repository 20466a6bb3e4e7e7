"""Cases that thicken one mechanism's ingredients (M1 to M5), so a fault there shows early:
the kill matrix and the hunt draw from `focused_cases`."""

from __future__ import annotations

import functools
from collections.abc import Callable

from hypothesis import strategies as st

from lab.testing.api_faults import FAULTS, fault_names, faulty_scripts
from lab.testing.case import Case, RuleSet
from lab.testing.conversations import (
    bash_calls,
    big_reads,
    odd_calls,
    path_calls,
    read_calls,
    scripts,
    shell_commands,
    valid_calls,
)
from lab.testing.generated_cases import (
    cases,
    file_sets,
    hook_names,
    human_answers,
    rule_sets,
    tool_names,
)
from lab.testing.pools import PATH_RULES, RULED_COMMANDS, SHELL_RULES
from lab.testing.weighted import weighted

NONE = st.just(())
NO_RULES = st.just(RuleSet())
PERMISSION_HOOKS = ("auto_approve", "ask_edits", "deny_rm", "audit_log")
YES_OFTEN: st.SearchStrategy[tuple[str, ...] | str] = weighted(
    (1, st.sampled_from([("y",), "always_yes"])), (1, human_answers())
)


def fault_cases(
    kinds: st.SearchStrategy[str] | None = None, calls: st.SearchStrategy[dict] | None = None
) -> st.SearchStrategy[Case]:
    """The API's faults on every other turn (or as `kinds` draws them): HTTP errors, a
    stream that errors or drops part-way, a tool input cut by max_tokens; streamed three
    times out of four."""
    calls = valid_calls() if calls is None else calls
    kinds = fault_names(1) if kinds is None else kinds
    return cases(
        script=faulty_scripts(calls, kinds=kinds, min_turns=2, max_calls=3),
        files=file_sets(usually_all=True),
        rules=NO_RULES,
        hooks=NONE,
        tools=NONE,
        stream=weighted((3, st.just(True)), (1, st.just(False))),
    )


def cut_cases() -> st.SearchStrategy[Case]:
    """Calls that would pass every check (reads of files that exist), cut by max_tokens
    two times out of four (what the SDK makes of a cut input often still looks valid), met
    by any other of the API's faults one time in four."""
    others = st.sampled_from([name for name in FAULTS if name not in ("none", "cut_off")])
    kinds = weighted((1, st.just("none")), (2, st.just("cut_off")), (1, others))
    return fault_cases(kinds, read_calls())


def loop_cases() -> st.SearchStrategy[Case]:
    """M1: lying stop_reasons, Stop hooks (two times out of three), trimmed histories, a
    harness that asks for thinking (half the time); or the API's faults (a third of the
    time)."""
    hooks = weighted(
        (2, hook_names(events=("Stop",), min_size=1)),
        (1, hook_names(events=("Stop", "UserPromptSubmit"))),
    )
    stops = cases(
        script=scripts(valid_calls(), min_turns=2),
        rules=NO_RULES,
        hooks=hooks,
        tools=NONE,
        thinking=st.booleans(),
    )
    return weighted((2, stops), (1, fault_cases()))


def dispatch_cases() -> st.SearchStrategy[Case]:
    """M2: unknown names and extra tools (one with a broken contract) beside ordinary calls;
    or several reads per turn, with shell commands that write among them."""
    odd = cases(
        script=scripts(weighted((1, valid_calls()), (1, odd_calls())), min_turns=2),
        files=file_sets(usually_all=True),
        rules=NO_RULES,
        hooks=NONE,
        tools=tool_names(min_size=1),
    )
    trays = cases(
        script=scripts(weighted((1, read_calls()), (1, bash_calls())), min_turns=2),
        files=file_sets(usually_all=True),
        rules=NO_RULES,
        hooks=NONE,
        tools=NONE,
    )
    return weighted((1, odd), (1, trays))


def check_cases() -> st.SearchStrategy[Case]:
    """M3: malformed calls, a human asked about every call that reaches the gates (two times
    out of three), reads of a file over the result cap; or the API's faults (a third of the
    time: cut inputs and partial answers are M3's too)."""
    calls = weighted((1, valid_calls()), (1, odd_calls()), (1, big_reads()))
    asking = weighted((2, st.just(RuleSet(default="ask"))), (1, NO_RULES))
    checks = cases(
        script=scripts(calls, min_turns=2),
        files=file_sets(usually_all=True),
        rules=asking,
        hooks=NONE,
    )
    return weighted((2, checks), (1, fault_cases()), (1, cut_cases()))


def shell_rule_cases(hooks: st.SearchStrategy[tuple[str, ...]]) -> st.SearchStrategy[Case]:
    """Shell commands under colliding shell rules: the classic deny rule `Bash(rm *)` half
    the time, an ask rule always, removals alone or hidden in compounds, a human who often
    says yes."""
    removals = weighted(
        (1, st.just(("Bash(rm *)",))),
        (1, st.lists(st.sampled_from(SHELL_RULES), unique=True, min_size=1, max_size=2).map(tuple)),
    )
    commands = weighted((1, st.sampled_from(RULED_COMMANDS)), (1, shell_commands()))
    return cases(
        script=scripts(bash_calls(commands), min_turns=2),
        files=file_sets(usually_all=True),
        rules=rule_sets(
            SHELL_RULES, deny=removals, min_ask=1, defaults=["allow", "ask"], course=False
        ),
        human=YES_OFTEN,
        hooks=hooks,
        tools=NONE,
    )


def path_rule_cases(hooks: st.SearchStrategy[tuple[str, ...]]) -> st.SearchStrategy[Case]:
    """File tools on any path (outside the workspace too) under path rules or the course's."""
    return cases(
        script=scripts(path_calls(outside=1), min_turns=2),
        files=file_sets(usually_all=True),
        rules=rule_sets(PATH_RULES, defaults=["allow", "ask"]),
        human=YES_OFTEN,
        hooks=hooks,
        tools=NONE,
    )


def gate_cases() -> st.SearchStrategy[Case]:
    """M4: shell commands or file paths under colliding rules; a permission hook now and then."""
    hooks = hook_names(PERMISSION_HOOKS, max_size=1)
    return weighted((1, shell_rule_cases(hooks)), (1, path_rule_cases(hooks)))


def hook_cases() -> st.SearchStrategy[Case]:
    """M5: at least one hook (permission hooks, result hooks, prompt hooks, or any) beside
    shell rules that deny, or beside any rules."""
    hooks = weighted(
        (3, hook_names(PERMISSION_HOOKS, min_size=1, max_size=2)),
        (1, hook_names(events=("PostToolUse", "PostToolUseFailure"), min_size=1)),
        (1, hook_names(events=("UserPromptSubmit",), min_size=1)),
        (1, hook_names(min_size=1)),
    )
    anything = cases(script=scripts(valid_calls(), min_turns=2), hooks=hooks, tools=NONE)
    return weighted((2, shell_rule_cases(hooks)), (1, anything))


FOCUS: dict[str, Callable[[], st.SearchStrategy[Case]]] = {
    "M1": loop_cases,
    "M2": dispatch_cases,
    "M3": check_cases,
    "M4": gate_cases,
    "M5": hook_cases,
}


@functools.cache  # a strategy is a value: the kill matrix's rows of one mechanism share it
def focused_cases(mechanisms: str = "M1/M2/M3/M4/M5") -> st.SearchStrategy[Case]:
    """Cases of every kind (a sixth of the time) and, for each mechanism named ("M4",
    "M1/M5", ...), cases that thicken its ingredients, so a fault there shows early. Built
    once per argument: hypothesis then checks and labels its parts once, not once a row."""
    focus = [FOCUS[m]() for m in mechanisms.split("/")]
    return weighted((len(focus), cases()), *[(5, strategy) for strategy in focus])
