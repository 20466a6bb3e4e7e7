"""No verdict depends on load: a slice of the matrix graded on a quiet machine and again with CPU
hogs on every core (started and stopped by the test) reads the same, cell for cell.

The idle limit is short (4 s) so that load matters: with hogs a program's start alone (importing
the SDK) takes several seconds of wall clock, which a wall-clock limit would count against it."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from lab.probe.bench import probe_pairs
from lab.probe.catalogue import BY_ID
from lab.probe.targets import command_target

pytestmark = pytest.mark.slow

AGENTS = Path(__file__).parent / "agents"
CASES = ("P1", "P2", "P6", "P14")
LIMIT = 4.0
HOGS_PER_CORE = 2


def grades() -> tuple[dict[tuple[str, str], str], float, float]:
    """Each cell's grade and reason; the slice's wall; the latest request of any trial (seconds
    after its fake started: what a wall-clock limit would have had to allow)."""
    targets = [
        command_target(f"{sys.executable} {AGENTS / 'hand_loop.py'} --mode careful"),
        command_target(f"{sys.executable} {AGENTS / 'faulty_loop.py'} --mode careful"),
    ]
    pairs = [(t, BY_ID[c]) for t in targets for c in CASES]
    start = time.monotonic()
    cells = probe_pairs(pairs, timeout=LIMIT)
    wall = time.monotonic() - start
    # The grade and its reason, measured times masked (a retry 1.0 or 1.1 s after a 429).
    said = {(c.target, c.case): f"{c.verdict.kind}: {c.verdict.because}" for c in cells}
    latest = max((e.at for c in cells for t in c.trials for e in t.exchanges), default=0.0)
    return {k: re.sub(r"\d+(\.\d+)?", "N", v) for k, v in said.items()}, wall, latest


def test_a_slice_of_the_matrix_grades_the_same_with_every_core_busy():
    quiet, quiet_wall, quiet_latest = grades()
    hogs = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(HOGS_PER_CORE * (os.cpu_count() or 1))
    ]
    try:
        time.sleep(1.0)  # the hogs running before the first trial starts
        loaded, loaded_wall, loaded_latest = grades()
        load = os.getloadavg()[0]
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    print(
        f"\n{len(quiet)} cells, idle limit {LIMIT:g} s: without hogs {quiet_wall:.1f} s wall "
        f"(latest request {quiet_latest:.1f} s into a trial); with {len(hogs)} hogs "
        f"{loaded_wall:.1f} s wall (latest request {loaded_latest:.1f} s), load average "
        f"{load:.1f} on {os.cpu_count()} cores"
    )
    for cell, grade in quiet.items():
        print(f"  {Path(cell[0].split()[1]).name} {cell[1]}: {grade}")
    assert loaded == quiet
    assert not any(g.startswith(("inconclusive", "not reached")) for g in quiet.values())
