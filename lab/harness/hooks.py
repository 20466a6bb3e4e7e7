"""M5 插线口 (hook sockets): callbacks plugged in beside the belt, by event name.

Invariant (production): every matching hook runs, decisions merge deny > ask > allow, and
hooks can only tighten. The course runs them in order and the first non-None result
short-circuits the rest, with permission simply the first PreToolUse callback.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from typing import Any

from lab.harness.checks import PASS, Call, Earlier, Said, Stage
from lab.harness.course_hooks import COURSE_EVENTS
from lab.kernel.trace import HookFailed, HookFired, HookSkipped, StopContinued, Trace

EVENTS = (
    "UserPromptSubmit",
    "PreToolUse",
    "PostToolUse",
    "PostToolUseFailure",
    "PostToolBatch",
    "Stop",
)
# Production ends the turn after 8 *consecutive* Stop blocks (v2.1.143): a Stop that passes
# (the turn ends) starts the count over, so a later prompt gets 8 blocks of its own.
STOP_BLOCK_CAP = 8
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
    events: tuple[str, ...] = EVENTS  # the events this harness fires
    failure_event = "PostToolUseFailure"  # the event a failed tool call fires

    def fire(
        self, sockets: Sockets, event: str, payload: dict[str, Any], turn: int, call_id: str | None
    ) -> list[Any]:
        """Every callback runs; their non-None results, in order."""
        return [r for _, r in sockets.each_result(event, payload, turn, call_id)]

    def prompt_context(self, results: list[Any]) -> str | None:
        texts = [t for r in results if (t := as_text(r, "additionalContext"))]
        return "\n".join(texts) or None

    def verdict(self, results: list[Any], hooks_ran: bool) -> Said:
        decisions = [d for r in results if (d := as_decision(r)) and d[0] in PRECEDENCE]
        if not decisions:  # hooks that ran and said nothing: "silent", which approves nothing
            return Said(word="silent") if hooks_ran else PASS
        decision, reason = max(decisions, key=lambda d: PRECEDENCE[d[0]])
        if decision == "deny":
            return Said(f"blocked by a PreToolUse hook: {reason}")
        return Said(word=decision)  # "ask" or "allow": a word for the permission gates


class CourseSemantics(ProductionSemantics):
    """The course's s04 (D12-D14): callbacks run in order and the first non-None result
    short-circuits the rest; that result is the verdict; what UserPromptSubmit returns is
    discarded; permission is no special stage, just the first PreToolUse callback."""

    owns_permission = True  # the gates run as the first PreToolUse callback
    events = COURSE_EVENTS  # four events: no failure event, no batch event
    failure_event = "PostToolUse"  # a failed call's "Error: ..." string is just its output

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

    def verdict(self, results: list[Any], hooks_ran: bool) -> Said:
        return Said(str(results[0])) if results else PASS


# -- the Stop socket's guard ------------------------------------------------------------------
class StopGuard:
    """The reference: once a Stop hook has taken the turn over the Stop payload says
    `stop_hook_active`, and after STOP_BLOCK_CAP consecutive blocks the turn ends anyway."""

    def __init__(self) -> None:
        self.blocks = 0  # consecutive Stop blocks; a Stop that passes starts over

    def active(self) -> bool:
        return self.blocks > 0

    def capped(self) -> bool:
        return self.blocks >= STOP_BLOCK_CAP


class NoStopGuard(StopGuard):
    """D16, the course: no stop_hook_active flag and no cap, so a Stop hook that always
    blocks runs the loop to the turn limit."""

    def active(self) -> bool:
        return False

    def capped(self) -> bool:
        return False


# -- where the hooks stand in the chain (D24) -------------------------------------------------
class HooksFirst:
    """The reference: a blocking hook stops the call before the rules, so it beats an
    allow rule (official permissions docs)."""

    def place(self, order: tuple[str, ...]) -> tuple[str, ...]:
        return order

    def stage(self, hooks: Stage) -> Stage:
        return hooks


class HooksAsFallback(HooksFirst):
    """D24: the hooks consulted after the rules, like a fallback callback, and only when no
    allow rule has settled the call, so an allow rule outranks a blocking hook."""

    def place(self, order: tuple[str, ...]) -> tuple[str, ...]:
        rest = [name for name in order if name != "permission"]
        at = rest.index("hooks") if "hooks" in rest else len(rest)
        return (*rest[:at], "permission", *rest[at:])

    def stage(self, hooks: Stage) -> Stage:
        def fallback(call: Call, earlier: Earlier) -> Said:
            settled = earlier.get("permission", PASS).word == "allow"
            return PASS if settled else hooks(call, earlier)

        return fallback


# -- what a hook's word means to the permission gates (D15, D25) -----------------------------
class HooksOnlyTighten:
    """The reference (official docs): a hook's "allow" never skips a deny or ask rule."""

    def skips_rules(self, word: str | None) -> bool:
        return False


class HookAllowSkipsRules(HooksOnlyTighten):
    """D15, the pre-v2.1.77 bug: a hook's "allow" skips every rule, deny included."""

    def skips_rules(self, word: str | None) -> bool:
        return word == "allow"


class SilenceIsNothing:
    """The reference: only a hook's "allow" answers the default question; hooks that ran and
    said nothing approve nothing (official hooks guidance)."""

    def approves(self, word: str | None) -> bool:
        return word == "allow"


class SilenceIsApproval(SilenceIsNothing):
    """D25: hooks that ran and said nothing count as an allow, and the question the human
    would have been asked is skipped."""

    def approves(self, word: str | None) -> bool:
        return word in ("allow", "silent")


class Sockets:
    def __init__(
        self,
        hooks: Iterable[tuple[str, Hook]],
        trace: Trace,
        *,
        semantics: type[ProductionSemantics] = ProductionSemantics,
        stop_guard: type[StopGuard] = StopGuard,
        permission: Stage | None = None,
    ) -> None:
        self.trace = trace
        self.semantics = semantics()
        self.guard = stop_guard()
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
        """Run the event's callbacks as the semantics say; their non-None results. An event
        the harness does not have (the course's four have no PostToolBatch) fires nothing."""
        if event not in self.semantics.events:
            return []
        return self.semantics.fire(self, event, payload, turn, call_id)

    # -- the events, as the layers use them -------------------------------------------------
    def user_prompt(self, turn: int, prompt: str) -> str | None:
        """Context to add to the prompt (the course discards what the hooks return)."""
        results = self.fire("UserPromptSubmit", {"prompt": prompt}, turn)
        return self.semantics.prompt_context(results)

    def pre_tool_use(self, call: Call, earlier: Earlier) -> Said:
        """The hooks stage of the chain: stop the call, or pass it with a word for the gates."""
        # A hook gets a copy: what it does to its payload never changes the call that runs.
        seen = replace(call, input=copy.deepcopy(call.input))
        payload = {"tool_name": call.name, "tool_input": seen.input, "tool_use_id": call.id}
        results = self.fire("PreToolUse", {**payload, "call": seen}, call.turn, call.id)
        return self.semantics.verdict(results, bool(self.callbacks["PreToolUse"]))

    def post_tool_use(self, call: Call, output: str, is_error: bool) -> None:
        event = self.semantics.failure_event if is_error else "PostToolUse"
        payload = {
            "tool_name": call.name,
            "tool_input": copy.deepcopy(call.input),
            "tool_use_id": call.id,
        }
        self.fire(event, {**payload, "tool_response": output}, call.turn, call.id)

    def post_tool_batch(self, turn: int, call_ids: list[str]) -> None:
        self.fire("PostToolBatch", {"tool_use_ids": call_ids}, turn)

    def stop(self, turn: int) -> str | None:
        """A reason to continue instead of stopping, or None to stop."""
        if self.guard.capped():  # a Stop hook that always blocks cannot loop forever
            self.guard.blocks = 0  # the turn ends here: the next one counts afresh
            return None
        results = self.fire("Stop", {"stop_hook_active": self.guard.active()}, turn)
        reasons = [t for r in results if (t := as_text(r, "reason"))]
        if not reasons:
            self.guard.blocks = 0  # the blocks were consecutive; this Stop passed
            return None
        self.guard.blocks += 1
        self.trace.emit(StopContinued(turn, "Stop", reasons[0]))
        return reasons[0]


def permission_hook(permission: Stage) -> Hook:
    """The course's permission_hook: the gates, wrapped as a PreToolUse callback (the first:
    no hook has spoken before it)."""

    def permission_hook(payload: dict[str, Any]) -> str | None:
        return permission(payload["call"], {}).stop

    return permission_hook
