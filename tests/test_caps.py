"""Result caps and spill files, the workspace wall, the registration contract (D8) and the
unknown-tool result (D7)."""

from __future__ import annotations

import pytest

from lab.harness.permissions import course_permissions
from lab.harness.results import PREVIEW_CHARS, RESULT_CAP, SPILL_DIR, ResultCaps
from lab.harness.tools import Tool
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import (
    CheckFailed,
    GateDecision,
    HookFired,
    HumanAsked,
    ResultSpilled,
    RunEnded,
    ToolExecuted,
    ToolRefused,
    Trace,
)
from lab.model import text, tool_use, turn
from lab.testing.catalog import extra_tools
from lab.world import World
from lab.world.world import SYSTEM_FILES

BIG = "".join(f"line {i:05d}\n" for i in range(4000))  # 44,000 characters
BIG_OUTPUT = BIG.rstrip("\n")  # what the tools return for it (bash strips, read_file rejoins)


def run_calls(*blocks, switches=None, **scenario):
    run = run_scenario(Scenario([turn(*blocks), turn(text("done"))], **scenario), switches)
    assert run.ended == "done", run.trace.last(RunEnded)
    return run


def result(run, call_id: str) -> dict:
    return next(b for b in run.messages[2]["content"] if b["tool_use_id"] == call_id)


# -- result caps ---------------------------------------------------------------------------------
def test_the_cap_is_production_s_30000_characters():
    assert RESULT_CAP == 30_000


def test_big_bash_output_spills_to_a_virtual_file_and_the_model_gets_preview_and_path(host_guard):
    run = run_calls(tool_use("bash", {"command": "cat big.txt"}, id="big1"), files={"big.txt": BIG})
    path = f"/workspace/{SPILL_DIR}/big1.txt"
    assert path == "/workspace/.spill/big1.txt"
    assert run.world.fs.read(path) == BIG_OUTPUT  # the full output, on the virtual disk
    assert path not in run.initial_files
    (spilled,) = run.trace.of(ResultSpilled)
    assert (spilled.call_id, spilled.path, spilled.size) == ("big1", path, len(BIG_OUTPUT))
    block = result(run, "big1")
    assert block["content"].startswith(BIG_OUTPUT[:PREVIEW_CHARS])
    assert path in block["content"]
    assert len(block["content"]) < RESULT_CAP
    assert not block.get("is_error")
    assert host_guard == []  # the spill never touched the real disk


def test_the_model_can_read_the_spill_file_back():
    script = [
        turn(tool_use("bash", {"command": "cat big.txt"}, id="big1")),
        turn(tool_use("bash", {"command": "wc -l .spill/big1.txt"}, id="count")),
        turn(text("done")),
    ]
    run = run_scenario(Scenario(script, files={"big.txt": BIG}))
    assert run.messages[4]["content"][0]["content"] == "3999 .spill/big1.txt"


def test_outputs_at_or_under_the_cap_are_untouched():
    exact = "x" * RESULT_CAP
    run = run_calls(
        tool_use("bash", {"command": "cat exact.txt"}, id="exact"),
        tool_use("bash", {"command": "cat small.txt"}, id="small"),
        files={"exact.txt": exact, "small.txt": "tiny\n"},
    )
    assert result(run, "exact")["content"] == exact
    assert result(run, "small")["content"] == "tiny"
    assert run.trace.of(ResultSpilled) == []
    assert not any(f"/{SPILL_DIR}/" in path for path in run.world.snapshot())


def test_one_character_over_the_cap_spills():
    run = run_calls(
        tool_use("bash", {"command": "cat over.txt"}, id="over"),
        files={"over.txt": "x" * (RESULT_CAP + 1)},
    )
    assert [e.size for e in run.trace.of(ResultSpilled)] == [RESULT_CAP + 1]


def test_read_file_is_exempt_it_pages_instead_of_spilling():
    run = run_calls(tool_use("read_file", {"path": "big.txt"}, id="r"), files={"big.txt": BIG})
    content = result(run, "r")["content"]
    assert content.startswith(BIG_OUTPUT[:RESULT_CAP])
    assert BIG_OUTPUT[RESULT_CAP:] not in content
    assert "Partial view" in content and str(len(BIG_OUTPUT)) in content
    assert run.trace.of(ResultSpilled) == []
    assert not any(f"/{SPILL_DIR}/" in path for path in run.world.snapshot())


def test_without_the_exemption_read_file_spills_too():
    run = run_calls(
        tool_use("read_file", {"path": "big.txt"}, id="r"),
        files={"big.txt": BIG},
        switches=Switches(read_exempt_from_cap=False),
    )
    (spilled,) = run.trace.of(ResultSpilled)
    assert spilled.path == "/workspace/.spill/r.txt"
    assert run.world.fs.read(spilled.path) == BIG_OUTPUT
    assert spilled.path in result(run, "r")["content"]


def test_result_caps_directly_keep_is_error_and_spill_only_above_the_cap():
    world, trace = World.create(), Trace()
    caps = ResultCaps(world, trace, cap=10)
    assert caps.result(1, "a", "bash", "0123456789", True) == {
        "type": "tool_result",
        "tool_use_id": "a",
        "content": "0123456789",
        "is_error": True,
    }
    spilled = caps.result(1, "b", "bash", "0123456789AB", True)
    assert spilled["is_error"] is True
    assert world.fs.read("/workspace/.spill/b.txt") == "0123456789AB"
    assert [(e.call_id, e.size) for e in trace.of(ResultSpilled)] == [("b", 12)]
    paged = caps.result(1, "c", "read_file", "0123456789AB", False)
    assert paged["content"].startswith("0123456789\n") and "AB" not in paged["content"]
    assert len(trace.of(ResultSpilled)) == 1


# -- the workspace wall ----------------------------------------------------------------------
ESCAPES = [
    ("read_file", {"path": "/etc/passwd"}),
    ("read_file", {"path": "../etc/passwd"}),
    ("write_file", {"path": "/etc/passwd", "content": "owned\n"}),
    ("write_file", {"path": "../etc/passwd", "content": "owned\n"}),
    ("edit_file", {"path": "/etc/passwd", "old_text": "root", "new_text": "toor"}),
    ("edit_file", {"path": "../etc/passwd", "old_text": "root", "new_text": "toor"}),
]


def pre_tool_logger(seen: list):
    def audit(payload):
        seen.append(payload["tool_use_id"])

    return audit


@pytest.mark.parametrize(("tool", "input"), ESCAPES)
def test_the_wall_stops_escapes_at_tool_check_before_any_gate(tool, input):
    seen: list = []
    run = run_calls(
        tool_use(tool, input, id="escape"),
        permissions=course_permissions(),
        human=["y"],
        hooks=[("PreToolUse", pre_tool_logger(seen))],
    )
    (failed,) = run.trace.of(CheckFailed)
    assert failed.stage == "tool_check"
    assert failed.reason == f"Path escapes workspace: {input['path']}"
    assert run.trace.of(HumanAsked) == []  # the human is never asked
    assert run.trace.of(GateDecision) == []
    assert seen == []  # nor do the hooks see it
    assert run.trace.of(ToolExecuted) == []
    block = result(run, "escape")
    assert block.get("is_error") and "Path escapes workspace" in block["content"]
    assert run.world.fs.read("/etc/passwd") == SYSTEM_FILES["/etc/passwd"]


@pytest.mark.parametrize(("tool", "input"), ESCAPES)
def test_without_the_wall_only_the_question_stands_in_the_way(tool, input):
    run = run_calls(
        tool_use(tool, input, id="escape"),
        permissions=course_permissions(),
        human=["y"],
        switches=Switches(workspace_wall=False),
    )
    (asked,) = run.trace.of(HumanAsked)
    assert "Writing outside workspace" in asked.question
    (executed,) = run.trace.of(ToolExecuted)
    assert not executed.is_error
    passwd = run.world.fs.read("/etc/passwd")
    if tool == "read_file":
        assert executed.output == SYSTEM_FILES["/etc/passwd"].rstrip("\n")
    elif tool == "write_file":
        assert passwd == "owned\n"
    else:
        assert passwd.startswith("toor:x:0:0")


def test_without_the_wall_a_no_keeps_the_file_safe():
    run = run_calls(
        tool_use("write_file", {"path": "/etc/passwd", "content": "owned\n"}, id="w"),
        permissions=course_permissions(),
        human=["n"],
        switches=Switches(workspace_wall=False),
    )
    assert len(run.trace.of(HumanAsked)) == 1
    assert [e.stage for e in run.trace.of(CheckFailed)] == ["permission"]
    assert run.trace.of(ToolExecuted) == []
    assert run.world.fs.read("/etc/passwd") == SYSTEM_FILES["/etc/passwd"]


def test_the_wall_lets_workspace_paths_through():
    run = run_calls(
        tool_use("read_file", {"path": "sub/../a.txt"}, id="r"),
        tool_use("write_file", {"path": "/workspace/b.txt", "content": "b"}, id="w"),
        files={"a.txt": "A"},
    )
    assert result(run, "r")["content"] == "A"
    assert run.world.fs.read("/workspace/b.txt") == "b"
    assert run.trace.of(CheckFailed) == []


# -- the registration contract (D8) ----------------------------------------------------------
# The catalog's word_count: its schema says file_path while its handler takes path.
mismatched_tool = extra_tools("word_count")


COUNT = tool_use("word_count", {"file_path": "essay.txt"}, id="wc")
ESSAY = {"essay.txt": "agents need a harness\n"}


def test_a_broken_contract_is_refused_at_registration_and_the_call_is_unknown():
    run = run_calls(COUNT, files=ESSAY, tools=mismatched_tool)
    (refused,) = run.trace.of(ToolRefused)
    assert refused.tool == "word_count" and "file_path" in refused.reason
    offered = [t["name"] for t in run.api.requests[0]["tools"]]
    assert "word_count" not in offered and "bash" in offered
    block = result(run, "wc")
    assert block.get("is_error") and "Unknown tool" in block["content"]
    assert [e.stage for e in run.trace.of(CheckFailed)] == ["known_tool"]
    assert run.trace.of(ToolExecuted) == []


def test_an_unchecked_contract_registers_and_fails_on_first_use():
    run = run_calls(
        COUNT, files=ESSAY, tools=mismatched_tool, switches=Switches(contract_checked=False)
    )
    assert run.trace.of(ToolRefused) == []
    assert "word_count" in [t["name"] for t in run.api.requests[0]["tools"]]
    (executed,) = run.trace.of(ToolExecuted)
    assert executed.is_error and "TypeError" in executed.output
    block = result(run, "wc")
    assert block.get("is_error") and "TypeError" in block["content"]


def test_a_matching_contract_registers_and_works():
    def good(world: World) -> list[Tool]:
        def word_count(file_path: str) -> str:
            return str(len(world.fs.read(world.resolve(file_path)).split()))

        schema = {"type": "object", "properties": {"file_path": {"type": "string"}}}
        return [Tool("word_count", "Count words.", schema, word_count)]

    run = run_calls(COUNT, files=ESSAY, tools=good)
    assert run.trace.of(ToolRefused) == []
    assert result(run, "wc") == {"type": "tool_result", "tool_use_id": "wc", "content": "4"}


# -- unknown tools (D7) ----------------------------------------------------------------------
UNKNOWN = [
    turn(
        tool_use("bash", {"command": "ls"}, id="ls"),
        tool_use("check_disk", {"device": "/dev/sda"}, id="invented"),
        tool_use("bash", {"command": "cat notes.txt"}, id="cat"),
    ),
    turn(text("done")),
]


def test_an_unknown_tool_becomes_an_error_result_and_the_run_goes_on():
    run = run_scenario(Scenario(UNKNOWN, files={"notes.txt": "hello\n"}))
    assert run.ended == "done"
    block = result(run, "invented")
    assert block.get("is_error") and "Unknown tool: check_disk" in block["content"]
    assert result(run, "cat")["content"] == "hello"
    assert [e.call_id for e in run.trace.of(ToolExecuted)] == ["ls", "cat"]


def test_without_the_unknown_tool_result_the_run_crashes():
    run = run_scenario(
        Scenario(UNKNOWN, files={"notes.txt": "hello\n"}), Switches(unknown_tool_result=False)
    )
    assert run.ended == "crash"
    ended = run.trace.last(RunEnded)
    assert ended.reason == "crash" and "KeyError" in ended.detail
    assert [e.call_id for e in run.trace.of(ToolExecuted)] == ["ls"]
    assert not any(e.event == "PostToolBatch" for e in run.trace.of(HookFired))
