"""D3/D23: one tool_result per tool_use, first and in call order; the trimmer keeps pairs."""

from __future__ import annotations

import pytest

from lab.harness.pairing import Pairing, PairsBroken, PairsKept
from lab.harness.permissions import Permissions
from lab.harness.tools import Tool
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import HistoryTrimmed, ToolExecuted
from lab.model import text, tool_use, turn

FILES = {"notes.txt": "keep me\n", "a.txt": "alpha\n"}
UNPROTECTED = Switches(pair_protection=False)
MISSING = "`tool_use` ids were found without `tool_result` blocks immediately after"
UNEXPECTED = "unexpected `tool_use_id` found in `tool_result` blocks"


def boom_tool(world):
    def boom(what: str) -> str:
        raise RuntimeError(f"{what} exploded")

    schema = {"type": "object", "properties": {"what": {"type": "string"}}, "required": ["what"]}
    return [Tool("boom", "Always fails.", schema, boom)]


def deny_hook(payload):
    if payload["tool_use_id"] == "bad":
        return {"permissionDecision": "deny", "permissionDecisionReason": "hook says no"}
    return None


# name, input, extra scenario fields: each one stops (or breaks) the call with id "bad"
BLOCKED = [
    pytest.param("bash", {}, {}, id="invalid"),
    pytest.param("nope", {"x": 1}, {}, id="unknown"),
    pytest.param("read_file", {"path": "gone.txt"}, {}, id="tool-check"),
    pytest.param(
        "bash", {"command": "rm notes.txt"}, {"hooks": [("PreToolUse", deny_hook)]}, id="hook"
    ),
    pytest.param(
        "bash",
        {"command": "rm notes.txt"},
        {"permissions": Permissions(deny=["Bash(rm *)"])},
        id="rule",
    ),
    pytest.param(
        "bash",
        {"command": "rm notes.txt"},
        {"permissions": Permissions(ask=["Bash(rm *)"]), "human": ["n"]},
        id="human",
    ),
    pytest.param("boom", {"what": "it"}, {"tools": boom_tool}, id="tool-raised"),
]


def sandwich(name: str, input: dict) -> list:
    return [
        turn(
            text("working"),
            tool_use("bash", {"command": "cat a.txt"}, id="before"),
            tool_use(name, input, id="bad"),
            tool_use("read_file", {"path": "a.txt"}, id="after"),
        ),
        turn(text("done")),
    ]


def assert_paired(messages: list[dict]) -> None:
    """Each assistant tool_use message is followed by a user message opening on exactly one
    result per call, in call order."""
    for i, message in enumerate(messages):
        if message["role"] != "assistant" or isinstance(message["content"], str):
            continue
        ids = [b["id"] for b in message["content"] if b.get("type") == "tool_use"]
        if not ids:
            continue
        following = messages[i + 1]
        assert following["role"] == "user"
        blocks = following["content"]
        assert [b["type"] for b in blocks[: len(ids)]] == ["tool_result"] * len(ids)
        assert [b["tool_use_id"] for b in blocks[: len(ids)]] == ids
        results = [b for b in blocks if b.get("type") == "tool_result"]
        assert len(results) == len(ids)


@pytest.mark.parametrize(("name", "input", "extra"), BLOCKED)
def test_every_blocked_path_still_pays_one_result_in_order(name, input, extra):
    run = run_scenario(Scenario(sandwich(name, input), files=FILES, **extra))
    assert run.api.rejections == []
    assert run.ended == "done" and run.model.complete
    assert_paired(run.messages)
    results = {b["tool_use_id"]: b for b in run.messages[2]["content"]}
    assert results["bad"]["is_error"] is True
    assert not results["before"].get("is_error") and not results["after"].get("is_error")
    assert "/workspace/notes.txt" in run.world.snapshot()
    # the second request carried the whole, valid history
    assert run.api.requests[1]["messages"][2] == run.messages[2]


@pytest.mark.parametrize(("name", "input", "extra"), [p for p in BLOCKED if p.id != "tool-raised"])
def test_unprotected_a_blocked_call_gets_no_result_and_the_api_says_400(name, input, extra):
    run = run_scenario(Scenario(sandwich(name, input), files=FILES, **extra), UNPROTECTED)
    assert [b["tool_use_id"] for b in run.messages[2]["content"]] == ["before", "after"]
    (rejection,) = run.api.rejections
    assert rejection.status == 400 and rejection.error_type == "invalid_request_error"
    assert rejection.message.startswith("messages.1: " + MISSING + ": bad.")
    assert run.ended == "api_error"


def test_unprotected_a_call_that_ran_and_failed_is_still_paired():
    """Pair protection covers the calls stopped before running; a failing tool has a result."""
    run = run_scenario(
        Scenario(sandwich("boom", {"what": "it"}), files=FILES, tools=boom_tool), UNPROTECTED
    )
    assert run.api.rejections == []
    assert_paired(run.messages)


def test_every_call_of_an_all_blocked_answer_is_paired():
    script = [
        turn(
            tool_use("nope", {}, id="t1"),
            tool_use("bash", {}, id="t2"),
            tool_use("bash", {"command": "rm notes.txt"}, id="t3"),
        ),
        turn(text("done")),
    ]
    run = run_scenario(Scenario(script, files=FILES, permissions=Permissions(deny=["Bash(rm *)"])))
    assert not run.trace.of(ToolExecuted)
    assert run.api.rejections == []
    assert_paired(run.messages)
    assert all(b["is_error"] for b in run.messages[2]["content"])


def test_results_come_back_in_call_order_across_trays():
    script = [
        turn(
            tool_use("read_file", {"path": "a.txt"}, id="r1"),
            tool_use("write_file", {"path": "b.txt", "content": "b"}, id="w1"),
            tool_use("nope", {}, id="u1"),
            tool_use("read_file", {"path": "notes.txt"}, id="r2"),
            tool_use("bash", {"command": "ls"}, id="l1"),
        ),
        turn(text("done")),
    ]
    run = run_scenario(Scenario(script, files=FILES))
    assert [b["tool_use_id"] for b in run.messages[2]["content"]] == ["r1", "w1", "u1", "r2", "l1"]
    assert run.api.rejections == []


# -- the trimmer -----------------------------------------------------------------------------


def history(rounds: int) -> list[dict]:
    """A prompt, then `rounds` of (assistant tool_use, user tool_result)."""
    messages: list[dict] = [{"role": "user", "content": "start"}]
    for n in range(1, rounds + 1):
        call = {"type": "tool_use", "id": f"t{n}", "name": "bash", "input": {"command": "ls"}}
        messages.append({"role": "assistant", "content": [call]})
        result = {"type": "tool_result", "tool_use_id": f"t{n}", "content": "ok"}
        messages.append({"role": "user", "content": [result]})
    return messages


def is_orphan(message: dict) -> bool:
    content = message["content"]
    return not isinstance(content, str) and any(b.get("type") == "tool_result" for b in content)


def test_trim_keeps_first_message_a_marker_and_a_tail_that_opens_on_the_tool_use():
    messages = history(3)  # 7 messages
    trimmed, removed = Pairing(PairsKept).trim(messages, 3)
    assert trimmed[0] is messages[0]
    assert trimmed[1]["role"] == "user" and str(removed) in trimmed[1]["content"]
    assert trimmed[2:] == messages[3:]  # pulled back one: t2's tool_use joins its result
    assert trimmed[2]["role"] == "assistant"
    assert removed == 2 and len(trimmed) == 2 + 4
    assert_paired(trimmed)


def test_trim_with_an_even_window_needs_no_pull():
    messages = history(4)  # 9 messages
    trimmed, removed = Pairing(PairsKept).trim(messages, 4)
    assert trimmed[2:] == messages[-4:]
    assert removed == 4
    assert_paired(trimmed)


def test_trim_leaves_a_short_history_alone():
    messages = history(2)  # 5 messages
    assert Pairing(PairsKept).trim(messages, 3) == (messages, 0)


def test_unprotected_trim_cuts_blindly_and_orphans_a_result():
    messages = history(3)
    trimmed, removed = Pairing(PairsBroken).trim(messages, 3)
    assert trimmed[2:] == messages[-3:]
    assert removed == 3
    assert is_orphan(trimmed[2])  # opens on t2's result without t2's tool_use


def trim_scenario() -> Scenario:
    return Scenario(
        files={"c1.txt": "one\n", "c2.txt": "two\n", "c3.txt": "three\n"},
        keep_last=3,
        script=[
            turn(tool_use("read_file", {"path": "c1.txt"})),
            turn(tool_use("read_file", {"path": "c2.txt"})),
            turn(tool_use("read_file", {"path": "c3.txt"})),
            turn(text("done")),
        ],
    )


def test_end_to_end_trimming_keeps_pairs_whole():
    run = run_scenario(trim_scenario())
    assert run.api.rejections == []
    assert run.ended == "done" and run.model.complete
    assert run.trace.of(HistoryTrimmed)
    sent = run.api.requests[-1]["messages"]
    assert not is_orphan(sent[2]) and sent[2]["role"] == "assistant"
    assert_paired(sent)


def test_end_to_end_unprotected_trimming_is_rejected():
    run = run_scenario(trim_scenario(), UNPROTECTED)
    assert run.ended == "api_error"
    (rejection,) = run.api.rejections
    assert rejection.status == 400
    assert UNEXPECTED in rejection.message
