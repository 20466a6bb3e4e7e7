"""Predict, then run: `lab run --predict` asks before it shows, and a notebook `check` compares
a prediction with what the code computes before it reveals anything."""

from __future__ import annotations

import io

import pytest

from lab.classroom.predict import NO_PREDICTION, Verdict, parse, same
from lab.classroom.questions import Question
from lab.cli import main


def run_predicting(monkeypatch, capsys, answers: str, *argv: str) -> tuple[int, str, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO(answers))
    code = main(["run", "D4", "--predict", *argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_predict_asks_every_after_value_before_showing_any(monkeypatch, capsys):
    code, out, err = run_predicting(monkeypatch, capsys, "True\n3\n1\n")
    assert code == 0 and err == ""
    questions = [out.index(f"D4 {name}: before") for name in ("ran_deny_listed", "files_lost")]
    first_after = out.index("reproduced")
    assert all(q < first_after for q in questions)
    assert "your predictions: 2 of 3 right" in out
    table = [line for line in out.splitlines() if line.strip().startswith("files_lost")]
    assert table[-1].split()[-2:] == ["3", "✗"]


def test_predict_without_answers_is_a_one_line_usage_error(monkeypatch, capsys):
    code, out, err = run_predicting(monkeypatch, capsys, "True\n")
    assert code == 2
    assert err.count("\n") == 1 and err.startswith("lab: error: --predict reads one answer")
    assert "D4 files_lost" in err and "reproduced" not in out


def test_predict_with_json_is_a_usage_error(monkeypatch, capsys):
    code, _, err = run_predicting(monkeypatch, capsys, "", "--json")
    assert code == 2 and "--json" in err


def test_predict_in_chinese(monkeypatch, capsys):
    code, out, _ = run_predicting(monkeypatch, capsys, "True\n2\n1\n", "--lang", "zh")
    assert code == 0 and "之后？" in out and "你的预测：3 个中对了 3 个" in out


@pytest.mark.parametrize(
    "prediction, computed",
    [
        (" Deny ", "deny"),
        (4, 4.0),
        ([1, 2], (1, 2)),
        ({"b", "a"}, {"a", "b"}),
        ({"x": 1}, {"x": 1.0}),
    ],
)
def test_a_prediction_matches_the_way_a_student_means_it(prediction, computed):
    assert same(prediction, computed)


@pytest.mark.parametrize(
    "prediction, computed", [(True, 1), ("3", 2), ((1, 2), (2, 1)), (None, 0), ("", 0)]
)
def test_a_prediction_does_not_match_a_different_value(prediction, computed):
    assert not same(prediction, computed)


def test_parse_reads_literals_and_keeps_words():
    assert parse(" True\n") is True and parse("4") == 4 and parse("deny rule") == "deny rule"


QUESTION = Question("T.1", lambda: 12, {"en": "the answer is {answer}", "zh": "答案是 {answer}"})


def test_no_prediction_reveals_nothing():
    shown = repr(Verdict(QUESTION, NO_PREDICTION, 12, "en"))
    assert "No prediction yet" in shown
    assert "12" not in shown and "the answer is" not in shown


def test_a_prediction_reveals_the_answer_its_reason_and_how_it_is_computed():
    wrong = Verdict(QUESTION, 2, 12, "en")
    assert not wrong.right
    text = repr(wrong)
    assert "✗ not what the code computes" in text and "the answer is 12" in text
    assert "lambda: 12" in text
    assert Verdict(QUESTION, 12, 12, "zh").right and "答案是 12" in repr(
        Verdict(QUESTION, 12, 12, "zh")
    )
