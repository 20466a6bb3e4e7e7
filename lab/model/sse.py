"""Encode a finished Message as the server-sent-event stream the real Messages API would send."""

from __future__ import annotations

import json
from collections.abc import Callable

PIECE = 8  # characters per delta: small, so even short blocks arrive in several deltas


def split(s: str, piece: int = PIECE) -> list[str]:
    """Cut `s` into deterministic pieces; anything longer than 3 chars gives at least 2."""
    if len(s) <= 3:
        return [s] if s else []
    size = min(piece, (len(s) + 1) // 2)
    return [s[i : i + size] for i in range(0, len(s), size)]


def _text_start(block: dict) -> dict:
    return {"type": "text", "text": ""}


def _text_deltas(block: dict) -> list[dict]:
    return [{"type": "text_delta", "text": piece} for piece in split(block["text"])]


def _tool_start(block: dict) -> dict:
    # The input arrives later, as JSON text in input_json_delta events.
    return {"type": "tool_use", "id": block["id"], "name": block["name"], "input": {}}


def _tool_deltas(block: dict) -> list[dict]:
    pieces = split(block.get("raw_json") or json.dumps(block["input"]))
    return [{"type": "input_json_delta", "partial_json": piece} for piece in pieces]


# block type -> (the block as content_block_start shows it, the deltas that fill it in)
BLOCK_EVENTS: dict[str, tuple[Callable[[dict], dict], Callable[[dict], list[dict]]]] = {
    "text": (_text_start, _text_deltas),
    "tool_use": (_tool_start, _tool_deltas),
}


def _event(name: str, data: dict) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def encode_stream(message: dict) -> bytes:
    """The full SSE body for `message` (a Message dict with text and tool_use blocks)."""
    opening = {
        **message,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {**message["usage"], "output_tokens": 1},
    }
    events = [
        _event("message_start", {"type": "message_start", "message": opening}),
        _event("ping", {"type": "ping"}),
    ]
    for index, block in enumerate(message["content"]):
        if block["type"] not in BLOCK_EVENTS:
            raise ValueError(f"encode_stream: cannot stream a {block['type']!r} block")
        start, deltas = BLOCK_EVENTS[block["type"]]
        events.append(
            _event(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": start(block)},
            )
        )
        for delta in deltas(block):
            events.append(
                _event(
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": delta},
                )
            )
        events.append(_event("content_block_stop", {"type": "content_block_stop", "index": index}))
    closing = {
        "type": "message_delta",
        "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": message["usage"]["output_tokens"]},
    }
    events.append(_event("message_delta", closing))
    events.append(_event("message_stop", {"type": "message_stop"}))
    return "".join(events).encode()
