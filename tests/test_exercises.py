"""Exercises with hidden checks: every starter fails, a correct solution passes, a plausible
wrong one fails, and no hint gives the answer away. The solutions live here and nowhere else."""

from __future__ import annotations

import textwrap

import pytest

from lab.classroom.exercises import EXERCISES, check, starters_dir
from lab.cli import main

SOLUTIONS = {
    "m1_lost_call": """
        from lab.model import text, tool_use, turn

        SCRIPT = [
            turn(text("Let me look around."), tool_use("bash", {"command": "ls"})),
            turn(text("Now the report."), tool_use("bash", {"command": "cat report.md"}),
                 stop_reason="end_turn"),
            turn(text("Revenue is up 4% in Q3.")),
        ]
    """,
    "m2_word_count": """
        from lab.harness.tools import Tool

        def make_tool(world):
            def word_count(path: str) -> str:
                return str(len(world.fs.read(world.resolve(path)).split()))

            schema = {"type": "object", "properties": {"path": {"type": "string"}},
                      "required": ["path"]}
            return Tool("word_count", "Count the words in a file.", schema, word_count)
    """,
    "m3_chain_order": """
        ORDER = ["known_tool", "validation", "tool_check", "hooks", "permission"]
    """,
    "m4_rule_set": """
        from lab.harness.permissions import Permissions

        RULES = Permissions(
            deny=["Bash(rm *)"], ask=["Edit"], allow=["Bash(ls *)", "Bash(cat *)"], default="ask"
        )
    """,
    "m5_stop_hook": """
        def double_check(payload):
            if payload.get("stop_hook_active"):
                return None
            return {"decision": "block", "reason": "Double-check your work before stopping."}
    """,
}

# Plausible answers that miss the point: each must fail at least one check.
NEAR_MISSES = {
    "m1_lost_call": SOLUTIONS["m1_lost_call"].replace(
        'stop_reason="end_turn"', 'stop_reason="tool_use"'
    ),
    "m2_word_count": SOLUTIONS["m2_word_count"].replace(
        ',\n                      "required": ["path"]', ""
    ),
    "m3_chain_order": 'ORDER = ["known_tool", "validation", "tool_check", "permission", "hooks"]',
    "m4_rule_set": SOLUTIONS["m4_rule_set"]
    .replace('deny=["Bash(rm *)"], ', "")
    .replace(
        'allow=["Bash(ls *)", "Bash(cat *)"]',
        'allow=["Bash(ls *)", "Bash(cat *)", "Bash(rm -rf build)"]',
    ),
    "m5_stop_hook": """
        def double_check(payload):
            return None
    """,
}

# What would give each answer away.
GIVEAWAYS = {
    "m1_lost_call": ["end_turn"],
    "m2_word_count": ['"required"', "def word_count(path", "file_path", "['path']"],
    "m3_chain_order": ['"validation", "tool_check", "hooks", "permission"'],
    "m4_rule_set": ["Bash(rm", "ask=["],
    "m5_stop_hook": ["stop_hook_active"],
}


def write(tmp_path, id: str, source: str):
    path = tmp_path / f"{id}.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


def test_there_is_an_exercise_for_every_mechanism():
    assert sorted({e.mechanism for e in EXERCISES.values()}) == ["M1", "M2", "M3", "M4", "M5"]
    assert set(SOLUTIONS) == set(EXERCISES) == set(NEAR_MISSES) == set(GIVEAWAYS)


@pytest.mark.parametrize("id", sorted(EXERCISES))
def test_the_starter_fails_with_hints_that_do_not_give_the_answer(id):
    results = check(id, starters_dir() / EXERCISES[id].file)
    failed = [r for r in results if not r.passed]
    assert failed, f"the starter of {id} passes as shipped"
    hints = " ".join(r.hint for r in failed)
    for giveaway in GIVEAWAYS[id]:
        assert giveaway not in hints


@pytest.mark.parametrize("id", sorted(EXERCISES))
def test_a_correct_solution_passes(id, tmp_path):
    results = check(id, write(tmp_path, id, SOLUTIONS[id]))
    assert [r.hint for r in results if not r.passed] == []
    assert len(results) == len(EXERCISES[id].checks)


@pytest.mark.parametrize("id", sorted(EXERCISES))
def test_a_near_miss_fails(id, tmp_path):
    results = check(id, write(tmp_path, id, NEAR_MISSES[id]))
    assert any(not r.passed for r in results)


def test_lab_check_exit_codes_and_output(tmp_path, capsys):
    assert (
        main(
            [
                "check",
                "m5_stop_hook",
                "--file",
                str(write(tmp_path, "m5", SOLUTIONS["m5_stop_hook"])),
            ]
        )
        == 0
    )
    assert "2 of 2 checks pass" in capsys.readouterr().out
    assert main(["check", "m5_stop_hook", "--file", str(starters_dir() / "m5_stop_hook.py")]) == 1
    out = capsys.readouterr().out
    assert "✗ fail" in out and "hint:" in out


def test_a_broken_file_fails_with_its_line(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")  # a long temp path is not wrapped inside itself
    path = write(tmp_path, "m3", "ORDER = [\n")
    assert main(["check", "m3_chain_order", "--file", str(path)]) == 1
    assert f"{path}:1" in " ".join(capsys.readouterr().out.split())


def test_usage_errors_are_one_line_exit_2(tmp_path, capsys):
    assert main(["check", "m9_nothing"]) == 2
    assert main(["check"]) == 2
    assert main(["check", "m1_lost_call", "--file", str(tmp_path / "missing.py")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 3 and "unknown exercise 'm9_nothing'" in err


def test_the_teacher_lists_every_exercise_and_check(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    assert main(["check", "--list"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    for exercise in EXERCISES.values():
        assert exercise.id in out
        for item in exercise.checks:
            assert item.teacher in out and item.name in out


# -- every hint true (issue 30) ----------------------------------------------------------------
COUNTER_SOLUTION = """
    passes = 0

    def double_check(payload):
        global passes
        passes += 1
        if passes > 1:
            return None
        return {"decision": "block", "reason": "Double-check your work before stopping."}
"""


def test_each_check_judges_a_fresh_module_so_a_counter_solution_passes(tmp_path):
    results = check("m5_stop_hook", write(tmp_path, "m5", COUNTER_SOLUTION))
    assert [r.hint for r in results if not r.passed] == []


def test_a_hook_that_never_blocks_is_told_what_its_run_did(tmp_path):
    results = check("m5_stop_hook", write(tmp_path, "m5", NEAR_MISSES["m5_stop_hook"]))
    hints = [r.hint for r in results if not r.passed]
    assert len(hints) == 2
    for hint in hints:
        for text in (str(hint), hint.zh):
            assert "0 times" not in text and "0 次" not in text
            assert "cap" not in text and "上限" not in text


def test_a_hook_that_always_blocks_is_told_the_harness_s_cap_stopped_it():
    (_, second) = check("m5_stop_hook", starters_dir() / "m5_stop_hook.py")
    assert "blocked 8 times in a row" in second.hint and "9 model calls" in second.hint
    assert "cap of 8 blocks in a row" in second.hint and "连续阻断上限（8 次）" in second.hint.zh


@pytest.mark.parametrize(
    "order",
    [
        '["号码簿查名", "结构校验", "工具自校验", "前置钩子", "权限判定"]',
        '["known_tool", "结构校验", "tool check", "前置钩子", "permission"]',
    ],
)
def test_m3_accepts_the_chapter_s_stage_names_in_both_languages(order, tmp_path):
    results = check("m3_chain_order", write(tmp_path, "m3", f"ORDER = {order}"))
    assert [r.hint for r in results if not r.passed] == []


def test_m3_a_wrong_order_gets_a_hint_about_order_not_an_empty_error(tmp_path):
    source = 'ORDER = ["结构校验", "号码簿查名", "工具自校验", "前置钩子", "权限判定"]'
    results = check("m3_chain_order", write(tmp_path, "m3", source))
    hints = [r.hint for r in results if not r.passed]
    assert hints and "AssertionError" not in " ".join(hints)
    assert "validation come(s) before known_tool" in hints[0]
    assert "结构校验（validation） 排在号码簿查名（known_tool）前面" in hints[0].zh


def test_m3_names_that_are_not_stages_are_told_the_names_alphabetically(tmp_path):
    results = check("m3_chain_order", write(tmp_path, "m3", 'ORDER = ["shape", "rules"]'))
    first = results[0].hint
    assert first is not None and "hooks (前置钩子), known_tool (号码簿查名)" in first
    assert all("AssertionError" not in r.hint for r in results[1:])
