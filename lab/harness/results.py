"""Tool results: what goes back to the model for each call, and the size cap.

Invariant: a result over the cap reaches the model as a preview plus the path of a spill
file; the read tool is exempt (it pages instead), or reading a spill would spill again.
"""

from __future__ import annotations

from typing import Any

from lab.kernel.trace import ResultSpilled, Trace
from lab.world import World


def tool_result(call_id: str, content: str, *, is_error: bool = False) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": call_id, "content": content}
    if is_error:
        block["is_error"] = True
    return block


RESULT_CAP = 30_000  # production spills a Bash result above ~30,000 chars
PREVIEW_CHARS = 1_000
SPILL_DIR = ".spill"


class ReadPages:
    """The reference: the read tool is exempt from the cap; it shows a page and says so."""

    exempt = frozenset({"read_file"})


class ReadSpills(ReadPages):
    """D17: the read tool's results are spilled like any other, so reading a spill file
    spills again: a loop that feeds on itself."""

    exempt: frozenset[str] = frozenset()


class ResultCaps:
    """Oversized results go to a spill file; the read tool is exempt and pages instead."""

    def __init__(
        self,
        world: World,
        trace: Trace,
        cap: int = RESULT_CAP,
        *,
        read: type[ReadPages] = ReadPages,
    ) -> None:
        self.exempt = read.exempt
        self.world, self.trace, self.cap = world, trace, cap

    def result(
        self, turn: int, call_id: str, tool: str, output: str, is_error: bool
    ) -> dict[str, Any]:
        if len(output) <= self.cap:
            return tool_result(call_id, output, is_error=is_error)
        if tool in self.exempt:
            notice = f"\n[Partial view: the first {self.cap} of {len(output)} characters.]"
            return tool_result(call_id, output[: self.cap] + notice, is_error=is_error)
        path = f"{self.world.workspace}/{SPILL_DIR}/{call_id}.txt"
        try:
            self.world.fs.write(path, output)
        except OSError as error:  # the model may have put a file where the spill folder goes
            notice = f"\n[Output too large ({len(output)} characters); not saved: {error}]"
            return tool_result(call_id, output[:PREVIEW_CHARS] + notice, is_error=is_error)
        self.trace.emit(ResultSpilled(turn, call_id, path, len(output)))
        pointer = f"\n[Output too large ({len(output)} characters). Full output saved to {path}]"
        return tool_result(call_id, output[:PREVIEW_CHARS] + pointer, is_error=is_error)
