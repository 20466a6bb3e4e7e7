"""The pairing obligation: every tool_use gets exactly one tool_result in the next message.

It holds for calls that were invalid, unknown, denied or blocked too, and when the history
is trimmed a tool_use message and its tool_result message are kept or dropped together.
"""

from __future__ import annotations

from typing import Any

from lab.harness.results import tool_result


def has_tool_use(message: dict[str, Any]) -> bool:
    content = message["content"]
    return not isinstance(content, str) and any(b.get("type") == "tool_use" for b in content)


def has_tool_result(message: dict[str, Any]) -> bool:
    content = message["content"]
    return not isinstance(content, str) and any(b.get("type") == "tool_result" for b in content)


class PairsKept:
    """The reference: a stopped call still gets its result, and trimming keeps pairs whole."""

    def owed(self, call_id: str, content: str) -> dict[str, Any] | None:
        return tool_result(call_id, content, is_error=True)

    def tail_start(self, messages: list[dict[str, Any]], start: int) -> int:
        """A kept tail that opens on tool results pulls in their tool_use message."""
        pair_cut = has_tool_result(messages[start]) and has_tool_use(messages[start - 1])
        return start - 1 if pair_cut else start


class PairsBroken(PairsKept):
    """D3, D23: a stopped call gets no tool_result, and the trimmer may cut a pair in two;
    the API rejects the next request."""

    def owed(self, call_id: str, content: str) -> dict[str, Any] | None:
        return None

    def tail_start(self, messages: list[dict[str, Any]], start: int) -> int:
        return start


class Pairing:
    def __init__(self, pairs: type[PairsKept] = PairsKept) -> None:
        self.pairs = pairs()

    def blocked_result(self, call_id: str, content: str) -> dict[str, Any] | None:
        """The result owed to a call that was stopped before running (None: owed, not paid)."""
        return self.pairs.owed(call_id, content)

    def trim(
        self, messages: list[dict[str, Any]], keep_last: int
    ) -> tuple[list[dict[str, Any]], int]:
        """Keep the first message and the last `keep_last` (pairs whole, when kept), with a
        marker between them. Returns the new history and how many messages were removed."""
        if len(messages) <= keep_last + 2:
            return messages, 0
        start = self.pairs.tail_start(messages, len(messages) - keep_last)
        removed = start - 1
        if removed <= 0:
            return messages, 0
        marker = {"role": "user", "content": f"[{removed} earlier messages were trimmed]"}
        return [messages[0], marker, *messages[start:]], removed
