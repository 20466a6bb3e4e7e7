"""A case is data and one function grades it: `verdict(case, trial)` walks the case's table of
(promise, grade when broken) rows. Read from the source, no other code decides a grade: no
Verdict is built, no grade is returned, outside that function and lab/probe/grades.py."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from tapped import rejected, reply_to

from lab.probe import grades
from lab.probe.catalogue import BY_ID, CASES
from lab.probe.conversation import Played
from lab.probe.grades import FAIL, GRADES, INFO, KEPT, NA, NON_STRICT, NOT_REACHED
from lab.probe.trial import Exchange, Exit, Setting, Trial
from lab.probe.verdict import Case, Rule, verdict
from lab.probe.wire_promises import ended

LAB = Path(grades.__file__).resolve().parents[1]
GRADE_NAMES = {"KEPT", "FAIL", "NON_STRICT", "INFO", "NA", "NOT_REACHED", "INCONCLUSIVE"}
ALLOWED = {("probe/grades.py", None), ("probe/verdict.py", "verdict")}


def grade_in(node: ast.AST) -> bool:
    """The expression names a grade: a grade constant, or a grade's literal text (a grade in
    a table row, `Rule(promise, grade)`, is data, not a decision)."""
    if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "Rule":
        return False
    if isinstance(node, ast.Name) and node.id in GRADE_NAMES:
        return True
    if isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in GRADES:
        return True
    return any(grade_in(child) for child in ast.iter_child_nodes(node))


def grade_sites(tree: ast.AST) -> list[tuple[int, str | None, str]]:
    """(line, enclosing function, what) for every place the module decides a grade: a Verdict
    built, a `kind=` given (a verdict replaced with another grade), a grade returned."""
    found = []

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            inner = function
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef):
                inner = child.name
            if isinstance(child, ast.Call):
                called = child.func
                name = called.id if isinstance(called, ast.Name) else getattr(called, "attr", "")
                if name == "Verdict":
                    found.append((child.lineno, inner, "Verdict(...)"))
                if any(k.arg == "kind" and grade_in(k.value) for k in child.keywords):
                    found.append((child.lineno, inner, "kind=<grade>"))
            if isinstance(child, ast.Return) and child.value is not None and grade_in(child.value):
                found.append((child.lineno, inner, "return <grade>"))
            if isinstance(child, ast.Lambda) and grade_in(child.body):
                found.append((child.lineno, inner, "lambda: <grade>"))
            visit(child, inner)

    visit(tree, None)
    return found


def sites_in_lab() -> list[str]:
    found = []
    for path in sorted(LAB.rglob("*.py")):
        where = path.relative_to(LAB).as_posix()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        own = [n for n in ast.walk(tree) if isinstance(n, ast.ClassDef) and n.name == "Verdict"]
        for line, function, what in grade_sites(tree):
            if (
                own and what == "Verdict(...)"
            ):  # another Verdict (lab/classroom/predict.py's), no grade
                continue
            if (where, None) in ALLOWED or (where, function) in ALLOWED:
                continue
            found.append(f"lab/{where}:{line} {function or '<module>'}: {what}")
    return found


def test_no_grade_is_decided_outside_the_verdict_function_and_the_grades_module():
    assert sites_in_lab() == []


@pytest.mark.parametrize(
    "source",
    [
        "def the_worse(a, b):\n    return Verdict(a.kind, a.because)",  # bench's old copy
        "NA = 'n/a'\ndef missing(why):\n    return Verdict(NA, why)",  # bench's n/a cells
        "judge = lambda trial: Verdict('n/a', '')",  # fuzz.py's literal
        "def graded(kind, because):\n    return Verdict(kind, because)",
        "def judge(trial):\n    if trial.bad:\n        return FAIL, 'why'\n    return None",
        "def judge(trial):\n    return 'non-strict'",
        "def swap(v):\n    return replace(v, kind=KEPT)",
        "pick = lambda t: KEPT if t else FAIL",
    ],
)
def test_the_source_check_sees_every_old_way_of_deciding_a_grade(source):
    assert grade_sites(ast.parse(source)), source


def test_a_grade_as_data_in_a_rule_row_is_not_a_decision():
    source = "def rows():\n    return (Rule(call_dropped, FAIL), Rule(kept_partial, INFO))"
    assert grade_sites(ast.parse(source)) == []


# ---------------------------------------------------------------- the verdict function
def hand_trial(requests: list[int | None], status: int | None = 0) -> Trial:
    """A P1 trial of requests at these stages (None: rejected)."""
    setting = Setting("P1", "CANARY", ("read_file", {"path": "n"}), None, "[m]", "[m] go")
    stages = BY_ID["P1"].script(setting)
    exchanges = []
    for n, stage in enumerate(requests, 1):
        played = (
            None
            if stage is None
            else Played(n, stage, 1, "answer", stages[stage].answer, False, False)
        )
        got = reply_to(played.step) if played else rejected()
        exchanges.append(
            Exchange(n, "POST", "/v1/messages", {}, 200 if played else 400, "", played, reply=got)
        )
    return ended(Trial("t", setting, stages, exchanges, Exit(status)))


def broken(name: str, why: str | None):
    def promise(trial: Trial) -> str | None:
        return why

    promise.__name__ = name
    return promise


def case_of(*rules: Rule) -> Case:
    return Case("X", "t", "c", "k", BY_ID["P1"].script, rules, lambda trial: "all held")


def test_the_first_broken_row_decides_with_its_promise_s_reason():
    trial = hand_trial([0, 1])
    rules = (
        Rule(broken("a", None), FAIL),
        Rule(broken("b", "b broke"), NON_STRICT),
        Rule(broken("c", "c broke"), FAIL),
    )
    said = verdict(case_of(*rules), trial)
    assert (said.kind, said.because) == (NON_STRICT, "b broke")


def test_every_promise_held_is_kept_with_the_case_s_line():
    said = verdict(case_of(Rule(broken("a", None), FAIL)), hand_trial([0, 1]))
    assert (said.kind, said.because) == (KEPT, "all held")


def test_an_alternative_row_grades_kept_or_info_and_is_named():
    case = case_of(Rule(broken("thread", "held by the server"), KEPT), Rule(broken("x", "x"), FAIL))
    assert verdict(case, hand_trial([0, 1])).because == "held by the server"
    assert case.accepts == ("thread",)


def test_no_script_answer_is_not_reached_before_any_row():
    said = verdict(case_of(Rule(broken("a", "a broke"), FAIL)), hand_trial([]))
    assert said.kind == NOT_REACHED


def test_a_target_with_no_trial_is_na_with_the_reason_given():
    said = verdict(BY_ID["P11"], None, "no permission system")
    assert (said.kind, said.because) == (NA, "no permission system")


def test_the_case_s_evidence_goes_with_every_grade():
    case = Case(
        "X",
        "t",
        "c",
        "k",
        BY_ID["P1"].script,
        (Rule(broken("a", "a"), INFO),),
        evidence=lambda trial: ["one", ["two", ""], ""],
    )
    assert verdict(case, hand_trial([0, 1])).evidence == ("one", "two")


def test_every_case_is_a_table_of_named_rows():
    assert [c.id for c in CASES][:3] == ["P1", "P1s", "P1b"] and len(CASES) == 29
    for case in CASES:
        assert case.rules, case.id
        for rule in case.rules:
            assert rule.grade in GRADES and rule.name and rule.name != "<lambda>", case.id


# ---------------------------------------------------------------- one exit policy
def test_one_exit_policy_for_every_grade():
    assert set(grades.POLICY) == set(GRADES)
    assert grades.exit_status([]) == 0
    assert grades.exit_status([NON_STRICT, INFO, KEPT, NA]) == 0  # lab serve once exited 1 here
    assert grades.exit_status([KEPT, FAIL]) == 1
    assert grades.exit_status([FAIL, NOT_REACHED]) == 4
    assert grades.exit_status([KEPT], failed=True) == 1
    assert not grades.counts(FAIL, claimed=False, program=True)
    assert grades.counts(NOT_REACHED, claimed=False, program=True)
    assert not grades.counts(NOT_REACHED, claimed=True, program=False)
    assert "broken" not in grades.POLICY


def test_a_target_that_asks_in_the_wrong_answer_mode_is_na_before_any_row():
    trial = hand_trial([0, 1])  # JSON requests (stream False); P1s needs a streamed answer
    setting = Setting("P1s", "CANARY", ("read_file", {"path": "n"}), None, "[m]", "[m] go")
    streamed = ended(Trial("t", setting, BY_ID["P1s"].script(setting), trial.exchanges, trial.exit))
    said = verdict(BY_ID["P1s"], streamed)
    assert (said.kind, said.because) == (
        NA,
        "the target asked for a JSON answer; P1s needs a streamed one",
    )
    assert verdict(BY_ID["P1"], trial).kind != NA
