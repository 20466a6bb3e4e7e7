"""Tool results: what goes back to the model for each call, one user message per answer.

Invariant: results return in call order, one `tool_result` block per `tool_use`.
"""

from __future__ import annotations

from typing import Any


def tool_result(call_id: str, content: str, *, is_error: bool = False) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    if is_error:
        block["is_error"] = True
    return block


def results_message(blocks: list[dict[str, Any]]) -> dict[str, Any]:
    """All results of one answer go back together, in one user message."""
    return {"role": "user", "content": blocks}
