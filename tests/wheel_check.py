"""A wheel is whole: build it, install it in a fresh venv outside the checkout, and run every
command of the README's command table from an empty folder. A step of .ci/run, not of the
README's suite (a venv and an install take about a minute):

    .venv/bin/python tests/wheel_check.py

Exits 0 when every command ends as expected, else 1 with one line per command that did not.
tests/test_wheel.py keeps COMMANDS equal to the README's table.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from patience import expired, limit  # this script's folder, tests/, is on sys.path

ROOT = Path(__file__).resolve().parent.parent

# README command -> (argv after `lab`, the exit codes it may end with, stdin). Each is chosen to
# be quick and to need nothing but the wheel: no key, no network, no peer.
COMMANDS: dict[str, tuple[list[str], tuple[int, ...], str]] = {
    "list": (["list"], (0,), ""),
    "run": (["run"], (0,), ""),
    "show": (["show", "D1"], (0,), ""),
    "run --predict": (["run", "D1", "--predict"], (0,), "False\n1\n"),
    "check --init": (["check", "m1_lost_call", "--init"], (0,), ""),
    "check": (["check", "m1_lost_call"], (1,), ""),  # the starter fails as shipped
    "check --list": (["check", "--list"], (0,), ""),
    "report": (["report", "--html", "report.html"], (0,), ""),
    "compare": (["compare", "course"], (0,), ""),
    "switches": (["switches"], (0,), ""),
    "parts": (["parts", "--diff", "course"], (0,), ""),
    "matrix": (["matrix", "--examples", "1", "--jobs", "1", "--json"], (0, 1), ""),
    "hunt": (["hunt", "workspace_wall", "--examples", "20"], (0, 1), ""),
    "live": (["live", "hello"], (2,), ""),  # no ANTHROPIC_API_KEY: one line, exit 2
    "probe": (["probe", "lab-reference", "--case", "P1"], (0,), ""),
    # Ctrl-C after its first line, before any harness came: its verdict may say not played (1).
    "serve": (["serve", "D1"], (0, 1, 130), ""),
    "peers install": (["peers", "install", "nonesuch"], (2,), ""),  # names what it installs
    "notebooks": (["notebooks"], (0,), ""),
    # A bare wheel has no jupytext (the `notebooks` extra) to write the students' .ipynb files.
    "notebooks --lang": (["notebooks", "--lang", "zh", "students"], (2,), ""),
    "report --slides": (["report", "--slides", "slides.html", "--lang", "zh"], (0,), ""),
    "kit": (["kit"], (0,), ""),  # the lesson plan, the answer key and the worksheets
    # A bare wheel has no fpdf2 (the `teacher` extra): one line naming the extra, exit 2.
    "worksheet": (["worksheet", "worksheet.pdf"], (2,), ""),
    "--version": (["--version"], (0,), ""),
}


def sh(*argv: str | Path, cwd: Path | None = None) -> None:
    subprocess.run([str(a) for a in argv], cwd=cwd, check=True, stdout=subprocess.DEVNULL)


def served(lab: Path, argv: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, str]:
    """`lab serve`: wait for its first line, then Ctrl-C it."""
    process = subprocess.Popen(
        [str(lab), *argv], cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert process.stdout is not None
    first = process.stdout.readline().decode()
    process.send_signal(signal.SIGINT)
    try:
        _, err = process.communicate(timeout=limit(30))
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        return -1, first + expired("lab serve to end after Ctrl-C", 30)
    return process.returncode, first + err.decode()


def main() -> int:
    with tempfile.TemporaryDirectory(prefix="lab-wheel-") as folder:
        home = Path(folder)
        sh(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", ROOT, "-w", home / "dist")
        (wheel,) = (home / "dist").glob("harness_lab-*.whl")
        sh(sys.executable, "-m", "venv", home / "venv")
        sh(home / "venv" / "bin" / "pip", "install", "-q", wheel)
        lab, empty = home / "venv" / "bin" / "lab", home / "empty"
        empty.mkdir()
        env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
        env |= {"COLUMNS": "80", "HARNESS_LAB_HOME": str(home / "lab-home")}
        failed = []
        for name, (argv, codes, stdin) in COMMANDS.items():
            if name == "serve":
                code, said = served(lab, argv, empty, env)
                if "ANTHROPIC_BASE_URL=" not in said.partition("\n")[0]:
                    code = -1  # the first line must tell a shell where the server is
            else:
                try:
                    done = subprocess.run(
                        [str(lab), *argv], cwd=empty, env=env, input=stdin, capture_output=True,
                        text=True, timeout=limit(600),
                    )  # fmt: skip
                    code, said = done.returncode, done.stderr
                except subprocess.TimeoutExpired:  # run() killed it
                    code, said = -1, expired(f"lab {' '.join(argv)} to end", 600)
            mark = "ok" if code in codes else "FAILED"
            print(f"{mark:6} lab {' '.join(argv)}: exit {code}", flush=True)
            if name == "worksheet" and "harness-lab[teacher]" not in said:
                code = -1  # the line must name what to install
            if name == "notebooks --lang" and "harness-lab[notebooks]" not in said:
                code = -1
            if code not in codes:
                failed.append(f"lab {' '.join(argv)}: exit {code}, expected {codes}: {said[-300:]}")
        written = sorted(p.name for p in empty.iterdir())
        expected = ["m1_lost_call.py", "notebooks", "report.html", "slides.html"]
        expected += ["teacher"]
        if written != expected:
            failed.append(f"the empty folder holds {written}, expected {expected}")
        kit = {p.name for p in (empty / "teacher").iterdir()} if "teacher" in written else set()
        if not {"lesson-plan.md", "worksheet-zh.pdf", "worksheet-en.pdf"} <= kit:
            failed.append(f"lab kit wrote {sorted(kit)}: the lesson plan or a worksheet is missing")
    for line in failed:
        print(line, file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
