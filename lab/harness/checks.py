"""M3 扫码口 (chain of checks): every call passes an ordered list of stages before it runs.

Invariant: cheap, non-negotiable checks come first and the human's time comes last; the
first stage that fails stops the call, and the later stages never see it.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Literal

import jsonschema

from lab.harness.tools import Tool
from lab.switches import Switches
from lab.trace import CheckFailed, CheckPassed, Trace

# The order of the chain, in one place: shape, then meaning, then hooks, then the human.
ORDER = ["known_tool", "complete_input", "validation", "tool_check", "hooks", "permission"]
# D9 and the course (which has only the last two stages): the gates before the cheap checks.
GATE_FIRST = ["known_tool", "complete_input", "hooks", "permission", "validation", "tool_check"]
# What the PreToolUse hooks leave for the permission gates ("deny" never gets that far).
HookVerdict = Literal["ask", "allow", "silent"]
CUT_OFF = (
    "the input was cut off by max_tokens before it was complete, so this call was not run; "
    "send it again in full (smaller, if it was long)"
)


@dataclass
class Call:
    """One tool call moving down the chain."""

    id: str
    name: str
    input: dict[str, Any]
    tool: Tool | None
    turn: int
    cut_off: bool = False  # max_tokens cut its input JSON: only the complete fields arrived
    hook_decision: HookVerdict | None = None  # None: no PreToolUse hook ran for it
    rule_decision: Literal["allow"] | None = None  # "allow" once an allow rule has settled it


@dataclass(frozen=True)
class Stopped:
    stage: str
    reason: str


Stage = Callable[[Call], str | None]  # a reason to stop the call, or None to let it pass


def known_tool(call: Call) -> str | None:
    return None if call.tool else f"Unknown tool: {call.name}"


def lookup_or_raise(call: Call) -> str | None:
    """D7: an unknown name crashes the dispatch, like `TOOL_HANDLERS[name]` would."""
    if call.tool is None:
        raise KeyError(f"no handler for tool {call.name!r}")
    return None


def complete_input(call: Call) -> str | None:
    """The input arrived whole: a call whose JSON max_tokens cut off is not the call the
    model meant (a cut keep-list is a shorter list, a cut flag is no flag at all)."""
    return CUT_OFF if call.cut_off else None


def run_what_arrived(call: Call) -> str | None:
    """D21: whatever the SDK made of a cut input is taken for the model's call."""
    return None


@functools.cache
def validator(schema_json: str) -> jsonschema.Draft202012Validator:
    """Built once per distinct schema; unknown fields are refused unless the schema says so."""
    return jsonschema.Draft202012Validator(
        {"additionalProperties": False, **json.loads(schema_json)}
    )


def valid_input(call: Call) -> str | None:
    """The input against the tool's JSON schema: required fields, types, no unknown fields."""
    assert call.tool is not None
    check = validator(json.dumps(call.tool.input_schema, sort_keys=True))
    error = jsonschema.exceptions.best_match(check.iter_errors(call.input))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "input"
    return f"invalid input for {call.name} at {where}: {error.message}"


def tool_check(call: Call) -> str | None:
    """The tool's own semantic check (the file must exist, old_text must occur, ...)."""
    assert call.tool is not None
    return call.tool.check(**call.input) if call.tool.check else None


class CheckChain:
    """The stages in order; `judge` runs them until one stops the call."""

    def __init__(self, stages: list[tuple[str, Stage]], trace: Trace) -> None:
        self.stages = stages
        self.trace = trace

    @property
    def order(self) -> list[str]:
        return [name for name, _ in self.stages]

    def judge(self, call: Call) -> Stopped | None:
        for name, stage in self.stages:
            reason = stage(call)
            if reason is not None:
                self.trace.emit(CheckFailed(call.turn, call.id, name, reason))
                return Stopped(name, reason)
            self.trace.emit(CheckPassed(call.turn, call.id, name))
        return None


def hooks_as_fallback(hooks: Stage) -> Stage:
    """D24's fault: the hooks consulted after the rules, like a fallback callback, and only
    when no allow rule has settled the call, so an allow rule outranks a blocking hook."""

    def fallback(call: Call) -> str | None:
        return None if call.rule_decision == "allow" else hooks(call)

    return fallback


def rules_before_hooks(order: list[str]) -> list[str]:
    """The same order with the permission stage moved to just before the hooks (D24)."""
    rest = [name for name in order if name != "permission"]
    at = rest.index("hooks")
    return [*rest[:at], "permission", *rest[at:]]


def build_chain(
    switches: Switches, trace: Trace, hooks: Stage, permission: Stage | None
) -> CheckChain:
    """The chain in ORDER; `permission` is None when the hooks already own it (the course)."""
    stages: dict[str, Stage | None] = {
        "known_tool": known_tool if switches.unknown_tool_result else lookup_or_raise,
        "complete_input": run_what_arrived if switches.execute_truncated_calls else complete_input,
        "validation": valid_input,
        "tool_check": tool_check,
        "hooks": hooks if switches.hooks_before_rules else hooks_as_fallback(hooks),
        "permission": permission,
    }
    order = ORDER if switches.validate_before_gate else GATE_FIRST
    if not switches.hooks_before_rules:
        order = rules_before_hooks(order)
    return CheckChain([(name, stage) for name in order if (stage := stages[name])], trace)
