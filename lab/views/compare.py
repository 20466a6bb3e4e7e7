"""`lab compare PRESET`: the reference harness beside a preset, observable by observable, and
whether the preset's value is the experiment's degraded one."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lab.views.report import flips_text, show

WORDS = {
    "en": {
        "title": "reference harness vs the {preset} preset",
        "id": "id",
        "observable": "observable",
        "reference": "reference",
        "degraded": "as degraded?",
        "yes": "yes",
        "no": "no",
        "flips": "{preset} preset: {flips}",
    },
    "zh": {
        "title": "参考实现 对比 {preset} 预设",
        "id": "编号",
        "observable": "观测量",
        "reference": "参考实现",
        "degraded": "与退化一致？",
        "yes": "是",
        "no": "否",
        "flips": "{preset} 预设：{flips}",
    },
}


def compare_view(
    rows: list[tuple[str, str, Any, Any, bool]],
    preset: str,
    flipped: dict[str, Any],
    lang: str = "en",
) -> RenderableType:
    """Rows of (id, observable, reference value, preset value, as degraded), a section per
    experiment; under them the preset's switches."""
    w = WORDS[lang]
    table = Table(title=w["title"].format(preset=preset), title_justify="left")
    for column in (w["id"], w["observable"], w["reference"], preset, w["degraded"]):
        table.add_column(column, overflow="fold")
    for i, (ident, name, reference_value, preset_value, degraded) in enumerate(rows):
        if i and ident != rows[i - 1][0]:
            table.add_section()
        table.add_row(
            ident, name, show(reference_value), show(preset_value), w["yes" if degraded else "no"]
        )
    return Group(table, Text(w["flips"].format(preset=preset, flips=flips_text(flipped))))
