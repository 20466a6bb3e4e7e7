"""What predict-then-run shows: a notebook question's verdict (after the prediction, never before),
and `lab run --predict` asking for each observable's after value, then showing it beside the run."""

from __future__ import annotations

import inspect
from typing import Any, TextIO

from rich import box
from rich.console import Console, Group, RenderableType
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from lab.classroom.reading import NoMoreInput, glossed, parse, same, shown, well_formed
from lab.views.observable_words import named
from lab.views.report import outcome_view, summary_view

COLON = {"en": ": ", "zh": "："}
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
        "read_as": "read as",
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
        "read_as": "读作",
        "how": "代码怎么量出来的",
        "ask": "{id} {observable}：之前 {before}；之后？",
        "eof": "--predict 从标准输入为每个观测量读一个答案；输入在 {id} {observable} 之前就结束了"
        "（请在终端里运行，或用管道送入答案）",
        "bad": "{id} {observable}：{answer!r} 不是一个值；"
        "请回答 是/否、数字、词语或 (1, 2) 这样的元组",
        "observable": "观测量",
        "before": "之前",
        "after": "之后",
        "prediction": "你的预测",
        "score": "你的预测：{total} 个中对了 {right} 个",
    },
}


def verdict_view(verdict: Any) -> RenderableType:
    """The comparison (a lab.classroom.predict.Verdict), shown only after the prediction: verdict,
    both values, why, and the code that computes the answer."""
    w = WORDS[verdict.lang]
    if not verdict.predicted:
        return Text(w["none"], "bold yellow")
    mark = Text(w["right"], "bold green") if verdict.right else Text(w["wrong"], "bold red")
    table = Table(box=box.SIMPLE, show_header=False, pad_edge=False)
    typed, reading = shown(verdict.prediction), glossed(verdict.reading, verdict.lang)
    as_read = "" if reading == typed else f"  ({w['read_as']} {reading})"
    table.add_row(w["yours"], Text(typed + as_read))
    table.add_row(w["computed"], Text(glossed(verdict.computed, verdict.lang), "bold"))
    why = verdict.question.why[verdict.lang].format(answer=glossed(verdict.computed, verdict.lang))
    source = inspect.getsource(verdict.question.compute).strip()
    colon = COLON[verdict.lang]
    misread = verdict.question.misreading(verdict.prediction).get(verdict.lang)
    wrong_idea = [] if verdict.right or not misread else [Text(misread)]
    return Group(
        mark,
        table,
        Text.assemble((f"{w['why']}{colon}", "bold"), why),
        *[Text.assemble((f"{w['misread']}{colon}", "bold"), t) for t in wrong_idea],
        Text(f"{w['how']}{colon.strip()}", "bold"),
        Syntax(source, "python", theme="friendly", word_wrap=True),
    )


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
                id=outcome.experiment.id,
                observable=named(row.observable, lang),
                before=glossed(row.before, lang),
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
        table.add_row(
            named(row.observable, lang, cell=True),
            glossed(row.before, lang),
            glossed(row.after, lang),
            glossed(prediction, lang),
            mark,
        )
    return table


def run_with_predictions(outcomes: list[Any], out: Console, lang: str, stdin: TextIO | None) -> int:
    """`lab run --predict`: every prediction first, then the runs beside them. The exit code is
    `lab run`'s (whether the experiments reproduced), not the score."""
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
