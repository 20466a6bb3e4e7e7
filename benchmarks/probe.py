"""How long the whole built-in matrix takes, and whether it says the same thing twice.

Runs `lab probe --all --json` as a user runs it (in its network namespace): every built-in target
× every case, a case with no fixed answer mode in both modes (target: ≤ 180 s wall on 2 cores).
For each round it prints the wall time, the CPU time of every process involved and the trials
run; then it compares the rounds' matrices cell by cell. On a machine others are using, CPU ÷ 2
is what two idle cores would need at best.

Run it as:  python benchmarks/probe.py [--jobs N] [--rounds R] [--save FILE.json]
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time

from lab.probe.targets import builtin

LIMIT = 180.0  # seconds of wall time for the whole matrix on 2 cores


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed_probe(jobs: int | None) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, the JSON) of one `lab probe --all --json`."""
    command = [sys.executable, "-m", "lab", "probe", "--all", "--json"]
    return timed(command + (["--jobs", str(jobs)] if jobs else []))


def timed(command: list[str]) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds, the JSON) of one `lab probe ... --json`."""
    cpu, wall = cpu_of_children(), time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    wall, cpu = time.perf_counter() - wall, cpu_of_children() - cpu
    if not done.stdout:
        sys.exit(f"lab probe failed: {done.stderr.strip()}")
    return wall, cpu, json.loads(done.stdout)


def verdicts(result: dict) -> dict[tuple[str, str], str]:
    return {(c["target"], c["case"]): c["verdict"] for c in result["cells"]}


def trials(result: dict) -> int:
    """The trials behind the cells: one per mode a cell ran in (none for a missing target)."""
    return sum((1 if c["requests"] or c["exit"] else 0) + ("other" in c) for c in result["cells"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, help="trials at once (default: lab probe's)")
    parser.add_argument("--rounds", type=int, default=2, help="runs of the matrix (default 2)")
    parser.add_argument("--save", metavar="FILE.json", help="write the last round's JSON here")
    args = parser.parse_args()

    for name, target in builtin().items():
        if why := target.missing():
            print(f"{name}: {why} (its row is n/a: install the peers first)")

    seen: list[dict[tuple[str, str], str]] = []
    print(
        f"{'round':<6} {'targets × cases':>16} {'trials':>7} {'wall s':>8} {'CPU s':>8} "
        f"{'CPU/2':>7}  limit"
    )
    for round_ in range(args.rounds):
        wall, cpu, result = timed_probe(args.jobs)
        seen.append(verdicts(result))
        if args.save:
            with open(args.save, "w", encoding="utf-8") as file:
                json.dump(result, file, ensure_ascii=False)
        size = f"{len(result['targets'])} × {len(result['cases'])}"
        mark = "ok" if wall <= LIMIT else "over"
        print(
            f"{round_ + 1:<6} {size:>16} {trials(result):>7} {wall:8.1f} {cpu:8.1f} "
            f"{cpu / 2:7.1f}  ≤ {LIMIT:g} s wall: {mark}"
        )
    differences = [cell for cell in seen[0] if any(m.get(cell) != seen[0][cell] for m in seen)]
    if differences:
        print(f"deterministic: no — {len(differences)} cells differ between rounds:")
        for target, case in differences:
            print(f"  {target} {case}: {[m.get((target, case)) for m in seen]}")
    else:
        print(f"deterministic: yes — the same {len(seen[0])} verdicts in {len(seen)} rounds")


if __name__ == "__main__":
    main()
