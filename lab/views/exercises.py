"""What `lab check` prints: a student's results with hints, and the teacher's list of exercises
and checks (a table on a wide terminal, stacked below)."""

from __future__ import annotations

from pathlib import Path

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from lab.exercises import EXERCISES, Exercise, Result, exercise_named
from lab.views.text_cells import ByWidth

WORDS = {
    "en": {
        "pass": "✓ pass",
        "fail": "✗ fail",
        "hint": "hint",
        "passed": "{n} of {total} checks pass",
    },
    "zh": {
        "pass": "✓ 通过",
        "fail": "✗ 未通过",
        "hint": "提示",
        "passed": "{total} 项检查中通过 {n} 项",
    },
}


def results_view(exercise: Exercise, path: Path, results: list[Result], lang: str) -> Group:
    w = WORDS[lang]
    lines: list[RenderableType] = [
        Text.assemble((f"{exercise.id} · {exercise.mechanism} · ", "bold"), exercise.title[lang]),
        Text(f"  {path}", "dim"),
    ]
    for result in results:
        mark = Text(w["pass"], "green") if result.passed else Text(w["fail"], "bold red")
        lines.append(Text.assemble("  ", mark, "  ", result.check.name))
        if result.hint:
            lines.append(Padding(Text(f"{w['hint']}: {result.hint}", "yellow"), (0, 0, 0, 6)))
    n = sum(r.passed for r in results)
    lines.append(Text(w["passed"].format(n=n, total=len(results)), "bold"))
    return Group(*lines)


def list_view(lang: str = "en", ids: list[str] | None = None) -> RenderableType:
    """The teacher's view: every exercise (or those of `ids`), its starter file and what each
    check runs; a table from 160 columns, stacked below."""
    chosen = [exercise_named(id) for id in ids] if ids else list(EXERCISES.values())
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_lines=True)
    for column in ("exercise", "file", "check", "how it is checked"):
        table.add_column(column)
    stacked: list[RenderableType] = []
    for exercise in chosen:
        title = f"{exercise.id} ({exercise.mechanism})"
        starter = f"{exercise.file}\ndefines {exercise.defines}"
        for i, item in enumerate(exercise.checks):
            first = i == 0
            table.add_row(
                f"{title}\n{exercise.title[lang]}" if first else "",
                starter if first else "",
                item.name,
                item.teacher,
            )
        stacked.append(Text.assemble((title, "bold"), " · ", exercise.title[lang]))
        stacked.append(
            Padding(
                Text(
                    f"file {exercise.file}, defines {exercise.defines} "
                    f"(`lab check {exercise.id} --init` copies it here)"
                ),
                (0, 0, 0, 2),
            )
        )
        for item in exercise.checks:
            stacked.append(Padding(Text(f"• {item.name}"), (0, 0, 0, 2)))
            stacked.append(Padding(Text(f"checked by: {item.teacher}", "dim"), (0, 0, 0, 4)))
        stacked.append(Text(""))
    table.caption = "`lab check EXERCISE --init` copies an exercise's file into this folder"
    return ByWidth(table, Group(*stacked), at=160)
