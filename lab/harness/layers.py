"""The detachable layers hung outside the loop, seen from the loop as five calls.

The loop asks: what is the prompt message, which tools do I offer, what history do I send,
what are the results of these calls, may I stop? Everything that answers (dispatch table,
chain of checks, gates, hooks, the pairing obligation) is wired here from the parts it is
given (lab/harness/parts.py; the switchboard chooses them), each part in its own module.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from lab.harness.batching import Trays
from lab.harness.checks import Call, build_chain, plain, tool_check, valid_input
from lab.harness.hooks import Hook, Sockets
from lab.harness.model_call import ToolCall
from lab.harness.pairing import Pairing
from lab.harness.parts import Parts
from lab.harness.permissions import Gates, Human, Permissions
from lab.harness.results import ResultCaps
from lab.harness.tools import ToolRegistry
from lab.kernel.trace import HistoryTrimmed, ResultAppended, ToolCallSeen, ToolExecuted, Trace
from lab.world import World


class Layers:
    def __init__(
        self,
        registry: ToolRegistry,
        trace: Trace,
        world: World,
        parts: Parts | None = None,
        *,
        permissions: Permissions | None = None,
        human: Human | None = None,
        hooks: Iterable[tuple[str, Hook]] = (),
        keep_last: int | None = None,
    ) -> None:
        self.registry, self.trace, self.world = registry, trace, world
        p = parts or Parts()  # the layers' parts (M2–M5); the loop gets its own (M1) beside them
        self.keep_last = keep_last
        self.pairing = Pairing(p.pairing)
        self.gates = Gates(
            permissions or Permissions(),
            human or Human(),
            world,
            trace,
            order=p.gate_order,
            deny_scope=p.deny_scope,
            compound=p.compound,
            hook_allow=p.hook_allow,
            hook_silence=p.hook_silence,
        )
        self.sockets = Sockets(
            hooks,
            trace,
            semantics=p.hook_semantics,
            stop_guard=p.stop_guard,
            permission=self.gates.judge,
        )
        self.trays = Trays(world, trace, trays=p.trays, concurrency=p.concurrency)
        self.caps = ResultCaps(world, trace, read=p.read_cap)
        hooks_place = p.hooks_place()
        stages = {
            "known_tool": plain(p.known_tool()),
            "complete_input": plain(p.complete_input()),
            "validation": plain(valid_input),
            "tool_check": plain(tool_check),
            "hooks": hooks_place.stage(self.sockets.pre_tool_use),
            # The course's hooks own permission: it is their first PreToolUse callback.
            "permission": None if self.sockets.handles_permission else self.gates.judge,
        }
        order = p.front_half().keep(p.chain_order.stages)
        self.chain = build_chain(hooks_place.place(order), stages, trace)
        self.invoke = p.dispatch.invoke  # every failure a result, or the course's bare call

    # -- the calls the loop makes -----------------------------------------------------------
    def tools(self) -> list[dict[str, Any]]:
        """The tools to offer the model, as the Messages API `tools` parameter expects them."""
        return self.registry.to_api()

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

    def run_calls(self, turn: int, tool_calls: list[ToolCall]) -> list[dict[str, Any]]:
        """Calls cut into trays; each call down the chain, the passing ones executed; one
        result per call, returned in call order."""
        calls = [
            Call(c.id, c.name, dict(c.input), self.registry.get(c.name), turn, c.cut_off)
            for c in tool_calls
        ]
        for call in calls:
            self.trace.emit(ToolCallSeen(turn, call.id, call.name, call.input))
        results: dict[str, dict[str, Any] | None] = {}
        for tray in self.trays.cut(calls):
            runnable = []
            for call in tray:
                stopped = self.chain.judge(call)
                if stopped:
                    reason = f"Blocked at {stopped.stage}: {stopped.reason}"
                    results[call.id] = self.pairing.blocked_result(call.id, reason)
                else:
                    runnable.append(call)
            outcomes = self.trays.run(turn, runnable, self.execute)
            for call, (output, is_error) in zip(runnable, outcomes, strict=True):
                self.sockets.post_tool_use(call, output, is_error)
                results[call.id] = self.caps.result(turn, call.id, call.name, output, is_error)
            self.sockets.post_tool_batch(turn, [c.id for c in tray])
        ordered = [r for c in calls if (r := results[c.id]) is not None]
        for r in ordered:
            self.trace.emit(
                ResultAppended(turn, r["tool_use_id"], bool(r.get("is_error")), r["content"])
            )
        return ordered

    def stop_continuation(self, turn: int) -> str | None:
        """A reason to keep going although the answer held no tool call (the Stop socket)."""
        return self.sockets.stop(turn)

    # -- execution ---------------------------------------------------------------------
    def execute(self, call: Call) -> tuple[str, bool]:
        assert call.tool is not None
        started = self.world.clock.now
        output, is_error = self.invoke(call.tool, call.input)
        finished = self.world.clock.now
        self.trace.emit(
            ToolExecuted(
                call.turn, call.id, call.name, call.input, output, is_error, started, finished
            )
        )
        return output, is_error
