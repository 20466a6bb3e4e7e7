"""How quickly the `lab` command starts, against `python -c "import anthropic"`.

Each round runs every command once, one after the other, in a fresh process from an empty
temp folder (so a busy machine slows all of them alike), and divides each command's wall time
by the SDK import's of the same round. A command meets its target when its worst round does,
not only its median: a user waits for the slow start too. `lab --help` and `lab list` must not
import the SDK at all (checked with `-X importtime`).

Python's bytecode caches are on, in a temp folder (PYTHONPYCACHEPREFIX), and every command runs
once untimed first: the SDK's modules were compiled when pip installed it, the lab's are on a
user's first run; PYTHONDONTWRITEBYTECODE in the environment would have the lab compile its
source on every start and the SDK not.

Run it as:  python benchmarks/startup.py [--rounds R]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

BASELINE = ("import anthropic", [sys.executable, "-c", "import anthropic"])
# (label, lab arguments, target: at most this many times the SDK import)
COMMANDS = [
    ("lab --help", ["--help"], 0.25),
    ("lab list", ["list"], 0.25),
    ("lab list --lang zh", ["list", "--lang", "zh"], 0.25),
    ("lab run", ["run"], 1.2),
]
WITHOUT_SDK = ["lab --help", "lab list", "lab list --lang zh"]


def lab(arguments: list[str]) -> list[str]:
    return [sys.executable, "-m", "lab", *arguments]


def environment(cwd: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return env | {"COLUMNS": "100", "PYTHONPYCACHEPREFIX": os.path.join(cwd, ".bytecode")}


def wall_time(command: list[str], cwd: str) -> float:
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, env=environment(cwd))
    elapsed = time.perf_counter() - start
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-300:]}")
    return elapsed


def imports_sdk(arguments: list[str], cwd: str) -> bool:
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "lab", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
    )
    return any(line.rstrip().endswith("| anthropic") for line in done.stderr.splitlines())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds (default: 5)")
    rounds = parser.parse_args().rounds
    with tempfile.TemporaryDirectory() as cwd:
        for command in [BASELINE[1], *(lab(c[1]) for c in COMMANDS)]:
            wall_time(command, cwd)  # warm the file and bytecode caches once, untimed
        times: dict[str, list[float]] = {BASELINE[0]: []} | {c[0]: [] for c in COMMANDS}
        for _ in range(rounds):
            times[BASELINE[0]].append(wall_time(BASELINE[1], cwd))
            for label, arguments, _ in COMMANDS:
                times[label].append(wall_time(lab(arguments), cwd))
        sdk_free = {label: not imports_sdk(a, cwd) for label, a, _ in COMMANDS}
    base = times[BASELINE[0]]
    print(f"{rounds} rounds, side by side; {BASELINE[0]}: median {statistics.median(base):.3f} s")
    heading = f"{'command':22} {'median s':>9} {'ratio: median':>14} {'worst':>6} {'target':>7}"
    print(heading + "  verdict")
    missed = 0
    for label, _, target in COMMANDS:
        ratios = [mine / sdk for mine, sdk in zip(times[label], base, strict=True)]
        worst = max(ratios)
        ok = worst <= target and (sdk_free[label] or label not in WITHOUT_SDK)
        missed += not ok
        sdk = (
            ""
            if label not in WITHOUT_SDK
            else (" (no SDK import)" if sdk_free[label] else " (IMPORTS THE SDK)")
        )
        median = statistics.median(times[label])
        print(
            f"{label:22} {median:9.3f} {statistics.median(ratios):14.2f} {worst:6.2f} "
            f"{target:7.2f}  {'ok' if ok else 'MISSED'}{sdk}"
        )
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
