"""The table of `lab compare PRESET`: each observable read three ways, and what holds where."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table

from lab.chapter.compare import Row
from lab.chapter.course_rules import PINNED, revision_dependent
from lab.views import output_words
from lab.views.observable_words import named
from lab.views.report import prose, show

WORDS = {
    "en": {
        "title": "reference harness vs the {preset} preset (its switches and its own rules)",
        "id": "id",
        "observable": "observable",
        "reference": "reference",
        "preset": "{preset}",
        "own": "own rules",
        "verdict": "as degraded?",
        "yes": "yes",
        "no": "no",
        "own only": "own rules only",
        "crashed": "crashed",
        "crash": "(crash)",
        "endings": "{id}: the {preset} run crashed: {detail}",
        "preset only": "{preset} rules only",
        "columns": "{preset}: Switches.{preset}() with the {preset}'s own rules "
        "(lab/chapter/course_rules.py). own rules: the same switches with the experiment's "
        'own rules, as `lab run` flips them. "own rules only": the degradation needs a rule '
        "the {preset} never had.",
        "flips": "{preset} preset: {flips}",
        "dagger": "† holds at the pinned commit {pinned} only; other revisions differ "
        "(`lab switches --json`, course_why): {names}",
    },
    "zh": {
        "title": "参考实现 vs 教学版（{preset} 预设：教学版的开关，加上它自己的规则）",
        "id": "编号",
        "observable": "观测量",
        "reference": "参考实现",
        "preset": "教学版",
        "own": "实验自带规则",
        "verdict": "按退化复现？",
        "yes": "是",
        "no": "否",
        "own only": "仅自带规则",
        "crashed": "崩溃了",
        "crash": "（崩溃）",
        "endings": "{id}：教学版的运行崩溃了：{detail}",
        "preset only": "仅教学版规则",
        "columns": "教学版：Switches.{preset}() 加上教学版自己的规则（lab/chapter/course_rules.py）"
        "。"
        "实验自带规则：同样的开关，换成实验自带的规则（`lab run` 的翻转方式）。"
        "「仅自带规则」：这条退化要靠一条教学版从来没有的规则。",
        "flips": "{preset} 预设：{flips}",
        "dagger": "† 只在固定提交 {pinned} 上成立，其他修订不同"
        "（`lab switches --json` 的 course_why）：{names}",
    },
}


def raised(detail: str, lang: str) -> str:
    """What a crash raised: as raised; in zh quoted as data, its Chinese after it."""
    return f"“{detail}”{output_words.gloss(detail, lang)}" if lang == "zh" else detail


def verdict(row: Row, words: dict[str, str]) -> str:
    """Both readings: yes / no, or which rules the degradation needs; † when revision-bound.
    A preset run that crashed where the experiment expects none is no "no": it crashed."""
    if row.crashed and not row.as_degraded:
        return words["crashed"] + (" †" if row.revision_dependent else "")
    key = {
        (True, True): "yes",
        (False, False): "no",
        (False, True): "own only",
        (True, False): "preset only",
    }[(row.as_degraded, row.as_degraded_own_rules)]
    return words[key] + (" †" if row.revision_dependent else "")


def compare_view(preset: str, rows: list[Row], flips: dict[str, Any], lang: str) -> RenderableType:
    words = {k: v.replace("{preset}", preset) for k, v in WORDS[lang].items()}
    # no vertical rules: at 80 columns the longest observable name fits whole
    table = Table(
        title=words["title"],
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        collapse_padding=True,
    )
    table.add_column(words["id"], no_wrap=True)
    table.add_column(words["observable"], no_wrap=True)  # a name: never split mid-word
    for column in ("reference", "preset", "own", "verdict"):  # Chinese breaks between characters
        table.add_column(words[column], overflow="fold" if lang == "zh" else "ellipsis")
    for i, row in enumerate(rows):
        if i and row.id != rows[i - 1].id:
            table.add_section()
        course = show(row.preset, lang) + (f" {words['crash']}" if row.crashed else "")
        values = (show(row.reference, lang), course, show(row.own_rules, lang))
        table.add_row(row.id, named(row.observable, lang, cell=True), *values, verdict(row, words))
    pinned_only = revision_dependent()
    flipped = ", ".join(
        f"Switches.{name} = {value}{' †' if name in pinned_only else ''}"
        for name, value in flips.items()
    )
    marked = ", ".join(name for name in flips if name in pinned_only)
    crashes = {row.id: row.preset_detail for row in rows if row.crashed}
    endings = [words["endings"].format(id=i, detail=raised(d, lang)) for i, d in crashes.items()]
    return Group(
        table,
        *(prose(line, lang) for line in endings),
        prose(words["columns"], lang),
        prose(words["flips"].format(flips=flipped), lang),
        prose(words["dagger"].format(pinned=PINNED, names=marked), lang),
    )
