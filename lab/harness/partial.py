"""What a failed stream leaves behind: the blocks that arrived before the error or the drop.

Invariant: a partial answer never enters the history and none of its tool calls run. The
model never finished it: a tool_use in it was never meant to be answered, yet once it is in
the history it is owed a tool_result (配对义务) that no one will send, and the API rejects
the next request.
"""

from __future__ import annotations

from typing import Any

from lab.kernel.trace import PartialAnswer, Trace


class DropPartial:
    """The reference: the model is simply asked again; what arrived is only traced."""

    def __call__(
        self, turn: int, partial: dict[str, Any], history: list[dict[str, Any]], trace: Trace
    ) -> None:
        trace.emit(PartialAnswer(turn, tuple(partial["content"]), kept=False))


class KeepPartial(DropPartial):
    """D22: what arrived is appended to the history as the assistant's turn before the
    model is asked again (as if it were an answer to build on)."""

    def __call__(
        self, turn: int, partial: dict[str, Any], history: list[dict[str, Any]], trace: Trace
    ) -> None:
        history.append(partial)
        trace.emit(PartialAnswer(turn, tuple(partial["content"]), kept=True))
