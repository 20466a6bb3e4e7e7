"""The 90-minute lesson plan walked: the Chinese students' edition is written as `lab notebooks
--lang zh` writes it, each notebook the plan names is executed top to bottom in a fresh kernel
(nbclient), and each part's cells are timed, beside the plan's minutes and the class-time rule
of lab/teacher/class_time.py.

    PYTHONPATH=$PWD .venv/bin/python benchmarks/class_walk.py [--skip]

With --skip the cells a class skips (tagged skip-in-class) are not run at all, as when a teacher
runs only the cells the plan names: a cell the class runs that needs a skipped one fails then.

Columns: the plan's minutes; the rule's minutes for the cells a class does not skip; the cells
in class of all; seconds the machine took to run the cells in class, and all of them; and the
rule's minutes plus the machine's time for the cells in class (what the part costs a class
whose machines are this fast).
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from pathlib import Path

import jupytext
from nbclient import NotebookClient

from lab.cli import main
from lab.teacher.class_time import SKIP_TAG, class_cells, class_minutes

ROOT = Path(__file__).resolve().parent.parent
PLAN = ROOT / "docs" / "teacher" / "lesson-plan.md"
ROW = re.compile(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \|", re.M)


def plan_parts() -> list[tuple[int, str, str | None]]:
    """(minutes, part, notebook named or None) for each row of the English table."""
    english = PLAN.read_text(encoding="utf-8").split("## English", 1)[1]
    parts = []
    for minutes, part, run in ROW.findall(english):
        named = re.search(r"`(\d\d_\w+)`", run)
        parts.append((int(minutes), part.split(":")[0].strip(), named and named.group(1)))
    return parts


def timed_run(path: Path, skip: bool = False) -> list[tuple[bool, float]]:
    """(skipped in class, seconds) for each cell of the notebook, executed in order; with
    `skip`, the cells tagged skip-in-class are not run at all (0 s), so a cell the class runs
    that needs one of them fails here (CellExecutionError names it)."""
    notebook = jupytext.read(path)
    client = NotebookClient(
        notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": path.parent}}
    )
    times = []
    with client.setup_kernel():
        for index, cell in enumerate(notebook.cells):
            skipped = SKIP_TAG in cell.metadata.get("tags", [])
            start = time.perf_counter()
            if not (skip and skipped):
                client.execute_cell(cell, index)
            times.append((skipped, time.perf_counter() - start))
    return times


LOWER_BOUND = (
    "Seconds are the machine's time to run the cells: a lower bound of class time (reading, "
    "predicting and talking are not in it; the rule's minutes are)."
)


def main_walk(skip: bool) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "学生笔记本"
        os.environ["IPYTHONDIR"] = str(Path(tmp) / "ipython")
        assert main(["notebooks", "--lang", "zh", str(folder)]) == 0
        header = (
            f"{'part':<44} {'plan':>4} {'rule':>5} {'cells':>7} {'run s':>7} {'all s':>7} "
            f"{'rule+run':>8}"
        )
        print(header)
        totals = [0.0, 0.0, 0.0, 0.0]
        for minutes, part, name in plan_parts():
            if name is None:
                print(f"{part[:44]:<44} {minutes:>4}  (no notebook)")
                totals[0] += minutes
                totals[1] += minutes
                totals[3] += minutes
                continue
            source = (ROOT / "notebooks" / f"{name}.py").read_text(encoding="utf-8")
            rule = class_minutes(source)
            times = timed_run(folder / f"{name}.ipynb", skip)
            in_class = sum(t for skipped, t in times if not skipped)
            everything = sum(t for _, t in times)
            kept = sum(1 for c in class_cells(source) if not c.skipped)
            walked = rule + in_class / 60
            totals = [
                totals[0] + minutes,
                totals[1] + rule,
                totals[2] + everything,
                totals[3] + walked,
            ]
            print(
                f"{name[:44]:<44} {minutes:>4} {rule:>5.1f} {kept:>3}/{len(times):<3} "
                f"{in_class:>7.1f} {everything:>7.1f} {walked:>8.1f}"
            )
            sys.stdout.flush()
        print(
            f"{'total':<44} {totals[0]:>4.0f} {totals[1]:>5.1f} {'':>7} {'':>7} "
            f"{totals[2]:>7.1f} {totals[3]:>8.1f}"
        )
        print(LOWER_BOUND)
        if skip:
            print("--skip: the cells tagged skip-in-class were not run; every part still ran.")
    return 0


if __name__ == "__main__":
    raise SystemExit(main_walk("--skip" in sys.argv[1:]))
