"""The kill matrix as rich tables (as few as fit the terminal) and as JSON."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from lab.testing.invariants import INVARIANTS, Invariant
from lab.testing.search import Finding, Matrix, Row

WORDS = {
    "en": {
        "title": "Kill matrix: each switch flipped alone, every invariant checked",
        "switch": "switch flipped",
        "caught": "caught",
        "reference": "reference harness",
        "invariants": "invariants: ",
        "legend": "{n}={name}",
        "key": "✗n: broken; hypothesis's smallest counterexample in {examples} cases per switch "
        "has n ingredients (turns, calls, rules, answers, hooks, tools, files). ·: holds. "
        "`lab hunt SWITCH` writes one out as an experiment.",
        "score": "score: {caught}/{total} switches caught ({score:.0%}); the reference harness "
        "{reference} of the {n} invariants.",
        "none": "breaks none",
        "some": "BREAKS SOME",
    },
    "zh": {
        "title": "杀伤矩阵：每个开关单独拨动，逐条检查不变式",
        "switch": "拨动的开关",
        "caught": "抓到",
        "reference": "参考实现",
        "invariants": "不变式：",
        "legend": "{n}={name}（{zh}）",
        "key": "✗n：被打破，hypothesis 在每个开关的 {examples} 个用例里找到的最小反例有 n 个成分"
        "（轮次、调用、规则、回答、钩子、工具、文件）。·：守住。`lab hunt SWITCH` "
        "把它写成一个实验文件。",
        "score": "得分：{total} 个开关抓到 {caught} 个（{score:.0%}）；参考实现在 {n} 条不变式里"
        "{reference}。",
        "none": "一条也没打破",
        "some": "打破了一些",
    },
}


# The invariants head the columns by number, with a legend below: the table then fits an
# 80-column terminal; when it still does not, the columns are split over several tables.
def cell(row: Row, name: str) -> Text:
    finding = row.findings.get(name)
    if finding is None:
        return Text("·", style="dim")
    return Text(f"✗{finding.size}", style="bold red")


def matrix_table(matrix: Matrix, columns: list[int], last: bool, lang: str = "en") -> Table:
    """The rows of the matrix for the invariants numbered `columns` (1-based)."""
    w = WORDS[lang]
    table = Table(
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1), collapse_padding=True
    )
    table.add_column(w["switch"], no_wrap=True)
    chosen = [INVARIANTS[n - 1] for n in columns]
    for n in columns:
        table.add_column(str(n), justify="center", no_wrap=True)
    if last:
        table.add_column(w["caught"], justify="center", no_wrap=True)
    reference = matrix.reference
    caught_cell = [""] if last else []
    table.add_row(w["reference"], *[cell(reference, i.name) for i in chosen], *caught_cell)
    table.add_section()
    for row in matrix.rows:
        caught = Text("✓", style="green") if row.caught else Text("✗", style="bold red")
        label = f"{row.switch}={row.value}"
        table.add_row(label, *[cell(row, i.name) for i in chosen], *([caught] if last else []))
    return table


def width_of(out: Console, renderable: RenderableType) -> int:
    return Measurement.get(out, out.options.update(width=10_000), renderable).maximum


def matrix_tables(matrix: Matrix, out: Console, lang: str = "en") -> list[Table]:
    """As few tables as fit the console's width (one, from about 80 columns)."""
    numbers = list(range(1, len(INVARIANTS) + 1))
    for count in range(1, len(numbers) + 1):
        per_table = -(-len(numbers) // count)  # split evenly: 15 columns in two tables: 8 + 7
        groups = [numbers[i : i + per_table] for i in range(0, len(numbers), per_table)]
        tables = [matrix_table(matrix, g, g is groups[-1], lang) for g in groups]
        if all(width_of(out, t) <= out.width for t in tables):
            break
    return tables


def legend(invariants: list[Invariant], lang: str = "en") -> Text:
    shown = WORDS[lang]["legend"]
    return Text("  ").join(
        Text(shown.format(n=n, name=inv.name, zh=inv.zh)) for n, inv in enumerate(invariants, 1)
    )


def matrix_view(matrix: Matrix, examples: int, out: Console, lang: str = "en") -> RenderableType:
    w = WORDS[lang]
    score = w["score"].format(
        caught=matrix.caught,
        total=len(matrix.rows),
        score=matrix.score,
        reference=w["none"] if not matrix.reference.findings else w["some"],
        n=len(INVARIANTS),
    )
    return Group(
        Text(w["title"], "bold"),
        *[part for table in matrix_tables(matrix, out, lang) for part in (table, Text(""))],
        Text.assemble(w["invariants"], legend(INVARIANTS, lang)),
        Text(w["key"].format(examples=examples)),
        Text(score, "bold"),
    )


def finding_json(finding: Finding) -> dict[str, Any]:
    return {"size": finding.size, "reason": finding.reason}


def matrix_json(matrix: Matrix, examples: int) -> dict[str, Any]:
    """The kill matrix as JSON (its schema is in the README)."""

    def row_json(row: Row) -> dict[str, Any]:
        broken = {name: finding_json(f) for name, f in row.findings.items()}
        return {"switch": row.switch, "value": row.value, "caught": row.caught, "broken": broken}

    return {
        "examples": examples,
        "invariants": [
            {"name": i.name, "title": i.title, "zh": i.zh, "promise": i.promise} for i in INVARIANTS
        ],
        "reference": {"broken": row_json(matrix.reference)["broken"]},
        "rows": [row_json(row) for row in matrix.rows],
        "caught": matrix.caught,
        "total": len(matrix.rows),
        "score": matrix.score,
    }
