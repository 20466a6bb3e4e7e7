"""The reference harness survives the API's faults: transient errors are waited out on the
virtual clock and asked again, a failed stream's partial answer never enters the history,
and a call whose input max_tokens cut off never runs.
"""

from __future__ import annotations

import time

import anthropic
import httpx2
import pytest

from lab.harness.checks import CUT_OFF
from lab.harness.retry import MAX_RETRIES, Backoff, NoRetry, retry_after, transient
from lab.kernel.observables import pairs_intact
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import (
    ApiRejected,
    CallCutOff,
    CheckFailed,
    ConnectionLost,
    ModelCalled,
    ModelRetried,
    PartialAnswer,
    ResultAppended,
    ToolExecuted,
)
from lab.model import (
    ApiError,
    cut_off,
    overloaded,
    rate_limited,
    server_error,
    stream_dropped,
    stream_error,
    text,
    tool_use,
    turn,
)
from lab.testing.catalog import extra_tools

FILES = {"notes.txt": "keep me\n"}
LOOK = turn(text("Let me look."), tool_use("bash", {"command": "ls"}))
DONE = turn(text("Done."))


def run(*script, stream=False, switches=None, **scenario):
    return run_scenario(
        Scenario(list(script), files=FILES, stream=stream, **scenario), switches or Switches()
    )


def retries(run_) -> list[tuple[int, float]]:
    return [(e.retry, e.wait_s) for e in run_.trace.of(ModelRetried)]


def assistant_tool_ids(run_) -> list[str]:
    return [
        b["id"]
        for body in run_.api.requests
        for m in body["messages"]
        if m["role"] == "assistant" and isinstance(m["content"], list)
        for b in m["content"]
        if b["type"] == "tool_use"
    ]


# ---- transient HTTP errors ------------------------------------------------------------------
@pytest.mark.parametrize("fault", [overloaded(), server_error(), ApiError(503, "api_error", "x")])
def test_a_transient_error_is_retried_after_a_virtual_wait(fault):
    result = run(LOOK, fault, DONE)
    assert result.ended == "done"
    assert retries(result) == [(1, 1.0)]
    ls_took = run(LOOK, DONE).world.clock.now
    assert result.world.clock.now == ls_took + 1.0  # the wait moved the virtual clock
    assert len(result.trace.of(ModelCalled)) == 2  # two turns; the retry is not a new turn
    assert pairs_intact(result)


def test_retry_after_is_honoured():
    result = run(rate_limited(2.5), LOOK, DONE)
    assert retries(result) == [(1, 2.5)]
    assert result.ended == "done"


def test_the_wait_doubles_and_the_retries_stop_at_the_cap():
    result = run(*[overloaded()] * (MAX_RETRIES + 1), DONE)
    assert retries(result) == [(1, 1.0), (2, 2.0), (3, 4.0), (4, 8.0), (5, 16.0)]
    assert result.ended == "api_error"
    (rejected,) = result.trace.of(ApiRejected)
    assert (rejected.status, rejected.error_type) == (529, "overloaded_error")
    assert result.model.remaining == 1  # the DONE turn was never asked for


def test_a_run_survives_as_many_faults_as_the_cap_allows():
    result = run(*[overloaded()] * MAX_RETRIES, DONE)
    assert result.ended == "done" and len(retries(result)) == MAX_RETRIES


def test_a_bad_request_is_never_retried():
    result = run(ApiError(400, "invalid_request_error", "no"), DONE)
    assert result.ended == "api_error" and retries(result) == []


def test_without_retries_the_first_transient_error_ends_the_run():
    result = run(LOOK, overloaded(), DONE, switches=Switches(retry_transient_errors=False))
    assert result.ended == "api_error" and retries(result) == []


def test_nothing_sleeps_for_real(monkeypatch):
    def no_sleeping(seconds):
        raise AssertionError(f"slept {seconds}s for real")

    monkeypatch.setattr(time, "sleep", no_sleeping)
    result = run(rate_limited(30), overloaded(), LOOK, stream_dropped(DONE), DONE, stream=True)
    # turn 1: 30 s as told, then 2 s (its second retry); ls takes 1 s; turn 2: 1 s
    assert result.ended == "done" and result.world.clock.now == 30 + 2 + 1 + 1


# ---- a stream that fails part-way ----------------------------------------------------------
CALLS = turn(
    text("Reading."),
    tool_use("read_file", {"path": "notes.txt"}),
    tool_use("bash", {"command": "rm notes.txt"}),
)


@pytest.mark.parametrize(
    "fault",
    [
        stream_error(CALLS, after_blocks=2),
        stream_dropped(CALLS, block=2, after_chars=12),  # inside rm's input JSON
    ],
    ids=["error-event", "dropped"],
)
def test_a_failed_stream_is_retried_and_its_partial_answer_dropped(fault):
    result = run(fault, CALLS, DONE, stream=True)
    assert result.ended == "done" and len(retries(result)) == 1
    (partial,) = result.trace.of(PartialAnswer)
    assert partial.kept is False
    assert [b["type"] for b in partial.blocks][:2] == ["text", "tool_use"]
    # toolu_001 and toolu_002 belonged to the failed stream: never sent back, never run
    assert assistant_tool_ids(result) == ["toolu_003", "toolu_004"]
    assert [e.call_id for e in result.trace.of(ToolExecuted)] == ["toolu_003", "toolu_004"]
    assert pairs_intact(result) and not result.api.rejections


def test_kept_partial_answers_leave_a_tool_use_without_result():
    switches = Switches(keep_partial_answers=True)
    result = run(stream_error(CALLS, after_blocks=2), CALLS, DONE, stream=True, switches=switches)
    assert result.trace.of(PartialAnswer)[0].kept
    assert result.ended == "api_error"
    assert "toolu_001" in result.api.rejections[0].message
    assert not result.trace.of(ToolExecuted)  # kept, but never run
    assert not pairs_intact(result)


def test_a_drop_on_a_plain_request_is_retried_too():
    result = run(stream_dropped(LOOK), LOOK, DONE)
    assert result.ended == "done" and len(retries(result)) == 1
    assert not result.trace.of(PartialAnswer)  # nothing had arrived


def test_a_connection_that_never_comes_back_ends_the_run():
    result = run(*[stream_dropped(LOOK)] * (MAX_RETRIES + 1), stream=True)
    assert result.ended == "api_error"
    assert "incomplete chunked read" in result.trace.of(ConnectionLost)[0].message


def test_an_error_event_that_is_not_transient_is_not_retried():
    bad = stream_error(CALLS, after_blocks=1, type="invalid_request_error", message="no")
    result = run(bad, DONE, stream=True)
    assert result.ended == "api_error" and retries(result) == []


# ---- max_tokens inside a tool_use's input ------------------------------------------------------
PREVIEW = {"path": "/workspace", "keep": ["src"], "dry_run": True}
CLEAN = turn(tool_use("clean_workspace", PREVIEW))


@pytest.mark.parametrize("stream", [True, False])
def test_a_cut_call_never_runs_and_gets_an_error_result_saying_why(stream):
    files = {"src/a.py": "a\n", "build/b.o": "b\n"}
    result = run_scenario(
        Scenario(
            [cut_off(CLEAN, keep_chars=50), DONE],
            files=files,
            stream=stream,
            tools=extra_tools("clean_workspace"),
        )
    )
    (cut,) = result.trace.of(CallCutOff)
    assert cut.input == {"path": "/workspace", "keep": ["src"]}
    assert cut.wire == ('{"path": "/workspace", "keep": ["src"], "dry_run":' if stream else None)
    assert not result.trace.of(ToolExecuted)
    (stopped,) = result.trace.of(CheckFailed)
    assert stopped.stage == "complete_input"
    (appended,) = result.trace.of(ResultAppended)
    assert appended.is_error and CUT_OFF in appended.content
    assert result.world.fs.exists("/workspace/build/b.o")
    assert pairs_intact(result) and result.ended == "done"


def test_executing_cut_calls_runs_what_the_sdk_made_of_them():
    result = run_scenario(
        Scenario(
            [cut_off(CLEAN, keep_chars=50), DONE],
            files={"src/a.py": "a\n", "build/b.o": "b\n"},
            stream=True,
            tools=extra_tools("clean_workspace"),
        ),
        Switches(execute_truncated_calls=True),
    )
    (ran,) = result.trace.of(ToolExecuted)
    assert ran.input == {"path": "/workspace", "keep": ["src"]} and "removed 1" in ran.output
    assert not result.world.fs.exists("/workspace/build/b.o")


def test_an_incomplete_streamed_input_is_cut_whatever_the_declared_stop_reason():
    # The content fact: the JSON text did not arrive whole, though the answer says tool_use.
    result = run(turn(tool_use("bash", raw_json='{"command": "rm -rf no')), DONE, stream=True)
    assert [e.stage for e in result.trace.of(CheckFailed)] == ["complete_input"]
    assert not result.trace.of(ToolExecuted)


def test_a_streamed_input_that_arrived_whole_runs_whatever_the_declaration():
    declared = turn(tool_use("bash", {"command": "ls"}), stop_reason="max_tokens")
    result = run(declared, DONE, stream=True)
    assert [e.name for e in result.trace.of(ToolExecuted)] == ["bash"]
    assert not result.trace.of(CallCutOff)


def test_a_streamed_cut_that_kept_nothing_is_cut_too():
    result = run(cut_off(LOOK, keep_chars=0), DONE, stream=True)
    (cut,) = result.trace.of(CallCutOff)
    assert (cut.wire, cut.input) == ("", {})
    assert not result.trace.of(ToolExecuted)


def test_only_the_last_call_of_a_max_tokens_answer_is_cut():
    two = turn(tool_use("bash", {"command": "ls"}), tool_use("bash", {"command": "pwd"}))
    result = run(cut_off(two, keep_chars=5), DONE)
    assert [e.call_id for e in result.trace.of(ToolExecuted)] == ["toolu_001"]
    assert [e.call_id for e in result.trace.of(CallCutOff)] == ["toolu_002"]


# ---- refusal and pause_turn ------------------------------------------------------------------
def test_a_refusal_ends_the_run_like_any_answer_without_a_call():
    result = run(turn("I can't help with that.", stop_reason="refusal"), DONE)
    assert result.ended == "done" and result.model.remaining == 1


def test_pause_turn_is_judged_by_its_content():
    paused = turn(tool_use("bash", {"command": "ls"}), stop_reason="pause_turn")
    result = run(paused, DONE)
    assert [e.name for e in result.trace.of(ToolExecuted)] == ["bash"]
    assert result.ended == "done"


# ---- the policy itself ---------------------------------------------------------------------
def status_error(status: int, headers: dict | None = None) -> anthropic.APIStatusError:
    request = httpx2.Request("POST", "http://x/v1/messages")
    response = httpx2.Response(status, headers=headers or {}, request=request)
    body = {"type": "error", "error": {"type": "x", "message": "m"}}
    return anthropic.APIStatusError("m", response=response, body=body)


def test_transient_is_decided_by_status_or_by_the_error_events_type():
    assert [transient(status_error(s)) for s in (400, 401, 404, 408, 409, 429, 500, 529)] == [
        False, False, False, True, True, True, True, True,
    ]  # fmt: skip
    event = status_error(200)
    event.body = {"type": "error", "error": {"type": "overloaded_error", "message": "x"}}
    assert transient(event)
    event.body = {"type": "error", "error": {"type": "invalid_request_error", "message": "x"}}
    assert not transient(event)
    assert transient(httpx2.RemoteProtocolError("peer closed"))
    assert not transient(ValueError("bad json"))


def test_retry_after_reads_both_headers():
    assert retry_after(status_error(429, {"retry-after": "3"})) == 3.0
    assert retry_after(status_error(429, {"retry-after-ms": "250"})) == 0.25
    assert retry_after(status_error(429, {"retry-after": "soon"})) is None
    assert retry_after(status_error(529)) is None


def test_the_backoff_table():
    policy = Backoff()
    error = status_error(529)
    assert [policy.delay(n, error) for n in range(1, 8)] == [1, 2, 4, 8, 16, None, None]
    assert Backoff(max_retries=9).delay(7, error) == 30  # capped
    assert policy.delay(1, status_error(429, {"retry-after": "7"})) == 7
    assert policy.delay(1, status_error(400)) is None
    assert NoRetry().delay(1, error) is None


# ---- what `lab show` prints --------------------------------------------------------------------
def test_lab_show_d21_prints_the_cut_json_as_it_arrived_and_what_the_sdk_made(capsys, monkeypatch):
    from lab.cli import main

    monkeypatch.setenv("COLUMNS", "200")
    assert main(["show", "D21"]) == 0
    out = capsys.readouterr().out
    wire = 'as it arrived: {"path": "/workspace", "keep": ["src", "docs"], "dry_run": tr'
    made = 'the SDK made:  {"path": "/workspace", "keep": ["src", "docs"]}'
    assert out.count(wire) == 2 and out.count(made) == 2  # in both runs
    assert "✗ complete_input: the input was cut off by max_tokens" in out
    assert "removed 3 files" in out  # only the degraded run ran it


def test_lab_show_d20_and_d22_print_the_retry_and_the_partial_answer(capsys, monkeypatch):
    from lab.cli import main

    monkeypatch.setenv("COLUMNS", "200")
    assert main(["show", "D20"]) == 0
    out = capsys.readouterr().out
    assert "retry 1 after 1s on the virtual clock: 529 overloaded_error: Overloaded" in out
    assert main(["show", "D22"]) == 0
    out = capsys.readouterr().out
    assert "partial answer (text, tool_use) dropped" in out
    assert "partial answer (text, tool_use) KEPT in the history" in out


def test_a_connection_that_cannot_be_opened_is_not_retried():
    refused = httpx2.ConnectError("[Errno 111] Connection refused")
    wrapped = anthropic.APIConnectionError(request=httpx2.Request("POST", "http://x"))
    wrapped.__cause__ = refused
    assert not transient(refused) and not transient(wrapped)
    dropped = anthropic.APIConnectionError(request=httpx2.Request("POST", "http://x"))
    dropped.__cause__ = httpx2.RemoteProtocolError("peer closed")
    assert transient(dropped)
