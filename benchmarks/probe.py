"""How long the whole built-in matrix takes on one machine, and per shard on N = 2 and 4 machines.

Runs `lab probe --all --json` as a user runs it (in its network namespace): every built-in target
× every case, a case with no fixed answer mode in both modes (target: ≤ 180 s wall on 2 cores).
Then the same run as `--shard K/N` for N = 2 and 4, one shard after the other (each as if alone
on its own machine), and `lab probe merge` of each N's shards. For every run it prints the wall
time, the CPU time of every process involved and the trials run; for each N, the slowest shard's
wall (what a CI matrix waits for) and whether the merged matrix equals the one-machine matrix cell
by cell. On a machine others are using, the wall times measure the machine too; the CPU seconds
do not depend on the load.

    python benchmarks/probe.py [--jobs N] [--case ID ...] [--shards 2 4] [--save FILE.json]
    python benchmarks/probe.py --costs TARGET ...   # each case's trial seconds (shards.py's table)
"""

from __future__ import annotations

import argparse
import json
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lab.probe.targets import builtin

LIMIT = 180.0  # seconds of wall time for the whole matrix on 2 cores
LAB = [sys.executable, "-m", "lab"]


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


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


def row(name: str, wall: float, cpu: float, result: dict, note: str = "") -> None:
    cells = len(result["cells"])
    print(f"{name:<12} {cells:>6} {trials(result):>7} {wall:8.1f} {cpu:8.1f}  {note}".rstrip())


def whole_and_shards(probe: list[str], shard_counts: list[int], save: str | None) -> None:
    print(f"{'run':<12} {'cells':>6} {'trials':>7} {'wall s':>8} {'CPU s':>8}")
    wall, cpu, whole = timed([*LAB, *probe, "--json"])
    row("one machine", wall, cpu, whole, f"≤ {LIMIT:g} s wall: {'ok' if wall <= LIMIT else 'over'}")
    if save:
        Path(save).write_text(json.dumps(whole, ensure_ascii=False), encoding="utf-8")
    with tempfile.TemporaryDirectory(prefix="lab-bench-shards-") as folder:
        for n in shard_counts:
            files, walls, cpus = [], [], []
            for k in range(1, n + 1):
                wall, cpu, shard = timed([*LAB, *probe, "--shard", f"{k}/{n}", "--json"])
                row(f"shard {k}/{n}", wall, cpu, shard)
                files.append(Path(folder) / f"shard-{k}-of-{n}.json")
                files[-1].write_text(json.dumps(shard), encoding="utf-8")
                walls.append(wall)
                cpus.append(cpu)
            merged = subprocess.run(
                [*LAB, "probe", "merge", *map(str, files), "--json"],
                capture_output=True,
                text=True,
                check=False,
            )
            joined = verdicts(json.loads(merged.stdout)) if merged.stdout else {}
            differ = [cell for cell, kind in verdicts(whole).items() if joined.get(cell) != kind]
            print(
                f"  N = {n}: slowest shard {max(walls):.1f} s wall, CPU {sum(cpus):.1f} s in all "
                f"({min(cpus):.1f}-{max(cpus):.1f} s a shard); merged = one machine's "
                f"matrix: {'yes' if not differ else 'no'} (merge exit {merged.returncode})"
            )
            # Two runs of the matrix may differ where a verdict depends on the machine's speed
            # (a long run stopped at its time limit on a loaded machine): each is named.
            for target, case in differ:
                one, other = verdicts(whole)[(target, case)], joined.get((target, case))
                print(f"    {target} {case}: one machine {one}, merged {other}")


def timed_trial(target: object, warm: object, run: tuple) -> tuple[str, float]:
    """One trial of one case in one mode: (the case, its wall seconds)."""
    from lab.probe.bench import LONG_RUNS, TIMEOUT, run_trial

    case, stream = run
    start = time.perf_counter()
    limit = TIMEOUT * LONG_RUNS.get(case.id, 1.0)
    run_trial(target, case, timeout=limit, warm=warm, stream=stream)  # type: ignore[arg-type]
    return case.id, time.perf_counter() - start


def costs(names: list[str]) -> None:
    """Each case's wall seconds per trial on these targets (median over targets and modes), run
    in process with the probe's own pieces, three at once: what lab/probe/shards.py's table
    holds."""
    from concurrent.futures import ThreadPoolExecutor
    from functools import partial

    from lab.probe.bench import case_modes, warm_starts
    from lab.probe.catalogue import CASES
    from lab.probe.targets import resolve

    seconds: dict[str, list[float]] = {}
    runs = [(case, stream) for case in CASES for stream in case_modes(case)]
    for name in names:
        target = resolve(name)
        with warm_starts([target]) as warm, ThreadPoolExecutor(3) as pool:
            for case_id, wall in pool.map(partial(timed_trial, target, warm), runs):
                seconds.setdefault(case_id, []).append(wall)
    for case_id, walls in seconds.items():
        print(f"{case_id:<5} {statistics.median(walls):6.2f} s  (max {max(walls):.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", type=int, help="trials at once (default: lab probe's)")
    parser.add_argument("--case", nargs="+", default=[], help="only these cases")
    parser.add_argument("--shards", nargs="+", type=int, default=[2, 4], help="N (default 2 4)")
    parser.add_argument("--save", metavar="FILE.json", help="write the one-machine JSON here")
    parser.add_argument("--costs", nargs="+", metavar="TARGET", help="time each case instead")
    args = parser.parse_args()
    if args.costs:
        costs(args.costs)
        return
    for name, target in builtin().items():
        if why := target.missing():
            print(f"{name}: {why} (its row is n/a: install the peers first)")
    probe = ["probe", "--all", *(["--case", *args.case] if args.case else [])]
    probe += ["--jobs", str(args.jobs)] if args.jobs else []
    whole_and_shards(probe, args.shards, args.save)


if __name__ == "__main__":
    main()
