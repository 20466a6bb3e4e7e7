"""lab probe judges harnesses from the wire: the lab's own passes its bench, and each case catches
the harness that breaks its guarantee."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import patience
import pytest

from lab.model import ModelRequest, overloaded, stream_error, text, tool_use, turn
from lab.probe.bench import probe_pairs
from lab.probe.catalogue import BY_ID, CASES, CORE_CASES  # P13-P23: test_probe_more_cases.py
from lab.probe.conversation import Conversation, Stage, stages_from_script
from lab.probe.targets import COURSE_KEEPS, command_target, lab_target
from lab.probe.verdict import verdict

AGENTS = Path(__file__).parent / "agents"
AGENT = AGENTS / "hand_loop.py"
FINAL = ("final_answer", '{"answer": "done."}')


def warm(target):
    """A program of the lab's own tests (tests/agents/), forked from a warm parent as the lab's
    harness is: the same verdicts and evidence (test_a_warm_start_changes_no_verdict_and_no_
    evidence checks it), without a cold interpreter and SDK import per trial."""
    return replace(target, warm=True)


def agent(mode: str):
    return warm(command_target(f"{sys.executable} {AGENT} --mode {mode}"))


def program(name: str, final=None):
    return warm(command_target(f"{sys.executable} {AGENTS / name}", final=final))


# (case, the harness that breaks it, the grade it reads, a line its evidence must hold)
BREAKERS = {
    "P1": (lab_target("reference", "trust_stop_reason=true"), "fail", "toolu_p1_01: no answer"),
    "P1s": (lab_target("reference", "trust_stop_reason=true"), "fail", "toolu_p1s_01: no answer"),
    "P1b": (lab_target("reference", "trust_stop_reason=true"), "fail", "400 invalid_request_error"),
    "P2": (lab_target("reference", "unknown_tool_result=false"), "fail", "exit status 1"),
    "P3": (agent("trusting"), "non-strict", "a tool_result, no is_error"),
    "P4": (agent("streaming"), "fail", "ValueError: Unable to parse tool parameter JSON"),
    "P5": (agent("split"), "non-strict", "the assistant turn was split into 2 turns"),
    "P6": (lab_target("reference", "retry_transient_errors=false"), "non-strict", "429"),
    "P7": (lab_target("reference", "retry_transient_errors=false"), "non-strict", "529"),
    "P8": (lab_target("reference", "keep_partial_answers=true"), "fail", "put in the history"),
    "P9": (lab_target("reference", "keep_partial_answers=true"), "fail", "put in the history"),
    "P10": (lab_target("reference", "execute_truncated_calls=true"), "fail", "canary seen"),
    "P11": (lab_target("reference", "gate_order_correct=false"), "fail", "denied.canary appeared"),
    "P12": (agent("short"), "fail", "5 of 20 answers"),
}

# What was seen on real harnesses, each reproduced by a small program under tests/agents/:
# (the program, the case) -> (the grade it must read, a phrase of its reason).
SEEN = [
    # 1. a side call (no tools) that quotes the prompt must not take the fault
    (agent("title"), "P1", "fail", "the call was dropped"),
    # 2. a history written as text: calls run and errors answered are seen; so is a cut call run
    (program("text_history.py", FINAL), "P1", "kept", "the call declared end_turn ran"),
    (program("text_history.py", FINAL), "P2", "non-strict", "answered as text without is_error"),
    (program("text_history.py", FINAL), "P10", "fail", "its canary came back as text"),
    (program("text_history.py", FINAL), "P12", "kept", "all 20 answers"),
    # 3. giving up silently is a fail; a typed exception to the caller is info
    (agent("giveup"), "P8", "fail", "gave up silently"),
    (agent("raising"), "P8", "info", "a typed error reached the caller"),
    # 4. a client that posts to /messages without /v1 was never reached
    (program("no_v1.py"), "P1", "not reached", "never got a script answer"),
    # 5. a result in a rejected request is no kept call; retry-after and whole turns are judged
    (agent("textfirst"), "P1", "fail", "the request carrying its result was rejected"),
    (agent("textfirst"), "P3", "fail", "was rejected"),
    (agent("eager"), "P6", "non-strict", "retry-after ignored"),
    (agent("striptext"), "P5", "non-strict", "1 of its 1 text block(s) dropped"),
    (agent("rename"), "P2", "non-strict", "renamed lab_probe_no_such_tool → read_file"),
    # 7. running the call from a failed stream is a fail (what Claude Code's P8 did)
    (agent("partial"), "P8", "fail", "the call from the failed stream ran"),
]


@pytest.fixture(scope="module")
def cells():
    reference, course = lab_target("reference"), lab_target("course")
    pairs = [(t, c) for t in (reference, course) for c in CORE_CASES]
    pairs += [(target, BY_ID[case]) for case, (target, _, _) in BREAKERS.items()]
    pairs += [(agent("careful"), BY_ID[case]) for case in ("P1", "P1s", "P11")]
    pairs += [(target, BY_ID[case]) for target, case, _, _ in SEEN]
    found = probe_pairs(pairs)
    return {(c.target, c.case): c for c in found}


# Where the reference harness does not keep its own bench, and why (none: it keeps every case).
REFERENCE_GAPS: dict[str, str] = {}


def test_the_reference_harness_keeps_every_case_but_its_known_gaps(cells):
    verdicts = {c.id: cells[("lab-reference", c.id)].verdict for c in CORE_CASES}
    gaps = {case: v.because for case, v in verdicts.items() if v.kind != "kept"}
    assert gaps == REFERENCE_GAPS
    assert "canary seen in its tool_result" in verdicts["P1"].evidence[0]
    assert any(
        line.startswith("measured wait before the retry: ") for line in verdicts["P6"].evidence
    )


def test_the_course_fails_exactly_where_the_course_gives_way(cells):
    failed = {c.id for c in CORE_CASES if cells[("lab-course", c.id)].verdict.kind == "fail"}
    kept = {c.id for c in CORE_CASES if cells[("lab-course", c.id)].verdict.kind == "kept"}
    core = {c.id for c in CORE_CASES}
    assert kept == set(COURSE_KEEPS) & core
    assert failed == core - set(COURSE_KEEPS)
    assert cells[("lab-course", "P10")].verdict.because == (
        "the call cut by max_tokens ran: its canary came back in its tool_result"
    )


@pytest.mark.parametrize("case", list(BREAKERS))
def test_each_case_catches_the_harness_that_breaks_it(cells, case):
    target, grade, expected = BREAKERS[case]
    verdict = cells[(target.name, case)].verdict
    assert verdict.kind == grade, verdict
    assert any(expected in line for line in (verdict.because, *verdict.evidence)), verdict


@pytest.mark.parametrize(
    ("target", "case", "grade", "reason"), SEEN, ids=[f"{t.name[-20:]}-{c}" for t, c, _, _ in SEEN]
)
def test_what_was_seen_on_real_harnesses_is_graded_right(cells, target, case, grade, reason):
    verdict = cells[(target.name, case)].verdict
    assert (verdict.kind, reason in verdict.because) == (grade, True), verdict


@pytest.mark.parametrize("width", [80, 100, 120])
def test_the_evidence_reads_at_80_100_and_120_columns_with_no_word_split(cells, width):
    import io

    from rich.console import Console

    from lab.views.probe_matrix import reproduce, target_view, versions

    title = agent("title")
    shown = [
        (lab_target("reference"), [cells[("lab-reference", c.id)] for c in CORE_CASES]),
        (title, [cells[(title.name, "P1")]]),
    ]
    for target, row in shown:
        file = io.StringIO()
        Console(file=file, width=width, color_system=None).print(
            target_view(target, row, width), soft_wrap=True
        )
        printed = file.getvalue().splitlines()
        said = [target.name, "·", target.about, "in json stream mode"]
        said += [f"{name} {version}, {version}" for name, version in versions(target).items()]
        said += ["kept, fail, non-strict, info, n/a, not reached, inconclusive;"]
        said += ["kept fail info reached inconclusive"]
        said += ["read fail, which it claims to keep", *(c.title for c in CORE_CASES)]
        for cell in row:
            said += [cell.case, cell.verdict.because, *cell.verdict.evidence, ":"]
            said += ["reproduce: " + reproduce(cell, target)] if cell.verdict.kind == "fail" else []
        words = {w for text in said for w in text.replace(":", " : ").split()}
        for line in printed:
            assert line == line.rstrip(), f"trailing spaces: {line!r}"
            assert len(line) <= width or " " not in line.strip(), f"too wide: {line!r}"
            for word in line.replace(":", " : ").split():
                assert word in words or word.isdigit(), f"{word!r} split across lines in {line!r}"
        grade = row[0].verdict.kind  # the case's title follows its id and grade
        heading = f"  P1 {grade}: " if width < 100 else f"  P1   {grade:<13}"
        assert any(line.startswith(heading + "tool_use declared end_turn") for line in printed)


def test_a_case_with_no_fixed_mode_ran_in_both_and_says_the_other(cells):
    both = cells[("lab-reference", "P2")]
    assert {both.mode, both.other.mode} == {"json", "stream"}
    assert both.verdict.evidence[-1] == "the same in the other answer mode"
    fixed = cells[("lab-reference", "P1s")]
    assert (fixed.mode, fixed.other) == ("stream", None)


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


def test_every_case_names_what_it_checks_its_rule_its_outcomes_and_its_grade():
    assert [c.id for c in CASES] == [
        "P1", "P1s", "P1b", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "P12",
        *(f"P{n}" for n in range(13, 24)), "P10s", "P24", "P25", "P26",
    ]  # fmt: skip
    for case in CASES:
        assert case.checks and case.kept_when and case.title and case.outcomes
        assert case.grade in ("【一】", "【二】", "【三】")


def test_a_python_command_is_the_interpreter_on_the_callers_path_and_starts_cold(
    tmp_path, monkeypatch
):
    own = tmp_path / "bin" / "python"
    own.parent.mkdir()
    own.write_text("#!/bin/sh\n")
    own.chmod(0o755)
    monkeypatch.setenv("PATH", f"{own.parent}:/usr/bin:/bin")
    target = command_target("python my_agent.py")
    assert target.argv("PROMPT", tmp_path)[0] == str(own)
    assert (target.warm, target.command) == (False, True)
    assert lab_target("course").warm


def test_a_node_error_line_is_the_thrown_message_not_the_runtime_banner():
    from lab.probe.bench import error_line

    output = "file.js:3\n  throw new Error('boom')\n  ^\n\nError: boom\n    at x (file.js:3)\n"
    output += "\nNode.js v20.11.0"
    assert error_line(output, 1) == "Error: boom"


# ---- the conversation answers by content --------------------------------------------------------
def request(messages, stream=False):
    return ModelRequest(0, messages, [], None, stream)


LAST = "All the work is done."  # a text sign: long enough not to be quoted by chance
CALL = tool_use("read_file", {"path": "notes.txt"}, id="toolu_a")
AGAIN = tool_use("read_file", {"path": "notes.txt"}, id="toolu_b")


def conversation():
    stages = [Stage(turn(AGAIN), fault=overloaded()), Stage(turn(CALL)), Stage(turn(LAST))]
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
    assert talk(request(only_results)) == turn(LAST)  # a thread's continue: the ids suffice


def test_side_calls_and_requests_past_the_end_are_told_apart():
    talk = conversation()
    assert talk(request([{"role": "user", "content": "Write a title"}])) == turn("ok.")
    past = [
        {"role": "user", "content": "[probe] go"},
        {"role": "assistant", "content": [{"type": "text", "text": LAST}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_a"}]},
    ]
    talk(request(past))
    assert [p.kind for p in talk.log] == ["side call", "extra"]


def test_a_request_offering_none_of_the_scripts_tools_is_a_side_call_whatever_it_quotes():
    talk = Conversation(conversation().stages, marker="[probe]", tools=frozenset({"read_file"}))
    quoted = [{"role": "user", "content": "Title for: [probe] go"}]
    assert talk(ModelRequest(0, quoted, [], None, False)) == turn("ok.")
    offered = [{"name": "read_file", "input_schema": {}}]
    assert talk(ModelRequest(1, quoted, offered, None, False)) == overloaded()
    assert [p.kind for p in talk.log] == ["side call", "fault"]


def test_ids_and_texts_inside_a_text_history_place_the_request():
    talk = conversation()
    said = [
        {"role": "user", "content": "[probe] go"},
        {"role": "assistant", "content": "Calling tools: [{'id': 'toolu_b', 'name': 'read_file'}]"},
        {"role": "user", "content": "Observation: the notes"},
    ]
    assert talk(request(said)) == turn(CALL)  # stage 1: toolu_b was stage 0's answer


def test_a_fault_that_needs_a_stream_is_played_only_on_a_streamed_request():
    fault = stream_error(turn(CALL))
    stages = [Stage(turn(AGAIN), fault=fault, mode="stream"), Stage(turn("done."))]
    talk = Conversation(stages, marker="[probe]")
    first = [{"role": "user", "content": "[probe] go"}]
    assert talk(request(first, stream=False)) == turn(AGAIN)
    assert [p.kind for p in talk.log] == ["answer"]


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
        row = (
            f"| {case.id} | {case.title} | {case.checks} | {case.grade} | {case.kept_when} "
            f"| {case.outcomes} |"
        )
        assert row in README, case.id


def test_the_readme_documents_every_grade_and_exit_code():
    bench = README.split("## The bench", 1)[1].split("### For harness authors", 1)[0]
    for grade in ("kept", "fail", "non-strict", "info", "n/a", "not reached", "inconclusive"):
        assert f"- **{grade}** — " in bench
    for flag in ("--final-call", "--junit", "your* `PATH`"):
        assert flag in bench
    assert "4 a `--cmd` program was not reached" in bench


def test_the_readme_example_loop_is_the_one_the_suite_runs():
    section = README.split("### For harness authors", 1)[1]
    example = section.split("```python\n", 1)[1].split("```", 1)[0]
    body = example.split("\n\n", 2)[2]  # after the two import paragraphs
    assert body.strip() in (Path(__file__).parent / "test_wire.py").read_text()
    assert "def test_my_loop_keeps_the_wire_invariants" in body


def test_notebook_08s_questions_are_computed_from_a_real_probe():
    import json

    from lab.classroom.predict import check

    command = [sys.executable, "-m", "lab", "probe", "anthropic-tool-runner", "--case", "P1s"]
    done = patience.run([*command, "--json"], 300, "lab probe anthropic-tool-runner --case P1s")
    result = json.loads(done.stdout)
    assert check("R.1", 1, "en", result=result).right  # one request: the call was dropped
    assert check("R.3", 0, "en", result=result).right  # and the program said nothing was wrong
    assert not check("R.1", 2, "en", result=result).right


def test_a_warm_start_changes_no_verdict_and_no_evidence(cells):
    # The lab's harness run as a module, and the test programs run as scripts (as `cells` runs
    # them): started cold, each reads exactly what its warm start read, exit status included.
    course = lab_target("course")  # warm-startable: python -m lab.probe.own_harness
    pairs = [(course, BY_ID[case]) for case in ("P1", "P4", "P10")]
    pairs += [(agent("trusting"), BY_ID["P3"]), (program("text_history.py", FINAL), BY_ID["P10"])]
    assert all(target.warm for target, _ in pairs)
    warm = [cells[(target.name, case.id)] for target, case in pairs]
    cold = probe_pairs(pairs, cold=True)
    assert [(c.verdict, c.trial.exit) for c in warm] == [(c.verdict, c.trial.exit) for c in cold]


def test_a_warm_parent_of_a_script_imports_what_its_top_level_imports_name(tmp_path):
    from lab.probe.warm import script_imports

    assert script_imports(str(AGENT)) == ["base64", "os", "sys", "pathlib", "anthropic"]
    script = tmp_path / "agent.py"
    script.write_text(
        "import os.path, json\nfrom . import x\nfrom a.b import c\ndef f():\n    import z\n"
    )
    assert script_imports(str(script)) == ["os.path", "json", "a.b"]  # not relative, not nested
    script.write_text("import (\n")
    assert script_imports(str(script)) == []  # the run itself will say what is wrong


# ---- judges over a hand-made record ------------------------------------------------------------
def hand_trial(case: str, requests: list[tuple], status: int = 0):
    """A Trial from (body, stage[, arrival second]) requests, each given the stage's healthy
    answer, but the first request at a stage with a fault: that gets the fault."""
    from tapped import reply_to

    from lab.probe.conversation import Played
    from lab.probe.trial import Exchange, Exit, Setting, Trial
    from lab.probe.wire_promises import ended

    setting = Setting(case, "CANARY", ("read_file", {"path": "notes.txt"}), None, "[m]", "[m] go")
    stages = BY_ID[case].script(setting)
    exchanges, seen = [], set()
    for n, (body, k, *at) in enumerate(requests, start=1):
        fault = stages[k].fault is not None and k not in seen
        seen.add(k)
        step, kind = (stages[k].fault, "fault") if fault else (stages[k].answer, "answer")
        played = Played(n, k, 1, kind, step, False, False)
        status_code = getattr(step, "status", 200)
        got = reply_to(step, kind)
        exchanges.append(
            Exchange(n, "POST", "/v1/messages", body, status_code, "", played, *at, reply=got)
        )
    return ended(Trial("hand", setting, stages, exchanges, Exit(status)))


@pytest.mark.parametrize(("gap", "grade"), [(1.05, "kept"), (0.95, "kept"), (0.5, "non-strict")])
def test_p6_measures_the_wait_against_retry_after_within_its_tolerance(gap, grade):
    ask = {"messages": [{"role": "user", "content": "[m] go"}]}
    answered = {
        "messages": [
            *ask["messages"],
            {"role": "assistant", "content": [{"type": "tool_use", "id": "toolu_p6_01"}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_p6_01"}]},
        ]
    }
    trial = hand_trial("P6", [(ask, 0, 0.0), (ask, 0, gap), (answered, 1, gap + 0.1)])
    graded = verdict(BY_ID["P6"], trial)
    assert graded.kind == grade, graded
    assert f"measured wait before the retry: {gap:.1f} s" in graded.evidence


def test_a_message_thread_holds_the_assistant_turn_it_is_not_a_rewrite():
    results = [
        {"type": "tool_result", "tool_use_id": f"toolu_p5_0{k}", "content": "CANARY"}
        for k in (1, 2)
    ]
    first = {"messages": [{"role": "user", "content": "[m] go"}]}
    resumed = {"thread": {"id": "thr_1"}, "messages": [{"role": "user", "content": results}]}
    trial = hand_trial("P5", [(first, 0), (resumed, 1)])
    assert verdict(BY_ID["P5"], trial).kind == "kept"
    # Without the thread the same request answers calls no turn made: pairing breaks (the API
    # would reject it), a fail.
    rewritten = {"messages": [*first["messages"], {"role": "user", "content": results}]}
    assert verdict(BY_ID["P5"], hand_trial("P5", [(first, 0), (rewritten, 1)])).kind == "fail"
