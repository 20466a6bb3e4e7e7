"""How `lab probe` schedules a matrix: each target's quickest trial first (a warm target's first
trial runs alone, so the others inherit what it imported), then the longest trials; every trial gets
the same limit of idle time (a long run is not idle), and the cells still come back in the matrix's
order."""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

from lab.probe.bench import probe_pairs
from lab.probe.catalogue import BY_ID
from lab.probe.target import Target
from lab.probe.targets import command_target

AGENTS = Path(__file__).parent / "agents"


def recording(started: list[str], program: list[str]) -> Target:
    """A target that notes which case each trial runs as it starts, then runs `program`."""

    def argv(prompt: str, folder: Path) -> list[str]:
        started.append(re.search(r"\[lab probe (\w+)\]", prompt).group(1))
        return program

    return Target(name="recording", argv=argv, warm=False)


def test_the_quickest_trial_then_the_longest_start_first_and_the_cells_keep_their_order():
    started: list[str] = []
    target = recording(started, [sys.executable, "-c", "pass"])
    cases = ["P6", "P15", "P1", "P22", "P17"]
    cells = probe_pairs([(target, BY_ID[c]) for c in cases], jobs=1)
    assert started == ["P1", "P15", "P15", "P22", "P22", "P6", "P6", "P17", "P17"]
    assert [c.case for c in cells] == cases
    assert all(c.verdict.kind == "not reached" for c in cells)


def test_a_long_run_gets_the_same_idle_limit_and_a_sleeper_is_stopped_as_idle():
    sleeper = recording([], [sys.executable, "-c", "import time; time.sleep(30)"])
    cells = probe_pairs([(sleeper, BY_ID["P22"]), (sleeper, BY_ID["P1"])], timeout=0.5)
    limits = {c.case: c.trial.exit.timeout for c in cells if c.trial is not None}
    assert limits == {"P22": 0.5, "P1": 0.5}
    for cell in cells:
        assert cell.trial is not None and cell.trial.exit.status is None
        assert cell.trial.exit.progress is not None
        assert cell.trial.exit.progress.reason == "idle"
        assert cell.trial.exit.line().startswith("timed out: idle for ")


def test_a_warm_targets_first_trial_runs_alone_and_the_others_inherit_its_imports():
    # Three trials at once: only the first imports the lazy module itself; the warm parent
    # imports it after that run, before forking the other two.
    lazy = replace(command_target(f"{sys.executable} {AGENTS / 'lazy_import.py'}"), warm=True)
    cells = probe_pairs([(lazy, BY_ID[c]) for c in ("P1", "P4", "P10")], jobs=3)
    assert all(c.trial is not None for c in cells)
    imported = [c.case for c in cells if "lazy-imported.txt" in c.trial.new_files]
    assert len(imported) == 1, imported
