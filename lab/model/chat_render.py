"""Render a script step on the OpenAI Chat Completions wire: one chat completion, or its chunks.

A script is wire-neutral (lab/model/script.py): a turn's text blocks become the message's
`content`, its tool_use blocks its `tool_calls`, and the stop_reason it declares its
`finish_reason` (FINISH_REASONS). Declared and content may disagree on purpose, as on the
Messages wire: a tool_use with `end_turn` is `finish_reason: "stop"` with tool_calls present
(the D1 distortion of this wire), `tool_use` with no tool block is `"tool_calls"` with none.
A step with no meaning on this wire (a thinking block, a server tool, `pause_turn`) is named
by `step_problem`; the endpoint refuses a script that holds one before it plays anything.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lab.model.script import ApiError, CutOff, HtmlPage, Step, Turn, turn_of
from lab.model.sse import split

# Messages stop_reason -> Chat Completions finish_reason. A stop_reason not listed
# (pause_turn, model_context_window_exceeded) has no meaning on this wire.
FINISH_REASONS = {
    "end_turn": "stop",
    "stop_sequence": "stop",
    "tool_use": "tool_calls",
    "max_tokens": "length",
    "refusal": "content_filter",
}
CHAT_BLOCKS = ("text", "tool_use")  # the only content a chat message can carry
CREATED = 1767225600  # 2026-01-01T00:00:00Z: a fixed clock, so an answer is the same every run
DONE = b"data: [DONE]\n\n"
SCRIPT_PREFIX, CALL_PREFIX = "toolu_", "call_"  # a tool_use id in a script, a call id here


def completion_id(n: int) -> str:
    """The id of the n-th (1-based) chat completion the fake answers: `chatcmpl-001`."""
    return f"chatcmpl-{n:03d}"


def call_id(block_id: str) -> str:
    """A tool call's id on this wire: the script's `toolu_001` is `call_001` (an explicit id
    with another prefix is kept as it was written)."""
    if block_id.startswith(SCRIPT_PREFIX):
        return CALL_PREFIX + block_id.removeprefix(SCRIPT_PREFIX)
    return block_id


# ---------------------------------------------------------------- what a step means here


def step_problem(step: Step) -> str | None:
    """Why `step` cannot be played on the Chat Completions wire, or None."""
    if isinstance(step, ApiError | HtmlPage):
        return None
    turn = turn_of(step)
    if turn is None:
        return f"a {type(step).__name__} step"
    for block in turn.blocks:
        if block.get("type") not in CHAT_BLOCKS:
            return f"a {block.get('type')} block has no meaning on the Chat Completions wire"
    declared = "max_tokens" if isinstance(step, CutOff) else turn.declared
    if declared not in FINISH_REASONS:
        return f"stop_reason {declared!r} has no meaning on the Chat Completions wire"
    return None


def script_problem(steps: Sequence[Step]) -> str | None:
    """The first step of `steps` that has no meaning on this wire, as one line, or None."""
    for n, step in enumerate(steps, 1):
        problem = step_problem(step)
        if problem:
            return f"script step {n}: {problem} (use it on the Messages wire only)"
    return None


def check_chat_script(steps: Sequence[Step]) -> None:
    """Refuse (ValueError, one line) a script that cannot be played on this wire."""
    problem = script_problem(steps)
    if problem:
        raise ValueError(problem)


# ---------------------------------------------------------------- the answer's parts


def arguments(block: dict) -> str:
    """A tool call's arguments as the wire carries them: always a string (a scripted
    `raw_json`, broken or cut, goes out as it is, streamed or not)."""
    raw = block.get("raw_json")
    return json.dumps(block["input"]) if raw is None else raw


def tool_call(block: dict) -> dict:
    return {
        "id": call_id(block["id"]),
        "type": "function",
        "function": {"name": block["name"], "arguments": arguments(block)},
    }


def message_of(turn: Turn) -> dict:
    """The assistant message of a non-streamed completion."""
    texts = [b["text"] for b in turn.blocks if b["type"] == "text"]
    calls = [tool_call(b) for b in turn.blocks if b["type"] == "tool_use"]
    message: dict[str, Any] = {
        "role": "assistant",
        "content": "".join(texts) if texts else None,
        "refusal": None,
        "annotations": [],
    }
    if calls:  # the real API leaves the key out when there is no call
        message["tool_calls"] = calls
    return message


def usage(prompt_tokens: int, completion_tokens: int) -> dict:
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def completion(turn: Turn, n: int, model: str, tokens: dict) -> dict:
    """The whole `chat.completion` object for `turn` (the n-th completion)."""
    return {
        "id": completion_id(n),
        "object": "chat.completion",
        "created": CREATED,
        "model": model,
        "choices": [
            {
                "index": 0,
                "message": message_of(turn),
                "logprobs": None,
                "finish_reason": FINISH_REASONS[turn.declared],
            }
        ],
        "usage": tokens,
        "system_fingerprint": None,
    }


# ---------------------------------------------------------------- the stream


@dataclass(frozen=True)
class BlockChunks:
    """How one block streams: an opening delta (a call's head: id, name, empty arguments),
    then its text in pieces, each wrapped by `wrap` into a delta."""

    head: dict | None
    pieces: list[str]
    wrap: Callable[[str], dict]

    def deltas(self) -> list[dict]:
        return self.cut(sum(map(len, self.pieces)))

    def cut(self, chars: int) -> list[dict]:
        """The deltas that arrived before a drop after `chars` characters of the block's text
        (the head, which carries none, always arrived)."""
        kept = [] if self.head is None else [self.head]
        for piece in self.pieces:
            if chars <= 0:
                break
            kept.append(self.wrap(piece[:chars]))
            chars -= len(piece)
        return kept


def _block_chunks(block: dict, call_index: int) -> BlockChunks:
    if block["type"] == "text":
        return BlockChunks(None, split(block["text"]), lambda piece: {"content": piece})
    head = {
        "index": call_index,
        "id": call_id(block["id"]),
        "type": "function",
        "function": {"name": block["name"], "arguments": ""},
    }

    def wrap(piece: str) -> dict:
        return {"tool_calls": [{"index": call_index, "function": {"arguments": piece}}]}

    return BlockChunks({"tool_calls": [head]}, split(arguments(block)), wrap)


def _chunks(turn: Turn) -> list[BlockChunks]:
    """Every block's chunks, in order (tool calls numbered from 0 by `index`)."""
    calls = 0
    out = []
    for block in turn.blocks:
        out.append(_block_chunks(block, calls))
        calls += block["type"] == "tool_use"
    return out


class ChunkWriter:
    """Writes the `chat.completion.chunk`s of one completion as SSE `data:` lines."""

    def __init__(self, n: int, model: str, include_usage: bool) -> None:
        self.n, self.model, self.include_usage = n, model, include_usage
        self.lines: list[bytes] = []

    def chunk(self, delta: dict, finish_reason: str | None = None) -> None:
        choice = {"index": 0, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        self._data(self._frame([choice]))

    def _frame(self, choices: list) -> dict:
        frame = {
            "id": completion_id(self.n),
            "object": "chat.completion.chunk",
            "created": CREATED,
            "model": self.model,
            "system_fingerprint": None,
            "choices": choices,
        }
        if self.include_usage:  # every chunk says `usage: null` but the last
            frame["usage"] = None
        return frame

    def _data(self, value: dict) -> None:
        self.lines.append(b"data: " + json.dumps(value).encode() + b"\n\n")

    def opening(self, turn: Turn) -> None:
        first = turn.blocks[0]["type"] if turn.blocks else "text"
        content = "" if first == "text" else None
        self.chunk({"role": "assistant", "content": content, "refusal": None})

    def closing(self, finish_reason: str, tokens: dict) -> bytes:
        self.chunk({}, finish_reason)
        if self.include_usage:
            self._data({**self._frame([]), "usage": tokens})
        return self.body() + DONE

    def error(self, error: dict) -> bytes:
        """The API's error inside a stream: a `data:` line with only `error`, then nothing."""
        self._data({"error": error})
        return self.body()

    def body(self) -> bytes:
        return b"".join(self.lines)


def stream(turn: Turn, writer: ChunkWriter, tokens: dict) -> bytes:
    """The whole SSE body of `turn`, ending in `data: [DONE]`."""
    writer.opening(turn)
    for block in _chunks(turn):
        for delta in block.deltas():
            writer.chunk(delta)
    return writer.closing(FINISH_REASONS[turn.declared], tokens)


def error_stream(turn: Turn, after_blocks: int, writer: ChunkWriter, error: dict) -> bytes:
    """Blocks [0, after_blocks) of `turn` in full, then the error line; no [DONE]."""
    writer.opening(turn)
    for block in _chunks(turn)[:after_blocks]:
        for delta in block.deltas():
            writer.chunk(delta)
    return writer.error(error)


def dropped_stream(turn: Turn, block: int, after_chars: int, writer: ChunkWriter) -> bytes:
    """The chunks sent before the connection dropped inside block `block`, after
    `after_chars` characters of its text (a call's arguments, a text's content)."""
    writer.opening(turn)
    every = _chunks(turn)
    for whole in every[:block]:
        for delta in whole.deltas():
            writer.chunk(delta)
    if block < len(every):
        for delta in every[block].cut(after_chars):
            writer.chunk(delta)
    return writer.body()
