"""The checks an experiment file's values must pass: types, known names, values in range.

Each check returns problems as (where, what): `where` is the path of the field in the
declaration, so the loader can point at the line that spells it (`lab.chapter.source_lines`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, get_args

from lab.chapter.source_lines import Where
from lab.harness.hooks import EVENTS
from lab.harness.permissions import Permissions, Rule, parse_rule
from lab.kernel.scenario import Scenario
from lab.kernel.switches import switch_names, switch_type
from lab.model.script import Step
from lab.world import World

Problem = tuple[Where, str]  # where in the declaration (to find its line), what is wrong
STEP_TYPES = get_args(Step)  # Turn, ApiError, ...: what a script list may hold
HUMAN_ANSWERS = ("y", "n")


def flips_problems(flips: Any) -> list[Problem]:
    """The flips name real switches, each with a value of the switch's declared type."""
    if not isinstance(flips, Mapping):
        return [((), f"flips is {flips!r:.40}; write {{switch_name: value}}")]
    if not flips:
        return [((), "flips no switch")]
    found: list[Problem] = []
    for name, value in flips.items():
        if name not in switch_names():
            found.append(((name,), f"flips unknown switch {name!r}"))
        elif type(value) is not switch_type(name):  # exactly: True is an int, 1 is no bool
            declared = switch_type(name).__name__
            found.append(((name,), f"flips {name} to {value!r}, not a {declared}"))
    return found


def is_text_map(value: Any) -> bool:
    return isinstance(value, Mapping) and all(
        isinstance(k, str) and isinstance(v, str) for k, v in value.items()
    )


def is_whole(value: Any, at_least: int) -> bool:
    return type(value) is int and value >= at_least  # type(), since True is an int too


def is_answers(value: Any) -> bool:
    return callable(value) or (
        isinstance(value, list | tuple) and all(a in HUMAN_ANSWERS for a in value)
    )


def is_hooks(value: Any) -> bool:
    return isinstance(value, list | tuple) and all(
        isinstance(h, tuple) and len(h) == 2 and h[0] in EVENTS and callable(h[1]) for h in value
    )


# A scenario field -> the test its value must pass, and what it must be.
SCENARIO_FIELDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "script": (
        lambda v: callable(v) or isinstance(v, list | tuple),
        "a list of turns or a responder function",
    ),
    "prompt": (lambda v: isinstance(v, str), "a string"),
    "files": (is_text_map, "a mapping of paths (str) to contents (str)"),
    "stream": (lambda v: type(v) is bool, "True or False"),
    "max_turns": (lambda v: is_whole(v, 1), "a whole number ≥ 1"),
    "keep_last": (lambda v: v is None or is_whole(v, 1), "None or a whole number ≥ 1"),
    "permissions": (lambda v: isinstance(v, Permissions), "a Permissions(...)"),
    "human": (is_answers, "a list of 'y'/'n' answers or a function of the question"),
    "hooks": (is_hooks, f"a list of (event, function) pairs, events: {', '.join(EVENTS)}"),
    "tools": (callable, "a function of the world that returns a list of Tool"),
}


def scenario_problems(scenario: Scenario) -> list[Problem]:
    """The scenario's fields against their declared types; then each step of a script list
    and each permission rule. (A responder or a human policy, being code, shows what it does
    only when it runs.)"""
    found: list[Problem] = []
    for name, (test, expected) in SCENARIO_FIELDS.items():
        value = getattr(scenario, name)
        if not test(value):
            found.append(((name,), f"{name} is {value!r:.60}; it must be {expected}"))
    if isinstance(scenario.script, list | tuple):
        for i, step in enumerate(scenario.script):
            found += [(("script", i), why) for why in step_problems(step, scenario.stream is True)]
    if isinstance(scenario.permissions, Permissions):
        found += [(("permissions",), why) for why in rules_problems(scenario.permissions)]
    return found


def step_problems(step: Any, stream: bool) -> list[str]:
    """A list step is a Turn or another script step; a tool call's input is a mapping, and
    `raw_json` (broken JSON streamed as it is) needs `stream=True`."""
    if not isinstance(step, STEP_TYPES):
        names = " or ".join(t.__name__ for t in STEP_TYPES)
        return [f"script step {step!r:.60} is not a {names}; build turns with turn(...)"]
    found = []
    for block in getattr(step, "blocks", ()):
        if not isinstance(block, Mapping) or block.get("type") != "tool_use":
            continue
        name, input = block.get("name"), block.get("input")
        if not isinstance(input, Mapping):
            found.append(
                f"tool_use {name!r}: input {input!r:.40} is not a mapping like {{'command': 'ls'}}"
            )
        if "raw_json" in block and not stream:
            found.append(
                f"tool_use {name!r}: raw_json is only streamed; set stream=True on the Scenario"
            )
    return found


def rules_problems(permissions: Permissions) -> list[str]:
    """Each rule parses (`Bash(rm *)`, `Read(*.env)`, a tool name) and the default is known."""
    found = []
    for kind in ("deny", "ask", "allow"):
        rules = getattr(permissions, kind)
        if not isinstance(rules, list | tuple):
            found.append(f"permissions {kind} is {rules!r:.40}; it must be a list of rules")
            continue
        for rule in rules:
            try:
                rule if isinstance(rule, Rule) else parse_rule(rule, World.create({}))
            except (ValueError, TypeError) as error:
                found.append(f"permissions {kind}: {error}")
    if permissions.default not in ("allow", "ask", "deny"):
        found.append(f"permissions default {permissions.default!r} is not allow, ask or deny")
    return found
