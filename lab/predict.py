"""Predict, then run: the student's prediction is compared with what the code computes, and only
then is the answer shown — in a notebook (`check`) and on the command line (`lab run --predict`).

The answers are never written down beside the question: a notebook question names an entry of
`lab/questions.py`, whose code computes the answer from a run when `check` is called.
"""

from __future__ import annotations

import ast
import inspect
import io
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

if TYPE_CHECKING:
    from lab.questions import Question

NO_PREDICTION = ...  # what a prediction cell holds until the student writes one

WORDS = {
    "en": {
        "none": "No prediction yet: write yours in the cell above (prediction = ...), then run "
        "this cell again. Nothing is revealed before you predict.",
        "yours": "your prediction",
        "computed": "the code computes",
        "right": "✓ right",
        "wrong": "✗ not what the code computes",
        "why": "why",
        "misread": "a common misreading",
        "how": "how the code measures it",
        "ask": "{id} {observable}: before {before}; after? ",
        "eof": "--predict reads one answer per observable from standard input; it ended before "
        "{id} {observable} (run it in a terminal, or pipe the answers in)",
        "bad": "{id} {observable}: {answer!r} is not a value; answer True/False, a number, a "
        "word or a tuple such as (1, 2)",
        "observable": "observable",
        "before": "before",
        "after": "after",
        "prediction": "your prediction",
        "score": "your predictions: {right} of {total} right",
    },
    "zh": {
        "none": "还没有预测：先在上面的单元格写下你的预测（prediction = ...），再运行这个单元格。"
        "预测之前什么都不揭晓。",
        "yours": "你的预测",
        "computed": "代码算出",
        "right": "✓ 对了",
        "wrong": "✗ 与代码算出的不同",
        "why": "为什么",
        "misread": "常见的误解",
        "how": "代码怎么量出来的",
        "ask": "{id} {observable}：之前 {before}；之后？",
        "eof": "--predict 从标准输入为每个观测量读一个答案；输入在 {id} {observable} 之前就结束了"
        "（请在终端里运行，或用管道送入答案）",
        "bad": "{id} {observable}：{answer!r} 不是一个值；"
        "请回答 True/False、数字、词语或 (1, 2) 这样的元组",
        "observable": "观测量",
        "before": "之前",
        "after": "之后",
        "prediction": "你的预测",
        "score": "你的预测：{total} 个中对了 {right} 个",
    },
}


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


def means(prediction: Any, computed: Any, groups: tuple[tuple[Any, ...], ...]) -> bool:
    """The prediction is the computed value, or a word in the same group of synonyms (the seed's
    own term, its usual names, in either language)."""
    if same(prediction, computed):
        return True
    return any(
        any(same(computed, word) for word in group)
        and any(same(prediction, word) for word in group)
        for group in groups
    )


def synonyms(computed: Any, groups: tuple[tuple[Any, ...], ...]) -> tuple[Any, ...]:
    """Every answer taken as right when the code computes `computed`."""
    return next((g for g in groups if any(same(computed, w) for w in g)), (computed,))


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
        return self.predicted and means(self.prediction, self.computed, self.question.groups)

    def __rich__(self) -> RenderableType:
        w = WORDS[self.lang]
        if not self.predicted:
            return Text(w["none"], "bold yellow")
        verdict = Text(w["right"], "bold green") if self.right else Text(w["wrong"], "bold red")
        table = Table(box=box.SIMPLE, show_header=False, pad_edge=False)
        table.add_row(w["yours"], Text(shown(self.prediction)))
        table.add_row(w["computed"], Text(shown(self.computed), "bold"))
        why = self.question.why[self.lang].format(answer=shown(self.computed))
        source = inspect.getsource(self.question.compute).strip()
        misread = self.question.misconception.get(self.lang)
        return Group(
            verdict,
            table,
            Text.assemble((f"{w['why']}: ", "bold"), why),
            *(
                [Text.assemble((f"{w['misread']}: ", "bold"), misread)]
                if misread and not self.right
                else []
            ),
            Text(f"{w['how']}:", "bold"),
            Syntax(source, "python", theme="friendly", word_wrap=True),
        )

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


# -- the command line: lab run --predict ------------------------------------------------------
class NoMoreInput(Exception):
    """Standard input ended before every prediction was read, or held an answer that is not a
    value (on a terminal the question is asked again instead)."""


def read_predictions(
    outcomes: list[Any], stdin: TextIO | None, out: Console, lang: str
) -> list[list[Any]]:
    """Ask for each observable's after value (the before value is shown), one line each."""
    w = WORDS[lang]
    answers = []
    for outcome in outcomes:
        mine = []
        for row in outcome.rows:
            prompt = w["ask"].format(
                id=outcome.experiment.id, observable=row.observable, before=shown(row.before)
            )
            terminal = stdin is not None and not stdin.closed and stdin.isatty()
            while True:
                out.print(prompt, end="")
                line = stdin.readline() if stdin is not None and not stdin.closed else ""
                if not line:
                    out.print()
                    raise NoMoreInput(
                        w["eof"].format(id=outcome.experiment.id, observable=row.observable)
                    )
                if not terminal:  # piped answers: show each after its question
                    out.print(line.strip(), highlight=False)
                if well_formed(line):
                    break
                bad = w["bad"].format(
                    id=outcome.experiment.id, observable=row.observable, answer=line.strip()
                )
                if not terminal:
                    raise NoMoreInput(bad)
                out.print(bad)
            mine.append(parse(line))
        answers.append(mine)
    return answers


def predictions_view(outcome: Any, predictions: list[Any], lang: str) -> Table:
    """The observables after the run, each beside the student's prediction."""
    w = WORDS[lang]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("observable", "before", "after", "prediction"):
        table.add_column(w[column])
    table.add_column("")
    for row, prediction in zip(outcome.rows, predictions, strict=True):
        mark = Text("✓", "green") if same(prediction, row.after) else Text("✗", "bold red")
        table.add_row(row.observable, shown(row.before), shown(row.after), shown(prediction), mark)
    return table


def run_with_predictions(outcomes: list[Any], out: Console, lang: str, stdin: TextIO | None) -> int:
    """`lab run --predict`: every prediction first, then the runs beside them. The exit code is
    `lab run`'s (whether the experiments reproduced), not the score."""
    from lab.views.report import outcome_view, summary_view

    predictions = read_predictions(outcomes, stdin, out, lang)
    right = total = 0
    for outcome, mine in zip(outcomes, predictions, strict=True):
        out.print()
        out.print(outcome_view(outcome, lang))
        out.print(predictions_view(outcome, mine, lang))
        right += sum(same(p, row.after) for p, row in zip(mine, outcome.rows, strict=True))
        total += len(mine)
    out.print(summary_view(outcomes, lang))
    out.print(Text(WORDS[lang]["score"].format(right=right, total=total), "bold"))
    return 0 if all(o.reproduced for o in outcomes) else 1
