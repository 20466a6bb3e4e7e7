"""Asking the model: one answer through the real SDK, streamed or not, whatever the API throws.

A transient fault is waited out and asked again (retry.py); what a failed stream leaves
behind never becomes the answer (partial.py). The answer carries the content facts the loop
and the checks need: `tool_use_seen`, set the moment a tool_use block *starts* in the stream
(or found in the content when not streaming), and the calls whose input max_tokens cut off.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

import anthropic
import httpx2
from anthropic.types import Message

from lab.harness.partial import DropPartial
from lab.harness.retry import MAX_RETRIES, Backoff, Wait, transient
from lab.kernel.trace import (
    AnswerUnreadable,
    ApiRejected,
    CallCutOff,
    ConnectionLost,
    ModelAnswered,
    ModelCalled,
    ModelRetried,
    Trace,
)

FAILURES = (anthropic.APIStatusError, anthropic.APIConnectionError, httpx2.TransportError)


@dataclass(frozen=True)
class ToolCall:
    id: str
    name: str
    input: dict[str, Any]
    cut_off: bool  # max_tokens cut its input: what arrived is not the call the model meant


def assistant_param(message: Message) -> dict[str, Any]:
    """A message as the assistant turn to append, in plain JSON-ready dicts."""
    blocks = [block.model_dump(mode="json", exclude_none=True) for block in message.content]
    return {"role": "assistant", "content": blocks}


def whole_json(text: str) -> bool:
    """Did this input JSON arrive whole?"""
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


@dataclass(frozen=True)
class Answer:
    message: Message
    tool_use_seen: bool
    wire: Mapping[int, str] | None = None  # streamed: each block's input JSON text as it came

    @functools.cached_property
    def cut_off(self) -> frozenset[str]:
        """Calls whose input did not arrive whole. Streamed, that is a fact: the input's JSON
        text is incomplete. Not streamed, the API parsed the input itself and only the
        declaration is left: the last block of an answer that stopped at max_tokens."""
        content = self.message.content
        if self.wire is None:
            last = content[-1] if content else None
            at_limit = self.message.stop_reason == "max_tokens"
            return frozenset([last.id] if at_limit and last and last.type == "tool_use" else [])
        return frozenset(
            block.id
            for index, block in enumerate(content)
            if block.type == "tool_use" and not whole_json(self.wire.get(index, ""))
        )

    @property
    def tool_calls(self) -> list[ToolCall]:
        return [
            ToolCall(b.id, b.name, b.input, b.id in self.cut_off)
            for b in self.message.content
            if b.type == "tool_use"
        ]

    @functools.cached_property
    def param(self) -> dict[str, Any]:
        """The assistant message to append."""
        return assistant_param(self.message)


class StreamFailed(Exception):
    """A stream broke after it began: how (`error`), and what had arrived (`partial`)."""

    def __init__(self, error: Exception, partial: dict[str, Any] | None) -> None:
        super().__init__(str(error))
        self.error, self.partial = error, partial


def ask(client: anthropic.Anthropic, request: dict[str, Any], *, stream: bool) -> Answer:
    """Send one request; raises the SDK's own errors (e.g. BadRequestError) unchanged, and a
    stream that breaks after it began as StreamFailed."""
    if not stream:
        message = client.messages.create(**request)
        return Answer(message, any(block.type == "tool_use" for block in message.content))
    tool_use_seen, began = False, False
    wire: dict[int, str] = {}
    with client.messages.stream(**request) as events:
        try:
            for event in events:
                began = True
                # The flag is the content fact, raised as soon as the block starts streaming.
                if event.type == "content_block_start" and event.content_block.type == "tool_use":
                    tool_use_seen = True
                elif event.type == "content_block_delta" and event.delta.type == "input_json_delta":
                    wire[event.index] = wire.get(event.index, "") + event.delta.partial_json
        except FAILURES as error:
            partial = assistant_param(events.current_message_snapshot) if began else None
            raise StreamFailed(error, partial) from error
        return Answer(events.get_final_message(), tool_use_seen, wire)


def rejection(error: anthropic.APIStatusError) -> tuple[int, str, str]:
    """(status, error type, message) from the API's error body, as the real API words it."""
    body = error.body if isinstance(error.body, dict) else {}
    detail = body.get("error", {})
    return (
        error.status_code,
        detail.get("type", type(error).__name__),
        detail.get("message", str(error)),
    )


def one_line(error: Exception) -> str:
    return " ".join(str(error).split())


def describe(error: Exception) -> str:
    """One line on what went wrong, for the trace."""
    if isinstance(error, anthropic.APIStatusError):
        status, kind, message = rejection(error)
        where = "error event in the stream" if status == 200 else str(status)
        return f"{where} {kind}: {message}"
    return f"connection lost: {one_line(error)}"


class Unanswered(Exception):
    """No answer came: why the run ends ("api_error", "bad_answer") and one line of detail."""

    def __init__(self, reason: Literal["api_error", "bad_answer"], detail: str) -> None:
        super().__init__(detail)
        self.reason, self.detail = reason, detail


class ModelCall:
    """The model's answer to one request, with the retry and partial-answer parts it is
    given; every attempt, retry and failure is in the trace."""

    def __init__(
        self,
        client: anthropic.Anthropic,
        trace: Trace,
        wait: Wait,
        *,
        retry: type[Backoff] = Backoff,
        partial: type[DropPartial] = DropPartial,
    ) -> None:
        self.client, self.trace, self.wait = client, trace, wait
        self.retry, self.partial = retry(), partial()

    def answer(self, turn: int, request: dict[str, Any], *, stream: bool) -> Answer:
        """Ask until an answer comes or the retry policy gives up (raises Unanswered).
        `request["messages"]` is the harness's history itself."""
        self.trace.emit(ModelCalled(turn, stream, len(request["messages"])))
        retries = unreadable_answers = 0
        while True:
            try:
                answer = ask(self.client, request, stream=stream)
            except StreamFailed as failed:
                if failed.partial is not None:
                    self.partial(turn, failed.partial, request["messages"], self.trace)
                error: Exception = failed.error
            except FAILURES as failure:
                error = failure
            except ValueError as unreadable:  # the SDK could not parse the model's tool JSON
                self.trace.emit(AnswerUnreadable(turn, one_line(unreadable)))
                unreadable_answers += 1
                if unreadable_answers > MAX_RETRIES:
                    detail = f"turn {turn}: {one_line(unreadable)}"
                    raise Unanswered("bad_answer", detail) from None
                # Like a broken stream, a garbled answer is a draft: it never enters the
                # history (its tool_use would be owed a result) and the model is asked again.
                continue
            else:
                return self.answered(turn, answer)
            retries += 1
            wait = self.retry.delay(retries, error)
            if wait is None:
                raise self.give_up(turn, error)
            self.trace.emit(ModelRetried(turn, retries, describe(error), wait))
            self.wait(wait)

    def answered(self, turn: int, answer: Answer) -> Answer:
        message = answer.message
        blocks = tuple(answer.param["content"])
        seen = answer.tool_use_seen
        self.trace.emit(ModelAnswered(turn, message.id, blocks, message.stop_reason, seen))
        for index, block in enumerate(message.content):
            if block.type == "tool_use" and block.id in answer.cut_off:
                wire = None if answer.wire is None else answer.wire.get(index, "")
                self.trace.emit(CallCutOff(turn, block.id, block.name, wire, dict(block.input)))
        return answer

    def give_up(self, turn: int, error: Exception) -> Exception:
        """What ends the run: the API's error answer, or a connection lost for good. A
        connection that could not be opened at all is raised as it is: there is no API
        there to answer (a wrong address; `lab live` says so)."""
        if isinstance(error, anthropic.APIStatusError):  # e.g. the 400 for a broken history
            status, kind, message = rejection(error)
            self.trace.emit(ApiRejected(turn, status, kind, message))
            return Unanswered("api_error", message)
        if not transient(error):
            return error
        self.trace.emit(ConnectionLost(turn, one_line(error)))
        return Unanswered("api_error", f"connection lost: {one_line(error)}")
