"""One trace, many views: every step of a run emits a typed event here.

Metrics, transcripts, notebooks and property tests are all queries over the trace
(plus the final messages and world); nothing reaches into the harness's private state.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal, TypeVar

# Why a run ended: the loop's own ends, the model call's failures, or an exception (a crash).
EndReason = Literal["done", "turn_limit", "api_error", "bad_answer", "crash"]
# What a gate decided; a gate with nothing to say passes and emits no event.
Decision = Literal["allow", "deny"]
# Which gate decided: a rule list, the default, or a PreToolUse hook (its allow, or its ask).
Gate = Literal["deny", "ask", "allow", "default", "hook", "hook ask"]


@dataclass(frozen=True)
class Event:
    turn: int


@dataclass(frozen=True)
class RunStarted(Event):
    prompt: str


@dataclass(frozen=True)
class ModelCalled(Event):
    stream: bool
    messages: int


@dataclass(frozen=True)
class ModelAnswered(Event):
    message_id: str
    blocks: tuple[dict[str, Any], ...]
    stop_reason: str | None
    tool_use_seen: bool  # set the moment a tool_use block started (the content fact)


@dataclass(frozen=True)
class ApiRejected(Event):
    status: int
    error_type: str
    message: str


@dataclass(frozen=True)
class ConnectionLost(Event):
    """The connection to the API broke (a dropped stream) and no answer came."""

    message: str


@dataclass(frozen=True)
class PartialAnswer(Event):
    """A stream failed after it began: the blocks that had arrived, and whether the harness
    kept them in the history (the reference drops them)."""

    blocks: tuple[dict[str, Any], ...]
    kept: bool


@dataclass(frozen=True)
class ThinkingSentBack(Event):
    """An answer held thinking blocks: their kinds, and whether the harness sent them back
    in the assistant turn it appended (the reference keeps them, unchanged)."""

    blocks: tuple[str, ...]
    kept: bool


@dataclass(frozen=True)
class ModelRetried(Event):
    """A transient fault, and the wait before the model is asked again (seconds: on the world's
    virtual clock in the lab, on the real clock in `lab live`)."""

    retry: int  # 1 for the first retry of this turn's call
    reason: str
    wait_s: float


@dataclass(frozen=True)
class CallCutOff(Event):
    """A tool_use whose input max_tokens cut off: the JSON text as it arrived (None when the
    answer was not streamed) and the input the SDK made of it."""

    call_id: str
    name: str
    wire: str | None
    input: dict[str, Any]


@dataclass(frozen=True)
class AnswerUnreadable(Event):
    """The model's answer could not be read (e.g. a tool_use with invalid JSON)."""

    message: str


@dataclass(frozen=True)
class ToolRefused(Event):
    """A tool the dispatch table refused to register (its contract is broken)."""

    tool: str
    reason: str


@dataclass(frozen=True)
class RuleIgnored(Event):
    """A permission rule the gates ignore from the start, and why (the start-up warning)."""

    gate: str  # "deny", "ask" or "allow"
    rule: str
    reason: str


@dataclass(frozen=True)
class ToolCallSeen(Event):
    call_id: str
    name: str
    input: dict[str, Any]


@dataclass(frozen=True)
class CheckPassed(Event):
    call_id: str
    stage: str


@dataclass(frozen=True)
class CheckFailed(Event):
    call_id: str
    stage: str
    reason: str


@dataclass(frozen=True)
class HookFired(Event):
    event: str
    hook: str
    call_id: str | None
    result: Any


@dataclass(frozen=True)
class HookFailed(Event):
    event: str
    hook: str
    call_id: str | None
    error: str


@dataclass(frozen=True)
class HookSkipped(Event):
    event: str
    hook: str
    call_id: str | None
    because: str


@dataclass(frozen=True)
class GateDecision(Event):
    call_id: str
    gate: Gate
    decision: Decision
    reason: str


@dataclass(frozen=True)
class HumanAsked(Event):
    call_id: str
    question: str
    answer: str


@dataclass(frozen=True)
class ToolExecuted(Event):
    call_id: str
    name: str
    input: dict[str, Any]
    output: str
    is_error: bool
    started: float
    finished: float


@dataclass(frozen=True)
class BatchRan(Event):
    call_ids: tuple[str, ...]
    parallel: bool
    started: float
    finished: float


@dataclass(frozen=True)
class ResultSpilled(Event):
    call_id: str
    path: str
    size: int


@dataclass(frozen=True)
class ResultAppended(Event):
    call_id: str
    is_error: bool
    content: str


@dataclass(frozen=True)
class HistoryTrimmed(Event):
    removed: int
    kept: int


@dataclass(frozen=True)
class StopContinued(Event):
    hook: str
    reason: str


@dataclass(frozen=True)
class RunEnded(Event):
    reason: EndReason
    detail: str = ""


E = TypeVar("E", bound=Event)


@dataclass
class Trace:
    """The ordered list of events of one run, with a few queries."""

    events: list[Event] = field(default_factory=list)

    def emit(self, event: Event) -> Event:
        self.events.append(event)
        return event

    def of(self, kind: type[E]) -> list[E]:
        return [e for e in self.events if isinstance(e, kind)]

    def first(self, kind: type[E]) -> E | None:
        return next((e for e in self.events if isinstance(e, kind)), None)

    def last(self, kind: type[E]) -> E | None:
        return next((e for e in reversed(self.events) if isinstance(e, kind)), None)

    def __iter__(self) -> Iterator[Event]:
        return iter(self.events)

    def __len__(self) -> int:
        return len(self.events)
