"""`lab matrix` and `lab hunt`: the kill matrix as a table, a hunted case as an experiment file.

Progress goes to stderr; stdout carries only the table or the experiment's source.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from rich import box
from rich.console import Console
from rich.measure import Measurement
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from lab.experiment import load_file, run_experiment
from lab.switches import Switches, switch_names
from lab.testing.invariants import INVARIANTS
from lab.testing.render import experiment_id, experiment_source
from lab.testing.search import (
    HUNT_EXAMPLES,
    MATRIX_EXAMPLES,
    Finding,
    Matrix,
    Row,
    flipped_value,
    hunt,
    kill_matrix,
)

DEFAULT_JOBS = min(4, os.cpu_count() or 1)


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
def cell(row: Row, name: str) -> Text:
    finding = row.findings.get(name)
    if finding is None:
        return Text("holds", style="dim")
    return Text(f"broken ({finding.size})", style="bold red")


def matrix_table(matrix: Matrix) -> Table:
    table = Table(
        title="Kill matrix: each switch flipped alone, every invariant checked",
        title_justify="left",
        box=box.SIMPLE_HEAD,
    )
    table.add_column("switch")
    for invariant in INVARIANTS:
        table.add_column(invariant.name.replace("_", "\n"), justify="center")
    table.add_column("caught", justify="center")
    reference = matrix.reference
    table.add_row("reference harness", *[cell(reference, i.name) for i in INVARIANTS], "")
    table.add_section()
    for row in matrix.rows:
        caught = Text("✓", style="green") if row.caught else Text("✗", style="bold red")
        label = f"{row.switch}={row.value}"
        table.add_row(label, *[cell(row, i.name) for i in INVARIANTS], caught)
    return table


def matrix_command(examples: int | None, jobs: int | None, out: Console) -> int:
    """Print the kill matrix and the score; 0 when every fault is caught and the reference
    harness breaks nothing."""
    examples = examples or MATRIX_EXAMPLES
    rows = 1 + len(switch_names())
    # No self-refreshing progress thread: the matrix forks its worker processes.
    with progress_bar(auto_refresh=False) as progress:
        task = progress.add_task("kill matrix", total=rows)

        def done(row: Row) -> None:
            progress.update(
                task, advance=1, description=f"kill matrix · {row.switch or 'reference'}"
            )
            progress.refresh()

        matrix = kill_matrix(examples=examples, jobs=jobs or DEFAULT_JOBS, done=done)
    table = matrix_table(matrix)
    # The table is as wide as it needs (rich would squeeze it into a narrow terminal or pipe).
    needed = Measurement.get(out, out.options.update(width=10_000), table).maximum
    Console(file=out.file, width=max(out.width, needed), highlight=False).print(table)
    score = f"{matrix.caught}/{len(matrix.rows)} switches caught ({matrix.score:.0%})"
    reference = "breaks none" if not matrix.reference.findings else "BREAKS SOME"
    out.print(
        f"score: {score}; the reference harness {reference} of the {len(INVARIANTS)} invariants."
    )
    out.print(
        f"broken (n): hypothesis's smallest counterexample in {examples} cases per switch has n "
        "ingredients (turns, calls, rules, answers, hooks, tools, files); `lab hunt SWITCH` "
        "writes one out as an experiment."
    )
    return 0 if matrix.score == 1 and not matrix.reference.findings else 1


# ---- lab hunt ------------------------------------------------------------------------------
def reproduces(path: Path) -> bool:
    """The written experiment loads and shows its before→after (the reference vs the flip)."""
    return run_experiment(load_file(path)).reproduced


def write_atomically(source: str, out_path: Path, force: bool) -> bool:
    """Write into a temp file beside the target, check it reproduces, then move it into place
    in one step (never over an existing file unless `force`). Returns whether it reproduced."""
    descriptor, temp = tempfile.mkstemp(dir=out_path.parent, prefix="tmp_hunt_", suffix=".py")
    try:
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            file.write(source)
        if not reproduces(Path(temp)):
            return False
        if force:
            os.replace(temp, out_path)
        else:
            os.link(temp, out_path)  # fails if the file appeared meanwhile: never clobber
        return True
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def render(switch: str, finding: Finding) -> str:
    before = finding.case.run(Switches())
    after = finding.case.run(Switches().flipped(**{switch: flipped_value(switch)}))
    return experiment_source(switch, finding.invariant, finding.case, finding.reason, before, after)


def hunt_command(
    switch: str,
    invariant: str | None,
    out_path: Path | None,
    force: bool,
    examples: int | None,
    out: Console,
) -> int:
    """Print (or write to `out_path`) the smallest experiment that breaks an invariant with
    `switch` flipped; 1 when none is found or it does not reproduce."""
    if out_path and out_path.exists() and not force:
        raise FileExistsError(f"{out_path} exists; pass --force to overwrite it")
    if out_path and not out_path.parent.is_dir():
        raise NotADirectoryError(f"{out_path.parent} is not a folder")
    examples = examples or HUNT_EXAMPLES
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
    source = render(switch, finding)
    summary = (
        f"{experiment_id(switch)}: {finding.invariant.title} breaks ({finding.size} ingredients)"
    )
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
