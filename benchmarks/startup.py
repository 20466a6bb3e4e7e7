"""How quickly the `lab` command starts, against `python -c "import anthropic"`.

Each command is timed in 9 interleaved pairs (by default) with the SDK import: the two run one
right after the other, in fresh processes from an empty temp folder, the first of the pair
alternating, so a busy moment slows both alike. Each pair gives a ratio; the median of the ratios
meets the target or not, and the spread (the lowest and highest ratio) says how steady the
machine was. Both the wall time and the CPU time (user + system, of the process and its children)
are measured: on a machine shared with other work the wall ratio wanders with the neighbours' load,
the CPU ratio much less, so the verdict is the CPU ratio's and the wall ratio is shown beside it.
`lab --help` and `lab list` must not import the SDK or jsonschema at all (checked with
`-X importtime`).

Measure it in the venv the README builds with every extra installed (`.[test]`, `.[peers]`,
`.[notebooks]`, `.[teacher]`): the notebooks extra brings `rfc3987_syntax`, which jsonschema
imports when it can (lab/kernel/schema.py); the first lines say what this venv holds.

Python's bytecode caches are on, in a temp folder (PYTHONPYCACHEPREFIX), and every command runs
once untimed first: the SDK's modules were compiled when pip installed it, the lab's are on a
user's first run; PYTHONDONTWRITEBYTECODE in the environment would have the lab compile its
source on every start and the SDK not.

Run it as:  .venv/bin/python benchmarks/startup.py [--pairs N]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

BASELINE = [sys.executable, "-c", "import anthropic"]
# (label, lab arguments, target: at most this many times the SDK import, median of the pairs)
COMMANDS = [
    ("lab --help", ["--help"], 0.25),
    ("lab list", ["list"], 0.25),
    ("lab list --lang zh", ["list", "--lang", "zh"], 0.25),
    ("lab run", ["run"], 1.1),
]
LIGHT = ["lab --help", "lab list", "lab list --lang zh"]  # import neither of HEAVY
HEAVY = ("anthropic", "jsonschema")
EXTRAS = {
    "peers": "smolagents",
    "notebooks": "jupyterlab",
    "teacher": "fpdf",
    "rfc3987_syntax": "rfc3987_syntax",
}


def lab(arguments: list[str]) -> list[str]:
    return [sys.executable, "-m", "lab", *arguments]


def environment(cwd: str) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    return env | {"COLUMNS": "100", "PYTHONPYCACHEPREFIX": os.path.join(cwd, ".bytecode")}


def timed(command: list[str], cwd: str) -> tuple[float, float]:
    """(wall s, CPU s) of one run of `command`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, capture_output=True, env=environment(cwd))
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        sys.exit(f"{' '.join(command)} exited {done.returncode}: {done.stderr.decode()[-300:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def imported(arguments: list[str], cwd: str) -> list[str]:
    """Which of HEAVY the command imports."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "lab", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        env=environment(cwd),
    )
    names = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
    return [name for name in HEAVY if name in names]


def pairs(command: list[str], cwd: str, count: int) -> list[tuple[float, float]]:
    """`count` (wall ratio, CPU ratio) pairs against the SDK import, the order alternating."""
    ratios = []
    for turn in range(count):
        if turn % 2 == 0:
            sdk, mine = timed(BASELINE, cwd), timed(command, cwd)
        else:
            mine, sdk = timed(command, cwd), timed(BASELINE, cwd)
        ratios.append((mine[0] / sdk[0], mine[1] / sdk[1]))
    return ratios


def shown(values: list[float]) -> str:
    return f"{statistics.median(values):5.2f} ({min(values):.2f}-{max(values):.2f})"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=9, help="pairs per command (default: 9)")
    count = parser.parse_args().pairs
    held = [name for name, module in EXTRAS.items() if importlib.util.find_spec(module)]
    print(f"venv: {sys.prefix}; installed: {', '.join(held) or 'no extra'}")
    print(f"{count} interleaved pairs per command; ratio to `import anthropic`: median (spread)")
    print(f"{'command':20} {'wall ratio':>17} {'CPU ratio':>17} {'target':>7}  verdict")
    missed = 0
    with tempfile.TemporaryDirectory() as cwd:
        for command in [BASELINE, *(lab(c[1]) for c in COMMANDS)]:
            timed(command, cwd)  # warm the file and bytecode caches once, untimed
        for label, arguments, target in COMMANDS:
            ratios = pairs(lab(arguments), cwd, count)
            heavy = imported(arguments, cwd) if label in LIGHT else []
            cpu = [r[1] for r in ratios]
            ok = statistics.median(cpu) <= target and not heavy
            missed += not ok
            note = f" (imports {', '.join(heavy)})" if heavy else ""
            walls = shown([r[0] for r in ratios])
            verdict = ("ok" if ok else "MISSED") + note
            print(f"{label:20} {walls:>17} {shown(cpu):>17} {target:7.2f}  {verdict}")
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
