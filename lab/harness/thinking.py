"""What the harness sends back of the model's thinking when it appends an answer to the history.

Invariant: with thinking on, the assistant turn a tool loop continues goes back with its
thinking (and redacted_thinking) blocks first and unchanged; the API checks each block's
signature and refuses a turn whose thinking is missing. The history is the model's own
record of what it did: a harness may not edit it.
"""

from __future__ import annotations

from typing import Any

from lab.kernel.trace import ThinkingSentBack, Trace

THINKING = ("thinking", "redacted_thinking")


def thinking_blocks(turn: dict[str, Any]) -> tuple[str, ...]:
    """The kinds of the turn's thinking blocks, in order."""
    return tuple(b["type"] for b in turn["content"] if b["type"] in THINKING)


class ThinkingKept:
    """The reference: the answer goes into the history as it came, thinking blocks and all."""

    def __call__(self, turn: int, answer: dict[str, Any], trace: Trace) -> dict[str, Any]:
        if kinds := thinking_blocks(answer):
            trace.emit(ThinkingSentBack(turn, kinds, kept=True))
        return answer


class ThinkingDropped(ThinkingKept):
    """D29: the thinking blocks are stripped from the answer before it enters the history
    (as a framework does that keeps only text and tool calls); the API rejects the next
    request of the tool loop."""

    def __call__(self, turn: int, answer: dict[str, Any], trace: Trace) -> dict[str, Any]:
        if not (kinds := thinking_blocks(answer)):
            return answer
        trace.emit(ThinkingSentBack(turn, kinds, kept=False))
        content = [b for b in answer["content"] if b["type"] not in THINKING]
        return {**answer, "content": content}
