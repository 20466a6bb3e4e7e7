"""A Scenario is a script and a Setup; the harness is built from the Setup alone."""

from __future__ import annotations

import sys
from dataclasses import fields, replace

import pytest

from lab.harness.permissions import Permissions
from lab.kernel import promises
from lab.kernel.promises import broken_promises
from lab.kernel.record import Ending, Record
from lab.kernel.runner import run
from lab.kernel.scenario import Run, Scenario, Setup, build_harness, run_safely
from lab.kernel.switches import Switches
from lab.model import rate_limited, text, tool_use, turn
from lab.model.client import make_client
from lab.model.fake_api import FakeMessagesAPI
from lab.model.script import ScriptedModel
from lab.world import World


def test_a_scenario_is_a_setup_with_a_script_and_declares_no_setup_field_again():
    assert Scenario.__annotations__ == {"script": "Sequence[Step] | Responder"}  # only its own
    assert [f.name for f in fields(Scenario)] == [*(f.name for f in fields(Setup)), "script"]
    scenario = Scenario([], max_turns=3)
    assert scenario.setup == Setup(max_turns=3) and type(scenario.setup) is Setup
    assert scenario.model == Setup().model  # a Setup's field with its Setup default


def test_a_scenarios_one_positional_field_is_its_script():
    with pytest.raises(TypeError):
        Scenario([], "a prompt")  # type: ignore[misc]
    with pytest.raises(TypeError):
        Setup("a prompt")  # type: ignore[misc]


def test_replace_changes_a_scenarios_setup_field_and_keeps_the_rest():
    scenario = Scenario([turn(text("hi"))], prompt="go", max_turns=3)
    changed = replace(scenario, prompt="again")
    assert (changed.prompt, changed.max_turns, changed.script) == ("again", 3, scenario.script)
    assert scenario.prompt == "go"  # a frozen scenario: the change is a new one


def test_the_setup_of_a_scenario_carries_every_field_but_the_script():
    perms = Permissions(deny=["Bash(rm *)"])
    scenario = Scenario([turn(text("hi"))], prompt="go", files={"a": "b"}, permissions=perms)
    setup = scenario.setup
    assert (setup.prompt, dict(setup.files), setup.permissions) == ("go", {"a": "b"}, perms)


def test_a_harness_is_wired_from_a_setup_without_any_script():
    setup = Setup(prompt="hello", model="claude-other", max_turns=3)
    world = World.create({})
    api = FakeMessagesAPI(ScriptedModel([turn(text("hi"))]))
    harness = build_harness(setup, Switches(), world, make_client(api))
    assert run_safely(harness, setup.prompt) == "done"
    assert api.requests[0]["model"] == "claude-other"
    assert harness.max_turns == 3


# ---- one entry runs anything, and every run leaves one Record --------------------------------
READ = tool_use("read_file", {"path": "notes.txt"})


def read_loop(client, prompt: str) -> None:
    """A function written to the wire protocol: reads the file the model asks for."""
    messages: list[dict] = [{"role": "user", "content": prompt}]
    tools = [{"name": "read_file", "input_schema": {"type": "object"}}]
    while True:
        reply = client.messages.create(model="m", max_tokens=64, messages=messages, tools=tools)
        messages.append({"role": "assistant", "content": [b.to_dict() for b in reply.content]})
        calls = [b for b in reply.content if b.type == "tool_use"]
        if not calls:
            return
        results = [{"type": "tool_result", "tool_use_id": c.id, "content": "hello"} for c in calls]
        messages.append({"role": "user", "content": results})


def test_one_entry_runs_the_lab_harness_a_function_and_a_program_into_one_record(tmp_path):
    (tmp_path / "notes.txt").write_text("hello\n", encoding="utf-8")
    script = [turn(READ, stop_reason="end_turn"), turn(text("done."))]
    lab_run = run(Scenario(script, files={"notes.txt": "hello\n"}))
    function = run(read_loop, script, "Please read notes.txt")
    program = run(
        [sys.executable, "-m", "lab.probe.own_harness", "Please read notes.txt"],
        script,
        cwd=str(tmp_path),
    )
    assert isinstance(lab_run, Run) and lab_run.record is not None
    assert isinstance(function, Record) and isinstance(program, Record)
    for record in (lab_run.record, function, program):
        kinds = [r.reply.kind for r in record.requests]
        assert kinds == ["answer", "answer"], kinds
        assert record.requests[0].reply.declared == "end_turn"
        assert broken_promises(record) == []  # the same judges, whatever ran
    assert program.ending == Ending("exit 0", False, "exit status 0")
    assert [r.id for r in lab_run.record.ran or ()] == ["toolu_001"]


def test_a_record_is_read_from_the_fake_apis_log_not_copied():
    run_ = run(Scenario([turn(READ), turn(text("done."))], files={"notes.txt": "x"}))
    assert isinstance(run_, Run) and run_.record is not None
    first = run_.record.requests[0]
    assert first.body == run_.api.requests[0]  # the body is the API's own log entry
    assert first.at == 0.0 and run_.record.requests[1].at == 1.0  # the world's virtual clock


def test_a_retry_after_is_waited_on_the_virtual_clock_and_judged_from_the_record():
    record = run(Scenario([rate_limited(2.0), turn(text("done."))])).record
    gap = record.requests[1].at - record.requests[0].at
    assert (record.requests[0].reply.retry_after, gap) == (2.0, 2.0)
    assert promises.waited_as_told(record) is None


def test_a_program_runs_in_a_scratch_folder_and_its_failure_is_the_records_ending(
    tmp_path, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    code = "open('left.txt', 'w').write('x'); raise SystemExit('gave up')"
    record = run([sys.executable, "-c", code], [turn(text("done."))])
    assert isinstance(record, Record)
    assert record.ending == Ending("exit 1", True, "exit status 1: gave up")
    assert promises.no_crash(record) == "exit status 1: gave up"
    assert list(tmp_path.iterdir()) == []  # nothing written where the caller stands


def test_a_program_that_outlives_its_limit_is_stopped_and_says_so():
    code = "import time; time.sleep(60)"
    record = run([sys.executable, "-c", code], [turn(text("done."))], timeout=0.5)
    assert record.ending == Ending("timeout", True, "timed out after 0.5 s (stopped)")


def test_a_program_that_is_not_there_is_an_ending_not_a_traceback():
    record = run(["/no/such/program"], [turn(text("done."))])
    assert record.ending.reason == "exit 127" and record.ending.crashed
    assert "/no/such/program" in record.ending.line and record.requests == []
