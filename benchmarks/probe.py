"""How long the bench takes, and whether it says the same thing twice.

Runs `lab probe` as a user runs it (in its network namespace, four trials at a time by default):
every Python peer × every case (target: ≤ 60 s on 2 cores), then the Claude Code row (≤ 30 s),
then both again, comparing the two matrices cell by cell. For each it prints the wall time and the
CPU time of every process involved; on a machine others are using, CPU ÷ 2 is what two idle cores
would need.

Run it as:  python benchmarks/probe.py [--jobs N] [--rounds R]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from lab.probe.targets import builtin

LIMITS = {"python peers": 60.0, "claude-code": 30.0}


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_probe(targets: list[str], jobs: int) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, the JSON) of one `lab probe TARGET ... --json`."""
    command = [sys.executable, "-m", "lab", "probe", *targets, "--json", "--jobs", str(jobs)]
    cpu, wall = cpu_of_children(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - wall, cpu_of_children() - cpu
    if not done.stdout:
        sys.exit(f"lab probe failed: {done.stderr.strip()}")
    return wall, cpu, json.loads(done.stdout)


def verdicts(result: dict) -> dict[tuple[str, str], str]:
    return {(c["target"], c["case"]): c["verdict"] for c in result["cells"]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, default=4, help="trials at once (default 4)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of each row (default 2)")
    args = parser.parse_args()

    targets = builtin()
    npm = {n for n, t in targets.items() if any(d.startswith("npm:") for d in t.distributions)}
    # the peers, without the lab's own and without Claude Code (an npm package)
    python = [name for name in targets if not name.startswith("lab-") and name not in npm]
    rows = {"python peers": python, "claude-code": ["claude-code"]}
    missing = {n: targets[n].missing() for names in rows.values() for n in names}
    for name, why in missing.items():
        if why:
            print(f"{name}: {why} (its row is n/a: install the peers first)")

    seen: list[dict[tuple[str, str], str]] = []
    print(f"{'row':<14} {'targets × cases':>16} {'wall s':>8} {'CPU s':>8} {'CPU/2':>7}  limit")
    for round_ in range(args.rounds):
        matrix: dict[tuple[str, str], str] = {}
        for row, names in rows.items():
            wall, cpu, result = timed_probe(names, args.jobs)
            matrix.update(verdicts(result))
            size = f"{len(names)} × {len(result['cases'])}"
            limit = LIMITS[row]
            mark = "ok" if min(wall, cpu / 2) <= limit else "over"
            print(
                f"{row:<14} {size:>16} {wall:8.1f} {cpu:8.1f} {cpu / 2:7.1f}  "
                f"≤ {limit:g} s: {mark} (round {round_ + 1})"
            )
        seen.append(matrix)
    differences = [cell for cell in seen[0] if any(m.get(cell) != seen[0][cell] for m in seen)]
    if differences:
        print(f"deterministic: no — {len(differences)} cells differ between rounds:")
        for target, case in differences:
            print(f"  {target} {case}: {[m.get((target, case)) for m in seen]}")
    else:
        print(f"deterministic: yes — the same {len(seen[0])} verdicts in {len(seen)} rounds")


if __name__ == "__main__":
    main()
