"""The wire-level invariants: promises any harness keeps, judged from the fake API's log alone.

They read only what crosses the wire (every request the fake Messages API received, what it
answered, and how the run ended), so they hold for any harness in any language. `lab probe
--fuzz` judges programs with them; `lab.testing.wire` runs a harness function in process and
judges it with them too. Each invariant is a promise of lab/kernel/promises.py, judged over the
run's Record: the exchanges of a probe Trial or a WireRun carry the reply the one tap
(lab/kernel/record.py) wrote down, so they are the Record's requests as they are (`record_of`),
nothing re-derived.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import cast

from lab.kernel import promises
from lab.kernel.record import Ending, Ran, Record, Request
from lab.probe.conversation import turn_of
from lab.probe.trial import Exchange, Trial
from lab.probe.which_wire import CHAT, MESSAGES, wire_of

__all__ = [
    "WIRE_INVARIANTS",
    "WireRun",
    "ended",
    "pairing_of",
    "record_of",
    "wire_problems",
]


def conversation(exchanges: Sequence[Exchange]) -> list[Request]:
    """The exchanges of the conversation (played, or rejected by the API's rules): each holds
    the reply the tap wrote down when it was answered, so it is a Record's Request as it is."""
    return [
        cast(Request, e)
        for e in exchanges
        if e.reply is not None and (e.played is not None or e.rejected)
    ]


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
    requests = conversation(trial.exchanges)
    return Record(
        requests,
        ending,
        ran=ran,
        finished=trial.final_reached(),
        new_files=tuple(trial.new_files),
        threaded=frozenset(r.number for r in requests if not holds_own_history(r)),
    )


def ended(trial: Trial) -> Trial:
    """The trial with its Record filled, once, as it ended: every judge reads that record."""
    return replace(trial, facts=record_of(trial))


def holds_own_history(request: Request) -> bool:
    """The request carries its whole history: a message thread's `continue` carries only what
    is new, the API pairing it with the turns it holds (and rejecting what breaks the rule)."""
    body = request.body
    return request.reply.kind == "rejected" or not (isinstance(body, dict) and body.get("thread"))


def pairing_of(trial: Trial) -> str | None:
    """The pairing promise over a probe Trial: a rejected request, or a history that breaks the
    rule, among the requests that carry their history (those not `threaded`)."""
    record = trial.record
    own = [r for r in record.requests if r.number not in record.threaded]
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
        return Record(conversation(self.exchanges), ending)


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
