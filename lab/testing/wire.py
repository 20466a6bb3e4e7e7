"""Wire-level invariants: promises any harness keeps, judged from the fake API's log alone.

The invariants in `invariants.py` read the lab harness's trace; these read only what crosses the
wire — every request the fake Messages API received, what it answered, and how the run ended —
so they hold for any harness in any language.

Plugging in a harness (the protocol): write a function `harness(client, prompt)` that runs your
agent loop to its end with the `anthropic.Anthropic` client it is given (raising is a crash).
`run_wire(harness, script)` serves `script` (a list of `turn(...)` and fault steps) through the
fake API behind that client, runs the harness, and returns a `WireRun`; `wire_problems(run)`
lists the invariants it breaks, `assert_wire(run)` fails a test with them. A harness that is a
program instead of a function: `lab probe --cmd ... --fuzz N` checks the same invariants over a
loopback socket (`WireRun.from_trial`).

Each answer is played by what a request contains, not by its number (see
lab/probe/conversation.py): a fault is played once, and a harness that asks again gets the
healthy answer.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import jsonschema

from lab.probe.conversation import Conversation, stages_from_script, turn_of
from lab.probe.trial import Exchange, Trial

WireHarness = Callable[[Any, str], object]  # (anthropic.Anthropic client, prompt) -> anything
REQUEST_LIMIT = 50  # a harness that asks more often than this is stopped with an error answer


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

    def answered(self) -> list[tuple[Exchange, list[dict]]]:
        """Each complete answer the harness received (status 200, not a fault) with its
        tool_use blocks."""
        found = []
        for exchange in self.exchanges:
            played = exchange.played
            if exchange.status != 200 or played is None or played.kind == "fault":
                continue
            step = turn_of(played.step)
            uses = [b for b in step.blocks if b.get("type") == "tool_use"] if step else []
            found.append((exchange, uses))
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
    for exchange, uses in run.answered():
        for use in uses:
            if run.result_for(use["id"], exchange.number) is None:
                declared = turn_of(exchange.played.step).declared
                return (
                    f"request #{exchange.number}'s answer called {use['name']} ({use['id']}, "
                    f"declared {declared}) and no later request answers it"
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
    for exchange, uses in run.answered():
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
    for exchange, uses in run.answered():
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


def assert_wire(run: WireRun) -> None:
    """Fail (AssertionError) with every wire invariant the run breaks."""
    problems = wire_problems(run)
    if problems:
        raise AssertionError("; ".join(f"{name}: {why}" for name, why in problems))


# ---------------------------------------------------------------- running a harness
def run_wire(
    harness: WireHarness, script: Sequence[object], prompt: str = "Please help."
) -> WireRun:
    """Serve `script` through the fake API (the real SDK, in process), run `harness` on it."""
    from lab.model import FakeMessagesAPI, ScriptedModel, make_client
    from lab.model.script import ApiError
    from lab.probe.recorder import Recorder

    conversation = Conversation(stages_from_script(script), marker="")

    def limited(request: Any) -> object:
        if len(conversation.log) >= REQUEST_LIMIT:
            return ApiError(500, "api_error", f"lab: more than {REQUEST_LIMIT} requests")
        return conversation(request)

    recorder = Recorder(FakeMessagesAPI(ScriptedModel(limited)), conversation.log)
    try:
        harness(make_client(recorder), prompt)
        crash = None
    except Exception as error:
        crash = " ".join(f"{type(error).__name__}: {error}".split())
    return WireRun(list(recorder.exchanges), crash, len(conversation.stages))
