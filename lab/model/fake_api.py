"""A fake Messages API endpoint: judges the request like the real API, then plays the script."""

from __future__ import annotations

import json
from dataclasses import dataclass

import httpx2

from lab.model.script import (
    ApiError,
    ModelRequest,
    ScriptedModel,
    ScriptExhausted,
    Turn,
    message_id,
    numbered_id,
)
from lab.model.sse import encode_stream
from lab.model.validation import INVALID, validate_messages

REQUIRED_FIELDS = ("model", "max_tokens", "messages")


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


class FakeMessagesAPI:
    """Serves `POST /v1/messages` from a ScriptedModel; use an instance as a MockTransport handler.

    It judges only the harness's side (the request). The model's side is never judged: a
    scripted turn may call a tool that was never offered, or declare a stop_reason that
    disagrees with its content.
    """

    def __init__(self, model: ScriptedModel, *, model_name: str = "claude-lab-1") -> None:
        self.model = model
        self.model_name = model_name
        self.requests: list[dict] = []  # parsed bodies, in order
        self.rejections: list[Rejection] = []  # 4xx: the request itself was wrong
        self.faults: list[Rejection] = []  # injected ApiError steps and script exhaustion
        self.replies: list[dict] = []  # the Message dicts answered
        self._responses = 0  # numbers the request-id header of every answer

    # ------------------------------------------------------------ the endpoint

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        if request.method != "POST" or request.url.path != "/v1/messages":
            return self._reject(None, 404, "not_found_error", "Not found")
        try:
            body = json.loads(request.content)
        except ValueError:
            return self._reject(None, 400, INVALID, "request body is not valid JSON")
        if not isinstance(body, dict):
            return self._reject(None, 400, INVALID, "request body must be a JSON object")

        self.requests.append(body)
        index = len(self.requests) - 1
        for name in REQUIRED_FIELDS:
            if name not in body:
                return self._reject(index, 400, INVALID, f"{name}: Field required")
        if not isinstance(body["messages"], list):
            return self._reject(index, 400, INVALID, "messages: Input should be a valid list")
        problem = validate_messages(body["messages"])
        if problem:
            return self._reject(index, 400, *problem)

        return self._play(index, body)

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
            step = self.model.respond(model_request)
        except ScriptExhausted as exhausted:
            return self._fault(index, ApiError(500, "api_error", str(exhausted)))
        if isinstance(step, ApiError):
            return self._fault(index, step)

        message = self._message(step, body["messages"])
        plain = {**message, "content": [_without_raw(b) for b in message["content"]]}
        self.replies.append(plain)
        if stream:  # only a stream can carry raw (possibly broken) tool JSON
            headers = {"content-type": "text/event-stream"}
            return self._answer(200, headers, content=encode_stream(message))
        return self._answer(200, {}, json=plain)

    # ------------------------------------------------------------ building answers

    def _message(self, step: Turn, messages: list) -> dict:
        content = [dict(block) for block in step.blocks]
        return {
            "id": message_id(len(self.replies) + 1),
            "type": "message",
            "role": "assistant",
            "model": self.model_name,
            "content": content,
            "stop_reason": step.declared,
            "stop_sequence": None,
            "usage": {"input_tokens": _tokens(messages), "output_tokens": _tokens(content)},
        }

    def _answer(self, status: int, headers: dict, **body: object) -> httpx2.Response:
        self._responses += 1
        headers = {"request-id": numbered_id("req", self._responses), **headers}
        return httpx2.Response(status, headers=headers, **body)

    def _error(self, status: int, error_type: str, message: str, headers: dict) -> httpx2.Response:
        body = {"type": "error", "error": {"type": error_type, "message": message}}
        return self._answer(status, headers, json=body)

    def _reject(
        self, index: int | None, status: int, error_type: str, message: str
    ) -> httpx2.Response:
        self.rejections.append(Rejection(index, status, error_type, message))
        return self._error(status, error_type, message, {})

    def _fault(self, index: int, error: ApiError) -> httpx2.Response:
        self.faults.append(Rejection(index, error.status, error.type, error.message))
        # retry-after-ms: 0 keeps a client that does retry from sleeping in tests.
        return self._error(error.status, error.type, error.message, {"retry-after-ms": "0"})
