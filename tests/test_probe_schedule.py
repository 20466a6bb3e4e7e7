"""How `lab probe` schedules a matrix: the longest trials start first, the long runs get a longer
time limit, and the cells still come back in the matrix's order."""

from __future__ import annotations

import re
import sys
from pathlib import Path

from lab.probe.bench import probe_pairs
from lab.probe.catalogue import BY_ID
from lab.probe.target import Target


def recording(started: list[str], program: list[str]) -> Target:
    """A target that notes which case each trial runs as it starts, then runs `program`."""

    def argv(prompt: str, folder: Path) -> list[str]:
        started.append(re.search(r"\[lab probe (\w+)\]", prompt).group(1))
        return program

    return Target(name="recording", argv=argv, warm=False)


def test_the_longest_trials_start_first_and_the_cells_keep_their_order():
    started: list[str] = []
    target = recording(started, [sys.executable, "-c", "pass"])
    cases = ["P1", "P6", "P15", "P22", "P17"]
    cells = probe_pairs([(target, BY_ID[c]) for c in cases], jobs=1)
    assert started == ["P15", "P15", "P22", "P22", "P6", "P6", "P1", "P17", "P17"]
    assert [c.case for c in cells] == cases
    assert all(c.verdict.kind == "not reached" for c in cells)


def test_the_long_runs_get_a_longer_time_limit():
    sleeper = recording([], [sys.executable, "-c", "import time; time.sleep(30)"])
    cells = probe_pairs([(sleeper, BY_ID["P22"]), (sleeper, BY_ID["P1"])], timeout=0.5)
    limits = {c.case: c.trial.exit.timeout for c in cells if c.trial is not None}
    assert limits == {"P22": 1.5, "P1": 0.5}
    assert all(c.trial is not None and c.trial.exit.status is None for c in cells)
