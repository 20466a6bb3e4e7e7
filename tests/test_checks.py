"""M3: the chain of checks runs in a fixed order and the first failing stage stops the call."""

from __future__ import annotations

import pytest

from lab.harness.checks import ORDER
from lab.harness.layers import Layers
from lab.harness.permissions import Permissions
from lab.harness.switchboard import parts_for
from lab.harness.tools import ToolRegistry
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import (
    CheckFailed,
    CheckPassed,
    GateDecision,
    HookFired,
    HumanAsked,
    ToolExecuted,
    Trace,
)
from lab.model import text, tool_use, turn
from lab.world import World, course_tools

STAGES = ["known_tool", "complete_input", "validation", "tool_check", "hooks", "permission"]
FILES = {"a.txt": "alpha\nbeta\n"}


def results_after(run, call_id: str) -> list[dict]:
    """Every tool_result block in the whole history answering `call_id`."""
    return [
        block
        for message in run.messages
        if message["role"] == "user" and not isinstance(message["content"], str)
        for block in message["content"]
        if block.get("type") == "tool_result" and block.get("tool_use_id") == call_id
    ]


def one_call(call: dict, **scenario) -> Scenario:
    return Scenario(script=[turn(call), turn(text("done"))], files=FILES, **scenario)


def test_the_chain_runs_in_the_documented_order():
    assert ORDER == STAGES
    world = World.create()
    layers = Layers(ToolRegistry(course_tools(world)), Trace(), world, parts_for(Switches()))
    assert layers.chain.order == STAGES


def test_a_passing_call_passes_every_stage_in_order():
    run = run_scenario(one_call(tool_use("bash", {"command": "ls"}, id="toolu_ok")))
    passed = [e.stage for e in run.trace.of(CheckPassed) if e.call_id == "toolu_ok"]
    assert passed == STAGES
    assert not run.trace.of(CheckFailed)
    assert [e.call_id for e in run.trace.of(ToolExecuted)] == ["toolu_ok"]


def test_validate_before_gate_off_puts_permission_first():
    world = World.create()
    layers = Layers(
        ToolRegistry(course_tools(world)),
        Trace(),
        world,
        parts_for(Switches(validate_before_gate=False)),
    )
    assert layers.chain.order.index("permission") < layers.chain.order.index("validation")


STOPPED = [
    pytest.param("nope", {"x": 1}, "known_tool", "Unknown tool: nope", id="unknown-tool"),
    pytest.param("bash", {}, "validation", "command", id="missing-field"),
    pytest.param("bash", {"command": 5}, "validation", "command", id="wrong-type"),
    pytest.param("bash", {"command": "ls", "extra": 1}, "validation", "extra", id="unknown-field"),
    pytest.param("read_file", {"path": "a.txt", "limit": "3"}, "validation", "limit", id="limit"),
    pytest.param(
        "edit_file",
        {"path": "a.txt", "old_text": "gamma", "new_text": "delta"},
        "tool_check",
        "old_text not found",
        id="edit-old-text-absent",
    ),
    pytest.param(
        "read_file", {"path": "missing.txt"}, "tool_check", "File not found", id="read-missing"
    ),
]


@pytest.mark.parametrize(("name", "input", "stage", "detail"), STOPPED)
def test_a_failing_stage_yields_one_error_result_naming_the_stage(name, input, stage, detail):
    run = run_scenario(one_call(tool_use(name, input, id="toolu_bad")))
    (result,) = results_after(run, "toolu_bad")
    assert result["is_error"] is True
    assert result["content"].startswith(f"Blocked at {stage}: ")
    assert detail in result["content"]
    (failed,) = run.trace.of(CheckFailed)
    assert failed.stage == stage and failed.call_id == "toolu_bad"
    # the stages before it passed, none after it ran
    passed = [e.stage for e in run.trace.of(CheckPassed) if e.call_id == "toolu_bad"]
    assert passed == STAGES[: STAGES.index(stage)]
    assert not run.trace.of(ToolExecuted)
    assert run.world.snapshot() == run.initial_files
    assert run.ended == "done" and run.api.rejections == []


@pytest.mark.parametrize(("name", "input", "stage", "detail"), STOPPED)
def test_a_stopped_call_never_reaches_the_hooks_or_the_human(name, input, stage, detail):
    seen = []

    def spy(payload):
        seen.append(payload["tool_use_id"])

    scenario = one_call(
        tool_use(name, input, id="toolu_bad"),
        permissions=Permissions(default="ask"),
        human=["y"],
        hooks=[("PreToolUse", spy)],
    )
    run = run_scenario(scenario)
    assert seen == []
    assert not [e for e in run.trace.of(HookFired) if e.event == "PreToolUse"]
    assert not run.trace.of(HumanAsked)
    assert not run.trace.of(GateDecision)
    assert not run.trace.of(ToolExecuted)


def test_the_human_is_asked_about_a_well_formed_call_only():
    script = [
        turn(
            tool_use("bash", {}, id="toolu_bad"),
            tool_use("bash", {"command": "ls"}, id="toolu_ok"),
        ),
        turn(text("done")),
    ]
    run = run_scenario(Scenario(script, files=FILES, permissions=Permissions(default="ask")))
    assert [e.call_id for e in run.trace.of(HumanAsked)] == ["toolu_ok"]


def test_gate_first_chain_asks_the_human_about_a_malformed_call():
    """D9: with the gates before validation the human's time is wasted on a doomed call."""
    scenario = one_call(
        tool_use("bash", {"command": 5}, id="toolu_bad"),
        permissions=Permissions(default="ask"),
        human=["y"],
    )
    run = run_scenario(scenario, Switches(validate_before_gate=False))
    assert [e.call_id for e in run.trace.of(HumanAsked)] == ["toolu_bad"]
    (result,) = results_after(run, "toolu_bad")
    assert result["content"].startswith("Blocked at validation: ")


def test_a_tool_check_failure_does_not_touch_the_file():
    scenario = one_call(
        tool_use("edit_file", {"path": "a.txt", "old_text": "zzz", "new_text": "q"}, id="t1")
    )
    run = run_scenario(scenario)
    assert run.world.fs.read("/workspace/a.txt") == FILES["a.txt"]
    (result,) = results_after(run, "t1")
    assert "Blocked at tool_check: old_text not found in a.txt" == result["content"]


def test_each_call_of_a_batch_is_judged_on_its_own():
    script = [
        turn(
            tool_use("nope", {}, id="t1"),
            tool_use("bash", {"command": "cat a.txt"}, id="t2"),
            tool_use("read_file", {"path": "gone.txt"}, id="t3"),
            tool_use("read_file", {"path": "a.txt"}, id="t4"),
        ),
        turn(text("done")),
    ]
    run = run_scenario(Scenario(script, files=FILES))
    assert [(e.call_id, e.stage) for e in run.trace.of(CheckFailed)] == [
        ("t1", "known_tool"),
        ("t3", "tool_check"),
    ]
    assert sorted(e.call_id for e in run.trace.of(ToolExecuted)) == ["t2", "t4"]
    contents = {cid: results_after(run, cid)[0] for cid in ("t1", "t2", "t3", "t4")}
    assert contents["t2"].get("is_error") is not True and "alpha" in contents["t2"]["content"]
    assert contents["t4"].get("is_error") is not True and "beta" in contents["t4"]["content"]
    assert contents["t1"]["is_error"] and contents["t3"]["is_error"]
