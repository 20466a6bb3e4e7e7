"""The fake's second wire: `POST /v1/chat/completions` (OpenAI Chat Completions), one script.

FakeMessagesAPI routes a chat request here (and `GET /v1/models` from a client that speaks this
wire); this endpoint judges it (chat_rules.py), asks the same ScriptedModel for the next step and
renders it (chat_render.py), and keeps its record in the same lists as the Messages wire does
(`requests`, `replies`, `rejections`, `faults`, `cut_calls`), numbered in the same sequence, and
in the Messages wire's words (a request's body read by chat_view.py, a reply as the Message the
other wire would have sent): every reader of that record (lab/kernel/record.py's Tap, the promises)
judges both wires alike. What crossed the wire is the probe Recorder's (it keeps the raw body).

A responder sees a chat request in the Messages wire's words (chat_view.py: tool_calls as tool_use
blocks, tool messages as tool_result blocks, the script's own ids), so the same responder, a
probe conversation among them, plays both wires.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import httpx2
import jiter

from lab.model.chat_render import (
    CREATED,
    ChunkWriter,
    completion,
    dropped_stream,
    error_stream,
    script_problem,
    step_problem,
    stream,
    usage,
)
from lab.model.chat_rules import JSON_TEXT, NO_KEY_TEXT, ChatError, request_problem
from lab.model.chat_view import neutral_body, neutral_messages, neutral_tools, system_text
from lab.model.fake_api import (
    DROPPED,
    DroppedBody,
    FakeMessagesAPI,
    Rejection,
    complete_fields,
)
from lab.model.framing import MAX_REQUEST_BYTES
from lab.model.script import (
    ApiError,
    CutOff,
    HtmlPage,
    ModelRequest,
    ScriptExhausted,
    Step,
    StreamDropped,
    StreamError,
    Turn,
    cut_input,
    numbered_id,
)

CHAT_MODEL = "gpt-lab-1"  # the model `GET /v1/models` lists on this wire
JSON = {"content-type": "application/json"}
SSE = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}
ORGANIZATION = "org-lab"
RATE_LIMIT = 60  # requests per minute the x-ratelimit-* headers announce

# The Messages wire's error type -> this wire's status, error.type, error.code and text (the
# real API's, quoted in docs/api-rules.md). A scripted message other than the Messages wire's
# default text (a script exhausted, say) is kept as written.
FAULT_TEXTS: dict[str, tuple[int, str, str | None, str]] = {
    "api_error": (
        500,
        "server_error",
        None,
        "The server had an error while processing your request. Sorry about that!",
    ),
    "overloaded_error": (
        503,
        "server_error",
        None,
        "That model is currently overloaded with other requests. You can retry your request, or "
        "contact us through our help center at help.openai.com if the error persists. (Please "
        "include the request ID {request_id} in your message.)",
    ),
    "rate_limit_error": (429, "requests", "rate_limit_exceeded", ""),  # text: _rate_text
}
MESSAGES_DEFAULTS = {
    "Overloaded",
    "Internal server error",
    "Number of requests has exceeded your per-minute rate limit",
}


def _rate_text(model: str, retry_after: float) -> str:
    return (
        f"Rate limit reached for {model} in organization {ORGANIZATION} on requests per min "
        f"(RPM): Limit {RATE_LIMIT}, Used {RATE_LIMIT}, Requested 1. Please try again in "
        f"{retry_after:g}s. Visit https://platform.openai.com/account/rate-limits to learn more."
    )


def rate_headers(retry_after: float) -> dict[str, str]:
    """The headers of a 429: `retry-after` and the `x-ratelimit-*` family."""
    return {
        "retry-after": f"{retry_after:g}",
        "x-ratelimit-limit-requests": str(RATE_LIMIT),
        "x-ratelimit-remaining-requests": "0",
        "x-ratelimit-reset-requests": f"{retry_after:g}s",
        "x-ratelimit-limit-tokens": "150000",
        "x-ratelimit-remaining-tokens": "149000",
        "x-ratelimit-reset-tokens": "0s",
    }


def fault_error(error_type: str, message: str, model: str, retry_after: float | None) -> ChatError:
    """A scripted fault (named by its Messages error type) as this wire's error."""
    status, kind, code, text = FAULT_TEXTS.get(
        error_type, (0, "invalid_request_error", None, message)
    )
    if error_type == "rate_limit_error":
        text = _rate_text(model, 1.0 if retry_after is None else retry_after)
    if message not in MESSAGES_DEFAULTS:
        text = message
    return ChatError(status, text, kind, None, code)


def as_message(turn: Turn, whole: dict) -> dict:
    """The reply `whole` (a chat completion of `turn`) as the Message the Messages wire would
    have sent: its blocks, a cut call's input what its cut arguments still hold."""
    blocks = [
        {k: v for k, v in b.items() if k != "raw_json"}
        | ({"input": complete_fields(b["raw_json"])} if "raw_json" in b else {})
        for b in turn.blocks
    ]
    return {
        "id": whole["id"],
        "type": "message",
        "role": "assistant",
        "model": whole["model"],
        "content": blocks,
        "stop_reason": turn.declared,
        "stop_sequence": None,
        "usage": {
            "input_tokens": whole["usage"]["prompt_tokens"],
            "output_tokens": whole["usage"]["completion_tokens"],
        },
    }


def _tokens(value: object) -> int:
    return max(1, len(json.dumps(value)) // 4)  # not a tokenizer: about 4 characters a token


class ChatCompletions:
    """`POST /v1/chat/completions` and this wire's `GET /v1/models`, for one FakeMessagesAPI."""

    def __init__(self, api: FakeMessagesAPI) -> None:
        self.api = api
        self.completions = 0  # numbers the completion ids, failed streams included

    # ------------------------------------------------------------ the endpoints

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        body, problem = self._read(request)
        index = None if body is None else self.api.requests.record(neutral_body(body))
        if problem is not None:
            return self._reject(index, problem)
        assert body is not None and index is not None
        return self._play(index, body, len(request.content))

    def models(self, path: str) -> httpx2.Response:
        """`GET /v1/models` and `GET /v1/models/{id}` in this wire's shape."""
        model = {"id": CHAT_MODEL, "object": "model", "created": CREATED, "owned_by": "lab"}
        if path.endswith("/v1/models"):
            return self._answer(200, JSON, json={"object": "list", "data": [model]})
        asked = path.split("/v1/models/", 1)[-1]
        if asked == CHAT_MODEL:
            return self._answer(200, JSON, json=model)
        text = f"The model '{asked}' does not exist or you do not have access to it."
        return self._reject(None, ChatError(404, text, param=None, code="model_not_found"))

    def _read(self, request: httpx2.Request) -> tuple[dict | None, ChatError | None]:
        if len(request.content) > MAX_REQUEST_BYTES:
            text = f"Request too large: at most {MAX_REQUEST_BYTES} bytes."
            return None, ChatError(413, text)
        if "authorization" not in request.headers and "x-api-key" not in request.headers:
            return None, ChatError(401, NO_KEY_TEXT)
        try:
            body = jiter.from_json(request.content)
        except ValueError:
            return None, ChatError(400, JSON_TEXT)
        if not isinstance(body, dict):
            return None, ChatError(400, JSON_TEXT)
        return body, request_problem(body)

    # ------------------------------------------------------------ playing the script

    def _play(self, index: int, body: dict, size: int) -> httpx2.Response:
        messages = body["messages"]
        stream_it = bool(body.get("stream"))
        # A list script that cannot play on this wire is refused whole, before any of its steps
        # is played (a responder's steps are judged one by one, below).
        refused = script_problem(self.api.model.script)
        if refused is not None:
            return self._fault(index, ChatError(500, f"lab: {refused}", "server_error"))
        request = ModelRequest(  # the Messages wire's words: one script judges both wires
            index=self.api.model.calls,
            messages=neutral_messages(messages),
            tools=neutral_tools(body.get("tools")),
            system=system_text(messages),
            stream=stream_it,
        )
        try:
            step: Step = self.api.model.respond(request)
        except ScriptExhausted as exhausted:
            step = ApiError(500, "api_error", str(exhausted))
        problem = step_problem(step)
        if problem:
            text = f"lab: script step {self.api.model.calls}: {problem}"
            return self._fault(index, ChatError(500, text, "server_error"))
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        play = Play(self, index, str(body["model"]), stream_it, include_usage, size)
        plays: dict[type, Callable[[Any], httpx2.Response]] = {
            Turn: play.turn,
            ApiError: play.api_error,
            StreamError: play.stream_error,
            StreamDropped: play.dropped,
            CutOff: play.cut_off,
            HtmlPage: play.html_page,
        }
        return plays[type(step)](step)

    # ------------------------------------------------------------ answers

    def _answer(self, status: int, headers: dict, **body: Any) -> httpx2.Response:
        self.api._responses += 1  # one sequence of request ids over both wires
        rid = numbered_id("req", self.api._responses)
        return httpx2.Response(status, headers={"x-request-id": rid, **headers}, **body)

    def _reject(self, index: int | None, error: ChatError) -> httpx2.Response:
        self.api.rejections.append(Rejection(index, error.status, error.type, error.message))
        return self._answer(error.status, JSON, json=error.body())

    def named(self, error: ChatError) -> ChatError:
        """`error` with the id of the answer about to be given where its text names one."""
        request_id = numbered_id("req", self.api._responses + 1)
        return replace(error, message=error.message.replace("{request_id}", request_id))

    def _fault(self, index: int, error: ChatError, headers: dict | None = None) -> httpx2.Response:
        error = self.named(error)
        self.api.faults.append(Rejection(index, error.status, error.type, error.message))
        return self._answer(error.status, {**JSON, **(headers or {})}, json=error.body())


class Play:
    """One answer: the step played as a completion, a stream, or one of the API's faults."""

    def __init__(
        self,
        chat: ChatCompletions,
        index: int,
        model: str,
        stream: bool,
        include_usage: bool,
        size: int,
    ) -> None:
        self.chat, self.index, self.model = chat, index, model
        self.stream, self.include_usage, self.size = stream, include_usage, size

    def _begin(self) -> int:
        self.chat.completions += 1
        return self.chat.completions

    def _usage(self, turn: Turn) -> dict:
        return usage(max(1, self.size // 4), _tokens(turn.blocks))

    def _writer(self, n: int) -> ChunkWriter:
        return ChunkWriter(n, self.model, self.include_usage)

    def turn(self, step: Turn) -> httpx2.Response:
        n = self._begin()
        tokens = self._usage(step)
        whole = completion(step, n, self.model, tokens)
        self.chat.api.replies.append(as_message(step, whole))
        if self.stream:
            body = stream(step, self._writer(n), tokens)
            return self.chat._answer(200, SSE, content=body)
        return self.chat._answer(200, JSON, json=whole)

    def api_error(self, step: ApiError) -> httpx2.Response:
        error = fault_error(step.type, step.message, self.model, step.retry_after)
        if error.status == 0:  # a type this wire has no text for: the scripted status
            error = replace(error, status=step.status)
        headers = rate_headers(step.retry_after or 1.0) if error.status == 429 else {}
        return self.chat._fault(self.index, error, headers)

    def stream_error(self, step: StreamError) -> httpx2.Response:
        error = self.chat.named(fault_error(step.type, step.message, self.model, None))
        if not self.stream:  # the same failure, met before the answer began
            return self.api_error(ApiError(error.status or 500, step.type, step.message))
        self.chat.api.faults.append(Rejection(self.index, 200, error.type, error.message))
        n = self._begin()
        body = error_stream(step.turn, step.after_blocks, self._writer(n), error.body()["error"])
        return self.chat._answer(200, SSE, content=body)

    def dropped(self, step: StreamDropped) -> httpx2.Response:
        self.chat.api.faults.append(Rejection(self.index, 200, "connection_dropped", DROPPED))
        if not self.stream:  # the status line and headers came, then nothing
            return self.chat._answer(200, JSON, stream=DroppedBody(b""))
        n = self._begin()
        body = dropped_stream(step.turn, step.block, step.after_chars, self._writer(n))
        return self.chat._answer(200, SSE, stream=DroppedBody(body))

    def cut_off(self, step: CutOff) -> httpx2.Response:
        """`finish_reason: "length"` with the last call's arguments cut, streamed or not
        (this wire's arguments are a string: the cut text itself, never repaired)."""
        blocks = [dict(block) for block in step.turn.blocks]
        last = blocks[-1]
        last["raw_json"] = cut_input(last)[: step.keep_chars]
        self.chat.api.cut_calls.append(last["id"])
        return self.turn(Turn(tuple(blocks), "max_tokens"))

    def html_page(self, step: HtmlPage) -> httpx2.Response:
        self.chat.api.faults.append(Rejection(self.index, step.status, step.type, step.title))
        headers = {"content-type": "text/html; charset=utf-8"}
        return self.chat._answer(step.status, headers, content=step.body.encode())
