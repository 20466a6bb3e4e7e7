"""What a failed stream leaves behind: the blocks that arrived before the error or the drop.

Invariant: a partial answer never enters the history and none of its tool calls run. The
model never finished it: a tool_use in it was never meant to be answered, yet once it is in
the history it is owed a tool_result (配对义务) that no one will send, and the API rejects
the next request.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lab.switches import Switches
from lab.trace import PartialAnswer, Trace

Keep = Callable[[int, dict[str, Any], list[dict[str, Any]], Trace], None]


def drop_partial(
    turn: int, partial: dict[str, Any], history: list[dict[str, Any]], trace: Trace
) -> None:
    """The reference: the model is simply asked again; what arrived is only traced."""
    trace.emit(PartialAnswer(turn, tuple(partial["content"]), kept=False))


def keep_partial(
    turn: int, partial: dict[str, Any], history: list[dict[str, Any]], trace: Trace
) -> None:
    """D22: what arrived is appended to the history as the assistant's turn before the
    model is asked again (as if it were an answer to build on)."""
    history.append(partial)
    trace.emit(PartialAnswer(turn, tuple(partial["content"]), kept=True))


def partial_policy(switches: Switches) -> Keep:
    return keep_partial if switches.keep_partial_answers else drop_partial
