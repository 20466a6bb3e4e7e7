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
# The answer words a question asks for, as a student may also write them: the seed's Chinese
# terms and their usual synonyms, and the English with a space for the underscore. Keyed by the
# word as `normal` reads it (stripped, lower case), each to the word the code computes.
SYNONYMS: dict[str, tuple[str, ...]] = {}
for words, meaning in [
    (("丢弃", "被丢弃", "丢了", "丢掉", "丢失"), ("dropped",)),
    (("执行", "执行了", "运行了", "跑了"), ("ran",)),
    (("拦下", "被拦下", "拦住", "被拦住", "停下"), ("stopped",)),
    (("结构校验", "校验", "外形检查", "结构合法"), ("validation",)),
    (("工具自校验", "自校验", "tool check", "tool-check"), ("tool_check",)),
    (("前置钩子",), ("hooks",)),
    (("钩子",), ("hooks", "hook")),
    (("权限判定", "权限", "许可"), ("permission",)),
    (("号码簿查名", "查名", "known tool"), ("known_tool",)),
    (("硬拒绝", "拒绝"), ("deny",)),
    (("需询问", "询问", "问一下", "问一下用户", "人工审批"), ("ask",)),
    (("放行", "允许"), ("allow",)),
    (("墙", "围墙", "硬墙", "工作区围墙"), ("wall",)),
    (("问人", "问题", "问一句", "对讲机"), ("question",)),
    (("什么都没有", "没有", "无"), ("nothing",)),
    (("注册时", "在注册时"), ("at registration",)),
    (("第一次调用时", "首次调用时"), ("at the first call",)),
]:
    SYNONYMS |= dict.fromkeys(words, meaning)


def normal(value: Any) -> Any:
    """A value in a form that compares the way a student means it: text without case or outer
    spaces, any sequence as a tuple, sets and dict keys unordered,
    3 == 3.0."""
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


def readings(prediction: Any) -> tuple[Any, ...]:
    """What a prediction may mean: itself, or for a synonym the words it stands for."""
    if isinstance(prediction, str):
        return (prediction, *SYNONYMS.get(normal(prediction), ()))
    return (prediction,)


def same(prediction: Any, computed: Any) -> bool:
    return any(normal(reading) == normal(computed) for reading in readings(prediction))


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
