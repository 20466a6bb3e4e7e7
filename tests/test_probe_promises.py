"""The probe's case judges call the one judge of each promise (lab/kernel/promises.py): put a
stand-in in its place and the case's verdict follows it, so the probe keeps no second copy of the
rule."""

from __future__ import annotations

import pytest
from tapped import rejected, reply_to

from lab.kernel import promises
from lab.probe.catalogue import BY_ID
from lab.probe.conversation import Played
from lab.probe.trial import Exchange, Exit, Setting, Trial
from lab.probe.verdict import verdict
from lab.probe.wire_promises import ended, pairing_of

ASK = {"role": "user", "content": "[m] go"}


def trial_of(case: str, requests: list[tuple], status: int = 0) -> Trial:
    """A Trial from (body, stage[, arrival second]) requests: the first request at a stage with
    a fault gets the fault, the others its healthy answer; a body with stage None was rejected."""
    setting = Setting(case, "CANARY", ("read_file", {"path": "notes.txt"}), None, "[m]", "[m] go")
    stages = BY_ID[case].script(setting)
    exchanges, seen = [], set()
    for n, (body, k, *at) in enumerate(requests, start=1):
        if k is None:
            refused = rejected()
            exchanges.append(
                Exchange(n, "POST", "/v1/messages", body, 400, "rejected", None, *at, reply=refused)
            )
            continue
        fault = stages[k].fault is not None and k not in seen
        seen.add(k)
        step, kind = (stages[k].fault, "fault") if fault else (stages[k].answer, "answer")
        played = Played(n, k, 1, kind, step, False, False)
        code = getattr(step, "status", 200)
        got = reply_to(step, kind)
        exchanges.append(
            Exchange(n, "POST", "/v1/messages", body, code, "", played, *at, reply=got)
        )
    return ended(Trial("hand", setting, stages, exchanges, Exit(status)))


def after(*blocks: dict, results: list[dict]) -> dict:
    """A request that sends back an assistant turn and answers it."""
    turn = {"role": "assistant", "content": list(blocks)}
    return {"messages": [ASK, turn, {"role": "user", "content": results}]}


def call(id: str) -> dict:
    return {"type": "tool_use", "id": id, "name": "read_file", "input": {"path": "notes.txt"}}


def result(id: str) -> dict:
    return {"type": "tool_result", "tool_use_id": id, "content": "CANARY"}


def standing_in(monkeypatch, name: str, verdict: str | None) -> None:
    monkeypatch.setattr(promises, name, lambda record, *args: verdict)


def test_p1_names_the_loss_in_continuation_s_words(monkeypatch):
    dropped = trial_of("P1", [({"messages": [ASK]}, 0)])
    graded = verdict(BY_ID["P1"], dropped)
    assert graded.because == "the call was dropped: its canary never came back"
    assert graded.evidence[1].endswith("no later request the API took answers it")
    standing_in(monkeypatch, "continuation", "CONTINUATION SAYS SO")
    graded = verdict(BY_ID["P1"], dropped)
    assert (graded.kind, graded.evidence[1]) == ("fail", "continuation: CONTINUATION SAYS SO")


def test_p1b_rejects_exactly_where_pairing_does(monkeypatch):
    one = trial_of("P1b", [({"messages": [ASK]}, 0)])
    refused = trial_of("P1b", [({"messages": [ASK]}, 0), ({"messages": [ASK, ASK]}, None)])
    assert [verdict(BY_ID["P1b"], t).kind for t in (one, refused)] == ["kept", "fail"]
    standing_in(monkeypatch, "pairing", None)
    assert verdict(BY_ID["P1b"], refused).kind == "kept"
    standing_in(monkeypatch, "pairing", "PAIRING SAYS SO")
    assert verdict(BY_ID["P1b"], one).kind == "fail"


def test_p5_grades_the_turn_sent_back_by_resent_whole(monkeypatch):
    first, second = "toolu_p5_01", "toolu_p5_02"
    stripped = after(call(first), call(second), results=[result(first), result(second)])
    trial = trial_of("P5", [({"messages": [ASK]}, 0), (stripped, 1)])
    assert verdict(BY_ID["P5"], trial).kind == "non-strict"
    standing_in(monkeypatch, "resent_whole", None)
    assert verdict(BY_ID["P5"], trial).kind == "kept"


def test_p10_fails_a_cut_call_run_by_cut_calls_not_run(monkeypatch):
    cut, again = "toolu_p10_01", "toolu_p10_02"
    ran = after(call(cut), results=[result(cut)])
    finished = after(call(again), results=[result(again)])
    trial = trial_of("P10", [({"messages": [ASK]}, 0), (ran, 0), (finished, 1)])
    assert verdict(BY_ID["P10"], trial).kind == "fail"
    standing_in(monkeypatch, "cut_calls_not_run", None)
    assert verdict(BY_ID["P10"], trial).kind == "kept"


@pytest.mark.parametrize("case", ["P10"])  # refused_or_hung: P10s's row too (a streamed trial)
def test_a_cut_call_not_run_but_a_rejected_request_after_it_fails(case):
    """The cut call was left alone, then the next request was refused: refused_or_hung's row."""
    cut = "toolu_p10_01"
    unpaired = after(call(cut), results=[])  # the cut call sent back with no result
    trial = trial_of(case, [({"messages": [ASK]}, 0), (unpaired, None)], status=1)
    said = verdict(BY_ID[case], trial)
    assert said.kind == "fail" and "rejected" in said.because, said


@pytest.mark.parametrize("case", ["P6", "P7"])
def test_p6_p7_call_a_run_that_ended_on_the_fault_unretried_by_retried(monkeypatch, case):
    unretried = trial_of(case, [({"messages": [ASK]}, 0)], status=1)
    assert verdict(BY_ID[case], unretried).kind == "non-strict"
    standing_in(monkeypatch, "retried", None)
    assert verdict(BY_ID[case], unretried).because == "the run went on without asking again"


@pytest.mark.parametrize("case", ["P6", "P14"])
def test_p6_and_p14_measure_the_wait_with_waited_as_told(monkeypatch, case):
    id = f"toolu_{case.lower()}_01"
    done = after(call(id), results=[result(id)])
    asks = [({"messages": [ASK]}, 0, 0.0), ({"messages": [ASK]}, 0, 0.2), (done, 1, 0.3)]
    hasty = trial_of(case, asks)
    assert verdict(BY_ID[case], hasty).kind == "non-strict"
    standing_in(monkeypatch, "waited_as_told", None)
    assert verdict(BY_ID[case], hasty).kind == "kept"


def test_p5_reads_two_results_in_two_user_messages_as_the_api_does():
    """Issue 27, item 8: a framework sends each result as its own user message. The fake
    combines consecutive user messages, as the real API does, and takes the request; the
    judge reads the history the same way: both calls answered, no false fail."""
    first, second = "toolu_p5_01", "toolu_p5_02"
    answer = trial_of("P5", [({"messages": [ASK]}, 0)]).stages[0].answer
    turn = {"role": "assistant", "content": list(answer.blocks)}
    split = {
        "messages": [
            ASK,
            turn,
            {"role": "user", "content": [result(first)]},
            {"role": "user", "content": [result(second)]},
        ]
    }
    trial = trial_of("P5", [({"messages": [ASK]}, 0), (split, 1)])
    assert promises.pairing(trial.record) is None
    graded = verdict(BY_ID["P5"], trial)
    assert graded.kind == "kept", graded
    assert f"results lead with {[first, second]} (call order)" in graded.evidence


def test_a_thread_s_continue_is_a_stored_fact_the_pairing_leaves_to_the_api():
    """A message thread's `continue` carries only what is new (a tool_result whose call the API
    holds): the record says so once (Record.threaded) and the pairing does not read it as lost."""
    first = "toolu_p5_01"
    new_only = {"role": "user", "content": [result(first)]}
    continued = {"thread": {"type": "continue", "id": "th_1"}, "messages": [new_only]}
    trial = trial_of("P5", [({"messages": [ASK]}, 0), (continued, 1)])
    assert trial.record.threaded == frozenset({2})
    assert pairing_of(trial) is None
    whole = trial_of("P5", [({"messages": [ASK]}, 0), ({"messages": [new_only]}, 1)])
    assert whole.record.threaded == frozenset() and pairing_of(whole) is not None


def test_a_thread_s_continue_the_api_rejected_is_not_threaded_the_pairing_reads_it():
    new_only = {"role": "user", "content": [result("toolu_p5_01")]}
    continued = {"thread": {"type": "continue", "id": "th_1"}, "messages": [new_only]}
    trial = trial_of("P5", [({"messages": [ASK]}, 0), (continued, None)], status=1)
    assert trial.record.threaded == frozenset()
    assert pairing_of(trial) is not None
