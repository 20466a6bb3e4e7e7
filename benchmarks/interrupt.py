"""How long Ctrl-C takes to end each long command, and what it leaves behind.

Each command starts in its own process group from an empty temp folder, as a terminal runs
it; once it is busy (its first output line, or its worker processes, or a pause), the whole
group gets SIGINT, as Ctrl-C sends it. Reported per command: the seconds from the signal to
the exit, the exit code (130 expected), whether stderr held a traceback, the processes it
started (children and their children, at the signal) still alive afterwards, and the folders it
left in its temp folder (TMPDIR, one of its own: `lab probe` leaves no scratch folder). The
target is 1 s on 2 cores.

Run it as:  python benchmarks/interrupt.py [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time

import psutil

TARGET_S = 1.0
# (label, lab arguments, how to know it is busy: "output", "workers" or seconds to wait)
COMMANDS = [
    ("lab run", ["run"], "output"),
    ("lab show D17", ["show", "D17"], 0.8),
    ("lab matrix", ["matrix", "--jobs", "2"], "workers"),
    ("lab hunt", ["hunt", "pair_protection", "--examples", "100000"], 2.0),
    ("lab probe", ["probe", "lab-reference", "--jobs", "2"], "workers"),
]


def children(pid: int) -> list[int]:
    """The live (not zombie) processes `pid` started: its children and theirs."""
    try:
        started = psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []
    return [child.pid for child in started if alive(child.pid)]


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def one(
    arguments: list[str], busy: str | float, cwd: str, temp: str
) -> tuple[float, int, bool, int]:
    process = subprocess.Popen(
        [sys.executable, "-m", "lab", *arguments],
        cwd=cwd,
        env={**os.environ, "TMPDIR": temp},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    if busy == "output":
        process.stdout.readline()
    elif busy == "workers":
        while len(children(process.pid)) < 2:
            time.sleep(0.05)
        time.sleep(0.5)
    else:
        time.sleep(busy)
    workers = children(process.pid)
    start = time.perf_counter()
    os.killpg(process.pid, signal.SIGINT)
    _, err = process.communicate()
    elapsed = time.perf_counter() - start
    left = sum(alive(pid) for pid in workers)
    return elapsed, process.returncode, b"Traceback" in err, left


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default: 3)")
    rounds = parser.parse_args().rounds
    print(f"Ctrl-C, median of {rounds} rounds; target {TARGET_S:g} s")
    print(f"{'command':14} {'median s':>9} {'worst s':>8}  exit  traceback  workers left")
    missed = 0
    for label, arguments, busy in COMMANDS:
        results = []
        for _ in range(rounds):
            with tempfile.TemporaryDirectory() as cwd, tempfile.TemporaryDirectory() as temp:
                results.append(one(arguments, busy, cwd, temp))
                if os.listdir(cwd):
                    print(f"{label}: wrote into its working folder: {os.listdir(cwd)}")
                    missed += 1
                if os.listdir(temp):
                    print(f"{label}: left in its temp folder: {os.listdir(temp)}")
                    missed += 1
        seconds = [r[0] for r in results]
        codes = sorted({r[1] for r in results})
        traceback = any(r[2] for r in results)
        left = max(r[3] for r in results)
        ok = max(seconds) <= TARGET_S and codes == [130] and not traceback and not left
        missed += not ok
        print(
            f"{label:14} {statistics.median(seconds):9.2f} {max(seconds):8.2f}  "
            f"{','.join(map(str, codes)):4}  {'yes' if traceback else 'no':9}  {left}"
            f"{'' if ok else '  MISSED'}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
