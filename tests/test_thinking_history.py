"""The loop's history duty with thinking on (D29, lab/harness/thinking.py): an answer's thinking
blocks go back first and unchanged, and stripped, the next request meets the API's 400."""

from __future__ import annotations

import pytest

from lab.chapter.experiment import load_all, select
from lab.harness.thinking import ThinkingDropped, ThinkingKept
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import ApiRejected, RunEnded, ThinkingSentBack, Trace
from lab.model import redacted_thinking, text, thinking, tool_use, turn

(D29,) = select(load_all(), ["D29"])
DROPPED = Switches(keep_thinking_blocks=False)


def test_the_harness_asks_for_thinking_only_when_the_scenario_gives_a_budget():
    run = run_scenario(D29.scenario)
    assert [body["thinking"] for body in run.api.requests] == [
        {"type": "enabled", "budget_tokens": 1024}
    ] * 2
    plain = Scenario(script=[turn(text("Hello."))])
    assert "thinking" not in run_scenario(plain).api.requests[0]


@pytest.mark.parametrize("stream", [False, True], ids=["json", "sse"])
def test_the_reference_sends_the_signed_blocks_back_first_and_unchanged(stream):
    scenario = Scenario(
        script=[
            turn(
                thinking("Read the notes first."),
                redacted_thinking(),
                tool_use("read_file", {"path": "notes.txt"}),
            ),
            turn(text("The notes say: keep me.")),
        ],
        files={"notes.txt": "keep me\n"},
        stream=stream,
        thinking=1024,
    )
    run = run_scenario(scenario)
    sent, answered = run.api.requests[1]["messages"][1]["content"], run.api.replies[0]
    assert [b["type"] for b in sent] == ["thinking", "redacted_thinking", "tool_use"]
    assert sent[0]["signature"] and sent[1]["data"]  # as the fake signed and sealed them
    assert sent[:2] == [b for b in answered["content"] if "thinking" in b["type"]]
    assert run.ended == "done" and not run.trace.of(ApiRejected)


def test_stripped_the_next_request_meets_the_api_s_400():
    run = run_scenario(D29.scenario, DROPPED)
    (rejected,) = run.trace.of(ApiRejected)
    assert (rejected.turn, rejected.status) == (2, 400)
    assert rejected.error_type == "invalid_request_error"
    assert rejected.message.startswith(
        "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, "
        "but found `tool_use`."
    )
    assert run.api.requests[1]["messages"][1]["content"][0]["type"] == "tool_use"
    assert run.trace.last(RunEnded).reason == "api_error"
    assert [(e.turn, e.blocks, e.kept) for e in run.trace.of(ThinkingSentBack)] == [
        (1, ("thinking",), False)
    ]


def test_an_answer_without_thinking_passes_both_parts_untouched():
    answer = {"role": "assistant", "content": [{"type": "text", "text": "Hi."}]}
    for part in (ThinkingKept(), ThinkingDropped()):
        trace = Trace()
        assert part(1, answer, trace) is answer and trace.events == []
