"""What `--warm` saves a `--cmd` Python program, and whether it changes any verdict.

Runs `lab probe --cmd 'python tests/agents/hand_loop.py --mode MODE'` on a few cases twice, as a
user runs it: cold (the default, exactly as typed) and with `--warm` (forked from a parent that
imported the script's imports once). For each it prints the wall time and the CPU time of every
process involved; then it compares the two matrices cell by cell (verdict and reason).

Run it as:  python benchmarks/probe_warm.py [--mode MODE] [--case ID ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from probe import timed  # benchmarks/probe.py: the same timing of one `lab probe ... --json`

AGENT = Path(__file__).resolve().parent.parent / "tests" / "agents" / "hand_loop.py"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mode", default="careful", help="hand_loop.py's mode (default careful)")
    parser.add_argument("--case", nargs="+", default=["P1", "P2", "P3", "P5", "P10", "P12"])
    args = parser.parse_args()

    program = f"{sys.executable} {AGENT} --mode {args.mode}"
    base = [sys.executable, "-m", "lab", "probe", "--cmd", program, "--case", *args.case]
    seen = {}
    for name, extra in (("cold", []), ("warm", ["--warm"])):
        wall, cpu, result = timed([*base, *extra, "--json"])
        seen[name] = {(c["case"]): (c["verdict"], c["because"]) for c in result["cells"]}
        print(f"{name}: {wall:6.1f} s wall, {cpu:6.1f} s CPU, {len(result['cells'])} cells")
    same = seen["cold"] == seen["warm"]
    print("the same matrix cold and warm" if same else f"DIFFERENT: {seen}")
    sys.exit(0 if same else 1)


if __name__ == "__main__":
    main()
