"""CPU seconds of the kill matrix at its defaults and of one hunt, and a fingerprint of each.

    .venv/bin/python benchmarks/matrix.py                      # both, one process
    .venv/bin/python benchmarks/matrix.py --jobs 2             # the matrix on two workers
    .venv/bin/python benchmarks/matrix.py --save before.json   # keep what they found
    .venv/bin/python benchmarks/matrix.py --compare before.json

A speed-up must not change a result: `--save` writes the matrix exactly as `lab matrix --json`
prints it and the hunted experiment as `lab hunt` prints it; `--compare` fails (exit 1) unless
both come out byte for byte the same. CPU seconds are user + system of this process and of
its worker processes (a loaded machine inflates wall time, not these much).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import resource
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from lab.cli.searches import render
from lab.testing.case_file import experiment_id
from lab.testing.search import MATRIX_EXAMPLES, hunt, kill_matrix
from lab.views.matrix import matrix_json

HUNTED = "gate_order_correct"  # the hunt tests/test_matrix.py runs at its defaults


def cpu_seconds() -> float:
    """User + system time of this process and of its finished children."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def timed(work: Callable[[], str]) -> tuple[str, float]:
    start = cpu_seconds()
    found = work()
    return found, cpu_seconds() - start


def the_matrix(jobs: int) -> str:
    """The kill matrix at its defaults, as `lab matrix --json` prints it."""
    matrix = kill_matrix(jobs=jobs)
    return json.dumps(matrix_json(matrix, MATRIX_EXAMPLES), ensure_ascii=False, indent=2) + "\n"


def the_hunt() -> str:
    """`lab hunt gate_order_correct` at its defaults: the experiment file it prints."""
    finding = hunt(HUNTED)
    assert finding is not None, f"no counterexample for {HUNTED}"
    return render(HUNTED, finding, experiment_id(HUNTED))


def digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=1, help="matrix worker processes")
    parser.add_argument("--save", type=Path, help="write what was found here")
    parser.add_argument("--compare", type=Path, help="fail unless it equals this saved file")
    args = parser.parse_args()
    found: dict[str, Any] = {}
    for name, work in (("matrix", lambda: the_matrix(args.jobs)), ("hunt", the_hunt)):
        text, seconds = timed(work)
        found[name] = text
        print(f"{name:7} {seconds:7.1f} CPU s   sha256 {digest(text)}")
    if args.save:
        args.save.write_text(json.dumps(found, ensure_ascii=False, indent=1), encoding="utf-8")
    if args.compare:
        saved = json.loads(args.compare.read_text(encoding="utf-8"))
        changed = [name for name in found if found[name] != saved.get(name)]
        print("identical to the saved run" if not changed else f"CHANGED: {', '.join(changed)}")
        return 1 if changed else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
