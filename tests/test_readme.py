"""The README stays true: its quick start is what CI runs, its claim table what the lab measures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lab.chapter.experiment import load_all
from lab.views.report import grade_label, show

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def quick_start() -> list[str]:
    section = README.split("## Quick start", 1)[1]
    block = re.search(r"```bash\n(.*?)```", section, re.DOTALL).group(1)
    return [line for line in block.splitlines() if line.strip()]


def test_quick_start_is_two_commands_and_ci_runs_both():
    commands = quick_start()
    assert len(commands) == 2
    ci = (ROOT / ".ci" / "run").read_text()
    for command in commands:
        assert command in ci


@pytest.mark.parametrize("experiment", load_all(), ids=lambda e: e.id)
def test_claim_table_row_matches_the_experiment(experiment):
    rows = [line for line in README.splitlines() if f"| {experiment.id} |" in line]
    assert len(rows) == 1, f"README needs one claim row for {experiment.id}"
    for name, (before, after) in experiment.expect.items():
        assert f"`{name}` {show(before)} → {show(after)}" in rows[0]
    for name, value in experiment.flips.items():
        assert f"`{name}={value}`" in rows[0]
    assert f"| {experiment.id} | {grade_label(experiment.grade)} |" in rows[0]


def test_readme_says_which_ids_come_from_the_seed():
    assert "Ids D1, D3 and D4 come from the seed" in README
    assert "Every other id is the lab's own**: D1b, D9b and D7–D29" in README
    ids = {e.id for e in load_all()}
    numbers = sorted(int(i[1:].rstrip("b")) for i in ids - {"D1", "D3", "D4", "D1b", "D9b"})
    assert numbers[0] >= 7 and numbers[-1] <= 29


def test_pasted_output_is_what_lab_run_prints_now(capsys, monkeypatch):
    from lab.cli import main

    monkeypatch.setenv("COLUMNS", "100")
    assert main(["run", "D1", "D4"]) == 0
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    section = README.split("A real excerpt of `lab run`", 1)[1]
    pasted = re.search(r"```text\n(.*?)```", section, re.DOTALL).group(1)
    assert [line.rstrip() for line in pasted.splitlines()] == printed


def test_pasted_compare_is_what_lab_compare_course_prints_now(capsys, monkeypatch):
    from lab.cli import main

    monkeypatch.setenv("COLUMNS", "100")
    assert main(["compare", "course"]) == 0
    printed = [line.rstrip() for line in capsys.readouterr().out.splitlines()]
    section = README.split("A real `lab compare course`:", 1)[1]
    pasted = re.search(r"```text\n(.*?)```", section, re.DOTALL).group(1)
    assert [line.rstrip() for line in pasted.splitlines()] == printed
    assert "own rules only" in pasted and "†" in pasted
