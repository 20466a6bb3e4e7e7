"""How fast `lab probe --fuzz` runs its examples, and how small its smallest breaker is.

Fuzzes two targets in this process (no namespace: the speed of the search, not of isolation):
tests/agents/hand_loop.py in its `trusting` mode (started cold, as any `--cmd` program; it trusts
the declared stop_reason and never sets is_error, so hypothesis finds a breaker and shrinks it)
and lab-course (started warm). Printed per target: examples run, seconds, examples per second,
and the smallest breaker's size (answers, blocks). The machine's load changes the figures: run it
twice and compare.

Run it as:  python benchmarks/probe_fuzz.py [--examples N]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from lab.probe.fuzz import fuzz, size
from lab.probe.target import READ_NOTES
from lab.probe.targets import builtin, command_target

HAND_LOOP = Path(__file__).resolve().parent.parent / "tests" / "agents" / "hand_loop.py"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=10, help="N of --fuzz N (default: 10)")
    examples = parser.parse_args().examples
    targets = [
        command_target(f"{sys.executable} {HAND_LOOP} --mode trusting", READ_NOTES),
        builtin()["lab-course"],
    ]
    print(f"--fuzz {examples}")
    print(f"{'target':12} {'examples':>8} {'seconds':>8} {'per s':>6}  smallest breaker")
    for target in targets:
        start = time.perf_counter()
        found, trials = fuzz(target, examples, timeout=60)
        seconds = time.perf_counter() - start
        answers, blocks = size(found.generated) if found else (0, 0)
        smallest = f"{answers} answer(s), {blocks} block(s)" if found else "none"
        name = "hand_loop" if target is targets[0] else target.name
        print(f"{name:12} {trials:8} {seconds:8.1f} {trials / seconds:6.2f}  {smallest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
