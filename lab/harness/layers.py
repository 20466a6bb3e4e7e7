"""The detachable layers hung outside the loop, seen from the loop as four calls.

The loop asks: what is the prompt message, what history do I send, what are the results
of these calls, may I stop? Everything that answers (dispatch table, chain of checks,
gates, hooks, the pairing obligation) is wired here and lives in its own module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lab.harness.checks import Call, CheckChain, known_tool, tool_check, valid_input
from lab.harness.hooks import Hook, Sockets
from lab.harness.pairing import Pairing
from lab.harness.permissions import Gates, Human, Permissions
from lab.harness.results import tool_result
from lab.harness.tools import ToolError, ToolRegistry
from lab.switches import Switches
from lab.trace import HistoryTrimmed, ResultAppended, ToolCallSeen, ToolExecuted, Trace
from lab.world import World


class Layers:
    def __init__(
        self,
        registry: ToolRegistry,
        trace: Trace,
        world: World,
        switches: Switches | None = None,
        *,
        permissions: Permissions | None = None,
        human: Human | None = None,
        hooks: Iterable[tuple[str, Hook]] = (),
        keep_last: int | None = None,
    ) -> None:
        self.registry, self.trace, self.world = registry, trace, world
        self.switches = switches = switches or Switches()
        self.keep_last = keep_last
        self.pairing = Pairing(switches)
        self.gates = Gates(permissions or Permissions(), human or Human(), world, trace, switches)
        self.sockets = Sockets(hooks, trace, switches, permission=self.gates.judge)
        stages = [
            ("known_tool", known_tool),
            ("validation", valid_input),
            ("tool_check", tool_check),
            ("hooks", self.sockets.pre_tool_use),
        ]
        if not self.sockets.handles_permission:
            stages.append(("permission", self.gates.judge))
        self.chain = CheckChain(stages, trace)

    # -- the four calls the loop makes ----------------------------------------------------
    def prompt_message(self, turn: int, prompt: str) -> dict[str, Any]:
        context = self.sockets.user_prompt(turn, prompt)
        if context is None:
            return {"role": "user", "content": prompt}
        blocks = [{"type": "text", "text": prompt}, {"type": "text", "text": context}]
        return {"role": "user", "content": blocks}

    def history(self, turn: int, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The history to send: trimmed to the last `keep_last` messages when set."""
        if self.keep_last is None:
            return messages
        trimmed, removed = self.pairing.trim(messages, self.keep_last)
        if removed:
            self.trace.emit(HistoryTrimmed(turn, removed, len(trimmed)))
        return trimmed

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
                result = self.pairing.blocked_result(
                    call.id, f"Blocked at {stopped.stage}: {stopped.reason}"
                )
            else:
                output, is_error = self.execute(call)
                self.sockets.post_tool_use(call, output, is_error)
                result = tool_result(call.id, output, is_error=is_error)
            if result is not None:
                self.trace.emit(
                    ResultAppended(turn, call.id, bool(result.get("is_error")), result["content"])
                )
                results.append(result)
        self.sockets.post_tool_batch(turn, [b.id for b in blocks])
        return results

    def stop_continuation(self, turn: int) -> str | None:
        """A reason to keep going although the answer held no tool call (the Stop socket)."""
        return self.sockets.stop(turn)

    # -- execution ---------------------------------------------------------------------
    def execute(self, call: Call) -> tuple[str, bool]:
        assert call.tool is not None
        started = self.world.clock.now
        try:
            output, is_error = call.tool.handler(**call.input), False
        except ToolError as error:
            output, is_error = f"Error: {error}", True
        except Exception as error:  # a broken tool must not crash the loop
            output, is_error = f"Error: {type(error).__name__}: {error}", True
        finished = self.world.clock.now
        self.trace.emit(
            ToolExecuted(
                call.turn, call.id, call.name, call.input, output, is_error, started, finished
            )
        )
        return output, is_error
