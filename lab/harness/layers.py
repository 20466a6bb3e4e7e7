"""The detachable layers hung outside the loop, seen from the loop as three calls.

The loop asks: what is the prompt message, what are the results of these calls, may I
stop? Everything that answers (dispatch table, chain of checks, gates, hooks) lives here.
"""

from __future__ import annotations

from typing import Any

from lab.harness.checks import Call, CheckChain, known_tool, tool_check, valid_input
from lab.harness.results import tool_result
from lab.harness.tools import ToolError, ToolRegistry
from lab.switches import Switches
from lab.trace import ResultAppended, ToolCallSeen, ToolExecuted, Trace
from lab.world import VirtualClock


class Layers:
    def __init__(
        self,
        registry: ToolRegistry,
        trace: Trace,
        clock: VirtualClock,
        switches: Switches | None = None,
    ) -> None:
        self.registry = registry
        self.trace = trace
        self.clock = clock
        self.switches = switches or Switches()
        self.chain = CheckChain(
            [("known_tool", known_tool), ("validation", valid_input), ("tool_check", tool_check)],
            trace,
        )

    # -- the three calls the loop makes -------------------------------------------------
    def prompt_message(self, turn: int, prompt: str) -> dict[str, Any]:
        return {"role": "user", "content": prompt}

    def run_calls(self, turn: int, blocks: list[Any]) -> list[dict[str, Any]]:
        """Each call down the chain, then executed; one result per call, in call order."""
        results = []
        for block in blocks:
            call = Call(
                block.id, block.name, dict(block.input), self.registry.get(block.name), turn
            )
            self.trace.emit(ToolCallSeen(turn, call.id, call.name, call.input))
            stopped = self.chain.judge(call)
            if stopped:
                content, is_error = f"Blocked at {stopped.stage}: {stopped.reason}", True
            else:
                content, is_error = self.execute(call)
            self.trace.emit(ResultAppended(turn, call.id, is_error, content))
            results.append(tool_result(call.id, content, is_error=is_error))
        return results

    def stop_continuation(self, turn: int) -> str | None:
        """A reason to keep going although the answer held no tool call (the Stop socket)."""
        return None

    # -- execution ---------------------------------------------------------------------
    def execute(self, call: Call) -> tuple[str, bool]:
        assert call.tool is not None
        started = self.clock.now
        try:
            output, is_error = call.tool.handler(**call.input), False
        except ToolError as error:
            output, is_error = f"Error: {error}", True
        except Exception as error:  # a broken tool must not crash the loop
            output, is_error = f"Error: {type(error).__name__}: {error}", True
        self.trace.emit(
            ToolExecuted(
                call.turn, call.id, call.name, call.input, output, is_error, started, self.clock.now
            )
        )
        return output, is_error
