"""What `lab check` prints: a student's results with hints, and the teacher's list of exercises
and checks (a table on a wide terminal, stacked below)."""

from __future__ import annotations

from pathlib import Path

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from lab.classroom.exercises import EXERCISES, Exercise, Result, exercise_named
from lab.languages.bilingual import in_lang
from lab.views.text_cells import ByWidth

COLON = {"en": ": ", "zh": "："}
WORDS = {
    "en": {
        "pass": "✓ pass",
        "fail": "✗ fail",
        "hint": "hint",
        "passed": "{n} of {total} checks pass",
        "exercise": "exercise",
        "file": "file",
        "check": "check",
        "how": "how it is checked",
        "defines": "defines {name}",
        "file_line": "file {file}, defines {name} (`lab check {id} --init` copies it here)",
        "checked_by": "checked by: {how}",
        "caption": "`lab check EXERCISE --init` copies an exercise's file into this folder",
        "own_starter": "(this is the lab's own starter: `lab check {id} --init` copies it into "
        "this folder for you to edit)",
        "wrote": "wrote {path}: edit it, then `lab check {id}` checks it",
    },
    "zh": {
        "pass": "✓ 通过",
        "fail": "✗ 未通过",
        "hint": "提示",
        "passed": "{total} 项检查中通过 {n} 项",
        "exercise": "练习",
        "file": "文件",
        "check": "检查",
        "how": "怎么检查",
        "defines": "定义 {name}",
        "file_line": "文件 {file}，定义 {name}（`lab check {id} --init` 把它复制到这里）",
        "checked_by": "检查方式：{how}",
        "caption": "`lab check EXERCISE --init` 把练习的文件复制到当前文件夹",
        "own_starter": "（这是实验室自带的起始文件：`lab check {id} --init` "
        "会把它复制到当前文件夹，供你修改）",
        "wrote": "已写出 {path}：改好后用 `lab check {id}` 检查",
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
        lines.append(Text.assemble("  ", mark, "  ", in_lang(result.check.name, lang)))
        if result.hint:
            hint = f"{w['hint']}{COLON[lang]}{in_lang(result.hint, lang)}"
            lines.append(Padding(Text(hint, "yellow"), (0, 0, 0, 6)))
    n = sum(r.passed for r in results)
    lines.append(Text(w["passed"].format(n=n, total=len(results)), "bold"))
    return Group(*lines)


def list_view(lang: str = "en", ids: list[str] | None = None) -> RenderableType:
    """The teacher's view: every exercise (or those of `ids`), its starter file and what each
    check runs; a table from 160 columns, stacked below."""
    w = WORDS[lang]
    chosen = [exercise_named(id) for id in ids] if ids else list(EXERCISES.values())
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_lines=True)
    for column in ("exercise", "file", "check", "how"):
        table.add_column(w[column])
    stacked: list[RenderableType] = []
    for exercise in chosen:
        title = f"{exercise.id} ({exercise.mechanism})"
        starter = f"{exercise.file}\n{w['defines'].format(name=exercise.defines)}"
        for i, item in enumerate(exercise.checks):
            first = i == 0
            table.add_row(
                f"{title}\n{exercise.title[lang]}" if first else "",
                starter if first else "",
                in_lang(item.name, lang),
                in_lang(item.teacher, lang),
            )
        stacked.append(Text.assemble((title, "bold"), " · ", exercise.title[lang]))
        stacked.append(
            Padding(
                Text(
                    w["file_line"].format(file=exercise.file, name=exercise.defines, id=exercise.id)
                ),
                (0, 0, 0, 2),
            )
        )
        for item in exercise.checks:
            stacked.append(Padding(Text(f"• {in_lang(item.name, lang)}"), (0, 0, 0, 2)))
            how = w["checked_by"].format(how=in_lang(item.teacher, lang))
            stacked.append(Padding(Text(how, "dim"), (0, 0, 0, 4)))
        stacked.append(Text(""))
    table.caption = w["caption"]
    return ByWidth(table, Group(*stacked), at=160)


def own_starter_note(id: str, lang: str = "en") -> str:
    """Said after the results when the file checked is the lab's own starter."""
    return WORDS[lang]["own_starter"].format(id=id)


def wrote_note(path: Path, id: str, lang: str = "en") -> str:
    """Said after `lab check ID --init` wrote the starter."""
    return WORDS[lang]["wrote"].format(path=path, id=id)
