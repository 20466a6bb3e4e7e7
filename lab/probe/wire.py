"""The wire-level invariants: promises any harness keeps, judged from the fake API's log alone.

They read only what crosses the wire (every request the fake Messages API received, what it
answered, and how the run ended), so they hold for any harness in any language. `lab probe
--fuzz` judges programs with them; `lab.testing.wire` runs a harness function in process and
judges it with them too.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import jsonschema

from lab.model.script import Turn
from lab.probe.conversation import turn_of
from lab.probe.trial import Exchange, Trial

__all__ = ["WIRE_INVARIANTS", "WireRun", "wire_problems"]


@dataclass(frozen=True)
class WireRun:
    """What one run left on the wire: the exchanges in order, and how the harness ended."""

    exchanges: Sequence[Exchange]
    crash: str | None  # the harness's exception or non-zero exit ("" for none)
    stages: int  # the script's answers

    @classmethod
    def from_trial(cls, trial: Trial) -> WireRun:
        crash = None if trial.exit.clean else trial.exit.line()
        return cls(trial.exchanges, crash, len(trial.stages))

    def answered(self) -> list[tuple[Exchange, Turn, list[dict]]]:
        """Each complete answer the harness received (status 200, not a fault): the turn
        played and its tool_use blocks."""
        found = []
        for exchange in self.exchanges:
            played = exchange.played
            if exchange.status != 200 or played is None or played.kind == "fault":
                continue
            step = turn_of(played.step)
            if step is not None:
                uses = [b for b in step.blocks if b.get("type") == "tool_use"]
                found.append((exchange, step, uses))
        return found

    def result_for(self, tool_id: str, after: int) -> dict | None:
        """The first tool_result for `tool_id` in a request after request number `after`."""
        for exchange in self.exchanges:
            if exchange.number <= after:
                continue
            for message in exchange.messages:
                content = message.get("content") if isinstance(message, dict) else None
                for block in content if isinstance(content, list) else []:
                    if isinstance(block, dict) and block.get("tool_use_id") == tool_id:
                        if block.get("type") == "tool_result":
                            return block
        return None

    def offered(self) -> dict[str, dict]:
        """Every tool the harness offered in any request: name -> input_schema."""
        tools: dict[str, dict] = {}
        for exchange in self.exchanges:
            body = exchange.body if isinstance(exchange.body, dict) else {}
            for tool in body.get("tools") or []:
                if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                    tools.setdefault(tool["name"], tool.get("input_schema") or {})
        return tools


# ---------------------------------------------------------------- the invariants
def pairing(run: WireRun) -> str | None:
    """Every request is valid: each tool_use is answered right after it, and nothing else is."""
    rejected = [e for e in run.exchanges if e.rejected]
    return rejected[0].line() if rejected else None


def continuation(run: WireRun) -> str | None:
    """An answer that holds a tool_use block is answered, whatever stop_reason it declares."""
    for exchange, step, uses in run.answered():
        for use in uses:
            if run.result_for(use["id"], exchange.number) is None:
                return (
                    f"request #{exchange.number}'s answer called {use['name']} ({use['id']}, "
                    f"declared {step.declared}) and no later request answers it"
                )
    return None


def termination(run: WireRun) -> str | None:
    """The harness stops once the script's last answer holds no tool call: no request past it."""
    extra = [e for e in run.exchanges if e.played and e.played.kind == "extra"]
    if extra:
        return f"request #{extra[0].number} asked past the script's last answer"
    return None


def no_crash(run: WireRun) -> str | None:
    """Whatever the model answers, the harness ends without an exception."""
    return run.crash or None


def unknown_tool_answered(run: WireRun) -> str | None:
    """A call to a tool the harness never offered gets an is_error result."""
    offered = run.offered()
    for exchange, _step, uses in run.answered():
        for use in uses:
            if use["name"] in offered:
                continue
            result = run.result_for(use["id"], exchange.number)
            if result is None or not result.get("is_error"):
                got = "no result" if result is None else "a result without is_error"
                return f"unknown tool {use['name']} ({use['id']}) got {got}"
    return None


def invalid_input_answered(run: WireRun) -> str | None:
    """A call whose input breaks the tool's input_schema gets an is_error result."""
    offered = run.offered()
    for exchange, _step, uses in run.answered():
        for use in uses:
            schema = offered.get(use["name"])
            if schema is None or _valid(use.get("input"), schema):
                continue
            result = run.result_for(use["id"], exchange.number)
            if result is None or not result.get("is_error"):
                got = "no result" if result is None else "a result without is_error"
                call = f"{use['name']} ({use['id']}) with invalid input {use.get('input')}"
                return f"{call} got {got}"
    return None


def _valid(value: object, schema: dict) -> bool:
    try:
        jsonschema.validate(value, schema)
    except jsonschema.ValidationError:
        return False
    except jsonschema.SchemaError:
        return True  # a schema the validator cannot read judges nothing
    return True


WIRE_INVARIANTS: dict[str, Callable[[WireRun], str | None]] = {
    "pairing": pairing,
    "continuation": continuation,
    "termination": termination,
    "no_crash": no_crash,
    "unknown_tool_answered": unknown_tool_answered,
    "invalid_input_answered": invalid_input_answered,
}


def wire_problems(run: WireRun) -> list[tuple[str, str]]:
    """(invariant, what broke) for every wire invariant the run breaks, in table order."""
    return [(name, why) for name, check in WIRE_INVARIANTS.items() if (why := check(run))]
