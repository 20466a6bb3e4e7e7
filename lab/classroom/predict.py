"""Predict, then run: the student's prediction is compared with what the code computes, and only
then is the answer shown — in a notebook (`check`) and on the command line (`lab run --predict`).

The answers are never written down beside the question: a notebook question names an entry of
`lab/classroom/questions/bank.py`, whose code computes the answer from a run when `check` is called.
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Console, RenderableType

from lab.classroom.reading import (
    NO_PREDICTION,
    NoMoreInput,
    means,
    normal,
    parse,
    predicted,
    read,
    same,
    shown,
    synonyms,
    well_formed,
)

if TYPE_CHECKING:
    from lab.classroom.questions import Question

__all__ = [
    "NO_PREDICTION",
    "NoMoreInput",
    "Verdict",
    "check",
    "means",
    "normal",
    "parse",
    "predicted",
    "read",
    "same",
    "shown",
    "synonyms",
    "well_formed",
]


# -- a question's verdict -----------------------------------------------------------------------
@dataclass
class Verdict:
    """The comparison, shown only after the prediction: in a notebook as HTML, else as text."""

    question: Question
    prediction: Any
    computed: Any
    lang: str

    @property
    def predicted(self) -> bool:
        """`...`, `None` and empty text are no prediction: nothing is revealed."""
        return predicted(self.prediction)

    @property
    def right(self) -> bool:
        return self.predicted and means(self.prediction, self.computed, self.question.groups)

    @property
    def reading(self) -> Any:
        """The prediction as it was read (「第二轮」 → 2), to show beside what was typed."""
        return read(self.prediction, self.computed)

    def __rich__(self) -> RenderableType:
        from lab.views.predict_view import verdict_view

        return verdict_view(self)

    def _repr_html_(self) -> str:
        from lab.views.rich_html import to_html

        return to_html(self.__rich__())

    def __repr__(self) -> str:
        console = Console(width=100, file=io.StringIO(), color_system=None)
        with console.capture() as captured:
            console.print(self.__rich__())
        return captured.get().rstrip("\n")


def check(id: str, prediction: Any, lang: str = "zh", **context: Any) -> Verdict:
    """Compare the prediction with what the code computes now (from `context`, e.g. a finding
    the notebook made); the answer and its reason are shown only after a prediction."""
    from lab.classroom.questions import QUESTIONS  # lazily: the bank runs experiments

    question = QUESTIONS[id]
    return Verdict(question, prediction, question.compute(**context), lang)
