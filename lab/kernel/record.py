"""The one record of a run: what crossed the wire, how the run ended, what ran, the files.

Every way of running a harness (lab/kernel/runner.py: the lab's own loop in process, a function
written to the wire protocol, any program over loopback; a probe trial, `lab serve`) is written down
by the one `Tap` standing in front of the fake API, which says once what the fake answered each
request (a `Reply`); the run leaves a `Record` of those requests, and every promise
(lab/kernel/promises.py) is judged over it. The probe's exchanges (lab/probe/recorder.py) carry the
tap's reply, so a trial's Record (`lab.probe.wire_promises.record_of`) holds them as they are. A
Record is read, never built by the judges: it names facts, it decides nothing.

A request is anything with the `Request` shape, so a log that already holds its requests (the
fake API's own log, the probe's exchanges) is viewed, not copied.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal, Protocol

from lab.model.script import (
    ApiError,
    CutOff,
    ModelRequest,
    Responder,
    ScriptedModel,
    Step,
    StreamDropped,
    StreamError,
)

if TYPE_CHECKING:
    import httpx2

    from lab.model.fake_api import FakeMessagesAPI

# What the fake answered to one request.
#   answer   a complete message (its content and declared stop_reason)
#   cut      a complete message whose last tool_use input max_tokens cut off
#   partial  a stream that broke part-way (an error event, a dropped connection)
#   fault    an HTTP error the script played (429, 529, 500, ...)
#   rejected the request broke an API rule: a 4xx with the fake's exact text
#   side     a request outside the conversation (a title, a summary): a short text answer
#   extra    a request past the script's last answer
Kind = Literal["answer", "cut", "partial", "fault", "rejected", "side", "extra"]


@dataclass(frozen=True)
class Reply:
    """The fake's answer to one request, and its verdict on it."""

    kind: Kind
    blocks: Sequence[dict] = ()  # the content it sent (for a partial: the turn it began)
    declared: str | None = None  # the stop_reason it declared
    # The exact error text: a rejection's status, type and message; a fault's type and message.
    error: str = ""
    retry_after: float | None = None  # what its retry-after header asked for, in seconds

    @property
    def complete(self) -> bool:
        """A whole message the harness received (a cut one included: its stop_reason says so)."""
        return self.kind in ("answer", "cut", "side", "extra")


class Request(Protocol):
    """One HTTP request the harness sent and the fake's reply (any log with these fields)."""

    @property
    def number(self) -> int: ...  # 1-based, as shown to readers

    @property
    def at(self) -> float: ...  # seconds since the run began, when it was sent

    @property
    def body(self) -> Any: ...  # the parsed JSON body as sent (None when it was not JSON)

    @property
    def status(self) -> int: ...

    @property
    def reply(self) -> Reply: ...


@dataclass(frozen=True)
class Sent:
    """A request held in memory (a record written by hand, or by a test)."""

    number: int
    body: Any
    reply: Reply
    status: int = 200
    at: float = 0.0


@dataclass(frozen=True)
class Ending:
    """How the run ended: its reason ("done", "turn_limit", "crash", "exit 1", ...), whether
    it crashed (an exception out of the harness, a non-zero exit) and the line that says so."""

    reason: str
    crashed: bool = False
    line: str = ""


@dataclass(frozen=True)
class Ran:
    """A tool call known to have run (the lab's trace says so, or its canary came back)."""

    id: str
    name: str = ""
    input: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Record:
    """Everything one run left behind that a promise may read."""

    requests: Sequence[Request]
    ending: Ending
    ran: Sequence[Ran] | None = None  # None: the run cannot tell what ran
    files_before: Mapping[str, str] = field(default_factory=dict)
    files_after: Mapping[str, str] = field(default_factory=dict)
    deny: Sequence[str] = ()  # the deny rules the harness was given, as text
    workspace: str = "/workspace"  # what relative paths in tool inputs are relative to
    answer_limit: int | None = None  # the most answers the harness allows itself (max_turns)
    history: Sequence[dict] | None = None  # the harness's own final messages, when it shows them
    finished: bool | None = None  # the script's last answer was asked for (None: not known)
    new_files: Sequence[str] = ()  # files that appeared in the working folder during the run
    # The requests (by number) that carried only what was new on a message thread (`continue`):
    # the API paired them with the turns it held, so their own history is not the whole one.
    threaded: frozenset[int] = frozenset()


# ---------------------------------------------------------------- writing a record
# The statuses of a fault that asking again may cure: after one, a program waits longer.
TRANSIENT = {429, 500, 502, 503, 504, 529}
# A responder's own name for what it played (lab/probe/conversation.py), in the Record's words.
NOTED_KINDS: dict[str, Kind] = {"side call": "side", "extra": "extra"}


class WatchedModel(ScriptedModel):
    """A ScriptedModel that keeps the last step it played, so the tap can say what a request
    got (only the last: a server that answers for days keeps nothing per request)."""

    def __init__(self, script: Sequence[Step] | Responder) -> None:
        super().__init__(script)
        self.last: Step | None = None

    def respond(self, request: ModelRequest) -> Step:
        self.last = None  # a script that raises (exhausted) played nothing
        self.last = super().respond(request)
        return self.last


@dataclass
class Wire:
    """When the program last used its connection (monotonic times); the probe's idle clock
    (lab/probe/idle.py) reads it, the tap writes it."""

    last_request: float | None = None  # when the last request arrived or was answered
    told_until: float = 0.0  # the end of the last wait the fake asked for (retry-after)
    after_fault: bool = False  # the last answer was a transient fault (TRANSIENT)


@dataclass(frozen=True)
class Logged:
    """One request as the tap saw it; its body is read from the fake API's own log."""

    number: int
    at: float
    status: int
    reply: Reply
    index: int | None  # its position in the fake API's request log (None: not even JSON)
    log: Sequence[dict] = field(repr=False, compare=False)
    note: Any = None  # the responder's own record of the request, when it keeps a log (`notes`)

    @property
    def body(self) -> Any:
        return self.log[self.index] if self.index is not None else None


class Tap:
    """Stands where the fake API stood and writes down each request and what it got: the one
    recorder of every run (the lab's harness, a function, a program, a probe trial, `lab
    serve`, the request fuzz). The fake must play a WatchedModel, which says which step each
    request got; `notes`, a responder's own log, names a side call or a request past the
    script's end. `keep=False`: only the newest request is kept (`last`), for a server that
    lasts."""

    def __init__(
        self,
        api: FakeMessagesAPI,
        clock: Callable[[], float] = time.monotonic,
        *,
        notes: Sequence[Any] | None = None,
        keep: bool = True,
    ) -> None:
        if not isinstance(api.model, WatchedModel):
            raise TypeError("a Tap needs the fake API to play a WatchedModel")
        self.api, self.model, self.clock = api, api.model, clock
        self.notes: Sequence[Any] = notes if notes is not None else ()
        self.keep = keep
        self.start = clock()
        self.requests: list[Logged] = []
        self.last: Logged | None = None  # the newest request of the conversation, kept or not
        self.count = 0  # the requests of the conversation so far, kept or not
        self.wire = Wire()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.api, name)

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        api, model, notes = self.api, self.model, self.notes
        before = (len(api.rejections), len(api.faults), len(api.replies), model.calls)
        newest = notes[-1] if notes else None
        at = self.clock() - self.start
        self.wire.last_request = time.monotonic()
        response = api(request)
        self.heard(response)
        rejected = api.rejections[before[0] :]
        faults = api.faults[before[1] :]
        step = model.last if model.calls > before[3] else None
        if rejected:
            refused = rejected[0]  # as the answer's line says it: status, type, exact message
            error = f"{response.status_code} {refused.error_type}: {refused.message}"
            reply = Reply("rejected", error=error)
            index = refused.request_index
        elif step is None and not faults:
            return response  # a GET, a health probe: nothing of the conversation
        else:
            reply = self._reply(step, faults, api.replies[before[2] :], response.status_code)
            index = len(api.requests) - 1
        note = notes[-1] if notes and notes[-1] is not newest else None
        noted = NOTED_KINDS.get(getattr(note, "kind", ""))
        reply = replace(reply, kind=noted) if noted and reply.complete else reply
        self.count += 1
        self.last = Logged(self.count, at, response.status_code, reply, index, api.requests, note)
        if self.keep:
            self.requests.append(self.last)
        return response

    def heard(self, response: httpx2.Response) -> None:
        """What the answer tells the idle clock: when it came, whether it was a fault that
        asking again may cure, and how long it told the client to wait (retry-after)."""
        wire = self.wire
        wire.last_request = time.monotonic()
        wire.after_fault = response.status_code in TRANSIENT
        try:
            wire.told_until = wire.last_request + float(response.headers["retry-after"])
        except (KeyError, ValueError):
            pass

    @staticmethod
    def _reply(step: Step | None, faults: list, replies: list[dict], status: int) -> Reply:
        if replies:  # a whole message: a turn, or a turn max_tokens cut
            message = replies[-1]
            kind: Kind = "cut" if isinstance(step, CutOff) else "answer"
            return Reply(kind, tuple(message["content"]), message.get("stop_reason"))
        fault = faults[-1] if faults else None
        error = f"{fault.error_type}: {fault.message}" if fault else ""
        if isinstance(step, StreamError | StreamDropped) and status == 200:
            return Reply("partial", tuple(step.turn.blocks), step.turn.declared, error)
        retry_after = step.retry_after if isinstance(step, ApiError) else None
        return Reply("fault", error=error, retry_after=retry_after)


# ---------------------------------------------------------------- reading a request
def messages_of(body: Any) -> list[dict]:
    messages = body.get("messages") if isinstance(body, dict) else None
    return [m for m in messages if isinstance(m, dict)] if isinstance(messages, list) else []


def blocks_in(message: Any) -> list[dict]:
    """A message's content blocks (a plain string is one text block)."""
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def of_type(blocks: Sequence[dict], kind: str) -> list[dict]:
    return [b for b in blocks if b.get("type") == kind]


def result_text(block: dict) -> str:
    """A tool_result's content as text (a string, or its text blocks joined)."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    return "" if content is None else json.dumps(content)


def received(record: Record) -> Iterator[tuple[Request, list[dict]]]:
    """Each complete answer the harness received, with its tool_use blocks."""
    for request in record.requests:
        if request.reply.complete:
            yield request, of_type(list(request.reply.blocks), "tool_use")


def accepted_after(record: Record, number: int) -> Iterator[Request]:
    """The requests after request `number` that the fake took (not rejected)."""
    for request in record.requests:
        if request.number > number and request.reply.kind != "rejected":
            yield request


def result_for(record: Record, tool_id: str, after: int) -> dict | None:
    """The first tool_result for `tool_id` in a request the fake took, after request `after`."""
    for request in accepted_after(record, after):
        for message in messages_of(request.body):
            for block in of_type(blocks_in(message), "tool_result"):
                if block.get("tool_use_id") == tool_id:
                    return block
    return None


def offered(record: Record) -> dict[str, dict]:
    """Every tool the harness offered in any request: name -> input_schema."""
    tools: dict[str, dict] = {}
    for request in record.requests:
        body = request.body if isinstance(request.body, dict) else {}
        for tool in body.get("tools") or []:
            if isinstance(tool, dict) and isinstance(tool.get("name"), str):
                tools.setdefault(tool["name"], tool.get("input_schema") or {})
    return tools


def ran_ids(record: Record) -> set[str]:
    return {r.id for r in record.ran or ()}
