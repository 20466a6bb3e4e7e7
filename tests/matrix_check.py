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
WIRE_ROW = "*wire*"  # the row under the header: each column's wire (anthropic or openai)


def readme_matrix(readme: str) -> dict[tuple[str, str], str]:
    """(target, case) -> the grade pasted in the README's "The matrix, measured" table."""
    section = readme.split("### The matrix, measured", 1)[1]
    table = section.split("\n\n| ", 1)[1].split("\n\n", 1)[0]  # the first table after it
    rows = ["| " + table.splitlines()[0], *table.splitlines()[2:]]
    targets = [name.strip(" `") for name in rows[0].strip("|").split("|")[1:]]
    found = {}
    for row in rows[1:]:
        if row.startswith(f"| {WIRE_ROW} "):  # each column's wire, not a case
            continue
        cells = [cell.strip() for cell in row.strip("|").split("|")]
        case = cells[0].split()[0]
        for target, mark in zip(targets, cells[1:], strict=True):
            found[(target, case)] = mark.split(" (")[0].strip("*")  # "**fail** (stream)"
    return found


def readme_wires(readme: str) -> dict[str, str]:
    """target -> the wire the README's matrix shows for its column (its `*wire*` row)."""
    section = readme.split("### The matrix, measured", 1)[1]
    table = section.split("\n\n| ", 1)[1].split("\n\n", 1)[0]
    head, *rows = ["| " + table.splitlines()[0], *table.splitlines()[2:]]
    targets = [name.strip(" `") for name in head.strip("|").split("|")[1:]]
    row = next((r for r in rows if r.startswith(f"| {WIRE_ROW} ")), "")
    return dict(zip(targets, [c.strip() for c in row.strip("|").split("|")[1:]], strict=False))


def wire_differences(result: dict, shown: dict[str, str]) -> list[str]:
    """One line per target whose declared wire is not the one its README column shows."""
    return [
        f"{t['name']}: README wire {shown.get(t['name'])}, declared {t['wire']}"
        for t in result["targets"]
        if t.get("wire") and shown.get(t["name"]) != t["wire"]
    ]


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
    readme = (ROOT / "README.md").read_text()
    problems = differences(result, readme_matrix(readme))
    problems += wire_differences(result, readme_wires(readme))
    for line in problems:
        print(line)
    cells = len(result["cells"])
    print(f"matrix: {cells - len(problems)} of {cells} cells as the README says")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
