"""The README's probe matrix is what `lab probe --all` measures, every cell: a step of .ci/run.

The whole matrix (every built-in target, every case, both answer modes) takes minutes, more than
the README's suite may spend; tests/test_probe_all.py runs a slice of it under strace in the
suite and compares that slice, and this script compares the rest:

    .venv/bin/python tests/matrix_check.py [--json FILE]    # FILE: an earlier `--all --json`

Exits 0 when every measured cell is the README's, 1 with one line per cell that is not.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def readme_matrix(readme: str) -> dict[tuple[str, str], str]:
    """(target, case) -> the grade pasted in the README's "The matrix, measured" table."""
    section = readme.split("### The matrix, measured", 1)[1]
    table = section.split("\n\n| ", 1)[1].split("\n\n", 1)[0]  # the first table after it
    rows = ["| " + table.splitlines()[0], *table.splitlines()[2:]]
    targets = [name.strip(" `") for name in rows[0].strip("|").split("|")[1:]]
    found = {}
    for row in rows[1:]:
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        case = cells[0].split()[0]
        for target, mark in zip(targets, cells[1:], strict=True):
            found[(target, case)] = mark.split(" (")[0].strip("*")  # "**fail** (stream)"
    return found


def differences(result: dict, pasted: dict[tuple[str, str], str]) -> list[str]:
    """One line per installed cell whose measured grade is not the README's."""
    installed = {t["name"] for t in result["targets"] if t["missing"] is None}
    lines = []
    for cell in result["cells"]:
        key = (cell["target"], cell["case"])
        if cell["target"] in installed and pasted.get(key) != cell["verdict"]:
            lines.append(f"{key[0]} {key[1]}: README {pasted.get(key)}, measured {cell['verdict']}")
    missing = sorted(installed - {t for t, _ in pasted})
    return lines + [f"{name}: not in the README's matrix" for name in missing]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--json"] and len(argv) == 2:
        result = json.loads(Path(argv[1]).read_text())
    else:
        done = subprocess.run(
            [sys.executable, "-m", "lab", "probe", "--all", "--json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        if not done.stdout:
            print(f"lab probe --all printed nothing: {done.stderr.strip()[-300:]}")
            return 1
        result = json.loads(done.stdout)
    problems = differences(result, readme_matrix((ROOT / "README.md").read_text()))
    for line in problems:
        print(line)
    cells = len(result["cells"])
    print(f"matrix: {cells - len(problems)} of {cells} cells as the README says")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
