"""The lab is true to the chapter: the course preset does what the course's code does, every
claim carries the seed's evidence grade, the seed's ids mean what they mean in the seed, and
the Chinese texts use the seed's terms and typeset as Chinese."""

from __future__ import annotations

import re

import pytest
from hypothesis import given

from lab.chapter.experiment import GRADES, OWN_SOURCE, load_all, run_experiment, select
from lab.harness.checks import Call
from lab.harness.permissions import (
    Gates,
    Human,
    PartByPart,
    Permissions,
    WholeLine,
    course_permissions,
)
from lab.harness.tools import Tool, ToolError, invoke, invoke_unguarded
from lab.kernel.observables import files_lost, human_prompts, human_prompts_for_invalid_calls
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches, switch_info, switch_names
from lab.kernel.trace import CheckPassed, GateDecision, RunEnded, ToolExecuted, Trace
from lab.model import text, tool_use, turn
from lab.testing import BY_NAME
from lab.testing.strategies import focused_cases
from lab.views.report import NO_LINE_START, break_lines, grade_label
from lab.world import World, is_read_only, split_commands

EXPERIMENTS = {e.id: e for e in load_all()}
COURSE = Switches.course()


def run_bash(command: str, permissions: Permissions, switches: Switches, human=()):
    script = [turn(tool_use("bash", {"command": command})), turn(text("done"))]
    scenario = Scenario(script, files={"notes.txt": "keep\n"}, permissions=permissions, human=human)
    return run_scenario(scenario, switches)


# ---- D11: the course's substring rules are not fooled by a compound -------------------------
def test_the_course_denies_ls_and_rm_rf_root_and_loses_nothing():
    run = run_bash("ls && rm -rf /", course_permissions(), COURSE, human=["y"])
    assert files_lost(run) == 0 and human_prompts(run) == 0
    assert [e.decision for e in run.trace.of(GateDecision)] == ["deny"]


COMPOUNDS = ["ls && rm -rf /", "echo ok || sudo ls", "ls; rm notes.txt", "cat x | mkfs", "ls"]


@pytest.mark.parametrize("command", COMPOUNDS)
def test_splitting_is_moot_for_the_course_s_substring_rules(command):
    """Why the course's split_compound_commands is the reference's value: a substring is
    found in the whole line exactly when it is found in some part."""
    decisions = []
    for compound in (PartByPart, WholeLine):
        trace, world = Trace(), World.create()
        gates = Gates(course_permissions(), Human(["n"]), world, trace, compound=compound)
        gates.judge(Call("t1", "bash", {"command": command}, None, 1), {})
        decisions.append([(e.gate, e.decision) for e in trace.of(GateDecision)])
    assert decisions[0] == decisions[1]
    info = switch_info("split_compound_commands")
    assert info["course"] is True and info["course_why"].startswith("moot")


def test_d11_is_not_among_the_course_s_experiments():
    flipped = COURSE.differences()
    assert "split_compound_commands" not in flipped
    assert not all(flipped.get(k) == v for k, v in EXPERIMENTS["D11"].flips.items())


# ---- D8: the course's dispatch has no try ---------------------------------------------------
def test_the_course_crashes_on_d8_and_the_reference_refuses_the_tool():
    d8 = EXPERIMENTS["D8"]
    assert run_scenario(d8.scenario, COURSE).ended == "crash"
    assert run_scenario(d8.scenario, Switches()).ended == "done"
    guarded = run_scenario(d8.scenario, Switches(contract_checked=False))
    assert guarded.ended == "done"  # unchecked but guarded: the TypeError is an is_error result


def test_the_unguarded_dispatch_lets_a_handler_s_exception_out():
    def handler(path: str) -> str:
        raise ToolError("no such file") if path == "gone" else ZeroDivisionError("bug")

    tool = Tool("t", "", {"type": "object", "properties": {"path": {"type": "string"}}}, handler)
    assert invoke_unguarded(tool, {"path": "gone"}) == ("Error: no such file", True)
    with pytest.raises(TypeError):
        invoke_unguarded(tool, {"file_path": "x"})  # the keyword expansion itself
    with pytest.raises(ZeroDivisionError):
        invoke_unguarded(tool, {"path": "x"})
    assert invoke(tool, {"file_path": "x"})[1] is True  # the reference: a result


def test_the_course_preset_is_marked_as_crashing():
    assert switch_info("handler_errors_become_results")["course"] is False
    assert BY_NAME["no_crash"].course is False


# ---- D9: the course implements only the last two stages ------------------------------------
def test_the_course_has_no_check_of_its_own_before_the_handler():
    """The seed (§5): the course implements only the last two stages 【一】 (D9b, the switch
    own_front_checks). The lab reads the rest differently from the chapter (被外部件代工 is
    disputed: lab/chapter/disputes.py). With the course's switches a malformed call passes the gates
    and reaches handler(**block.input), which raises, and with no try around it the run crashes
    (as D8)."""
    d9 = EXPERIMENTS["D9"]
    course = run_scenario(d9.scenario, COURSE)
    assert course.ended == "crash"
    assert (
        "missing 1 required positional argument: 'content'" in course.trace.of(RunEnded)[-1].detail
    )
    assert human_prompts_for_invalid_calls(course) == 1  # asked about the malformed call first
    assert not {e.stage for e in course.trace.of(CheckPassed)} & {"validation", "tool_check"}
    # D9 alone (validate_before_gate=False) keeps validation, after the gates
    outcome = run_experiment(d9)
    assert human_prompts_for_invalid_calls(outcome.after) == 2
    info = switch_info("own_front_checks")
    assert info["course"] is False and info["course_why"].startswith("disputed:")
    # D9b alone (own_front_checks=False) is the course's chain of two stages
    d9b = run_experiment(EXPERIMENTS["D9b"]).after
    assert not {e.stage for e in d9b.trace.of(CheckPassed)} & {"validation", "tool_check"}
    assert BY_NAME["human_last"].course is False


# ---- the seed's ids -------------------------------------------------------------------------
def test_d3_is_the_seed_s_trimmed_history_and_d23_the_denied_call():
    d3, d23 = EXPERIMENTS["D3"], EXPERIMENTS["D23"]
    assert d3.scenario.keep_last is not None and d3.scenario.permissions == Permissions()
    assert d23.scenario.keep_last is None and d23.scenario.permissions.deny
    assert "D3b" not in EXPERIMENTS
    for e in (d3, d23):
        assert dict(e.flips) == {"pair_protection": False}
        assert e.expect["pairs_intact"] == (True, False)


def test_the_seed_s_experiments_keep_the_prototype_s_observables():
    """The prototype printed D1 ran_late_tool, D3 pairs_intact, D4 ran_deny_listed."""
    assert EXPERIMENTS["D1"].expect["ran_late_tool"] == (True, False)
    assert EXPERIMENTS["D3"].expect["pairs_intact"] == (True, False)
    assert EXPERIMENTS["D4"].expect["ran_deny_listed"] == (False, True)
    assert EXPERIMENTS["D1"].title["zh"] == "循环判据退回「信 stop_reason」"


# ---- evidence grades ------------------------------------------------------------------------
@pytest.mark.parametrize("experiment", EXPERIMENTS.values(), ids=lambda e: e.id)
def test_every_shipped_experiment_states_its_grade_and_source(experiment):
    assert experiment.grade in GRADES
    assert experiment.source != OWN_SOURCE and "\n" not in experiment.source
    if experiment.grade == "beyond":
        assert "beyond the seed" in experiment.source
    else:
        assert "seed §" in experiment.source


def test_the_grades_the_seed_gives():
    expected = {"D7": "一", "D8": "一", "D10": "一", "D12": "一", "D26": "一", "D23": "一"}
    expected |= {"D4": "二", "D24": "二", "D25": "二", "D28": "二", "D11": "二", "D15": "二"}
    expected |= {"D1": "三", "D17": "三", "D18": "三", "D27": "三", "D16": "三", "D19": "三"}
    expected |= {"D1b": "beyond", "D9b": "一"}
    assert {i: EXPERIMENTS[i].grade for i in expected} == expected


@pytest.mark.parametrize("name", switch_names())
def test_one_grade_per_switch_and_its_experiment(name):
    """Issue 30: a switch and the experiment that flips it alone carry one grade (a switch
    with several experiments shows the claims of its own, one of theirs)."""
    info = switch_info(name)
    alone = [e for e in EXPERIMENTS.values() if list(e.flips) == [name]]
    grades = {e.grade for e in alone}
    if len(alone) == 1:
        assert grades == {info["grade"]}, name
    elif alone:
        assert info["grade"] in grades, name


@pytest.mark.parametrize("name", switch_names())
def test_every_switch_states_its_grade(name):
    assert switch_info(name)["grade"] in GRADES and switch_info(name)["source"]


def test_a_malformed_grade_is_one_readable_problem():
    bad = EXPERIMENTS["D1"].__class__(**{**EXPERIMENTS["D1"].__dict__, "grade": "四"})
    assert any("grade '四'" in why for _, why in bad.problems())


def test_lab_list_and_run_show_the_grade(capsys, monkeypatch):
    from lab.cli import main

    monkeypatch.setenv("COLUMNS", "200")
    assert main(["list"]) == 0
    listed = capsys.readouterr().out
    assert "beyond the seed" in listed and "【一】" in listed and "grade" in listed
    assert main(["run", "D15", "D7", "D1b"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"^D15 · M5 the hook sockets · 【二】 · Hooks may", out, re.M)
    assert re.search(r"^D1b · M1 the loop · beyond the seed · ", out, re.M)
    assert re.search(r"^D7 · M2 the dispatch table · 【一】 · ", out, re.M)
    assert main(["run", "--json", "D7"]) == 0
    assert '"grade": "一"' in capsys.readouterr().out


# ---- D28: evasions and the sandbox ----------------------------------------------------------
EVASIONS = [
    "/bin/rm -f /etc/hosts",
    "bash -c 'rm -f /etc/hosts'",
    "CMD=rm; $CMD -f /etc/hosts",
    "find /etc -name hosts -delete",
    "ls && /usr/bin/rm -f /etc/hosts",
    "echo 'rm -f /etc/hosts' | bash",
]


@pytest.mark.parametrize("command", EVASIONS)
def test_each_evasion_really_removes_the_file_on_an_unsandboxed_disk(command):
    world = World.create()
    result = world.run_shell(command)
    assert result.status == 0, result.output
    assert not world.fs.exists("/etc/hosts") and world.fs.exists("/etc/passwd")


@pytest.mark.parametrize("command", EVASIONS)
def test_each_evasion_passes_a_deny_rule_judged_part_by_part(command):
    run = run_bash(command, Permissions(deny=["Bash(rm *)"]), Switches(shell_sandbox=False))
    assert not run.trace.of(GateDecision) or all(
        e.decision == "allow" for e in run.trace.of(GateDecision)
    )
    assert files_lost(run) == 1  # /etc/hosts


@pytest.mark.parametrize("command", EVASIONS)
def test_the_sandbox_holds_against_each_evasion(command):
    run = run_bash(command, Permissions(deny=["Bash(rm *)"]), Switches())
    assert files_lost(run) == 0
    assert any("Read-only file system" in e.output for e in run.trace.of(ToolExecuted))
    world = World.create({"notes.txt": "x\n"})
    result = world.run_shell(command, sandboxed=True)
    assert "Read-only file system" in result.output and result.status != 0
    assert world.fs.exists("/etc/hosts")


def test_a_shared_prefix_is_outside_the_sandbox_as_it_is_outside_the_wall():
    """`/workspace2` shares a prefix with `/workspace` and lies outside it: the sandbox
    refuses to write there exactly as the workspace wall refuses to reach it."""
    world = World.create({"notes.txt": "x\n"})
    world.fs.write("/workspace2/keep.txt", "keep\n")
    assert not world.inside_workspace("/workspace2/keep.txt")
    for command in (
        "echo y > /workspace2/new.txt",
        "rm /workspace2/keep.txt",
        "mkdir /workspace2/d",
    ):
        result = world.run_shell(command, sandboxed=True)
        assert "Read-only file system" in result.output and result.status != 0, command
    assert world.fs.read("/workspace2/keep.txt") == "keep\n"
    assert not world.fs.exists("/workspace2/new.txt") and not world.fs.exists("/workspace2/d")
    assert world.run_shell("echo y > /workspace/inside.txt", sandboxed=True).status == 0


def test_the_sandbox_still_lets_the_workspace_change():
    world = World.create({"notes.txt": "x\n", "src/a.py": "1\n"})
    assert world.run_shell("echo y > out.txt && rm notes.txt", sandboxed=True).status == 0
    assert world.fs.read("/workspace/out.txt") == "y\n"
    result = world.run_shell("rm -rf /", sandboxed=True)
    assert "cannot remove '/': Read-only file system" in result.output
    assert set(world.snapshot()) == {"/etc/hosts", "/etc/passwd"}  # the workspace is emptied


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("/bin/cat notes.txt", True),
        ("bash -c 'ls | wc -l'", True),
        ("bash -c 'rm x'", False),
        ("CMD=ls; $CMD", False),  # what a variable runs is only known when it runs
        ("X=1", True),
        ("find . -name '*.py'", True),
        ("find . -delete", False),
        ("/opt/tool x", False),
    ],
)
def test_read_only_sees_through_the_evasion_forms(command, expected):
    assert is_read_only(command) is expected


def test_variables_expand_and_split_like_bash():
    world = World.create({"a b.txt": "spaced\n", "a": "A\n", "b": "B\n"})
    assert world.run_shell('F="a b.txt"; cat "$F"').output == "spaced\n"
    assert world.run_shell('F="a b"; cat $F').output == "A\nB\n"
    assert world.run_shell("X=hi; echo '$X' \"$X\" ${X}!").output == "$X hi hi!\n"
    assert world.run_shell("echo $NOPE end").output == "end\n"
    assert split_commands("CMD=rm; $CMD -f x") == ["CMD=rm", "$CMD -f x"]


def test_find_lists_and_deletes_deepest_first():
    world = World.create({"src/a.py": "1\n", "src/lib/b.py": "2\n", "notes.txt": "n\n"})
    assert world.run_shell("find src -name '*.py'").output == "src/a.py\nsrc/lib/b.py\n"
    assert world.run_shell("find . -type d").output == ".\n./src\n./src/lib\n"
    assert world.run_shell("find src -delete").status == 0
    assert not world.fs.exists("/workspace/src") and world.fs.exists("/workspace/notes.txt")
    assert world.run_shell("find nope").status == 1


def test_a_script_that_runs_itself_stops():
    world = World.create({"loop.sh": "bash loop.sh\n"})
    result = world.run_shell("bash loop.sh")
    assert result.status == 1 and "maximum nesting level exceeded" in result.output


# ---- the new invariants hold on the reference harness ---------------------------------------
@given(focused_cases("M4"))
def test_the_sandbox_invariant_holds(case):
    assert BY_NAME["sandbox"].check(case.run()) is None


@given(focused_cases("M5"))
def test_a_blocking_hook_wins_and_silence_approves_nothing(case):
    run = case.run()
    assert BY_NAME["hook_block"].check(run) is None
    assert BY_NAME["silence"].check(run) is None


# ---- Chinese --------------------------------------------------------------------------------
def test_d18_is_about_the_old_content_of_a_file_rm_should_have_removed():
    zh = EXPERIMENTS["D18"].takeaway["zh"]
    assert "旧内容" in zh and "rm" in zh and "已被删掉的文件" not in zh
    assert "old content" in EXPERIMENTS["D18"].takeaway["en"]


SEED_TERMS = {"D1b": "续轮判据", "D23": "配对义务", "D3": "配对义务", "D18": "托盘", "D19": "托盘"}
SEED_TERMS |= {"D27": "托盘", "D9": "扫码口", "D17": "扫码口", "D11": "门禁", "D26": "门禁"}
SEED_TERMS |= {"D28": "门禁", "D24": "插线口"}


@pytest.mark.parametrize(("experiment_id", "term"), SEED_TERMS.items())
def test_zh_texts_use_the_seed_s_terms(experiment_id, term):
    e = EXPERIMENTS[experiment_id]
    assert term in e.title["zh"] + e.takeaway["zh"]


@pytest.mark.parametrize("experiment", EXPERIMENTS.values(), ids=lambda e: e.id)
def test_zh_texts_use_full_width_punctuation(experiment):
    for zh in (experiment.title["zh"], experiment.takeaway["zh"]):
        assert "继续判据" not in zh
        assert not re.search(r"[\u4e00-\u9fff][,:;?!]|[,:;?!]\s*[\u4e00-\u9fff]", zh), zh


@pytest.mark.parametrize("width", [38, 47, 60, 71, 80, 93, 100, 120])
def test_no_line_of_lab_run_in_chinese_starts_with_a_closing_mark(width, capsys, monkeypatch):
    from lab.cli import main

    monkeypatch.setenv("COLUMNS", str(width))
    ids = ["D18", "D28", "D8", "D26", "D23", "D3"]
    assert main(["run", "--lang", "zh", *ids]) == 0
    out = capsys.readouterr().out
    assert "改动：" in out and "口播落点：" in out and "改动: " not in out
    for line in out.splitlines():
        assert not line.strip() or line.strip()[0] not in NO_LINE_START, line


def test_break_lines_keeps_punctuation_with_its_word():
    plain = "一二三四五。六七"
    lines = [plain[a:b] for a, b in break_lines(plain, 10)]  # 5 CJK characters fill 10 cells
    assert lines == ["一二三四", "五。六七"]
    english = "see D28 now"
    assert [english[a:b] for a, b in break_lines(english, 7)] == ["see D28", "now"]


def test_grade_labels():
    assert [grade_label(g) for g in GRADES] == ["【一】", "【二】", "【三】", "beyond the seed"]
    assert grade_label("beyond", "zh") == "超出本章"
    assert select(list(EXPERIMENTS.values()), ["d28"])[0].grade == "二"
