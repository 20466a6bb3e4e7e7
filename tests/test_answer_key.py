"""The teacher's answer key is written from the question bank and is current: every question,
its answer, the words also accepted and the misconception it targets, in both languages."""

from __future__ import annotations

from pathlib import Path

from lab.classroom.answer_key import answer_key, entry
from lab.classroom.questions import QUESTIONS

KEY = Path(__file__).resolve().parent.parent / "docs" / "teacher" / "answer-key.md"


def test_the_answer_key_is_current():
    assert KEY.read_text(encoding="utf-8") == answer_key(), (
        "docs/teacher/answer-key.md is stale: python -m lab.classroom.answer_key >"
        " docs/teacher/answer-key.md"
    )


def test_every_question_has_its_words_and_misconception_in_both_languages():
    for question in QUESTIONS.values():
        for texts in (question.ask, question.why, question.misconception):
            assert set(texts) == {"zh", "en"} and all(texts.values()), question.id
        assert question.form and question.notebook, question.id


def test_an_entry_gives_the_answer_the_synonyms_and_the_misconception():
    text = entry(QUESTIONS["M4.3"])
    assert "`tool_check`" in text and "`工具自校验`" in text
    assert QUESTIONS["M4.3"].misconception["zh"] in text
    assert QUESTIONS["M4.3"].misconception["en"] in text
