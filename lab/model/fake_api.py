"""A fake Messages API endpoint: judges the request like the real API, then plays the script."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Any

import httpx2
import jiter

from lab.model.chat_rules import speaks_chat
from lab.model.framing import MAX_REQUEST_BYTES
from lab.model.history import Checked, RequestLog, encode
from lab.model.request_rules import (
    body_rule_problem,
    header_problem,
    history_rule_problem,
    thinking_budget,
    thinking_mode,
)
from lab.model.request_shape import body_problem
from lab.model.script import (
    ApiError,
    CutOff,
    HtmlPage,
    ModelRequest,
    ScriptedModel,
    ScriptExhausted,
    Step,
    StreamDropped,
    StreamError,
    Turn,
    cut_input,
    message_id,
    numbered_id,
    thinking,
    turn_of,
)
from lab.model.signing import SIGNER, Signer
from lab.model.sse import encode_dropped_stream, encode_error_stream, encode_stream
from lab.model.threads import CREATE_ONLY, Thread, ThreadError, Threads
from lab.model.validation import INVALID, THINKING, HistoryCheck

CHAT_PATH = "/v1/chat/completions"  # the second wire (lab/model/chat_api.py)
MESSAGES_PATH = "/v1/messages"  # under any prefix a client adds (`/anthropic/v1/messages`)
COUNT_PATH = "/v1/messages/count_tokens"
MODELS_PATH = "/v1/models"
NOT_FOUND = "Not found"  # the real 404's text for a path it does not serve
SSE = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}
# The HTTP status the real API gives each error type (an error event in a stream has none).
ERROR_STATUS = {
    "invalid_request_error": 400,
    "authentication_error": 401,
    "permission_error": 403,
    "not_found_error": 404,
    "request_too_large": 413,
    "rate_limit_error": 429,
    "api_error": 500,
    "overloaded_error": 529,
}
TOO_LARGE_MESSAGE = "Request exceeds the maximum size"
# Cloudflare's 413, sent before the request reaches the API: its body, as public reports quote it
# (github.com/anthropics/claude-code/issues/14567), has no request_id and no top-level type.
TOO_LARGE = b'{"error":{"type":"request_too_large","message":"Request exceeds the maximum size"}}'
DROPPED = "peer closed connection without sending complete message body (incomplete chunked read)"


READ_AHEAD = "lab.read_ahead"  # the request extension that carries what read_ahead judged


@dataclass(frozen=True)
class Judged:
    """A history judged: the checked history it extends, its messages beyond it, its
    encoding, the rule walker after them and the first problem they revealed (None: passed)."""

    base: Checked
    new: list
    encoded: bytes
    check: HistoryCheck
    problem: str | None


@dataclass(frozen=True)
class Read:
    """A request read by the fake before it touches anything it keeps: the body (None: not a
    JSON object), why it is refused (status, error type, message), and its judged history."""

    body: dict | None
    refused: tuple[int, str, str] | None = None
    judged: Judged | None = None


@dataclass(frozen=True)
class Rejection:
    """One error answer. request_index is the position in `requests` (None: never got that far)."""

    request_index: int | None
    status: int
    error_type: str
    message: str


def _system_text(system: str | list | None) -> str | None:
    # The API also accepts system as a list of text blocks; responders get one plain string.
    if isinstance(system, list):
        return "".join(block.get("text", "") for block in system)
    return system


def _tokens(value: object) -> int:
    # Not a tokenizer: a deterministic stand-in (about 4 characters per token).
    return max(1, len(json.dumps(value)) // 4)


def _without_raw(block: dict) -> dict:
    return {k: v for k, v in block.items() if k != "raw_json"}


def complete_fields(cut_json: str) -> dict:
    """What is left of a cut JSON object when only its complete values count: a cut string
    or number is dropped, a cut list keeps its complete items (the SDK's own lenient parse,
    jiter's partial mode, gives exactly this for a streamed tool input)."""
    try:
        parsed = jiter.from_json(cut_json.encode(), partial_mode=True) if cut_json else {}
    except ValueError:  # not even the start of an object
        return {}
    return parsed if isinstance(parsed, dict) else {}


def whole_parameters(cut_json: str, whole: dict) -> dict:
    """The input a non-streamed answer carries when max_tokens cut its tool call: the
    parameters whose whole value arrived before the cut, in order. The API buffers each tool
    parameter until it is complete (anthropics/anthropic-sdk-python#794), so a cut parameter
    is missing entirely, a cut list or object too (docs/api-rules.md, "cut calls")."""
    items = list(whole.items())
    kept: dict = {}
    for n, (key, value) in enumerate(items):
        through = json.dumps(dict(items[: n + 1]))[:-1]  # the object's text up to this value
        if not cut_json.startswith(through):
            break
        kept[key] = value
    return kept


# What a model with a thinking budget thinks when its script says nothing of it.
UNSCRIPTED_THOUGHT = "The script gives no thinking for this answer."


def thinking_first(step: Step) -> Step:
    """`step` as a model with a thinking budget answers it: every answer starts with thinking,
    so a scripted turn without one gets one first (a fault's block positions move with it)."""
    turn = turn_of(step)
    if turn is None or any(b.get("type") in THINKING for b in turn.blocks):
        return step
    thought = Turn((thinking(UNSCRIPTED_THOUGHT), *turn.blocks), turn.stop_reason)
    if isinstance(step, StreamError):
        return replace(step, turn=thought, after_blocks=step.after_blocks + 1)
    if isinstance(step, StreamDropped):
        return replace(step, turn=thought, block=step.block + 1)
    if isinstance(step, CutOff):
        return replace(step, turn=thought)
    return thought


class DroppedBody(httpx2.SyncByteStream):
    """A response body that delivers its bytes event by event, then loses the connection."""

    def __init__(self, data: bytes) -> None:
        self.data = data

    def __iter__(self) -> Iterator[bytes]:
        for event in self.data.split(b"\n\n")[:-1]:
            yield event + b"\n\n"
        raise httpx2.RemoteProtocolError(DROPPED)


class FakeMessagesAPI:
    """Serves `POST /v1/messages` from a ScriptedModel; use an instance as a MockTransport handler.
    The same script also answers `POST /v1/chat/completions` (lab/model/chat_api.py).

    Any path prefix and query reach it, GET/HEAD probes are answered, and message threads
    are held (lab/model/threads.py). It judges only the harness's side (the request: its shape
    in request_shape.py, its history in validation.py). The model's side is never judged: a
    scripted turn may call a tool that was never offered, or declare a stop_reason that
    disagrees with its content.
    """

    def __init__(
        self, model: ScriptedModel, *, model_name: str = "claude-lab-1", signer: Signer = SIGNER
    ) -> None:
        self.model = model
        self.model_name = model_name
        self.signer = signer  # signs the thinking blocks it sends, checks those sent back
        # Each request as the API understood it: a thread `continue` carries the history it
        # resumed and the thread's tools. Compact: see RequestLog.
        self.requests = RequestLog()
        self.rejections: list[Rejection] = []  # 4xx: the request itself was wrong
        # Injected faults (and script exhaustion): an HTTP error's status, or 200 for a
        # stream that failed after it began (error type "connection_dropped" for a drop).
        self.faults: list[Rejection] = []
        self.replies: list[dict] = []  # the Message dicts answered in full
        self.cut_calls: list[str] = []  # tool_use ids whose input JSON max_tokens cut off
        self._responses = 0  # numbers the request-id header of every answer
        self._messages_begun = 0  # numbers the message ids, failed streams included
        self.threads = Threads()
        # The last history that passed: the next may extend it.
        self._checked = Checked.empty(signer)
        self._request_size = 0  # bytes of the request being answered
        from lab.model.chat_api import ChatCompletions  # it builds on this module

        self.chat = ChatCompletions(self)  # the second wire, from the same script

    def forget(self) -> None:
        """Drop the record of the requests answered so far (`requests`, `replies`,
        `rejections`, `faults`, `cut_calls`), keeping the conversation's state (the history
        that passed last, the threads, the script): a server that lasts, whose log reads each
        answer as it is given (`lab serve`), keeps nothing per request."""
        self.requests = RequestLog()
        for record in (self.replies, self.rejections, self.faults, self.cut_calls):
            record.clear()

    # ------------------------------------------------------------ the endpoint

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        path = request.url.path.rstrip("/")
        if request.method == "POST" and path.endswith(CHAT_PATH):
            return self.chat(request)
        is_models = path.endswith(MODELS_PATH) or f"{MODELS_PATH}/" in path
        if request.method == "GET" and is_models and speaks_chat(request.headers):
            return self.chat.models(path)
        if request.method == "POST" and path.endswith(MESSAGES_PATH):
            return self._create_message(request)
        if request.method == "POST" and path.endswith(COUNT_PATH):
            return self._count_tokens(request)
        if request.method == "GET" and (path.endswith(MODELS_PATH) or f"{MODELS_PATH}/" in path):
            return self._models(path)
        if request.method == "HEAD" or (request.method == "GET" and path in ("", "/v1")):
            return self._health()
        return self._reject(None, 404, "not_found_error", NOT_FOUND)

    def read_ahead(self, request: httpx2.Request) -> None:
        """Read and judge a POST to the messages path now, touching nothing the fake keeps: a
        server that answers one request at a time calls this first, outside its lock, so a
        large history is judged while other requests are answered; its answer (`self(request)`,
        under the lock) then only plays what was read here."""
        path = request.url.path.rstrip("/")
        if request.method == "POST" and path.endswith(MESSAGES_PATH):
            request.extensions[READ_AHEAD] = self._read(request)

    def _parse(self, request: httpx2.Request) -> Read:
        """The request's JSON object, or why it is refused (its size, headers, JSON)."""
        if len(request.content) > MAX_REQUEST_BYTES:  # Cloudflare's answer, as over loopback
            return Read(None, (413, "request_too_large", TOO_LARGE_MESSAGE))
        problem = header_problem(request.headers)
        if problem:
            return Read(None, (400, INVALID, problem))
        try:  # jiter (the SDK's own JSON parser): fast, and it refuses nesting deeper than 200
            body = jiter.from_json(request.content)
        except ValueError as error:
            return Read(None, (400, INVALID, f"The request body is not valid JSON: {error}"))
        if not isinstance(body, dict):
            return Read(None, (400, INVALID, "request body must be a JSON object"))
        return Read(body)

    def _read(self, request: httpx2.Request) -> Read:
        """The request as the fake judges it on its own: parsed, its headers, shape and rules
        checked, and (unless it continues a thread, judged against the thread it resumes) its
        history judged where it goes beyond the last history that passed. A verdict never
        depends on what was judged before, so the snapshot taken here judges as well as a
        later one."""
        read = self._parse(request)
        body = read.body
        if body is None:
            return read
        problem = body_problem(body) or body_rule_problem(body)
        if problem:
            return Read(body, (400, INVALID, problem))
        if (body.get("thread") or {}).get("type") == "continue":
            return read  # only the new turn: judged against its thread when answered
        encoded = encode(body["messages"])
        base, new = self._extends(body["messages"], None, encoded)
        return Read(body, judged=self._judge(body, base, new, encoded))

    def _judge(self, body: dict, base: Checked, new: list, encoded: bytes) -> Judged:
        """The messages beyond `base` judged, then the rules that need the body and the
        whole history (tools for tool blocks, the cache breakpoints)."""
        check = base.check.copy()
        problem = check.take(new, thinking_mode(body)) or history_rule_problem(
            body, check.tool_blocks, check.cache_marks
        )
        return Judged(base, new, encoded, check, problem)

    def _refuse(self, read: Read) -> httpx2.Response:
        """The answer to a request `_read` refused (a 413 is Cloudflare's, not the API's)."""
        assert read.refused is not None
        status, kind, message = read.refused
        if status == 413:
            self.rejections.append(Rejection(None, status, kind, message))
            return self._answer(413, {"content-type": "application/json"}, content=TOO_LARGE)
        index = None if read.body is None else self.requests.record(read.body)
        return self._reject(index, status, kind, message)

    def _create_message(self, request: httpx2.Request) -> httpx2.Response:
        read = request.extensions.pop(READ_AHEAD, None) or self._read(request)
        if read.refused is not None:
            return self._refuse(read)
        body = read.body
        assert body is not None  # a body that was read and not refused

        thread = body.get("thread") or {}
        resumed = self.threads.resume(body) if thread.get("type") == "continue" else None
        if isinstance(resumed, ThreadError):
            index = self.requests.record(body)
            return self._reject(
                index, resumed.status, resumed.type, resumed.message, resumed.error_code
            )
        kept = resumed.kept if resumed else {k: body[k] for k in CREATE_ONLY if k in body}
        body = {**body, **kept}
        judged = read.judged or self._judge_continued(body, resumed)
        view = judged.base.view.extended(judged.new)
        index = self.requests.record(body, view)
        if judged.problem:
            return self._reject(index, 400, INVALID, judged.problem)
        encoded = judged.encoded
        if resumed is not None:  # the history the thread holds, not only what was sent
            encoded = encode(view.messages())
        self._checked = Checked(view, judged.check, encoded)

        self._request_size = len(request.content)
        answered = len(self.replies)
        response = self._play(index, {**body, "messages": view.messages()})
        if thread and len(self.replies) > answered:
            self._hold_thread(self.replies[-1], self._checked, kept, resumed)
        return response

    def _judge_continued(self, body: dict, resumed: Thread | None) -> Judged:
        """A thread's new turn, judged after the history the thread holds (`body` carries
        the thread's create-only fields, its tools among them)."""
        base, new = self._extends(body["messages"], resumed, b"")
        return self._judge(body, base, new, b"")

    def _extends(
        self, messages: list, resumed: Thread | None, encoded: bytes
    ) -> tuple[Checked, list]:
        """The checked history this request extends, and its messages beyond it. Only those
        are judged: what passed before, the very same values (types and key order included),
        is not judged again."""
        if resumed is not None:  # a `continue` sends only the new turn
            return resumed.checked, messages
        checked = self._checked  # read once: another request may be answered meanwhile
        known = checked.shared_prefix(encoded)
        return (checked if known else Checked.empty(self.signer)), messages[known:]

    def _hold_thread(
        self, reply: dict, checked: Checked, kept: dict, resumed: Thread | None
    ) -> None:
        check = checked.check.copy()
        message = {"role": "assistant", "content": reply["content"]}
        if check.add(message) is None:  # a reply the rules cannot take ends the thread
            self.threads.hold(reply, Checked(checked.view.extended([message]), check), kept)
        if resumed is not None:
            resumed.continued = True

    # ------------------------------------------------------------ the endpoints beside it

    def _count_tokens(self, request: httpx2.Request) -> httpx2.Response:
        """`POST /v1/messages/count_tokens`: the request judged as a message request would be
        (without `max_tokens`, which it may not carry), then a deterministic count in the real
        shape. It never plays the script and never changes what the fake remembers."""
        read = self._parse(request)
        if read.refused is not None:
            return self._refuse(read)
        body = read.body
        assert body is not None  # a body that was parsed and not refused
        if "max_tokens" in body:
            return self._reject(None, 400, INVALID, "max_tokens: Extra inputs are not permitted")
        judged = {**body, "max_tokens": 1}  # the shape's required field, never read when counting
        problem = body_problem(judged) or body_rule_problem(judged, counting=True)
        if not problem:  # the whole history, from nothing: counting remembers none
            empty = Checked.empty(self.signer)
            problem = self._judge(body, empty, body["messages"], b"").problem
        if problem:
            return self._reject(None, 400, INVALID, problem)
        counted = {k: body.get(k) for k in ("system", "tools", "messages")}
        return self._answer(200, {}, json={"input_tokens": _tokens(counted)})

    def _model_info(self) -> dict:
        return {
            "type": "model",
            "id": self.model_name,
            "display_name": "Scripted lab model",
            "created_at": "2026-01-01T00:00:00Z",
        }

    def _models(self, path: str) -> httpx2.Response:
        """`GET /v1/models` (one model, the one it plays) and `GET /v1/models/{id}`."""
        model = self._model_info()
        if path.endswith(MODELS_PATH):
            listing = {"data": [model], "first_id": model["id"], "last_id": model["id"]}
            return self._answer(200, {}, json={**listing, "has_more": False})
        asked = path.split(f"{MODELS_PATH}/", 1)[-1]
        if asked == self.model_name:
            return self._answer(200, {}, json=model)
        # The real answer for an unknown model (anthropics/anthropic-sdk-typescript#690).
        return self._reject(None, 404, "not_found_error", f"model: {asked}")

    def _health(self) -> httpx2.Response:
        """A health probe (HEAD anywhere, GET of the root): a plain 200, so a client that
        checks the server before it starts does start. The lab's own courtesy, not the API's."""
        return self._answer(200, {}, json={"type": "fake_messages_api", "model": self.model_name})

    def _play(self, index: int, body: dict) -> httpx2.Response:
        stream = bool(body.get("stream", False))
        model_request = ModelRequest(
            index=self.model.calls,
            messages=body["messages"],
            tools=body.get("tools", []),
            system=_system_text(body.get("system")),
            stream=stream,
        )
        try:
            step: Step = self.model.respond(model_request)
        except ScriptExhausted as exhausted:
            step = ApiError(500, "api_error", str(exhausted))
        if thinking_budget(body):
            step = thinking_first(step)
        plays: dict[type, Callable[..., httpx2.Response]] = {
            Turn: self._turn,
            ApiError: self._fault,
            StreamError: self._stream_error,
            StreamDropped: self._dropped,
            CutOff: self._cut_off,
            HtmlPage: self._html_page,
        }
        return plays[type(step)](index, step, stream, body["messages"])

    # ------------------------------------------------------------ one answer per kind of step

    def _turn(self, index: int, step: Turn, stream: bool, messages: list) -> httpx2.Response:
        message = self._message(step, messages)
        plain = {**message, "content": [_without_raw(b) for b in message["content"]]}
        self.replies.append(plain)
        if stream:  # only a stream can carry raw (possibly broken) tool JSON
            return self._answer(200, SSE, content=encode_stream(message))
        return self._answer(200, {}, json=plain)

    def _fault(self, index: int, step: ApiError, stream: bool, messages: list) -> httpx2.Response:
        self.faults.append(Rejection(index, step.status, step.type, step.message))
        headers = {} if step.retry_after is None else {"retry-after": f"{step.retry_after:g}"}
        return self._error(step.status, step.type, step.message, headers)

    def _stream_error(
        self, index: int, step: StreamError, stream: bool, messages: list
    ) -> httpx2.Response:
        if not stream:  # the same failure, met before the answer began
            status = ERROR_STATUS.get(step.type, 500)
            return self._fault(index, ApiError(status, step.type, step.message), stream, messages)
        self.faults.append(Rejection(index, 200, step.type, step.message))
        error = {"type": step.type, "message": step.message}
        body = encode_error_stream(self._message(step.turn, messages), step.after_blocks, error)
        return self._answer(200, SSE, content=body)

    def _dropped(
        self, index: int, step: StreamDropped, stream: bool, messages: list
    ) -> httpx2.Response:
        self.faults.append(Rejection(index, 200, "connection_dropped", DROPPED))
        if not stream:  # the status line and headers came, then nothing
            return self._answer(200, {"content-type": "application/json"}, stream=DroppedBody(b""))
        message = self._message(step.turn, messages)
        body = encode_dropped_stream(message, step.block, step.after_chars)
        return self._answer(200, SSE, stream=DroppedBody(body))

    def _cut_off(self, index: int, step: CutOff, stream: bool, messages: list) -> httpx2.Response:
        blocks = [dict(block) for block in step.turn.blocks]
        last = blocks[-1]  # a tool_use: CutOff refuses any other shape
        cut = cut_input(last)[: step.keep_chars]
        # Streamed: the cut text itself. Not streamed: the parameters that were whole (a
        # scripted raw_json is no object's text: then what a lenient parse completes).
        whole = complete_fields(cut) if "raw_json" in last else whole_parameters(cut, last["input"])
        last.update(raw_json=cut, input=whole)
        self.cut_calls.append(last["id"])
        return self._turn(index, Turn(tuple(blocks), "max_tokens"), stream, messages)

    # ------------------------------------------------------------ building answers

    def _signed(self, block: dict) -> dict:
        """A thinking block with this fake's signature, a redacted one sealed (as the real API
        does: only the API can make a block it will take back)."""
        if block["type"] == "thinking" and block.get("signature") is None:
            return {**block, "signature": self.signer.sign(block["thinking"])}
        if block["type"] == "redacted_thinking" and block.get("data") is None:
            return {"type": "redacted_thinking", "data": self.signer.seal(block["text"])}
        return block

    def _message(self, step: Turn, messages: list) -> dict:
        self._messages_begun += 1
        content = [self._signed(dict(block)) for block in step.blocks]
        return {
            "id": message_id(self._messages_begun),
            "type": "message",
            "role": "assistant",
            "model": self.model_name,
            "content": content,
            "stop_reason": step.declared,
            "stop_sequence": None,
            "usage": {
                "input_tokens": max(1, self._request_size // 4),  # about 4 bytes a token
                "output_tokens": _tokens(content),
            },
        }

    def _answer(self, status: int, headers: dict, **body: Any) -> httpx2.Response:
        self._responses += 1
        headers = {"request-id": numbered_id("req", self._responses), **headers}
        return httpx2.Response(status, headers=headers, **body)

    def _error(
        self, status: int, error_type: str, message: str, headers: dict, error_code: str = ""
    ) -> httpx2.Response:
        error: dict[str, Any] = {"type": error_type, "message": message}
        if error_code:  # the SDK reads `error.details.error_code` (e.g. to replay a lost thread)
            error["details"] = {"error_code": error_code}
        body = {
            "type": "error",
            "error": error,
            "request_id": numbered_id("req", self._responses + 1),  # the id _answer gives it
        }
        return self._answer(status, headers, json=body)

    def _reject(
        self, index: int | None, status: int, error_type: str, message: str, error_code: str = ""
    ) -> httpx2.Response:
        self.rejections.append(Rejection(index, status, error_type, message))
        return self._error(status, error_type, message, {}, error_code)

    # ------------------------------------------------------------ faults from outside the API

    def _html_page(
        self, index: int, step: HtmlPage, stream: bool, messages: list
    ) -> httpx2.Response:
        """A proxy's HTML error page: the status, a text/html body, no JSON at all."""
        self.faults.append(Rejection(index, step.status, step.type, step.title))
        headers = {"content-type": "text/html; charset=utf-8"}
        return self._answer(step.status, headers, content=step.body.encode())
