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
    raw = block.get("raw_json")  # "" too: a cut that kept nothing streams no JSON at all
    pieces = split(json.dumps(block["input"]) if raw is None else raw)
    return [{"type": "input_json_delta", "partial_json": piece} for piece in pieces]


def _server_tool_start(block: dict) -> dict:
    return {**_tool_start(block), "type": "server_tool_use"}


def _thinking_start(block: dict) -> dict:
    return {"type": "thinking", "thinking": "", "signature": ""}


def _thinking_deltas(block: dict) -> list[dict]:
    # The text first, then its signature, in one signature_delta just before the block stops.
    pieces = [{"type": "thinking_delta", "thinking": piece} for piece in split(block["thinking"])]
    return [*pieces, {"type": "signature_delta", "signature": block["signature"]}]


def _whole(block: dict) -> dict:
    return block  # sent whole in content_block_start: a redacted blob, a search's results


def _none(block: dict) -> list[dict]:
    return []


# block type -> (the block as content_block_start shows it, the deltas that fill it in)
BLOCK_EVENTS: dict[str, tuple[Callable[[dict], dict], Callable[[dict], list[dict]]]] = {
    "text": (_text_start, _text_deltas),
    "tool_use": (_tool_start, _tool_deltas),
    "thinking": (_thinking_start, _thinking_deltas),
    "redacted_thinking": (_whole, _none),
    "server_tool_use": (_server_tool_start, _tool_deltas),
    "web_search_tool_result": (_whole, _none),
}
# delta type -> the key holding its text (what a dropped stream cuts)
DELTA_TEXT = {
    "text_delta": "text",
    "input_json_delta": "partial_json",
    "thinking_delta": "thinking",
    "signature_delta": "signature",
}


def _event(name: str, data: dict) -> str:
    return f"event: {name}\ndata: {json.dumps(data, separators=(',', ':'))}\n\n"


def _opening(message: dict) -> list[str]:
    opening = {
        **message,
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {**message["usage"], "output_tokens": 1},
    }
    return [
        _event("message_start", {"type": "message_start", "message": opening}),
        _event("ping", {"type": "ping"}),
    ]


def _block_start(index: int, block: dict) -> str:
    if block["type"] not in BLOCK_EVENTS:
        raise ValueError(f"encode_stream: cannot stream a {block['type']!r} block")
    start, _ = BLOCK_EVENTS[block["type"]]
    data = {"type": "content_block_start", "index": index, "content_block": start(block)}
    return _event("content_block_start", data)


def _delta(index: int, delta: dict) -> str:
    data = {"type": "content_block_delta", "index": index, "delta": delta}
    return _event("content_block_delta", data)


def _block(index: int, block: dict) -> list[str]:
    """One whole block: its start, every delta, its stop."""
    _, deltas = BLOCK_EVENTS[block["type"]]
    return [
        _block_start(index, block),
        *[_delta(index, delta) for delta in deltas(block)],
        _event("content_block_stop", {"type": "content_block_stop", "index": index}),
    ]


def _closing(message: dict) -> list[str]:
    delta = {
        "type": "message_delta",
        "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None},
        "usage": {"output_tokens": message["usage"]["output_tokens"]},
    }
    return [_event("message_delta", delta), _event("message_stop", {"type": "message_stop"})]


def encode_stream(message: dict) -> bytes:
    """The full SSE body for `message` (a Message dict with text and tool_use blocks)."""
    events = _opening(message)
    for index, block in enumerate(message["content"]):
        events += _block(index, block)
    return "".join(events + _closing(message)).encode()


def encode_error_stream(message: dict, after_blocks: int, error: dict) -> bytes:
    """Blocks [0, after_blocks) of `message` in full, then the API's `event: error`
    carrying `error` ({"type": ..., "message": ...}); the stream ends there."""
    events = _opening(message)
    for index, block in enumerate(message["content"][:after_blocks]):
        events += _block(index, block)
    events.append(_event("error", {"type": "error", "error": error}))
    return "".join(events).encode()


def _cut_deltas(deltas: list[dict], chars: int) -> list[dict]:
    """The deltas as they arrived before the cut: `chars` characters of their text in all."""
    kept = []
    for delta in deltas:
        key = DELTA_TEXT[delta["type"]]
        piece = delta[key][: max(chars, 0)]
        if not piece:
            break
        kept.append({**delta, key: piece})
        chars -= len(piece)
    return kept


def encode_dropped_stream(message: dict, block: int, after_chars: int) -> bytes:
    """The bytes a stream delivered before its connection dropped inside block `block`,
    after `after_chars` characters of that block's delta text."""
    events = _opening(message)
    for index, whole in enumerate(message["content"][:block]):
        events += _block(index, whole)
    if block < len(message["content"]):
        cut = message["content"][block]
        _, deltas = BLOCK_EVENTS[cut["type"]]
        events.append(_block_start(block, cut))
        events += [_delta(block, delta) for delta in _cut_deltas(deltas(cut), after_chars)]
    return "".join(events).encode()
