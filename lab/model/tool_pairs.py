"""Which tool_use ids are answered where: the one reading of a history's call/result pairs.

A history is read as the real API reads it: consecutive messages of one role are one turn
(`turns`; a system message is a turn of its own), so two tool results sent as two user messages
in a row answer the call before them together. The fake API's validation, the `pairing` promise
and the probe's judges all read turns and pairs through these functions; they differ only in
the order rule they hold the answer to:

  ANY_ORDER   the Messages API (validation) and `pairs_intact`: every call's id is among the
              leading tool_result blocks of the next user turn, in whatever order;
  CALL_ORDER  the reference harness's promise (the `pairing` invariant): the leading results
              are exactly the calls, one each, in the order the model made them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

__all__ = [
    "ANY_ORDER",
    "CALL_ORDER",
    "OrderRule",
    "Turn",
    "blocks_of",
    "joins",
    "leading_result_ids",
    "tool_use_ids",
    "turns",
    "unanswered",
]

OrderRule = Literal["any order", "call order"]
ANY_ORDER: OrderRule = "any order"
CALL_ORDER: OrderRule = "call order"

Blocks = Sequence[dict[str, Any]]


def blocks_of(message: dict[str, Any]) -> Blocks:
    """A message's content blocks (a string content holds no tool blocks)."""
    content = message.get("content")
    return [] if isinstance(content, str) or not content else content


def joins(role: str, previous: str | None) -> bool:
    """A message of `role` right after one of `previous` belongs to the same turn: the same
    role, and not a system message (the API combines consecutive user or assistant messages)."""
    return role == previous and role != "system"


@dataclass
class Turn:
    """One or more consecutive same-role messages, read as one."""

    role: str
    index: int  # the index of its first message in the history
    blocks: list[dict[str, Any]] = field(default_factory=list)  # their blocks, combined


def turns(messages: Sequence[Any]) -> list[Turn]:
    """The history's turns: consecutive messages of one role combined (see `joins`); a string
    content is one text block, a message that is not a dict is skipped."""
    found: list[Turn] = []
    for n, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        role = str(message.get("role"))
        content = message.get("content")
        if isinstance(content, str):
            blocks = [{"type": "text", "text": content}] if content else []
        else:
            blocks = [b for b in content or [] if isinstance(b, dict)]
        if not (found and joins(role, found[-1].role)):
            found.append(Turn(role, n))
        found[-1].blocks += blocks
    return found


def tool_use_ids(blocks: Blocks) -> list[str | None]:
    """The ids of the tool_use blocks, in the order the model made the calls."""
    return [b.get("id") for b in blocks if b.get("type") == "tool_use"]


def leading_result_ids(blocks: Blocks) -> list[str | None]:
    """The ids answered by the run of tool_result blocks at the very start, in order.

    Only that leading run counts: a result after a text block answers nothing."""
    ids: list[str | None] = []  # None: a block without an id (the API rejects it)
    for block in blocks:
        if block.get("type") != "tool_result":
            break
        ids.append(block.get("tool_use_id"))
    return ids


def unanswered(
    calls: Sequence[str | None], results: Sequence[str | None], order: OrderRule
) -> list[str | None]:
    """The calls `results` (the next turn's leading result ids) fail to answer under `order`.

    ANY_ORDER: the calls whose id is missing from the results. CALL_ORDER: every call when
    the results are not exactly the calls in call order (a partial answer is no answer)."""
    if order == CALL_ORDER:
        return [] if list(results) == list(calls) else list(calls)
    answered = set(results)
    return [call for call in calls if call not in answered]
