"""Asking the model: one Messages API request, streamed or not, through the real SDK.

The answer carries the content fact the loop needs: `tool_use_seen`, set the moment a
tool_use block *starts* in the stream (or found in the content when not streaming).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

import anthropic
from anthropic.types import Message


@dataclass(frozen=True)
class Answer:
    message: Message
    tool_use_seen: bool

    @property
    def tool_calls(self) -> list[Any]:
        return [block for block in self.message.content if block.type == "tool_use"]

    @functools.cached_property
    def param(self) -> dict[str, Any]:
        """The assistant message to append, as plain JSON-ready dicts."""
        param = self.message.to_param()
        blocks = [block.model_dump(mode="json", exclude_none=True) for block in param["content"]]
        return {"role": "assistant", "content": blocks}


def ask(client: anthropic.Anthropic, request: dict[str, Any], *, stream: bool) -> Answer:
    """Send one request; raises the SDK's own errors (e.g. BadRequestError) unchanged."""
    if not stream:
        message = client.messages.create(**request)
        return Answer(message, any(block.type == "tool_use" for block in message.content))
    tool_use_seen = False
    with client.messages.stream(**request) as events:
        for event in events:
            # The flag is the content fact, raised as soon as the block starts streaming.
            if event.type == "content_block_start" and event.content_block.type == "tool_use":
                tool_use_seen = True
        return Answer(events.get_final_message(), tool_use_seen)


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
