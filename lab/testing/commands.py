"""`lab matrix` and `lab hunt`: the kill matrix as a table, a hunted case as an experiment file.

Progress goes to stderr; stdout carries only the table (or its JSON) or the experiment's source.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from lab.experiment import load_file, run_experiment
from lab.source_lines import declared_id
from lab.switches import Switches, switch_names
from lab.testing.invariants import INVARIANTS, Invariant
from lab.testing.render import experiment_id, experiment_source
from lab.testing.search import (
    Finding,
    Matrix,
    Row,
    flipped_value,
    hunt,
    kill_matrix,
)


def progress_bar(auto_refresh: bool = True) -> Progress:
    """Progress on stderr, only when it is a terminal (a log gets the summary line alone)."""
    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        auto_refresh=auto_refresh,
        disable=not console.is_terminal,
    )


# ---- lab matrix ----------------------------------------------------------------------------
# The invariants head the columns by number, with a legend below: the table then fits an
# 80-column terminal; when it still does not, the columns are split over several tables.
def cell(row: Row, name: str) -> Text:
    finding = row.findings.get(name)
    if finding is None:
        return Text("·", style="dim")
    return Text(f"✗{finding.size}", style="bold red")


def matrix_table(matrix: Matrix, columns: list[int], last: bool) -> Table:
    """The rows of the matrix for the invariants numbered `columns` (1-based)."""
    table = Table(
        box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, padding=(0, 1), collapse_padding=True
    )
    table.add_column("switch flipped", no_wrap=True)
    chosen = [INVARIANTS[n - 1] for n in columns]
    for n in columns:
        table.add_column(str(n), justify="center", no_wrap=True)
    if last:
        table.add_column("caught", justify="center", no_wrap=True)
    reference = matrix.reference
    caught_cell = [""] if last else []
    table.add_row("reference harness", *[cell(reference, i.name) for i in chosen], *caught_cell)
    table.add_section()
    for row in matrix.rows:
        caught = Text("✓", style="green") if row.caught else Text("✗", style="bold red")
        label = f"{row.switch}={row.value}"
        table.add_row(label, *[cell(row, i.name) for i in chosen], *([caught] if last else []))
    return table


def width_of(out: Console, renderable: RenderableType) -> int:
    return Measurement.get(out, out.options.update(width=10_000), renderable).maximum


def matrix_tables(matrix: Matrix, out: Console) -> list[Table]:
    """As few tables as fit the console's width (one, from about 80 columns)."""
    numbers = list(range(1, len(INVARIANTS) + 1))
    for count in range(1, len(numbers) + 1):
        per_table = -(-len(numbers) // count)  # split evenly: 15 columns in two tables: 8 + 7
        groups = [numbers[i : i + per_table] for i in range(0, len(numbers), per_table)]
        tables = [matrix_table(matrix, g, last=g is groups[-1]) for g in groups]
        if all(width_of(out, t) <= out.width for t in tables):
            break
    return tables


def legend(invariants: list[Invariant]) -> Text:
    return Text("  ").join(Text(f"{n}={inv.name}") for n, inv in enumerate(invariants, start=1))


def matrix_view(matrix: Matrix, examples: int, out: Console) -> RenderableType:
    score = f"{matrix.caught}/{len(matrix.rows)} switches caught ({matrix.score:.0%})"
    reference = "breaks none" if not matrix.reference.findings else "BREAKS SOME"
    return Group(
        Text("Kill matrix: each switch flipped alone, every invariant checked", "bold"),
        *[part for table in matrix_tables(matrix, out) for part in (table, Text(""))],
        Text.assemble("invariants: ", legend(INVARIANTS)),
        Text(
            f"✗n: broken; hypothesis's smallest counterexample in {examples} cases per switch "
            "has n ingredients (turns, calls, rules, answers, hooks, tools, files). ·: holds. "
            "`lab hunt SWITCH` writes one out as an experiment."
        ),
        Text(
            f"score: {score}; the reference harness {reference} of the {len(INVARIANTS)} "
            "invariants.",
            "bold",
        ),
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


def matrix_command(examples: int, jobs: int, as_json: bool, out: Console) -> int:
    """Print the kill matrix and the score; 0 when every fault is caught and the reference
    harness breaks nothing."""
    rows = 1 + len(switch_names())
    # No self-refreshing progress thread: the matrix forks its worker processes.
    with progress_bar(auto_refresh=False) as progress:
        task = progress.add_task("kill matrix", total=rows)

        def done(row: Row) -> None:
            progress.update(
                task, advance=1, description=f"kill matrix · {row.switch or 'reference'}"
            )
            progress.refresh()

        matrix = kill_matrix(examples=examples, jobs=jobs, done=done)
    if as_json:
        print(json.dumps(matrix_json(matrix, examples), ensure_ascii=False, indent=2))
    else:
        out.print(matrix_view(matrix, examples, out))
    return 0 if matrix.score == 1 and not matrix.reference.findings else 1


# ---- lab hunt ------------------------------------------------------------------------------
def reproduces(path: Path) -> bool:
    """The written experiment loads and shows its before→after (the reference vs the flip)."""
    return run_experiment(load_file(path)).reproduced


def free_id(wanted: str, folder: Path, besides: Path | None = None) -> str:
    """`wanted` (D4h), or D4h2, D4h3, ... when an experiment file in `folder` (other than
    `besides`, the file about to be replaced) already declares it."""
    taken = {
        declared_id(path)
        for path in folder.glob("*.py")
        if besides is None or path.resolve() != besides.resolve()
    }
    candidates = itertools.chain([wanted], (f"{wanted}{n}" for n in itertools.count(2)))
    return next(c for c in candidates if c not in taken)


def write_atomically(source: str, out_path: Path, force: bool) -> bool:
    """Write into a temp file beside the target, check it reproduces, then move it into place
    in one step (never over an existing file unless `force`). Returns whether it reproduced.
    The file is created like any other (mode 0666 less the umask), not private to its owner."""
    # A leading underscore: `lab run --dir` skips the file while it is being checked.
    temp = out_path.with_name(f"_{out_path.stem}.{os.getpid()}.py")
    try:
        with open(temp, "x", encoding="utf-8") as file:
            file.write(source)
        if not reproduces(temp):
            return False
        if force:
            os.replace(temp, out_path)
        else:
            os.link(temp, out_path)  # fails if the file appeared meanwhile: never clobber
        return True
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def render(switch: str, finding: Finding, ident: str) -> str:
    before = finding.case.run(Switches())
    after = finding.case.run(Switches().flipped(**{switch: flipped_value(switch)}))
    return experiment_source(
        switch, finding.invariant, finding.case, finding.reason, before, after, ident
    )


def hunt_command(
    switch: str,
    invariant: str | None,
    out_path: Path | None,
    force: bool,
    examples: int,
    out: Console,
) -> int:
    """Print (or write to `out_path`) the smallest experiment that breaks an invariant with
    `switch` flipped; 1 when none is found or it does not reproduce."""
    if out_path and out_path.exists() and not force:
        raise FileExistsError(f"{out_path} exists; pass --force to overwrite it")
    if out_path and not out_path.parent.is_dir():
        raise NotADirectoryError(f"{out_path.parent} is not a folder")
    with progress_bar() as progress:
        task = progress.add_task(f"hunting {switch}", total=None)
        finding = hunt(
            switch,
            invariant=invariant,
            examples=examples,
            tick=lambda runs: progress.update(task, completed=runs),
        )
    if finding is None:
        print(f"lab hunt: no counterexample for {switch} in {examples} cases", file=sys.stderr)
        return 1
    ident = experiment_id(switch)
    if out_path is not None:
        ident = free_id(ident, out_path.parent, besides=out_path)
    source = render(switch, finding, ident)
    summary = f"{ident}: {finding.invariant.title} breaks ({finding.size} ingredients)"
    if out_path is None:
        with tempfile.TemporaryDirectory() as folder:
            check = Path(folder) / "hunted.py"
            check.write_text(source, encoding="utf-8")
            ok = reproduces(check)
        out.file.write(source)  # raw: the source, not rich markup
    else:
        ok = write_atomically(source, out_path, force)
        summary += f"; wrote {out_path}" if ok else f"; {out_path} not written"
    print(summary + ("" if ok else " (it does not reproduce)"), file=sys.stderr)
    return 0 if ok else 1
