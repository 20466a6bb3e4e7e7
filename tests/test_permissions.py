"""M4: permission gates deny -> ask -> allow, rule syntax, compound commands, the human."""

from __future__ import annotations

import pytest

from lab.harness.permissions import (
    PartByPart,
    Permissions,
    WholeLine,
    command_pattern,
    course_permissions,
    parse_rule,
)
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import GateDecision, HumanAsked, RuleIgnored, RunStarted, ToolExecuted
from lab.model import text, tool_use, turn

FILES = {"notes.txt": "keep me\n", "x/data.bin": "0101\n", "secrets/key.txt": "hunter2\n"}


def bash(command: str, id: str = "toolu_c") -> dict:
    return tool_use("bash", {"command": command}, id=id)


def run_one(call: dict, permissions: Permissions, switches: Switches | None = None, **kw):
    scenario = Scenario(
        script=[turn(call), turn(text("done"))], files=FILES, permissions=permissions, **kw
    )
    return run_scenario(scenario, switches or Switches())


def decision(run) -> tuple[str, str]:
    (gate,) = run.trace.of(GateDecision)
    return gate.gate, gate.decision


def ran(run) -> list[str]:
    return [e.call_id for e in run.trace.of(ToolExecuted)]


# -- rule syntax, unit ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("glob", "command", "matches"),
    [
        ("ls *", "ls", True),
        ("ls *", "ls -la", True),
        ("ls *", "lsof", False),
        ("ls *", "lsof -i", False),
        ("ls:*", "ls -la", True),
        ("ls:*", "lsof", False),
        ("npm run test *", "npm run test --watch", True),
        ("npm run test *", "npm run testing", False),
        ("rm notes.txt", "rm notes.txt", True),
        ("rm notes.txt", "rm notes.txt.bak", False),
        ("rm notes.txt", "rm -rf notes.txt", False),
        ("git * main", "git push origin main", True),
        ("git * main", "git push origin main2", False),
    ],
)
def test_command_pattern(glob, command, matches):
    assert bool(command_pattern(glob).match(command)) is matches


@pytest.fixture
def world():
    return run_scenario(Scenario([turn(text("done"))], files=FILES)).world


def test_parse_rule_rejects_garbage(world):
    with pytest.raises(ValueError):
        parse_rule("Bash(ls", world)


def test_a_bare_tool_rule_matches_every_call_of_that_tool(world):
    rule = parse_rule("Bash", world)
    assert rule.matches("bash", {"command": "anything at all"}, world)
    assert not rule.matches("read_file", {"path": "notes.txt"}, world)


@pytest.mark.parametrize(
    ("rule", "name", "path", "matches"),
    [
        ("Read(/etc/**)", "read_file", "/etc/passwd", True),
        ("Read(/etc/**)", "read_file", "/workspace/../etc/hosts", True),
        ("Read(/etc/**)", "read_file", "notes.txt", False),
        ("Read(/etc/**)", "write_file", "/etc/passwd", False),
        ("Edit(secrets/**)", "edit_file", "secrets/key.txt", True),
        ("Edit(secrets/**)", "write_file", "secrets/new.txt", True),
        ("Edit(secrets/**)", "edit_file", "./secrets/key.txt", True),
        ("Edit(secrets/**)", "edit_file", "/workspace/secrets/key.txt", True),
        ("Edit(secrets/**)", "edit_file", "/secrets/key.txt", False),  # relative = workspace
        ("Edit(secrets/**)", "edit_file", "notes/secrets.txt", False),
        ("Edit(secrets/**)", "read_file", "secrets/key.txt", False),
        ("Edit(./secrets/**)", "edit_file", "secrets/key.txt", True),
    ],
)
def test_path_rules_glob_the_virtual_fs(world, rule, name, path, matches):
    assert parse_rule(rule, world).matches(name, {"path": path}, world) is matches


def test_first_match_splits_compound_commands(world):
    rm = [parse_rule("Bash(rm *)", world)]
    ls = [parse_rule("Bash(ls *)", world)]
    ls_cat = [parse_rule("Bash(ls *)", world), parse_rule("Bash(cat *)", world)]
    both = {"command": "ls && rm -rf x"}
    assert PartByPart().first_match(rm, "bash", both, world, every=False) is rm[0]
    assert PartByPart().first_match(ls, "bash", both, world, every=True) is None
    assert PartByPart().first_match(ls_cat, "bash", {"command": "ls | cat a"}, world, every=True)
    # matched as one string (D11): the deny rule misses and the allow rule passes it
    assert WholeLine().first_match(rm, "bash", both, world, every=False) is None
    assert WholeLine().first_match(ls, "bash", both, world, every=True) is ls[0]


def test_first_match_returns_the_first_rule_in_list_order(world):
    rules = [parse_rule("Bash(rm notes.txt)", world), parse_rule("Bash(rm *)", world)]
    found = PartByPart().first_match(rules, "bash", {"command": "rm notes.txt"}, world, every=False)
    assert found is rules[0]


# -- the gates, end to end ---------------------------------------------------------------------


def test_a_broad_deny_beats_a_narrower_allow(result_of):
    perms = Permissions(deny=["Bash(rm *)"], allow=["Bash(rm notes.txt)"])
    run = run_one(bash("rm notes.txt"), perms)
    assert decision(run) == ("deny", "deny")
    assert ran(run) == []
    assert "/workspace/notes.txt" in run.world.snapshot()
    result = result_of(run)
    assert result["is_error"] and "Permission denied" in result["content"]
    assert "Bash(rm *)" in result["content"]


def test_ask_beats_allow():
    perms = Permissions(ask=["Bash(rm *)"], allow=["Bash(rm notes.txt)"])
    run = run_one(bash("rm notes.txt"), perms, human=["n"])
    (asked,) = run.trace.of(HumanAsked)
    assert "ask rule Bash(rm *)" in asked.question
    assert decision(run) == ("ask", "deny")
    assert "/workspace/notes.txt" in run.world.snapshot()


def test_ask_then_yes_runs():
    perms = Permissions(ask=["Bash(rm *)"], allow=["Bash(rm notes.txt)"])
    run = run_one(bash("rm notes.txt"), perms, human=["y"])
    assert decision(run) == ("ask", "allow")
    assert "/workspace/notes.txt" not in run.world.snapshot()


def test_an_allow_rule_lets_a_call_through_a_deny_default():
    run = run_one(bash("rm notes.txt"), Permissions(allow=["Bash(rm notes.txt)"], default="deny"))
    assert decision(run) == ("allow", "allow")
    assert "/workspace/notes.txt" not in run.world.snapshot()


@pytest.mark.parametrize(("command", "allowed"), [("ls", True), ("ls -la", True), ("lsof", False)])
def test_ls_rule_has_a_word_boundary(command, allowed):
    run = run_one(bash(command), Permissions(allow=["Bash(ls *)"], default="deny"))
    assert decision(run) == (("allow", "allow") if allowed else ("default", "deny"))
    assert (ran(run) == ["toolu_c"]) is allowed


def test_read_deny_rule_blocks_reading_etc(result_of):
    run = run_one(
        tool_use("read_file", {"path": "/etc/passwd"}, id="toolu_c"),
        Permissions(deny=["Read(/etc/**)"]),
        Switches(workspace_wall=False),
    )
    assert decision(run) == ("deny", "deny")
    assert "root:" not in result_of(run)["content"]


def test_edit_deny_rule_blocks_secrets_but_not_other_files():
    perms = Permissions(deny=["Edit(secrets/**)"])
    edit = {"path": "secrets/key.txt", "old_text": "hunter2", "new_text": "x"}
    run = run_one(tool_use("edit_file", edit, id="toolu_c"), perms)
    assert decision(run) == ("deny", "deny")
    assert run.world.fs.read("/workspace/secrets/key.txt") == "hunter2\n"
    other = {"path": "notes.txt", "old_text": "keep", "new_text": "kept"}
    run = run_one(tool_use("edit_file", other, id="toolu_c"), perms)
    assert run.world.fs.read("/workspace/notes.txt") == "kept me\n"


@pytest.mark.parametrize(
    "command",
    ["ls && rm -rf x", "ls || rm -rf x", "ls; rm -rf x", "ls | rm -rf x", "ls\nrm -rf x"],
)
def test_a_deny_rule_catches_any_part_of_a_compound_command(command):
    perms = Permissions(deny=["Bash(rm *)"], allow=["Bash(ls *)"])
    run = run_one(bash(command), perms)
    assert decision(run) == ("deny", "deny")
    assert "/workspace/x/data.bin" in run.world.snapshot()


def test_an_ask_rule_catches_any_part_of_a_compound_command():
    perms = Permissions(ask=["Bash(rm *)"], allow=["Bash(ls *)"])
    run = run_one(bash("ls && rm -rf x"), perms)
    (asked,) = run.trace.of(HumanAsked)
    assert "ask rule Bash(rm *)" in asked.question
    assert "/workspace/x/data.bin" in run.world.snapshot()


def test_allow_needs_every_part_of_a_compound_command():
    run = run_one(bash("ls && rm -rf x"), Permissions(allow=["Bash(ls *)"], default="deny"))
    assert decision(run) == ("default", "deny")
    assert "/workspace/x/data.bin" in run.world.snapshot()


def test_every_part_covered_by_allow_rules_is_allowed(result_of):
    perms = Permissions(allow=["Bash(ls *)", "Bash(cat *)"], default="deny")
    run = run_one(bash("ls -la && cat notes.txt"), perms)
    assert decision(run) == ("allow", "allow")
    assert "keep me" in result_of(run)["content"]


def test_unsplit_compound_commands_bypass_the_rules():
    """D11: matched as one string, `ls && rm -rf x` passes `Bash(ls *)` and misses `Bash(rm *)`."""
    perms = Permissions(deny=["Bash(rm *)"], allow=["Bash(ls *)"], default="deny")
    run = run_one(bash("ls && rm -rf x"), perms, Switches(split_compound_commands=False))
    assert decision(run) == ("allow", "allow")
    assert "/workspace/x/data.bin" not in run.world.snapshot()


def test_a_rule_that_spans_a_shell_operator_is_ignored_with_a_start_up_warning():
    """Seed §10-2 【二】: the product ignores a rule a compound command would bypass and warns
    at start-up. Judged part by part, `Bash(* | sh)` matches no part: left out, and said so."""
    perms = Permissions(
        deny=["Bash(rm *)", "Bash(* | sh)"], ask=["Bash(ls && rm *)"], allow=['Bash(echo "a|b")']
    )
    run = run_one(bash("echo hi | sh"), perms)
    warned = run.trace.of(RuleIgnored)
    assert [(e.turn, e.gate, e.rule) for e in warned] == [
        (0, "deny", "Bash(* | sh)"),
        (0, "ask", "Bash(ls && rm *)"),
    ]  # a quoted `|` is no operator: `Bash(echo "a|b")` stays
    assert run.trace.events.index(warned[-1]) < run.trace.events.index(run.trace.of(RunStarted)[0])
    assert decision(run) == ("default", "allow") and ran(run) == ["toolu_c"]


def test_matched_as_one_string_the_same_rule_applies_and_nothing_is_said():
    perms = Permissions(deny=["Bash(* | sh)"])
    run = run_one(bash("echo hi | sh"), perms, Switches(split_compound_commands=False))
    assert run.trace.of(RuleIgnored) == []
    assert decision(run) == ("deny", "deny") and ran(run) == []


# -- the scripted human ----------------------------------------------------------------------


def test_the_human_answers_in_order_and_running_out_means_no():
    script = [
        turn(bash("rm notes.txt", "t1"), bash("rm x/data.bin", "t2")),
        turn(text("done")),
    ]
    perms = Permissions(ask=["Bash(rm *)"])
    run = run_scenario(Scenario(script, files=FILES, permissions=perms, human=["yes"]))
    assert [(e.call_id, e.answer) for e in run.trace.of(HumanAsked)] == [("t1", "yes"), ("t2", "n")]
    assert ran(run) == ["t1"]
    snapshot = run.world.snapshot()
    assert "/workspace/notes.txt" not in snapshot and "/workspace/x/data.bin" in snapshot


def test_the_human_is_asked_at_most_once_per_call():
    """An ask rule and a hook's "ask" on one call make one question, not two: the human's yes
    to the rule's question already answers the hook's."""

    def asker(payload):
        return {"permissionDecision": "ask"}

    script = [turn(bash("rm notes.txt", "t1")), turn(text("done"))]
    scenario = Scenario(
        script,
        files=FILES,
        permissions=Permissions(ask=["Bash(rm *)"]),
        hooks=[("PreToolUse", asker)],
        human=["yes", "no"],  # a second question would get "no" and deny the call
    )
    run = run_scenario(scenario)
    assert [(e.call_id, e.answer) for e in run.trace.of(HumanAsked)] == [("t1", "yes")]
    assert ran(run) == ["t1"]
    assert "/workspace/notes.txt" not in run.world.snapshot()


def test_the_human_can_be_a_policy():
    questions = []

    def policy(question: str) -> str:
        questions.append(question)
        return "y" if "notes.txt" in question else "no"

    script = [
        turn(bash("rm notes.txt", "t1"), bash("rm x/data.bin", "t2")),
        turn(text("done")),
    ]
    perms = Permissions(ask=["Bash(rm *)"])
    run = run_scenario(Scenario(script, files=FILES, permissions=perms, human=policy))
    assert len(questions) == 2
    assert [e.question for e in run.trace.of(HumanAsked)] == questions
    assert ran(run) == ["t1"]


@pytest.mark.parametrize("answer", ["n", "", "sure", "Y es"])
def test_anything_but_yes_is_no(answer):
    run = run_one(bash("rm notes.txt"), Permissions(default="ask"), human=[answer])
    assert decision(run) == ("default", "deny")
    assert ran(run) == []


def test_default_ask_asks_when_no_rule_matches():
    run = run_one(bash("ls"), Permissions(default="ask"), human=["y"])
    (asked,) = run.trace.of(HumanAsked)
    assert "no rule matched" in asked.question and "ls" in asked.question
    assert ran(run) == ["toolu_c"]


def test_a_denial_by_the_human_says_so_in_the_result(result_of):
    run = run_one(bash("ls"), Permissions(default="ask"), human=["n"])
    result = result_of(run)
    assert result["is_error"] and result["content"].startswith("Blocked at permission: ")
    assert "Permission denied" in result["content"]


# -- the course preset -----------------------------------------------------------------------


def test_course_deny_list_is_a_substring_match_on_bash(result_of):
    run = run_one(bash("sudo ls"), course_permissions(), human=["y"])
    assert decision(run) == ("deny", "deny")
    assert not run.trace.of(HumanAsked)
    assert "Permission denied." in result_of(run)["content"]


def test_course_deny_list_does_not_cover_file_tools_which_ask_instead(result_of):
    call = tool_use("write_file", {"path": "/etc/passwd", "content": "owned"}, id="toolu_c")
    run = run_one(call, course_permissions(), Switches(workspace_wall=False), human=["n"])
    (asked,) = run.trace.of(HumanAsked)
    assert "Writing outside workspace" in asked.question
    assert decision(run) == ("ask", "deny")
    assert "root:" in run.world.fs.read("/etc/passwd")
    assert "Permission denied." in result_of(run)["content"]


def test_course_write_outside_workspace_yes_writes():
    call = tool_use("write_file", {"path": "/etc/passwd", "content": "owned"}, id="toolu_c")
    run = run_one(call, course_permissions(), Switches(workspace_wall=False), human=["y"])
    assert run.world.fs.read("/etc/passwd") == "owned"


def test_course_destructive_command_asks():
    run = run_one(bash("rm notes.txt"), course_permissions(), human=["n"])
    (asked,) = run.trace.of(HumanAsked)
    assert "Potentially destructive command" in asked.question
    assert "/workspace/notes.txt" in run.world.snapshot()


def test_course_plain_command_runs_without_a_question():
    run = run_one(bash("ls"), course_permissions())
    assert not run.trace.of(HumanAsked)
    assert ran(run) == ["toolu_c"]


# -- gate order (D4) -------------------------------------------------------------------------


def test_correct_gate_order_denies_before_asking():
    run = run_one(bash("rm -rf /"), course_permissions(), human=["y"])
    assert not run.trace.of(HumanAsked)
    assert decision(run) == ("deny", "deny")
    assert run.world.snapshot() == run.initial_files


def test_inverted_gate_order_asks_first_and_a_yes_wipes_the_disk():
    run = run_one(
        bash("rm -rf /"), course_permissions(), Switches(gate_order_correct=False), human=["y"]
    )
    assert len(run.trace.of(HumanAsked)) == 1
    assert decision(run) == ("ask", "allow")
    # The sandbox keeps what lies outside the workspace; the workspace itself is gone.
    assert set(run.world.snapshot()) == {"/etc/hosts", "/etc/passwd"}
    unsandboxed = Switches(gate_order_correct=False, shell_sandbox=False)
    run = run_one(bash("rm -rf /"), course_permissions(), unsandboxed, human=["y"])
    assert run.world.snapshot() == {}


def test_inverted_gate_order_with_a_no_still_blocks():
    run = run_one(
        bash("rm -rf /"), course_permissions(), Switches(gate_order_correct=False), human=["n"]
    )
    assert len(run.trace.of(HumanAsked)) == 1
    assert ran(run) == []
    assert run.world.snapshot() == run.initial_files
