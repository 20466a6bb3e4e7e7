"""Observables: plain-named measurements a student can say aloud, each a query over a Run.

They read only the trace, the final messages, the final world and the fake API's log.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from lab.harness.results import SPILL_DIR
from lab.harness.tools import invoke
from lab.kernel.promises import cut_calls_not_run, deny_dominance, history_problem
from lab.kernel.scenario import Run, record_of, tools_for
from lab.kernel.schema import jsonschema
from lab.kernel.trace import (
    CheckFailed,
    HookFired,
    HookSkipped,
    HumanAsked,
    ModelAnswered,
    ModelCalled,
    ModelRetried,
    ResultSpilled,
    ToolCallSeen,
    ToolExecuted,
    ToolRefused,
)
from lab.world import World

Observable = Callable[[Run], Any]


def pairs_intact(run: Run) -> bool:
    """Every tool_use is answered once at the head of the very next user message (in any
    order, as the API takes it), and every tool_result answers a tool_use of the message right
    before it (the pairing promise, read from the final history)."""
    return history_problem(run.messages) is None


def api_rejected(run: Run) -> bool:
    """The fake API answered one of the harness's requests with an HTTP 400."""
    return any(r.status == 400 for r in run.api.rejections)


def tool_calls_dropped(run: Run) -> int:
    """Tool calls the model made that the harness never even looked at."""
    asked = [
        b["id"] for e in run.trace.of(ModelAnswered) for b in e.blocks if b["type"] == "tool_use"
    ]
    seen = {e.call_id for e in run.trace.of(ToolCallSeen)}
    return sum(1 for call_id in asked if call_id not in seen)


def tool_calls_executed(run: Run) -> int:
    return len(run.trace.of(ToolExecuted))


def tool_calls_failed(run: Run) -> int:
    return sum(1 for e in run.trace.of(ToolExecuted) if e.is_error)


def turns(run: Run) -> int:
    """Model calls made."""
    return len(run.trace.of(ModelCalled))


def ended_by_limit(run: Run) -> bool:
    return run.ended == "turn_limit"


def run_completed(run: Run) -> bool:
    """The run ended on its own terms: the model was done, or the turn limit came (not a
    crash, not an API error or an unreadable answer that stopped it)."""
    return run.ended in ("done", "turn_limit")


def model_retries(run: Run) -> int:
    """Model calls asked again after a transient fault."""
    return len(run.trace.of(ModelRetried))


def ran_truncated_call(run: Run) -> bool:
    """A call whose input JSON the API cut off at max_tokens actually executed."""
    return cut_calls_not_run(record_of(run)) is not None


def files_lost(run: Run) -> int:
    """Files of the initial virtual disk that are gone at the end."""
    final = run.world.snapshot()
    return sum(1 for path in run.initial_files if path not in final)


def human_prompts(run: Run) -> int:
    return len(run.trace.of(HumanAsked))


def ran_denied_by_rule(run: Run) -> bool:
    """A call that one of the scenario's deny rules covers actually executed."""
    return deny_dominance(record_of(run)) is not None


def contract_errors_at_registration(run: Run) -> int:
    return len(run.trace.of(ToolRefused))


def human_prompts_for_invalid_calls(run: Run) -> int:
    """Questions put to the human about calls whose input does not fit the tool's schema: a
    fact about the call, whether the harness validates it or not (the course does not)."""
    schemas = {
        t.name: t
        for t in [*tools_for(World.create(), run.switches), *run.scenario.tools(World.create())]
    }
    # Judged with jsonschema itself, not the harness's validation stage: the measure must not
    # share code with the mechanism it measures.
    invalid = {
        e.call_id
        for e in run.trace.of(ToolCallSeen)
        if e.name in schemas
        and not jsonschema().Draft202012Validator(schemas[e.name].input_schema).is_valid(e.input)
    }
    return sum(1 for e in run.trace.of(HumanAsked) if e.call_id in invalid)


def outside_reads(run: Run) -> int:
    """File reads outside the workspace that succeeded."""
    return sum(
        1
        for e in run.trace.of(ToolExecuted)
        if e.name == "read_file"
        and not e.is_error
        and not run.world.inside_workspace(e.input["path"])
    )


def denied_calls_logged(run: Run) -> int:
    """Denied calls that some hook other than the permission hook still saw (the audit log)."""
    denied = {e.call_id for e in run.trace.of(CheckFailed) if e.stage in ("hooks", "permission")}
    seen = {
        e.call_id
        for e in run.trace.of(HookFired)
        if e.event == "PreToolUse" and e.hook != "permission_hook"
    }
    return len(denied & seen)


def post_hooks_skipped(run: Run) -> int:
    return sum(1 for e in run.trace.of(HookSkipped) if e.event == "PostToolUse")


def context_injected(run: Run) -> bool:
    """The first request carried more than the bare prompt in its first message."""
    first = run.api.requests[0]["messages"][0]["content"] if run.api.requests else ""
    return not isinstance(first, str) and len(first) > 1


def spill_files(run: Run) -> int:
    return len(run.trace.of(ResultSpilled))


def wasted_turns(run: Run) -> int:
    """Reads of spill files: turns spent chasing the harness's own pointers."""
    return sum(
        1
        for e in run.trace.of(ToolExecuted)
        if e.name == "read_file" and f"/{SPILL_DIR}/" in run.world.resolve(e.input["path"])
    )


def stale_reads(run: Run) -> int:
    """Executed calls whose output differs from a serial replay in the model's order."""
    world = World.create(run.initial_files, with_system_files=False)
    tools = {t.name: t for t in tools_for(world, run.switches)}
    return sum(
        1
        for e in run.trace.of(ToolExecuted)
        if e.name in tools and invoke(tools[e.name], e.input)[0] != e.output
    )


def makespan_s(run: Run) -> float:
    """Virtual seconds the whole run took (only tools move the clock)."""
    return run.world.clock.now


def ran(tool: str, **input_equals: Any) -> Observable:
    """Did a call of `tool` whose input has these values actually execute?"""

    def observe(run: Run) -> bool:
        return any(
            e.name == tool and all(e.input.get(k) == v for k, v in input_equals.items())
            for e in run.trace.of(ToolExecuted)
        )

    observe.__doc__ = f"a {tool} call with {input_equals} executed"
    return observe


STANDARD: dict[str, Observable] = {
    fn.__name__: fn
    for fn in [
        pairs_intact,
        api_rejected,
        tool_calls_dropped,
        tool_calls_executed,
        tool_calls_failed,
        turns,
        ended_by_limit,
        run_completed,
        model_retries,
        ran_truncated_call,
        files_lost,
        human_prompts,
        ran_denied_by_rule,
        contract_errors_at_registration,
        human_prompts_for_invalid_calls,
        outside_reads,
        denied_calls_logged,
        post_hooks_skipped,
        context_injected,
        spill_files,
        wasted_turns,
        stale_reads,
        makespan_s,
    ]
}
STANDARD["ran_deny_listed"] = ran_denied_by_rule  # the seed's name for the same fact
