"""lab probe judges harnesses from the wire: the lab's own passes its bench, and each case catches
the harness that breaks its guarantee."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lab.model import ModelRequest, overloaded, stream_error, text, tool_use, turn
from lab.probe.bench import probe_pairs
from lab.probe.cases import BY_ID, CASES
from lab.probe.conversation import Conversation, Stage, stages_from_script
from lab.probe.targets import COURSE_KEEPS, command_target, lab_target

AGENT = Path(__file__).parent / "agents" / "hand_loop.py"


def agent(mode: str):
    return command_target(f"{sys.executable} {AGENT} --mode {mode}")


# (case, the harness that breaks it, a line its evidence must hold)
BREAKERS = {
    "P1": (lab_target("reference", "trust_stop_reason=true"), "no tool_result for toolu_p1_01"),
    "P1s": (lab_target("reference", "trust_stop_reason=true"), "no tool_result for toolu_p1s_01"),
    "P1b": (lab_target("reference", "trust_stop_reason=true"), "400 invalid_request_error"),
    "P2": (lab_target("reference", "unknown_tool_result=false"), "exit status 1"),
    "P3": (agent("trusting"), "is_error=false"),
    "P4": (agent("streaming"), "ValueError: Unable to parse tool parameter JSON"),
    "P5": (agent("split"), "the assistant turn was rewritten into 2 turns"),
    "P6": (lab_target("reference", "retry_transient_errors=false"), "429"),
    "P7": (lab_target("reference", "retry_transient_errors=false"), "529"),
    "P8": (lab_target("reference", "keep_partial_answers=true"), "put in the history"),
    "P9": (lab_target("reference", "keep_partial_answers=true"), "put in the history"),
    "P10": (lab_target("reference", "execute_truncated_calls=true"), "canary seen"),
    "P11": (lab_target("reference", "gate_order_correct=false"), "denied.canary appeared"),
    "P12": (agent("short"), "5 of 20 answers"),
}


@pytest.fixture(scope="module")
def cells():
    reference, course = lab_target("reference"), lab_target("course")
    pairs = [(t, c) for t in (reference, course) for c in CASES]
    pairs += [(target, BY_ID[case]) for case, (target, _) in BREAKERS.items()]
    pairs += [(agent("careful"), BY_ID[case]) for case in ("P1", "P1s", "P11")]
    found = probe_pairs(pairs)
    return {(c.target, c.case): c for c in found}


# Where the reference harness does not keep its own bench, and why (none: it keeps every case).
REFERENCE_GAPS: dict[str, str] = {}


def test_the_reference_harness_keeps_every_case_but_its_known_gaps(cells):
    verdicts = {c.id: cells[("lab-reference", c.id)].verdict for c in CASES}
    gaps = {case: v.because for case, v in verdicts.items() if v.kind != "kept"}
    assert gaps == REFERENCE_GAPS
    assert "canary seen" in verdicts["P1"].evidence[0]


def test_the_course_breaks_exactly_where_the_course_gives_way(cells):
    broken = {c.id for c in CASES if cells[("lab-course", c.id)].verdict.kind == "broken"}
    kept = {c.id for c in CASES if cells[("lab-course", c.id)].verdict.kind == "kept"}
    assert kept == set(COURSE_KEEPS)
    assert broken == {c.id for c in CASES} - set(COURSE_KEEPS)
    assert cells[("lab-course", "P10")].verdict.because == (
        "the call cut by max_tokens ran: its canary came back"
    )


@pytest.mark.parametrize("case", list(BREAKERS))
def test_each_case_catches_the_harness_that_breaks_it(cells, case):
    target, expected = BREAKERS[case]
    verdict = cells[(target.name, case)].verdict
    assert verdict.kind == "broken", verdict
    assert any(expected in line for line in (verdict.because, *verdict.evidence)), verdict


def test_a_case_whose_answer_mode_the_target_never_asks_for_is_na(cells):
    careful = agent("careful").name
    assert cells[(careful, "P1")].verdict.kind == "kept"
    na = cells[(careful, "P1s")].verdict
    assert (na.kind, na.because) == (
        "n/a",
        "the target asked for a JSON answer; P1s needs a streamed one",
    )
    assert cells[(careful, "P11")].verdict.because == (
        "the target declares no deny rule to test (no permission system)"
    )


def test_every_case_names_what_it_checks_and_its_rule():
    assert [c.id for c in CASES] == [
        "P1", "P1s", "P1b", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "P12"
    ]  # fmt: skip
    for case in CASES:
        assert case.checks and case.kept_when and case.title


# ---- the conversation answers by content --------------------------------------------------------
def request(messages, stream=False):
    return ModelRequest(0, messages, [], None, stream)


CALL = tool_use("read_file", {"path": "notes.txt"}, id="toolu_a")
AGAIN = tool_use("read_file", {"path": "notes.txt"}, id="toolu_b")


def conversation():
    stages = [Stage(turn(AGAIN), fault=overloaded()), Stage(turn(CALL)), Stage(turn("done."))]
    return Conversation(stages, marker="[probe]")


def test_a_fault_is_played_on_the_first_attempt_only_and_a_retry_is_named():
    talk = conversation()
    first = [{"role": "user", "content": "[probe] go"}]
    assert talk(request(first)) == overloaded()
    assert talk(request(first)) == turn(AGAIN)
    assert [(p.stage, p.attempt, p.kind, p.same_as_previous) for p in talk.log] == [
        (0, 1, "fault", False),
        (0, 2, "answer", True),
    ]


def test_the_stage_is_read_from_the_ids_a_request_answers_not_its_number():
    talk = conversation()
    answered = [
        {"role": "user", "content": "[probe] go"},
        {"role": "assistant", "content": [AGAIN]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_b"}]},
    ]
    assert talk(request(answered)) == turn(CALL)  # stage 1, though it is the first request
    result = {"type": "tool_result", "tool_use_id": "toolu_a"}
    only_results = [{"role": "user", "content": [result]}]
    assert talk(request(only_results)) == turn("done.")  # a thread's continue: the ids suffice


def test_side_calls_and_requests_past_the_end_are_told_apart():
    talk = conversation()
    assert talk(request([{"role": "user", "content": "Write a title"}])) == turn("ok.")
    past = [
        {"role": "user", "content": "[probe] go"},
        {"role": "assistant", "content": [{"type": "text", "text": "done."}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a"}]},
    ]
    talk(request(past))
    assert [p.kind for p in talk.log] == ["side call", "extra"]


def test_a_plain_script_becomes_stages_with_faults_played_once():
    stages = stages_from_script(
        [overloaded(), turn(tool_use("read_file", {})), stream_error(turn(text("a"), CALL))]
    )
    assert stages[0].fault == overloaded()
    assert stages[0].answer.blocks[0]["id"] == "toolu_001"
    assert stages[1].fault.turn.blocks[1]["id"] == "toolu_a"
    assert stages[1].answer.blocks[1]["id"] == "toolu_002"  # the healthy retry: a new id


# ---- the README tells the truth -----------------------------------------------------------------
README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_the_readme_case_table_is_the_catalogue():
    for case in CASES:
        row = f"| {case.id} | {case.title} | {case.checks} | {case.kept_when} |"
        assert row in README, case.id


def test_the_readme_example_loop_is_the_one_the_suite_runs():
    section = README.split("### For harness authors", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    body = example.split("\n\n", 2)[2]  # after the two import paragraphs
    assert body.strip() in (Path(__file__).parent / "test_wire.py").read_text()
    assert "def test_my_loop_keeps_the_wire_invariants" in body


def test_notebook_08s_questions_are_computed_from_a_real_probe():
    import json
    import subprocess

    from lab.predict import check

    command = [sys.executable, "-m", "lab", "probe", "anthropic-tool-runner", "--case", "P1s"]
    done = subprocess.run([*command, "--json"], capture_output=True, text=True, timeout=300)
    result = json.loads(done.stdout)
    assert check("R.1", 1, "en", result=result).right  # one request: the call was dropped
    assert check("R.3", 0, "en", result=result).right  # and the program said nothing was wrong
    assert not check("R.1", 2, "en", result=result).right


def test_a_warm_start_changes_no_verdict_and_no_evidence():
    course = lab_target("course")  # warm-startable: python -m lab.probe.own_harness
    pairs = [(course, BY_ID[case]) for case in ("P1", "P4", "P10")]
    warm = probe_pairs(pairs)
    cold = probe_pairs(pairs, cold=True)
    assert [(c.verdict, c.trial.exit) for c in warm] == [(c.verdict, c.trial.exit) for c in cold]
