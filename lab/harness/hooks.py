"""M5 插线口 (hook sockets): callbacks plugged in beside the belt, by event name.

Invariant (production): every matching hook runs, decisions merge deny > ask > allow, and
hooks can only tighten. The course runs them in order and the first non-None result
short-circuits the rest, with permission simply the first PreToolUse callback.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

from lab.harness.checks import Call
from lab.switches import Switches
from lab.trace import HookFailed, HookFired, HookSkipped, StopContinued, Trace

EVENTS = (
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Stop",
)
STOP_BLOCK_CAP = 8  # production ends the turn after 8 consecutive Stop blocks
PRECEDENCE = {"deny": 3, "ask": 2, "allow": 1}

Hook = Callable[[dict[str, Any]], Any]


def hook_name(hook: Hook) -> str:
    return getattr(hook, "__name__", type(hook).__name__)


def as_decision(result: Any) -> tuple[str, str] | None:
    """A PreToolUse result as (decision, reason): a plain string blocks, as in the course."""
    if result is None:
        return None
    if isinstance(result, dict):
        decision = result.get("permissionDecision")
        return (decision, result.get("permissionDecisionReason", "")) if decision else None
    return ("deny", str(result))


def as_text(result: Any, key: str) -> str | None:
    """A Stop reason or a context string: either a plain string or the value under `key`."""
    if isinstance(result, dict):
        if key == "reason" and result.get("decision") != "block":
            return None
        return result.get(key)
    return None if result is None else str(result)


class ProductionSemantics:
    """Every matching hook runs; PreToolUse decisions merge deny > ask > allow; hooks only
    tighten, and the permission gates stay a stage of their own."""

    owns_permission = False  # the gates are their own stage of the chain

    def fire(
        self, sockets: Sockets, event: str, payload: dict[str, Any], turn: int, call_id: str | None
    ) -> list[Any]:
        """Every callback runs; their non-None results, in order."""
        return [r for _, r in sockets.each_result(event, payload, turn, call_id)]

    def prompt_context(self, results: list[Any]) -> str | None:
        texts = [t for r in results if (t := as_text(r, "additionalContext"))]
        return "\n".join(texts) or None

    def block_reason(self, call: Call, results: list[Any], hooks_ran: bool) -> str | None:
        decisions = [d for r in results if (d := as_decision(r)) and d[0] in PRECEDENCE]
        if not decisions:
            if hooks_ran:
                call.hook_decision = "silent"  # hooks ran and said nothing: no approval (D25)
            return None
        decision, reason = max(decisions, key=lambda d: PRECEDENCE[d[0]])
        if decision == "deny":
            return f"blocked by a PreToolUse hook: {reason}"
        call.hook_decision = "ask" if decision == "ask" else "allow"  # on to the permission gates
        return None


class CourseSemantics:
    """The course's s04 (D12-D14): callbacks run in order and the first non-None result
    short-circuits the rest; that result is the verdict; what UserPromptSubmit returns is
    discarded; permission is no special stage, just the first PreToolUse callback."""

    owns_permission = True  # the gates run as the first PreToolUse callback

    def fire(
        self, sockets: Sockets, event: str, payload: dict[str, Any], turn: int, call_id: str | None
    ) -> list[Any]:
        """The callbacks up to the first non-None result; the rest are skipped, visibly."""
        callbacks = sockets.callbacks[event]
        for i, result in sockets.each_result(event, payload, turn, call_id):
            for skipped in callbacks[i + 1 :]:
                sockets.trace.emit(
                    HookSkipped(turn, event, hook_name(skipped), call_id, hook_name(callbacks[i]))
                )
            return [result]
        return []

    def prompt_context(self, results: list[Any]) -> str | None:
        return None

    def block_reason(self, call: Call, results: list[Any], hooks_ran: bool) -> str | None:
        return str(results[0]) if results else None


class Sockets:
    def __init__(
        self,
        hooks: Iterable[tuple[str, Hook]],
        trace: Trace,
        switches: Switches,
        permission: Callable[[Call], str | None] | None = None,
    ) -> None:
        self.trace = trace
        self.course_hook_semantics = switches.course_hook_semantics
        self.semantics = CourseSemantics() if self.course_hook_semantics else ProductionSemantics()
        self.guard = switches.stop_hook_guard
        self.stop_blocks = 0
        self.callbacks: dict[str, list[Hook]] = {event: [] for event in EVENTS}
        self.handles_permission = self.semantics.owns_permission and permission is not None
        if permission is not None and self.handles_permission:
            self.register("PreToolUse", permission_hook(permission))
        for event, hook in hooks:
            self.register(event, hook)

    def register(self, event: str, hook: Hook) -> None:
        if event not in self.callbacks:
            raise ValueError(f"unknown hook event {event!r}; events: {', '.join(EVENTS)}")
        self.callbacks[event].append(hook)

    def each_result(
        self, event: str, payload: dict[str, Any], turn: int, call_id: str | None
    ) -> Iterator[tuple[int, Any]]:
        """Run the event's callbacks one by one, yielding (index, result) for each non-None
        result; a callback that raises is contained (visible in the trace, the run goes on)."""
        for i, hook in enumerate(self.callbacks[event]):
            try:
                result = hook({"hook_event_name": event, **payload})
            except Exception as error:
                self.trace.emit(
                    HookFailed(
                        turn, event, hook_name(hook), call_id, f"{type(error).__name__}: {error}"
                    )
                )
                continue
            self.trace.emit(HookFired(turn, event, hook_name(hook), call_id, result))
            if result is not None:
                yield i, result

    def fire(
        self, event: str, payload: dict[str, Any], turn: int, call_id: str | None = None
    ) -> list[Any]:
        """Run the event's callbacks as the semantics say; their non-None results."""
        return self.semantics.fire(self, event, payload, turn, call_id)

    # -- the events, as the layers use them -------------------------------------------------
    def user_prompt(self, turn: int, prompt: str) -> str | None:
        """Context to add to the prompt (the course discards what the hooks return)."""
        results = self.fire("UserPromptSubmit", {"prompt": prompt}, turn)
        return self.semantics.prompt_context(results)

    def pre_tool_use(self, call: Call) -> str | None:
        """The hooks stage of the chain: a reason to block the call, or None."""
        payload = {"tool_name": call.name, "tool_input": call.input, "tool_use_id": call.id}
        results = self.fire("PreToolUse", {**payload, "call": call}, call.turn, call.id)
        return self.semantics.block_reason(call, results, bool(self.callbacks["PreToolUse"]))

    def post_tool_use(self, call: Call, output: str, is_error: bool) -> None:
        event = "PostToolUseFailure" if is_error else "PostToolUse"
        payload = {"tool_name": call.name, "tool_input": call.input, "tool_use_id": call.id}
        self.fire(event, {**payload, "tool_response": output}, call.turn, call.id)

    def post_tool_batch(self, turn: int, call_ids: list[str]) -> None:
        self.fire("PostToolBatch", {"tool_use_ids": call_ids}, turn)

    def stop(self, turn: int) -> str | None:
        """A reason to continue instead of stopping, or None to stop."""
        if self.guard and self.stop_blocks >= STOP_BLOCK_CAP:
            return None  # the cap: a Stop hook that always blocks cannot loop forever
        payload = {"stop_hook_active": self.guard and self.stop_blocks > 0}
        results = self.fire("Stop", payload, turn)
        reasons = [t for r in results if (t := as_text(r, "reason"))]
        if not reasons:
            return None
        self.stop_blocks += 1
        self.trace.emit(StopContinued(turn, "Stop", reasons[0]))
        return reasons[0]


def permission_hook(permission: Callable[[Call], str | None]) -> Hook:
    """The course's permission_hook: the gates, wrapped as a PreToolUse callback."""

    def permission_hook(payload: dict[str, Any]) -> str | None:
        return permission(payload["call"])

    return permission_hook
