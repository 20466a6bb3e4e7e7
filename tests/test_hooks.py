"""M5: the six hook events, production merging (only tighten), the course's short-circuit."""

from __future__ import annotations

from lab.chapter.compare import as_the_course
from lab.harness.hooks import STOP_BLOCK_CAP
from lab.harness.permissions import Permissions
from lab.harness.tools import Tool
from lab.kernel.scenario import Scenario, Setup, run_scenario, wire
from lab.kernel.switches import Switches
from lab.kernel.trace import (
    CheckFailed,
    GateDecision,
    HookFailed,
    HookFired,
    HookSkipped,
    HumanAsked,
    StopContinued,
    ToolExecuted,
)
from lab.model import ModelRequest, text, tool_use, turn

FILES = {"notes.txt": "keep me\n", "a.txt": "alpha\n"}
COURSE = Switches(course_hook_semantics=True)


def recorder(log: list, label: str, result=None):
    def hook(payload):
        log.append((label, payload["hook_event_name"], payload.get("tool_use_id")))
        return result(payload) if callable(result) else result

    hook.__name__ = label
    return hook


def fired(run, event: str) -> list[HookFired]:
    return [e for e in run.trace.of(HookFired) if e.event == event]


def ran(run) -> list[str]:
    return [e.call_id for e in run.trace.of(ToolExecuted)]


def boom_tool(world):
    def boom(what: str) -> str:
        raise RuntimeError(f"{what} exploded")

    schema = {"type": "object", "properties": {"what": {"type": "string"}}, "required": ["what"]}
    return [Tool("boom", "Always fails.", schema, boom)]


def every_event_hooks(log: list) -> list:
    events = [
        "UserPromptSubmit",
        "PreToolUse",
        "PostToolUse",
        "PostToolUseFailure",
        "PostToolBatch",
        "Stop",
    ]
    return [(event, recorder(log, event)) for event in events]


# -- when each event fires ---------------------------------------------------------------------


MIXED = [
    turn(
        tool_use("bash", {"command": "cat a.txt"}, id="ok"),
        tool_use("nope", {}, id="unknown"),
        tool_use("bash", {}, id="invalid"),
        tool_use("read_file", {"path": "gone.txt"}, id="checked"),
        tool_use("boom", {"what": "it"}, id="raised"),
    ),
    turn(tool_use("read_file", {"path": "a.txt"}, id="ok2")),
    turn(text("done")),
]


def run_mixed() -> tuple[object, list]:
    log: list = []
    scenario = Scenario(MIXED, files=FILES, hooks=every_event_hooks(log), tools=boom_tool)
    run = run_scenario(scenario)
    assert run.ended == "done"
    return run, log


def calls_of(log: list, event: str) -> list:
    return [call for _label, e, call in log if e == event]


def test_each_event_fires_at_its_moment():
    run, log = run_mixed()
    assert len(calls_of(log, "UserPromptSubmit")) == 1
    assert log[0][1] == "UserPromptSubmit"
    # only the calls that reached the hooks stage
    assert calls_of(log, "PreToolUse") == ["ok", "raised", "ok2"]
    assert calls_of(log, "PostToolUse") == ["ok", "ok2"]
    # a call that ran and failed; never the calls rejected before running
    assert calls_of(log, "PostToolUseFailure") == ["raised"]
    assert len(calls_of(log, "Stop")) == 1
    assert log[-1][1] == "Stop"


def test_post_tool_batch_fires_once_per_tray():
    """PostToolBatch fires once per tray (batch), after the tray resolves, never per call."""
    _run, log = run_mixed()
    # Answer 1 cuts into five trays: [cat] [unknown] [invalid] [read gone.txt] [boom] (only the
    # safe calls could share one, and no two safe calls are neighbours); answer 2 is one tray.
    assert len(calls_of(log, "PostToolBatch")) == 6


def test_post_tool_batch_fires_once_per_tray_with_the_trays_calls():
    """An answer cut into three trays (a write between two reads): three batches, in order."""
    payloads = []

    def batch(payload):
        payloads.append(payload["tool_use_ids"])

    script = [
        turn(
            tool_use("read_file", {"path": "a.txt"}, id="r1"),
            tool_use("write_file", {"path": "b.txt", "content": "b"}, id="w1"),
            tool_use("read_file", {"path": "notes.txt"}, id="r2"),
        ),
        turn(text("done")),
    ]
    run = run_scenario(Scenario(script, files=FILES, hooks=[("PostToolBatch", batch)]))
    assert run.ended == "done"
    assert payloads == [["r1"], ["w1"], ["r2"]]


def test_post_tool_batch_comes_before_the_next_model_call():
    seen = []

    def batch(payload):
        seen.append(("batch", tuple(payload["tool_use_ids"])))

    def responder(request: ModelRequest):
        seen.append(("model", request.index))
        if request.index == 0:
            return turn(tool_use("bash", {"command": "ls"}, id="t1"))
        return turn(text("done"))

    run_scenario(Scenario(responder, files=FILES, hooks=[("PostToolBatch", batch)]))
    assert seen == [("model", 0), ("batch", ("t1",)), ("model", 1)]


def test_stop_fires_only_when_the_answer_holds_no_tool_call():
    log: list = []
    script = [turn(tool_use("bash", {"command": "ls"})), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=[("Stop", recorder(log, "stop"))]))
    assert len(log) == 1
    (stop,) = fired(run, "Stop")
    assert stop.turn == 2


# -- production: all hooks run, deny > ask > allow, hooks only tighten --------------------------


def test_a_logging_hook_beside_a_blocking_hook_still_logs():
    log: list = []
    hooks = [
        ("PreToolUse", recorder(log, "blocker", {"permissionDecision": "deny"})),
        ("PreToolUse", recorder(log, "logger")),
    ]
    script = [turn(tool_use("bash", {"command": "rm notes.txt"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks))
    assert [label for label, *_ in log] == ["blocker", "logger"]
    assert not run.trace.of(HookSkipped)
    assert ran(run) == []
    assert "/workspace/notes.txt" in run.world.snapshot()


def test_pre_tool_use_decisions_merge_deny_over_ask_over_allow(result_of):
    hooks = [
        ("PreToolUse", recorder([], "allower", {"permissionDecision": "allow"})),
        (
            "PreToolUse",
            recorder(
                [],
                "denier",
                {"permissionDecision": "deny", "permissionDecisionReason": "no deletes"},
            ),
        ),
        ("PreToolUse", recorder([], "asker", {"permissionDecision": "ask"})),
    ]
    script = [turn(tool_use("bash", {"command": "rm notes.txt"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks, human=["y"]))
    assert not run.trace.of(HumanAsked)
    result = result_of(run, "t1")
    assert result["is_error"] and result["content"].startswith("Blocked at hooks: ")
    assert "no deletes" in result["content"]
    assert "/workspace/notes.txt" in run.world.snapshot()


def test_ask_beats_allow_among_hooks():
    hooks = [
        ("PreToolUse", recorder([], "allower", {"permissionDecision": "allow"})),
        ("PreToolUse", recorder([], "asker", {"permissionDecision": "ask"})),
    ]
    script = [turn(tool_use("bash", {"command": "ls"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks, human=["n"]))
    (asked,) = run.trace.of(HumanAsked)
    assert asked.call_id == "t1"
    assert ran(run) == []


def test_a_plain_string_from_a_pre_tool_use_hook_blocks(result_of):
    hooks = [("PreToolUse", recorder([], "stringy", "not today"))]
    script = [turn(tool_use("bash", {"command": "ls"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks))
    assert ran(run) == []
    assert "not today" in result_of(run, "t1")["content"]
    (failed,) = run.trace.of(CheckFailed)
    assert failed.stage == "hooks"


def test_a_blocking_hook_beats_an_allow_rule_and_runs_before_the_rules():
    hooks = [("PreToolUse", recorder([], "denier", {"permissionDecision": "deny"}))]
    script = [turn(tool_use("bash", {"command": "ls"}, id="t1")), turn(text("done"))]
    perms = Permissions(allow=["Bash(ls *)"])
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks, permissions=perms))
    assert ran(run) == []
    assert not run.trace.of(GateDecision)  # stopped before the gates were consulted


def test_a_hook_allow_does_not_bypass_a_deny_rule():
    hooks = [("PreToolUse", recorder([], "allower", {"permissionDecision": "allow"}))]
    script = [turn(tool_use("bash", {"command": "rm notes.txt"}, id="t1")), turn(text("done"))]
    perms = Permissions(deny=["Bash(rm *)"])
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks, permissions=perms))
    assert [(e.gate, e.decision) for e in run.trace.of(GateDecision)] == [("deny", "deny")]
    assert "/workspace/notes.txt" in run.world.snapshot()


def test_a_hook_allow_does_not_bypass_an_ask_rule():
    hooks = [("PreToolUse", recorder([], "allower", {"permissionDecision": "allow"}))]
    script = [turn(tool_use("bash", {"command": "rm notes.txt"}, id="t1")), turn(text("done"))]
    perms = Permissions(ask=["Bash(rm *)"])
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks, permissions=perms, human=["n"]))
    assert len(run.trace.of(HumanAsked)) == 1
    assert "/workspace/notes.txt" in run.world.snapshot()


def test_loosening_hooks_bypass_a_deny_rule():
    """D15 (pre-v2.1.77): a hook's allow skips the deny rules."""
    hooks = [("PreToolUse", recorder([], "allower", {"permissionDecision": "allow"}))]
    script = [turn(tool_use("bash", {"command": "rm notes.txt"}, id="t1")), turn(text("done"))]
    perms = Permissions(deny=["Bash(rm *)"])
    scenario = Scenario(script, files=FILES, hooks=hooks, permissions=perms)
    run = run_scenario(scenario, Switches(hooks_may_loosen=True))
    assert ran(run) == ["t1"]
    assert "/workspace/notes.txt" not in run.world.snapshot()


def test_loosening_hooks_bypass_an_ask_rule():
    hooks = [("PreToolUse", recorder([], "allower", {"permissionDecision": "allow"}))]
    script = [turn(tool_use("bash", {"command": "rm notes.txt"}, id="t1")), turn(text("done"))]
    perms = Permissions(ask=["Bash(rm *)"])
    scenario = Scenario(script, files=FILES, hooks=hooks, permissions=perms, human=["n"])
    run = run_scenario(scenario, Switches(hooks_may_loosen=True))
    assert not run.trace.of(HumanAsked)
    assert "/workspace/notes.txt" not in run.world.snapshot()


def test_a_hook_ask_asks_the_human_even_with_an_allow_rule():
    hooks = [("PreToolUse", recorder([], "asker", {"permissionDecision": "ask"}))]
    script = [turn(tool_use("bash", {"command": "ls"}, id="t1")), turn(text("done"))]
    perms = Permissions(allow=["Bash(ls *)"])
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks, permissions=perms, human=["n"]))
    (asked,) = run.trace.of(HumanAsked)
    assert asked.call_id == "t1"
    assert ran(run) == []


def test_user_prompt_submit_context_is_added_to_the_first_message():
    hooks = [
        ("UserPromptSubmit", recorder([], "plain", "Today is Tuesday.")),
        ("UserPromptSubmit", recorder([], "keyed", {"additionalContext": "Branch: main."})),
    ]
    run = run_scenario(Scenario([turn(text("done"))], prompt="Hello", hooks=hooks))
    first = run.api.requests[0]["messages"][0]
    assert first["role"] == "user"
    texts = " ".join(b["text"] for b in first["content"])
    assert "Hello" in texts and "Today is Tuesday." in texts and "Branch: main." in texts
    assert run.messages[0] == first


def test_user_prompt_submit_payload_carries_the_prompt():
    prompts = []
    hooks = [("UserPromptSubmit", lambda p: prompts.append(p["prompt"]))]
    run_scenario(Scenario([turn(text("done"))], prompt="Hello there", hooks=hooks))
    assert prompts == ["Hello there"]


# -- Stop ---------------------------------------------------------------------------------------


def test_a_stop_block_continues_with_the_reason_as_the_next_user_message():
    actives = []

    def once(payload):
        actives.append(payload["stop_hook_active"])
        if not payload["stop_hook_active"]:
            return {"decision": "block", "reason": "Run the tests first."}
        return None

    script = [turn(text("done")), turn(text("tests pass, done"))]
    run = run_scenario(Scenario(script, hooks=[("Stop", once)]))
    assert run.ended == "done" and run.model.calls == 2
    assert actives == [False, True]
    assert run.messages[-2] == {"role": "user", "content": "Run the tests first."}
    assert len(run.trace.of(StopContinued)) == 1


def test_a_plain_string_from_a_stop_hook_blocks():
    calls = []

    def once(payload):
        calls.append(payload)
        return "Keep going." if len(calls) == 1 else None

    run = run_scenario(Scenario([turn(text("a")), turn(text("b"))], hooks=[("Stop", once)]))
    assert run.model.calls == 2
    assert run.messages[-2]["content"] == "Keep going."


def test_a_non_block_decision_from_a_stop_hook_stops():
    hook = lambda p: {"decision": "approve", "reason": "fine"}  # noqa: E731
    run = run_scenario(Scenario([turn(text("done"))], hooks=[("Stop", hook)]))
    assert run.ended == "done" and run.model.calls == 1
    assert not run.trace.of(StopContinued)


def always_block(payload):
    return {"decision": "block", "reason": "Not yet."}


def chatty(request: ModelRequest):
    return turn(text(f"done #{request.index}"))


def test_an_always_blocking_stop_hook_is_capped_at_eight():
    run = run_scenario(Scenario(chatty, max_turns=50, hooks=[("Stop", always_block)]))
    assert run.ended == "done"
    assert run.model.calls == 9
    assert len(run.trace.of(StopContinued)) == 8


def test_the_stop_cap_counts_consecutive_blocks_so_a_new_prompt_gets_eight_again():
    """Production (v2.1.143) ends the turn after 8 *consecutive* Stop blocks: a Stop that
    passes ends the turn and the count starts over. Counting every block of the run instead
    would leave the second prompt 8 - 5 = 3 blocks."""
    actives = []

    def five_then_always(payload):
        actives.append(payload["stop_hook_active"])
        return None if len(actives) == 6 else always_block(payload)  # 5 blocks, then a pass

    wired = wire(Setup(max_turns=50, hooks=[("Stop", five_then_always)]), script=chatty)
    assert wired.run("one") == "done"
    first = len(wired.harness.trace.of(StopContinued))
    assert wired.run("two") == "done"
    second = len(wired.harness.trace.of(StopContinued)) - first
    assert (first, second) == (5, STOP_BLOCK_CAP)
    assert actives[5:7] == [True, False]  # the new turn's first Stop: not taken over yet


def test_without_the_guard_a_stop_hook_runs_to_the_turn_limit():
    actives = []

    def hook(payload):
        actives.append(payload["stop_hook_active"])
        return always_block(payload)

    run = run_scenario(
        Scenario(chatty, max_turns=20, hooks=[("Stop", hook)]), Switches(stop_hook_guard=False)
    )
    assert run.ended == "turn_limit"
    assert run.model.calls == 20
    assert len(run.trace.of(StopContinued)) == 20
    assert not any(actives)


# -- course semantics (s04) -----------------------------------------------------------------


def test_course_first_non_none_result_skips_the_rest(result_of):
    log: list = []
    hooks = [
        ("PreToolUse", recorder(log, "first")),
        ("PreToolUse", recorder(log, "second", "stop here")),
        ("PreToolUse", recorder(log, "third")),
    ]
    script = [turn(tool_use("bash", {"command": "ls"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks), COURSE)
    assert [label for label, *_ in log] == ["first", "second"]
    (skipped,) = run.trace.of(HookSkipped)
    assert (skipped.hook, skipped.because) == ("third", "second")
    assert ran(run) == []
    assert "stop here" in result_of(run, "t1")["content"]


def test_course_denied_call_never_reaches_a_later_logging_hook(result_of):
    log: list = []
    script = [
        turn(
            tool_use("bash", {"command": "rm notes.txt"}, id="denied"),
            tool_use("bash", {"command": "ls"}, id="allowed"),
        ),
        turn(text("done")),
    ]
    perms = Permissions(deny=["Bash(rm *)"])
    hooks = [("PreToolUse", recorder(log, "audit"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks, permissions=perms), COURSE)
    assert [call for *_, call in log] == ["allowed"]  # the denied call vanished from the log
    # the later audit hook: skipped for the denied call only
    skipped = [(e.hook, e.call_id) for e in run.trace.of(HookSkipped)]
    assert skipped == [("audit", "denied")]
    assert "Permission denied" in result_of(run, "denied")["content"]
    assert ran(run) == ["allowed"]


def test_production_logs_the_denied_call_too():
    log: list = []
    script = [turn(tool_use("bash", {"command": "rm notes.txt"}, id="denied")), turn(text("ok"))]
    perms = Permissions(deny=["Bash(rm *)"])
    hooks = [("PreToolUse", recorder(log, "log_hook"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks, permissions=perms))
    assert [call for *_, call in log] == ["denied"]
    assert ran(run) == []


def test_course_post_tool_use_result_is_discarded_but_skips_later_callbacks(result_of):
    log: list = []
    hooks = [
        ("PostToolUse", recorder(log, "large_output_hook", "Warning: big output")),
        ("PostToolUse", recorder(log, "audit")),
    ]
    script = [turn(tool_use("bash", {"command": "cat a.txt"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks), COURSE)
    assert [label for label, *_ in log] == ["large_output_hook"]
    assert [e.hook for e in run.trace.of(HookSkipped)] == ["audit"]
    result = result_of(run, "t1")
    assert result["content"] == "alpha" and not result.get("is_error")


def test_production_post_tool_use_runs_every_callback(result_of):
    log: list = []
    hooks = [
        ("PostToolUse", recorder(log, "large_output_hook", "Warning: big output")),
        ("PostToolUse", recorder(log, "audit")),
    ]
    script = [turn(tool_use("bash", {"command": "cat a.txt"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=hooks))
    assert [label for label, *_ in log] == ["large_output_hook", "audit"]
    assert not run.trace.of(HookSkipped)
    assert result_of(run, "t1")["content"] == "alpha"


def test_course_user_prompt_submit_injects_nothing():
    hooks = [("UserPromptSubmit", recorder([], "style_guide", "Extra context."))]
    run = run_scenario(Scenario([turn(text("done"))], prompt="Hello", hooks=hooks), COURSE)
    assert run.api.requests[0]["messages"][0] == {"role": "user", "content": "Hello"}
    assert [e.hook for e in fired(run, "UserPromptSubmit")] == ["style_guide"]


def test_the_course_has_four_events_and_five_callbacks():
    """Seed §7: 「教学版四个事件、五个回调」; the course fires no failure or batch event."""
    log: list = []
    hooks = [(event, recorder(log, event)) for event in ("PostToolUseFailure", "PostToolBatch")]
    script = [turn(tool_use("bash", {"command": "cat missing.txt"}, id="t1")), turn(text("ok"))]
    run = as_the_course(Scenario(script, files=FILES, hooks=hooks))
    assert log == []  # the course has neither event
    names = {(e.event, e.hook) for e in run.trace.of(HookFired)}
    assert names == {
        ("UserPromptSubmit", "context_inject_hook"),
        ("PreToolUse", "permission_hook"),
        ("PreToolUse", "log_hook"),
        ("PostToolUse", "large_output_hook"),  # a failed call's output goes to PostToolUse
        ("Stop", "summary_hook"),
    }


def test_a_hook_gets_a_copy_of_the_call_s_input_not_the_live_call():
    """Issue 27: what a hook does to its payload never changes the call that runs."""

    def meddle(payload):
        payload["tool_input"]["command"] = "rm -rf /"
        payload["call"].input["command"] = "rm -rf /"

    script = [turn(tool_use("bash", {"command": "ls"}, id="t1")), turn(text("ok"))]
    for switches in (Switches(), COURSE):
        run = run_scenario(Scenario(script, files=FILES, hooks=[("PreToolUse", meddle)]), switches)
        (executed,) = run.trace.of(ToolExecuted)
        assert executed.input == {"command": "ls"}, switches


# -- a hook that raises --------------------------------------------------------------------------


def broken(payload):
    raise RuntimeError("hook bug")


def test_a_raising_pre_tool_use_hook_is_contained_and_does_not_block():
    script = [turn(tool_use("bash", {"command": "cat a.txt"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=[("PreToolUse", broken)]))
    (failed,) = run.trace.of(HookFailed)
    assert failed.event == "PreToolUse" and failed.call_id == "t1" and "hook bug" in failed.error
    assert ran(run) == ["t1"]
    assert run.ended == "done"


def test_a_raising_hook_does_not_stop_the_next_one():
    log: list = []
    hooks = [("PreToolUse", broken), ("PreToolUse", recorder(log, "after", "blocked"))]
    script = [turn(tool_use("bash", {"command": "ls"}, id="t1")), turn(text("done"))]
    for switches in (Switches(), COURSE):
        log.clear()
        run = run_scenario(Scenario(script, files=FILES, hooks=hooks), switches)
        assert [label for label, *_ in log] == ["after"]
        assert ran(run) == []


def test_raising_hooks_on_other_events_do_not_crash_the_run():
    events = ["UserPromptSubmit", "PostToolUse", "PostToolBatch", "Stop"]
    script = [turn(tool_use("bash", {"command": "ls"}, id="t1")), turn(text("done"))]
    run = run_scenario(Scenario(script, files=FILES, hooks=[(e, broken) for e in events]))
    assert run.ended == "done"
    assert sorted(e.event for e in run.trace.of(HookFailed)) == sorted(events)
