"""How fast `lab probe --fuzz` runs its examples, and how small its smallest breaker is.

Fuzzes three targets in this process (no namespace: the speed of the search, not of isolation):
tests/agents/hand_loop.py as a `--cmd` script in its `careful` mode (it keeps the invariants, so
all N examples run) and in its `trusting` mode (it trusts the declared stop_reason and never sets
is_error: hypothesis finds a breaker and shrinks it), and lab-course (`python -m`, warm).
Printed per target: examples run, seconds, examples per second, and the smallest breaker's
size (answers, blocks). The machine's load changes the figures: run it twice and compare.

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
    modes = ("careful", "trusting")
    command = f"{sys.executable} {HAND_LOOP} --mode"
    targets = [command_target(f"{command} {mode}", READ_NOTES) for mode in modes]
    targets.append(builtin()["lab-course"])
    names = [f"--cmd {m}" for m in modes] + ["lab-course"]
    print(f"--fuzz {examples}")
    print(f"{'target':16} {'examples':>8} {'seconds':>8} {'per s':>6}  smallest breaker")
    for target, name in zip(targets, names, strict=True):
        start = time.perf_counter()
        found, trials = fuzz(target, examples, timeout=60)
        seconds = time.perf_counter() - start
        answers, blocks = size(found.generated) if found else (0, 0)
        smallest = f"{answers} answer(s), {blocks} block(s)" if found else "none"
        print(f"{name:16} {trials:8} {seconds:8.1f} {trials / seconds:6.2f}  {smallest}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
