"""M1: the loop's continue test, result shape, turn limit and stepping form."""

from __future__ import annotations

import pytest

from lab.harness.layers import Layers
from lab.harness.loop import Harness
from lab.harness.retry import MAX_RETRIES
from lab.harness.tools import ToolRegistry
from lab.kernel.observables import pairs_intact, tool_calls_dropped
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import (
    AnswerUnreadable,
    ModelCalled,
    ResultAppended,
    RunEnded,
    ToolExecuted,
    Trace,
)
from lab.model import (
    FakeMessagesAPI,
    ModelRequest,
    ScriptedModel,
    make_client,
    text,
    tool_use,
    turn,
)
from lab.world import World, course_tools

LATE = [
    turn(text("look"), tool_use("bash", {"command": "ls"})),
    turn(text("late"), tool_use("bash", {"command": "cat a.txt"}), stop_reason="end_turn"),
    turn(text("done")),
]


def executed_commands(run) -> list[str]:
    return [e.input.get("command") for e in run.trace.of(ToolExecuted)]


@pytest.mark.parametrize("stream", [False, True])
def test_continue_test_reads_content_not_stop_reason(stream):
    run = run_scenario(Scenario(LATE, files={"a.txt": "A"}, stream=stream))
    assert executed_commands(run) == ["ls", "cat a.txt"]
    assert run.ended == "done" and run.model.complete
    assert pairs_intact(run) and not run.api.rejections


@pytest.mark.parametrize("stream", [False, True])
def test_trusting_stop_reason_drops_the_late_call(stream):
    run = run_scenario(
        Scenario(LATE, files={"a.txt": "A"}, stream=stream), Switches(trust_stop_reason=True)
    )
    assert executed_commands(run) == ["ls"]
    assert tool_calls_dropped(run) == 1
    assert not run.model.complete


def test_trusting_stop_reason_sends_an_empty_result_turn_when_declaration_lies():
    script = [turn(text("I will use a tool"), stop_reason="tool_use"), turn(text("never reached"))]
    reference = run_scenario(Scenario(script))
    assert reference.ended == "done" and not reference.api.rejections
    degraded = run_scenario(Scenario(script), Switches(trust_stop_reason=True))
    assert degraded.ended == "api_error"
    (rejection,) = degraded.api.rejections
    assert "all messages must have non-empty content" in rejection.message


def test_results_go_back_as_one_user_message_in_call_order():
    script = [
        turn(
            tool_use("bash", {"command": "echo one"}),
            tool_use("read_file", {"path": "a.txt"}),
            tool_use("bash", {"command": "echo three"}),
        ),
        turn(text("ok")),
    ]
    run = run_scenario(Scenario(script, files={"a.txt": "two"}))
    assistant, results = run.messages[1], run.messages[2]
    call_ids = [b["id"] for b in assistant["content"] if b["type"] == "tool_use"]
    assert results["role"] == "user"
    assert [b["tool_use_id"] for b in results["content"]] == call_ids
    assert [b["content"] for b in results["content"]] == ["one", "two", "three"]


def test_unknown_tool_becomes_an_error_result_and_the_run_goes_on():
    script = [turn(tool_use("teleport", {"to": "mars"})), turn(text("ok"))]
    run = run_scenario(Scenario(script))
    (result,) = run.trace.of(ResultAppended)
    assert result.is_error and "Unknown tool: teleport" in result.content
    assert run.ended == "done" and not run.trace.of(ToolExecuted)


def test_invalid_input_is_stopped_at_validation_without_running():
    script = [turn(tool_use("read_file", {"path": 42})), turn(text("ok"))]
    run = run_scenario(Scenario(script))
    (result,) = run.trace.of(ResultAppended)
    assert result.is_error and result.content.startswith("Blocked at validation")
    assert not run.trace.of(ToolExecuted)


def test_turn_limit_ends_a_runaway_loop_cleanly():
    def forever(request: ModelRequest):
        return turn(tool_use("bash", {"command": "echo again"}))

    run = run_scenario(Scenario(forever, max_turns=5))
    assert run.ended == "turn_limit"
    assert len(run.trace.of(ModelCalled)) == 5
    assert pairs_intact(run)


def test_stepping_form_runs_one_model_call_per_step():
    world = World.create({"a.txt": "A"})
    api = FakeMessagesAPI(ScriptedModel(LATE))
    trace = Trace()
    harness = Harness(make_client(api), Layers(ToolRegistry(course_tools(world)), trace, world))
    harness.start("go")
    assert harness.step() is True and len(api.requests) == 1
    assert harness.step() is True and len(api.requests) == 2
    assert harness.step() is False and harness.ended == "done"
    assert len(api.requests) == 3


def test_same_script_gives_identical_messages_every_time():
    first = run_scenario(Scenario(LATE, files={"a.txt": "A"}, stream=True))
    second = run_scenario(Scenario(LATE, files={"a.txt": "A"}, stream=True))
    assert first.messages == second.messages
    assert first.trace.events == second.trace.events


def test_invalid_tool_json_in_a_stream_is_dropped_and_the_model_asked_again():
    broken = tool_use("bash", raw_json='{"command": ls}')
    script = [turn(text("listing"), broken), turn(text("Nothing to list after all."))]
    run = run_scenario(Scenario(script, stream=True))
    assert run.ended == "done"
    (unreadable,) = run.trace.of(AnswerUnreadable)
    assert "\n" not in unreadable.message and "JSON" in unreadable.message
    assert not run.trace.of(ToolExecuted)
    # The garbled answer never entered the history: both requests hold only the prompt.
    assert [len(body["messages"]) for body in run.api.requests] == [1, 1]


def test_an_answer_unreadable_every_time_ends_the_run_with_one_readable_line():
    broken = tool_use("bash", raw_json='{"command": ls}')
    script = [turn(text("listing"), broken)] * (MAX_RETRIES + 1)
    run = run_scenario(Scenario(script, stream=True))
    assert run.ended == "bad_answer"
    assert len(run.trace.of(AnswerUnreadable)) == MAX_RETRIES + 1
    ended = run.trace.of(RunEnded)[-1]
    assert ended.detail.startswith("turn 1: ") and '{"command": ls}' in ended.detail
    assert "\n" not in ended.detail and not run.trace.of(ToolExecuted)


def test_raw_json_that_is_valid_streams_like_any_input():
    call = tool_use("bash", raw_json='{"command": "echo hi"}')
    run = run_scenario(Scenario([turn(call), turn(text("ok"))], stream=True))
    assert [e.output for e in run.trace.of(ToolExecuted)] == ["hi"]


def test_the_loop_uses_the_parts_it_is_handed_not_its_layers():
    from lab.harness.loop import ContentTest, DeclaredStopReason, LoopParts
    from lab.harness.parts import Parts

    world = World.create({"a.txt": "A"})
    layers = Layers(ToolRegistry(course_tools(world)), Trace(), world, Parts())
    client = make_client(FakeMessagesAPI(ScriptedModel(LATE)))
    handed = Harness(client, layers, LoopParts(continue_test=DeclaredStopReason))
    assert type(handed.holds_tool_calls) is DeclaredStopReason
    assert type(Harness(client, layers).holds_tool_calls) is ContentTest  # the reference
    assert not hasattr(layers, "parts")  # nothing of the loop's is left in the layers


def test_the_builder_hands_the_loop_the_parts_the_switches_chose():
    run = run_scenario(Scenario(LATE, files={"a.txt": "A"}), Switches(trust_stop_reason=True))
    assert executed_commands(run) == ["ls"]  # the late call dropped: the declared stop trusted
