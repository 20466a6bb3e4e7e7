"""Predict, then run: the student's prediction is compared with what the code computes, and only
then is the answer shown — in a notebook (`check`) and on the command line (`lab run --predict`).

The answers are never written down beside the question: a notebook question names an entry of
`lab/questions.py`, whose code computes the answer from a run when `check` is called.
"""

from __future__ import annotations

import ast
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rich.console import Console, RenderableType

if TYPE_CHECKING:
    from lab.questions import Question

NO_PREDICTION = ...  # what a prediction cell holds until the student writes one


# -- comparing a prediction with a computed value ----------------------------------------------
def normal(value: Any) -> Any:
    """A value in a form that compares the way a student means it: text without case or outer
    spaces, any sequence as a tuple, sets and dict keys unordered, 3 == 3.0."""
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, bool) or value is None:
        return ("flag", value)  # True is no 1 here
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, Mapping):
        return frozenset((normal(k), normal(v)) for k, v in value.items())
    if isinstance(value, set | frozenset):
        return frozenset(normal(v) for v in value)
    if isinstance(value, list | tuple):
        return tuple(normal(v) for v in value)
    return value


def same(prediction: Any, computed: Any) -> bool:
    return normal(prediction) == normal(computed)


def parse(answer: str) -> Any:
    """A typed answer: a Python literal (True, 4, 'x', (1, 2)) or else the text itself."""
    try:
        return ast.literal_eval(answer.strip())
    except (ValueError, SyntaxError):
        return answer.strip()


def well_formed(answer: str) -> bool:
    """An answer is a value: a literal, or plain words. Empty, or brackets and quotes that do not
    parse (`)))(((`), it is a slip of the keyboard, not a prediction."""
    text = answer.strip()
    try:
        ast.literal_eval(text)
        return True
    except (ValueError, SyntaxError):
        return bool(text) and not any(ch in text for ch in "()[]{}'\"")


def shown(value: Any) -> str:
    return repr(value) if not isinstance(value, str) else value


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
        return self.prediction is not NO_PREDICTION

    @property
    def right(self) -> bool:
        return self.predicted and same(self.prediction, self.computed)

    def __rich__(self) -> RenderableType:
        from lab.views.predict import verdict_view

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
    from lab.questions import QUESTIONS  # lazily: the bank runs experiments

    question = QUESTIONS[id]
    return Verdict(question, prediction, question.compute(**context), lang)


# -- the command line: lab run --predict (asked and shown by lab/views/predict.py) ---------------
class NoMoreInput(Exception):
    """Standard input ended before every prediction was read, or held an answer that is not a
    value (on a terminal the question is asked again instead)."""
