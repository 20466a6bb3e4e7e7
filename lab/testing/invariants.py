"""The invariants: named promises of the reference harness, each a query over one Run.

A check returns None when its promise holds, or one line saying what broke. Every check
reads only what a Run leaves behind (trace, messages, world, the fake API's log); a few
replay the executed calls serially, or run a hook-free twin, to have something to compare.
"""

from __future__ import annotations

import itertools
import json
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from lab.harness.batching import MAX_PARALLEL
from lab.harness.checks import Call
from lab.harness.hooks import STOP_BLOCK_CAP, as_decision
from lab.harness.permissions import Gates, Human
from lab.harness.retry import MAX_RETRIES
from lab.harness.tools import Tool, contract_mismatch, invoke
from lab.kernel import promises
from lab.kernel.promises import block_key
from lab.kernel.scenario import Run, record_of, run_scenario, tools_for
from lab.kernel.schema import jsonschema
from lab.kernel.trace import (
    BatchRan,
    CheckFailed,
    CheckPassed,
    HookFailed,
    HookFired,
    HumanAsked,
    ModelAnswered,
    ModelCalled,
    ResultAppended,
    ResultSpilled,
    RunEnded,
    StopContinued,
    ToolCallSeen,
    ToolExecuted,
    ToolRefused,
    Trace,
)
from lab.model.tool_pairs import CALL_ORDER, blocks_of, leading_result_ids, tool_use_ids, unanswered
from lab.testing.catalog import always_yes
from lab.world import World, is_read_only

Check = Callable[[Run], str | None]
FILE_TOOLS = ("read_file", "write_file", "edit_file")
# the checks before hooks and gates
CHEAP_STAGES = ("known_tool", "complete_input", "validation", "tool_check")


@dataclass(frozen=True)
class Invariant:
    """One promise: a short name for tables, a title in English and Chinese, and its check."""

    name: str
    title: str
    zh: str
    check: Check
    course: bool  # the course preset (Switches.course()) keeps this promise too

    @property
    def promise(self) -> str:
        return " ".join((self.check.__doc__ or "").split())


# ---- helpers -------------------------------------------------------------------------------
def executed(run: Run) -> list[ToolExecuted]:
    return run.trace.of(ToolExecuted)


def call_names(run: Run) -> dict[str, str]:
    return {e.call_id: e.name for e in run.trace.of(ToolCallSeen)}


def fresh_world(run: Run) -> World:
    """The run's initial disk again, on its own clock."""
    return World.create(run.initial_files, with_system_files=False)


def tools_of(run: Run, world: World) -> dict[str, Tool]:
    """The tools the run's harness was offered, bound to `world`."""
    return {t.name: t for t in [*tools_for(world, run.switches), *run.scenario.tools(world)]}


def replay(run: Run) -> tuple[World, list[tuple[str, bool]]]:
    """The executed calls run one by one, in the model's order, on the initial disk; the
    harness's own spill files are written where the trace says they were."""
    world = fresh_world(run)
    tools = tools_of(run, world)
    outputs: dict[str, str] = {}
    results = []
    for event in run.trace.events:
        if isinstance(event, ToolExecuted):
            results.append(invoke(tools[event.name], event.input))
            outputs[event.call_id] = event.output
        elif isinstance(event, ResultSpilled):
            world.fs.write(event.path, outputs[event.call_id])
    return world, results


def show_call(event: ToolExecuted | ToolCallSeen) -> str:
    return f"{event.call_id} {event.name} {json.dumps(event.input, ensure_ascii=False)}"


# ---- M1: the loop --------------------------------------------------------------------------
# The promise `pairing` (lab/kernel/promises.py), and stricter: the lab's own call order.
def pairing_in_call_order(run: Run) -> str | None:
    """Every request the harness sends passes the fake API's validation: each tool_use is
    answered exactly once, by a tool_result at the head of the very next user message, and
    the results come in call order."""
    if problem := promises.pairing(record_of(run)):
        return problem
    for n, body in enumerate(run.api.requests):
        messages = body["messages"]
        for message, following in itertools.pairwise(messages):
            calls = tool_use_ids(blocks_of(message)) if message["role"] == "assistant" else []
            answered = leading_result_ids(blocks_of(following))
            if calls and unanswered(calls, answered, CALL_ORDER):  # stricter than the API
                return f"request #{n}: calls {calls} are answered as {answered}"
    return None


# The promise `continuation`, and stricter: no call without a tool_use, the Stop hook cap.
def continuation_only_on_tool_use(run: Run) -> str | None:
    """The harness calls the model again if and only if the last answer's content held a
    tool_use block, or a Stop hook blocked the stop, and a Stop hook blocks at most
    STOP_BLOCK_CAP (8) times: whatever the declared stop_reason says. (A run that crashes
    while running the calls breaks it too: the call that should follow never comes.)"""
    if problem := promises.continuation(record_of(run)):
        return problem
    called = {e.turn for e in run.trace.of(ModelCalled)}
    stop_blocked = {e.turn for e in run.trace.of(StopContinued)}
    if len(stop_blocked) > STOP_BLOCK_CAP:
        return f"a Stop hook blocked {len(stop_blocked)} times; the cap is {STOP_BLOCK_CAP}"
    for answer in run.trace.of(ModelAnswered):
        t = answer.turn
        holds = any(block.get("type") == "tool_use" for block in answer.blocks)
        declared = f"declared {answer.stop_reason!r}"
        if t + 1 in called and not holds and t not in stop_blocked:
            return f"turn {t} held no tool_use block ({declared}), yet the model was called again"
    return None


# The promise `termination`, and stricter: the trace ends once, nothing after its end.
def ends_once_within_limit(run: Run) -> str | None:
    """Every run ends exactly once, within the turn limit (no more model calls than
    max_turns), and nothing happens after it ended."""
    if problem := promises.termination(record_of(run)):
        return problem
    calls = len(run.trace.of(ModelCalled))
    if calls > run.scenario.max_turns:
        return f"{calls} model calls, the limit is {run.scenario.max_turns}"
    ends = run.trace.of(RunEnded)
    if len(ends) != 1 or run.trace.events[-1] is not ends[0]:
        return f"the run ended {len(ends)} times, or events followed its end"
    return None


def no_crash(run: Run) -> str | None:
    """No model answer makes the harness raise: an unknown tool, a malformed input, a
    failing tool or hook all become is_error results, and the run ends on its own terms."""
    problem = promises.no_crash(record_of(run))
    return f"the harness crashed: {problem}" if problem else None


# ---- the API's faults ----------------------------------------------------------------------
def retried(run: Run) -> str | None:
    """A transient fault (429, 529, 5xx, an error event or a dropped connection in a stream)
    ends a run only after MAX_RETRIES (5) retries of the same model call: until then the
    harness waits and asks again."""
    return promises.retried(record_of(run), patience=MAX_RETRIES)


def whole_answers(run: Run) -> str | None:
    """Only answers the API finished enter the history: every assistant message the harness
    sends is one of them, and every call it runs belongs to one (a stream that broke
    part-way delivered a draft: none of its blocks is sent back, none of its calls runs)."""
    record = record_of(run)
    if problem := promises.partial_dropped(record) or promises.resent_whole(record):
        return problem
    finished = [tuple(block_key(b) for b in reply["content"]) for reply in run.api.replies]
    calls = {b["id"] for reply in run.api.replies for b in reply["content"] if "id" in b}
    for n, body in enumerate(run.api.requests):
        messages = body.get("messages")
        for i, message in enumerate(messages if isinstance(messages, list) else []):
            content = message.get("content") if isinstance(message, dict) else None
            if not isinstance(content, list) or message.get("role") != "assistant":
                continue
            if tuple(block_key(b) for b in content) not in finished:
                return f"request #{n}: messages.{i} is no answer the API finished"
    for event in executed(run):
        if event.call_id not in calls:
            return f"{show_call(event)} ran, but no finished answer holds it"
    return None


# The promise `cut_calls_not_run`, and stricter: the cut call is answered with is_error.
def cut_calls_refused(run: Run) -> str | None:
    """A call whose input JSON max_tokens cut off never runs: what arrived is not the call
    the model made. It is answered with an is_error tool_result saying so."""
    if problem := promises.cut_calls_not_run(record_of(run)):
        return problem
    cut = set(run.api.cut_calls)
    for result in run.trace.of(ResultAppended):
        if result.call_id in cut and not result.is_error:
            return f"the cut call {result.call_id} was answered as if it had run"
    return None


# ---- M4/M5: permissions and hooks ----------------------------------------------------------
def deny_dominance(run: Run) -> str | None:
    """A call that matches a deny rule or the deny list never executes, whatever the rules'
    order, the human's answers or the hooks' decisions (judged part by part for compound
    commands, the reference way)."""
    return promises.deny_dominance(record_of(run))


def permission_refusals(run: Run) -> set[str]:
    """Calls stopped by the permission stage (the course's permission is a hook)."""
    return {e.call_id for e in run.trace.of(CheckFailed) if e.stage in ("hooks", "permission")}


def hooks_only_tighten(run: Run) -> str | None:
    """Hooks only tighten: a call that the permission rules refuse without hooks, even with a
    human who approves everything, never executes with the hooks, whatever the human says.
    (Judged call by call at the gates: a hook that blocks `rm x` may well let a later
    `cat x` run that would have failed, so the sets of executed calls are not compared.)"""
    calls = executed(run)
    if not calls or not any(event == "PreToolUse" for event, _ in run.scenario.hooks):
        return None  # nothing ran, or no hook could have let it: no twin needed to judge
    twin = run_scenario(replace(run.scenario, hooks=(), human=lambda question: "y"), run.switches)
    refused = permission_refusals(twin)
    for event in calls:
        if event.call_id in refused:
            return f"{show_call(event)} executed with hooks; without hooks the gates refuse it"
    return None


def every_hook_runs(run: Run) -> str | None:
    """Every hook registered for an event sees every call that reaches it: each
    UserPromptSubmit hook sees the prompt, each PreToolUse hook every call that reaches the
    hooks stage, each PostToolUse / PostToolUseFailure hook every executed call; a hook's
    result never silences the hooks registered after it."""
    registered: dict[str, Counter[str]] = {}
    for event, hook in run.scenario.hooks:
        registered.setdefault(event, Counter())[getattr(hook, "__name__", "?")] += 1
    hooked: list[HookFired | HookFailed] = [*run.trace.of(HookFired), *run.trace.of(HookFailed)]
    ran: Counter[tuple[str, str | None, str]] = Counter(
        (e.event, e.call_id, e.hook) for e in hooked
    )
    checked: list[CheckPassed | CheckFailed] = [
        *run.trace.of(CheckPassed),
        *run.trace.of(CheckFailed),
    ]
    reached = {e.call_id for e in checked if e.stage == "hooks"}
    moments: list[tuple[str, str | None]] = [("UserPromptSubmit", None)]
    moments += [("PreToolUse", call_id) for call_id in sorted(reached)]
    moments += [
        ("PostToolUseFailure" if e.is_error else "PostToolUse", e.call_id) for e in executed(run)
    ]
    for event, call_id in moments:
        for name, times in registered.get(event, Counter()).items():
            if ran[(event, call_id, name)] < times:
                where = f" for {call_id}" if call_id else ""
                return f"the {event} hook {name} never ran{where}"
    return None


def context_reaches_the_model(run: Run) -> str | None:
    """What a UserPromptSubmit hook returns as context reaches the model: it is in the first
    message of the first request."""
    first = run.api.requests[0]["messages"][0]["content"] if run.api.requests else ""
    sent = first if isinstance(first, str) else " ".join(b.get("text", "") for b in first)
    for event in run.trace.of(HookFired):
        if event.event != "UserPromptSubmit" or event.result is None:
            continue
        result = event.result
        context = result.get("additionalContext") if isinstance(result, dict) else str(result)
        if context and context not in sent:
            return f"the context from {event.hook} ({context!r}) never reached the model"
    return None


def human_last(run: Run) -> str | None:
    """The human's time comes last: nobody is asked about a call that the cheap checks stop
    anyway (an unknown tool, an input its schema refuses, a failing tool check)."""
    names = call_names(run)
    stopped = {e.call_id: e.stage for e in run.trace.of(CheckFailed) if e.stage in CHEAP_STAGES}
    tools = tools_of(run, fresh_world(run))
    inputs = {e.call_id: e.input for e in run.trace.of(ToolCallSeen)}
    for asked in run.trace.of(HumanAsked):
        tool = tools.get(names.get(asked.call_id, ""))
        if asked.call_id in stopped:
            return (
                f"the human was asked about {asked.call_id}, which {stopped[asked.call_id]} stops"
            )
        schema = {"additionalProperties": False, **tool.input_schema} if tool else None
        if schema and not jsonschema().Draft202012Validator(schema).is_valid(inputs[asked.call_id]):
            return f"the human was asked about {asked.call_id}, whose input is invalid"
    return None


def containment(run: Run) -> str | None:
    """The workspace wall holds: the file tools (read_file, write_file, edit_file, glob)
    never read, write or list anything outside the workspace. The wall is the file tools'
    only: bash is held by the sandbox, a promise of its own (sandbox), so here a file outside
    the workspace may change only through a bash command that writes (one not read-only)."""
    world = run.world
    for event in executed(run):
        if event.is_error:
            continue
        path = event.input.get("path")
        if event.name in FILE_TOOLS and isinstance(path, str) and not world.inside_workspace(path):
            return f"{show_call(event)} reached outside the workspace"
        if event.name == "glob":
            lines = [p for p in event.output.splitlines() if p != "(no matches)"]
            if strays := [p for p in lines if not world.inside_workspace(p)]:
                return f"{show_call(event)} listed {strays[0]}, outside the workspace"

    def outside(files: dict[str, str]) -> dict[str, str]:
        return {p: c for p, c in files.items() if not world.inside_workspace(p)}

    writers = [
        e for e in executed(run) if e.name == "bash" and not is_read_only(str(e.input["command"]))
    ]
    if outside(run.initial_files) != outside(world.snapshot()) and not writers:
        return "files outside the workspace changed, and no bash command wrote"
    return None


def contract_checked(run: Run) -> str | None:
    """A tool whose schema and handler signature disagree is refused at registration (it is
    in the trace as ToolRefused) and never offered to the model."""
    offered = {t["name"] for body in run.api.requests for t in body.get("tools", [])}
    refused = {e.tool for e in run.trace.of(ToolRefused)}
    for tool in run.scenario.tools(World.create()):
        problem = contract_mismatch(tool)
        if problem and (tool.name in offered or tool.name not in refused):
            return f"{problem}, yet it was registered and offered to the model"
    return None


# ---- M2/M3: execution, results, order ------------------------------------------------------
def order(run: Run) -> str | None:
    """The world after a run equals the world after running the same executed calls one by
    one in the model's order: parallel trays never change the outcome. (The spill files the
    result cap writes under /workspace/.spill/ are replayed where the trace says.)"""
    world, _ = replay(run)
    after, serial = run.world.snapshot(), world.snapshot()
    if after != serial:
        path = next(p for p in sorted({*after, *serial}) if after.get(p) != serial.get(p))
        return f"{path} differs from a serial replay: {after.get(path)!r} vs {serial.get(path)!r}"
    return None


def fresh_results(run: Run) -> str | None:
    """Each call's result is what running it alone, in the model's order, gives: no call
    reads a world that a call before it in the same answer has already changed (stale reads)."""
    _, serial = replay(run)
    for event, (output, is_error) in zip(executed(run), serial, strict=True):
        if (event.output, event.is_error) != (output, is_error):
            return (
                f"{show_call(event)} returned {event.output[:60]!r}, alone it gives {output[:60]!r}"
            )
    return None


def production_trays(
    calls: list[ToolCallSeen], safe: Callable[[ToolCallSeen], bool]
) -> list[list[ToolCallSeen]]:
    """Consecutive calls that are safe on their input share a tray (at most MAX_PARALLEL);
    an unsafe call is a tray of its own."""
    trays: list[list[ToolCallSeen]] = []
    for is_safe, group in itertools.groupby(calls, key=safe):
        members = list(group)
        if is_safe:
            trays += [members[i : i + MAX_PARALLEL] for i in range(0, len(members), MAX_PARALLEL)]
        else:
            trays += [[call] for call in members]
    return trays


def makespan(run: Run) -> str | None:
    """Tools overlap exactly as production cuts them: each turn's calls take, in virtual
    seconds, the sum over its trays of the longest call, where consecutive calls that are
    concurrency-safe *on their input* share a tray (at most 10) and an unsafe call runs alone."""
    tools = tools_of(run, fresh_world(run))
    refused = {e.tool for e in run.trace.of(ToolRefused)}

    def safe(call: ToolCallSeen) -> bool:
        tool = tools.get(call.name)
        if tool is None or call.name in refused:
            return False
        try:
            return bool(tool.concurrency_safe(**call.input))
        except Exception:  # a malformed input runs alone (it fails validation anyway)
            return False

    took = {e.call_id: e.finished - e.started for e in executed(run)}
    spent: defaultdict[int, float] = defaultdict(float)  # turn -> virtual seconds
    for batch in run.trace.of(BatchRan):
        spent[batch.turn] += batch.finished - batch.started
    seen = run.trace.of(ToolCallSeen)
    for t, calls in itertools.groupby(seen, key=lambda e: e.turn):
        trays = production_trays(list(calls), safe)
        expected = sum(max((took.get(c.call_id, 0.0) for c in tray), default=0.0) for tray in trays)
        if abs(expected - spent[t]) > 1e-9:
            return (
                f"turn {t}: the tools took {spent[t]:g} s; production's trays take {expected:g} s"
            )
    return None


def reads_page(run: Run) -> str | None:
    """The read tool is exempt from the result cap: a big read reaches the model as a first
    page with a notice, never as a spill file (reading the spill would spill again)."""
    names = call_names(run)
    for event in run.trace.of(ResultSpilled):
        if names.get(event.call_id) == "read_file":
            return f"the read {event.call_id} was spilled to {event.path}"
    return None


# ---- the sandbox, hooks before rules, silence (issue 12) -------------------------------------
def sandboxed(run: Run) -> str | None:
    """The shell is sandboxed: no bash command changes anything outside the workspace, however
    it is spelled (`/bin/rm`, `bash -c`, a variable, `find -delete`) and whatever the rules let
    through. (The file tools have the wall; a write of theirs outside is containment's case.)"""
    world = run.world
    file_tools_outside = any(
        e.name in FILE_TOOLS
        and not e.is_error
        and isinstance(e.input.get("path"), str)
        and not world.inside_workspace(e.input["path"])
        for e in executed(run)
    )
    before = {p: c for p, c in run.initial_files.items() if not world.inside_workspace(p)}
    after = {p: c for p, c in world.snapshot().items() if not world.inside_workspace(p)}
    if before != after and not file_tools_outside:
        path = next(p for p in sorted({*before, *after}) if before.get(p) != after.get(p))
        return f"{path}, outside the workspace, changed through the shell"
    return None


def pre_tool_use_answers(run: Run, event: ToolCallSeen | ToolExecuted) -> list[tuple[str, Any]]:
    """What each of the scenario's PreToolUse hooks answers about a call, asked again."""
    payload = {
        "hook_event_name": "PreToolUse",
        "tool_name": event.name,
        "tool_input": event.input,
        "tool_use_id": event.call_id,
    }
    answers = []
    for name, hook in run.scenario.hooks:
        if name != "PreToolUse":
            continue
        try:
            answers.append((getattr(hook, "__name__", "?"), hook(dict(payload))))
        except Exception:  # a failing hook blocks nothing
            continue
    return answers


def blocking_hook_wins(run: Run) -> str | None:
    """A call that a PreToolUse hook blocks never runs, whatever the permission rules allow:
    the hooks are asked before the rules, so a block beats an allow rule."""
    for event in executed(run):
        for name, answer in pre_tool_use_answers(run, event):
            decision = as_decision(answer)
            if decision and decision[0] == "deny":
                return f"{show_call(event)} executed although the hook {name} blocks it"
    return None


def silence_is_not_approval(run: Run) -> str | None:
    """Hooks that say nothing approve nothing: a call on which every PreToolUse hook stayed
    silent meets the rules as if there were no hooks, so when the rules alone would put a
    question to the human, the human is asked."""
    asked = {e.call_id for e in run.trace.of(HumanAsked)}
    world = fresh_world(run)
    tools = tools_of(run, world)
    for event in run.trace.of(ToolCallSeen):
        answers = pre_tool_use_answers(run, event)
        if not answers or any(answer is not None for _, answer in answers):
            continue
        if event.call_id in asked or event.call_id not in {e.call_id for e in executed(run)}:
            continue
        alone = Trace()
        gates = Gates(run.scenario.permissions, Human(always_yes), world, alone)
        gates.judge(Call(event.call_id, event.name, event.input, tools.get(event.name), 0), {})
        if alone.of(HumanAsked):
            return f"the hooks said nothing about {show_call(event)}, yet nobody was asked"
    return None


INVARIANTS: list[Invariant] = [
    Invariant("no_crash", "No crash", "不崩溃", no_crash, course=False),
    Invariant("pairing_in_call_order", "Pairing", "配对", pairing_in_call_order, course=True),
    Invariant(
        "continuation_only_on_tool_use",
        "Continuation",
        "续轮判据",
        continuation_only_on_tool_use,
        course=False,
    ),
    Invariant(
        "ends_once_within_limit", "Termination", "必然结束", ends_once_within_limit, course=True
    ),
    Invariant("retried", "Faults waited out", "瞬时故障重试", retried, course=True),
    Invariant("whole_answers", "Whole answers only", "只收完整回答", whole_answers, course=True),
    Invariant(
        "cut_calls_refused",
        "Cut calls never run",
        "截断调用不执行",
        cut_calls_refused,
        course=False,
    ),
    Invariant("deny_dominance", "Deny dominance", "拒绝优先", deny_dominance, course=False),
    Invariant("tighten", "Hooks only tighten", "钩子只收紧", hooks_only_tighten, course=True),
    Invariant("every_hook", "Every hook runs", "每个钩子都运行", every_hook_runs, course=False),
    Invariant(
        "context",
        "Context reaches the model",
        "上下文送达",
        context_reaches_the_model,
        course=False,
    ),
    Invariant("human_last", "Human last", "人工审批排最后", human_last, course=False),
    Invariant("containment", "Containment", "工作区围墙", containment, course=False),
    Invariant(
        "contract", "Contract at registration", "注册时检查契约", contract_checked, course=False
    ),
    Invariant("order", "Order", "顺序等价", order, course=True),
    Invariant("fresh", "Fresh results", "结果不过期", fresh_results, course=True),
    Invariant("makespan", "Makespan", "并行耗时", makespan, course=False),
    Invariant("reads_page", "Reads page", "读取分页", reads_page, course=True),
    Invariant("sandbox", "Sandboxed shell", "沙箱兜底", sandboxed, course=False),
    Invariant(
        "hook_block", "A blocking hook wins", "阻断钩子优先", blocking_hook_wins, course=True
    ),
    Invariant(
        "silence", "Silence is not approval", "沉默不等于批准", silence_is_not_approval, course=True
    ),
]
BY_NAME: dict[str, Invariant] = {inv.name: inv for inv in INVARIANTS}


def broken(run: Run, invariants: list[Invariant] | None = None) -> list[tuple[Invariant, str]]:
    """The invariants this run breaks, in table order, each with what broke."""
    found = []
    for invariant in invariants or INVARIANTS:
        if (reason := invariant.check(run)) is not None:
            found.append((invariant, reason))
    return found


def invariant_holds(name: str) -> Callable[[Run], bool]:
    """An observable for experiment files: does the run keep the named invariant?"""
    invariant = BY_NAME[name]

    def holds(run: Run) -> bool:
        return invariant.check(run) is None

    holds.__doc__ = f"the run keeps the invariant {invariant.title!r}"
    return holds
