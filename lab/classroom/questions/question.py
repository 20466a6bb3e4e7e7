"""One question of the bank: what it asks, how its answer is computed, why it is so, and the
beliefs behind wrong answers (`Q` builds one from its texts in both languages)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from lab.classroom.questions.settings import SETTINGS
from lab.classroom.reading import same

Text = Mapping[str, str]  # {"en": ..., "zh": ...}

# The words a student may type for each answer (the chapter's terms, both languages, numbers in
# any form) are read by lab/classroom/reading.py; a question lists only the words of its own (`synonyms`).


@dataclass(frozen=True)
class Question:
    """One question: its text, how its answer is computed, why it is so, and what a wrong
    answer most often believes."""

    id: str
    compute: Callable[..., Any]
    why: Text  # may use {answer}
    ask: Text = field(default_factory=dict)  # the question, as the notebook asks it
    form: str = ""  # the form of an answer, both languages: "一个整数 / an integer"
    misconception: Text = field(default_factory=dict)  # what a wrong answer often believes
    synonyms: tuple[tuple[Any, ...], ...] = ()  # this question's own groups of same answers
    notebook: str = ""  # where it is asked
    wrong: tuple[tuple[Any, Text], ...] = ()  # a typical wrong answer and the belief behind it
    setting: Text = field(default_factory=dict)  # on paper, what the notebook shows before it

    @property
    def groups(self) -> tuple[tuple[Any, ...], ...]:
        """This question's own groups of answers that mean the same (the chapter's terms, yes
        and no, and numbers are read for every question by lab/classroom/reading.py)."""
        return self.synonyms

    def misreading(self, prediction: Any) -> Text:
        """The belief behind a wrong answer: that answer's own when it has a typical cause, else
        the one this question targets."""
        return next(
            (belief for answer, belief in self.wrong if same(prediction, answer)),
            self.misconception,
        )


def Q(id: str, compute: Callable[..., Any], **texts: Any) -> Question:
    """A question from its texts: ask_zh/ask_en, why_zh/why_en, wrong_zh/wrong_en (the
    misconception), form, synonyms."""
    return Question(
        id,
        compute,
        why={"zh": texts["why_zh"], "en": texts["why_en"]},
        ask={"zh": texts["ask_zh"], "en": texts["ask_en"]},
        form=texts["form"],
        misconception={"zh": texts["wrong_zh"], "en": texts["wrong_en"]},
        synonyms=texts.get("synonyms", ()),
        notebook=texts["notebook"],
        wrong=tuple((answer, {"zh": zh, "en": en}) for answer, zh, en in texts.get("wrong", ())),
        setting=SETTINGS.get(id, {}),
    )
