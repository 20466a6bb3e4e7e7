"""The wire-level invariants: promises any harness keeps, judged from the fake API's log alone.

They read only what crosses the wire (every request the fake Messages API received, what it
answered, and how the run ended), so they hold for any harness in any language. `lab probe
--fuzz` judges programs with them; `lab.testing.wire` runs a harness function in process and
judges it with them too. Each invariant is a promise of lab/promises.py, judged over the run's
Record: a probe Trial or a WireRun is *viewed* as a Record (`record_of`), nothing copied.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from lab import promises
from lab.model.script import ApiError, CutOff, StreamDropped, StreamError, Turn
from lab.probe.conversation import turn_of
from lab.probe.trial import Exchange, Trial
from lab.probe.which_wire import CHAT, MESSAGES, wire_of
from lab.record import Ending, Kind, Ran, Record, Reply

__all__ = [
    "WIRE_INVARIANTS",
    "ExchangeView",
    "WireRun",
    "pairing_of",
    "record_of",
    "wire_problems",
]

# What the conversation's log calls a request's reply, in the Record's words.
KINDS: dict[str, Kind] = {"answer": "answer", "side call": "side", "extra": "extra"}


def reply_of(exchange: Exchange) -> Reply:
    """The fake's reply to one exchange, in the Record's words."""
    played = exchange.played
    if played is None:
        return Reply("rejected", error=exchange.answer)
    step = played.step
    if played.kind != "fault" or isinstance(step, Turn):  # a turn played as a fault is whole
        turn = turn_of(step)
        blocks = turn.blocks if turn else ()
        return Reply(KINDS.get(played.kind, "answer"), blocks, turn.declared if turn else None)
    if isinstance(step, CutOff):
        return Reply("cut", step.turn.blocks, "max_tokens")
    if isinstance(step, StreamError | StreamDropped) and exchange.status == 200:
        kind = "connection_dropped" if isinstance(step, StreamDropped) else step.type
        return Reply("partial", step.turn.blocks, step.turn.declared, f"{kind}: {exchange.answer}")
    retry_after = step.retry_after if isinstance(step, ApiError) else None
    return Reply("fault", error=exchange.answer, retry_after=retry_after)


@dataclass(frozen=True)
class ExchangeView:
    """A probe Exchange seen as a Record's Request (the exchange itself is kept, not copied)."""

    exchange: Exchange

    @property
    def number(self) -> int:
        return self.exchange.number

    @property
    def at(self) -> float:
        return self.exchange.at

    @property
    def body(self) -> Any:
        return self.exchange.body

    @property
    def status(self) -> int:
        return self.exchange.status

    @property
    def reply(self) -> Reply:
        return reply_of(self.exchange)


def views(exchanges: Sequence[Exchange]) -> list[ExchangeView]:
    """The exchanges of the conversation (played, or rejected by the API's rules)."""
    return [ExchangeView(e) for e in exchanges if e.played is not None or e.rejected]


def record_of(trial: Trial) -> Record:
    """A probe Trial as a Record: a call counts as run when its canary came back."""
    calls = {
        block.get("id"): block
        for stage in trial.stages
        for step in (stage.answer, stage.fault)
        if (turn := turn_of(step)) is not None
        for block in turn.blocks
        if block.get("type") == "tool_use"
    }
    ran = [
        Ran(str(id), str(block.get("name")), block.get("input") or {})
        for id, block in calls.items()
        if trial.ran(str(id))
    ]
    exit = trial.exit
    ending = Ending(f"exit {exit.status}", not exit.clean, exit.line())
    return Record(
        views(trial.exchanges),
        ending,
        ran=ran,
        finished=trial.final_reached(),
        new_files=tuple(trial.new_files),
    )


def holds_own_history(request: ExchangeView) -> bool:
    """The request carries its whole history: a message thread's `continue` carries only what
    is new, the API pairing it with the turns it holds (and rejecting what breaks the rule)."""
    body = request.body
    return request.reply.kind == "rejected" or not (isinstance(body, dict) and body.get("thread"))


def pairing_of(trial: Trial) -> str | None:
    """The pairing promise over a probe Trial: a rejected request, or a history that breaks the
    rule, among the requests that carry their history."""
    record = trial.record
    own = [r for r in record.requests if isinstance(r, ExchangeView) and holds_own_history(r)]
    return promises.pairing(replace(record, requests=own))


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

    @property
    def record(self) -> Record:
        ending = Ending("raised" if self.crash else "returned", bool(self.crash), self.crash or "")
        return Record(views(self.exchanges), ending)


# ---------------------------------------------------------------- the invariants
WIRE_PROMISES = (  # the promises a run without a trace or a canary can be judged on
    "pairing",
    "continuation",
    "termination",
    "no_crash",
    "unknown_tool_answered",
    "invalid_input_answered",
)


def on_the_wire(judge: promises.Judge) -> Callable[[WireRun], str | None]:
    """A promise judged over a WireRun's record."""

    def check(run: WireRun) -> str | None:
        return judge(run.record)

    check.__name__, check.__doc__ = judge.__name__, judge.__doc__
    return check


WIRE_INVARIANTS: dict[str, Callable[[WireRun], str | None]] = {
    name: on_the_wire(promises.PROMISES[name]) for name in WIRE_PROMISES
}


# The invariants a wire cannot say, and why: on the Chat Completions wire a `tool` message is the
# only answer a call can get (no is_error flag), so the two that ask for the flag are not judged.
OFF_WIRE: dict[str, dict[str, str]] = {
    CHAT: {
        "unknown_tool_answered": "a tool message has no is_error flag",
        "invalid_input_answered": "a tool message has no is_error flag",
    }
}


def spoken(run: WireRun) -> str:
    """The wire the run spoke: its first model request's (the Messages wire when none came)."""
    return next((w for e in run.exchanges if (w := wire_of(e.path))), MESSAGES)


def wire_problems(run: WireRun) -> list[tuple[str, str]]:
    """(invariant, what broke) for every wire invariant the run breaks, in table order (those
    its wire cannot say left out: OFF_WIRE)."""
    off = OFF_WIRE.get(spoken(run), {})
    return [
        (name, why)
        for name, check in WIRE_INVARIANTS.items()
        if name not in off and (why := check(run))
    ]
