"""One `lab probe --all` run on a slice of its cases, shared by the whole test session.

The run is the one tests/test_probe_all.py watches: a user's command, under `strace -f` from
outside, in a temp folder, with `--json` and `--report`. Every test file that needs the built-in
targets' verdicts on these cases reads this run instead of probing again: tests/test_probe_all.py
(the README's matrix, the exit status, the report in Chromium, the safety trace),
tests/test_peers.py (each peer's D1 behaviour and its harmless calls) and notebook 08 (through
notebooks/conftest.py, which hands the result to the kernel as `LAB_PROBE_SHARED`).

Made once per session: the first test that asks runs it, under a file lock in the session's
temp folder (the one xdist's workers share), and the others wait for it and read it.

In CI the whole matrix is probed once (`lab probe --all --json FILE`, a step of .ci/run) and
LAB_PROBE_ALL_JSON names FILE: the tests that read verdicts take the slice's cells from it
(`verdicts`), and only the safety proof still makes the traced run, which it needs.
"""

from __future__ import annotations

import fcntl
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

# A call run declared end_turn as JSON and streamed (the seed's D1), a tool JSON that cannot be
# read, two calls in one answer in both modes, a denied command: every target starts, runs a
# tool, meets a deny rule. The union of what test_probe_all, test_peers and notebook 08 read.
SLICE = ("P1", "P1s", "P4", "P5", "P11")
ARGS = ("--all", "--case", *SLICE)  # notebook 08 runs `lab probe` with exactly these
LAB = [sys.executable, "-m", "lab"]
ALL_JSON = "LAB_PROBE_ALL_JSON"  # CI's one `lab probe --all --json` output, when it names one
TRACED = (
    "open,openat,creat,mkdir,mkdirat,rename,renameat,renameat2,unlink,unlinkat,rmdir,"
    "link,linkat,symlink,symlinkat,truncate,chdir,fchdir,connect,sendto,sendmsg"
)


@dataclass(frozen=True)
class Probed:
    folder: Path  # the temp folder it ran in (its cwd and TMPDIR); the strace logs in trace/
    result: dict  # its --json output
    status: int  # its exit status
    report: Path  # its --report HTML
    shared: Path  # {"args": ARGS, "result": result}: what LAB_PROBE_SHARED names


def session_folder(factory: pytest.TempPathFactory) -> Path:
    """The session's temp folder: under xdist, the parent of every worker's own."""
    base = factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@contextmanager
def locked(path: Path) -> Iterator[None]:
    with path.open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def probed(factory: pytest.TempPathFactory) -> Probed:
    """The session's shared run, made now if no test made it yet."""
    root = session_folder(factory)
    folder = root / "probe-all"
    done = folder / "done.json"
    with locked(root / "probe-all.lock"):
        if not done.exists():
            folder.mkdir()
            ended = run(folder)
            if ended["stdout"]:
                shared = {"args": list(ARGS), "result": json.loads(ended["stdout"])}
                (folder / "shared.json").write_text(json.dumps(shared))
            done.write_text(json.dumps(ended))
    ended = json.loads(done.read_text())
    assert ended["stdout"], ended["stderr"]
    result = json.loads(ended["stdout"])
    return Probed(folder, result, ended["status"], folder / "report.html", folder / "shared.json")


def verdicts(factory: pytest.TempPathFactory) -> dict:
    """The slice's `--json` result: CI's whole-matrix file cut down to SLICE when
    $LAB_PROBE_ALL_JSON names one, else the session's traced run."""
    named = os.environ.get(ALL_JSON)
    if not named:
        return probed(factory).result
    whole = json.loads(Path(named).read_text(encoding="utf-8"))
    cells = [cell for cell in whole["cells"] if cell["case"] in SLICE]
    cases = [case for case in whole["cases"] if case["id"] in SLICE]
    assert {cell["case"] for cell in cells} == set(SLICE), f"{named} lacks cases of {SLICE}"
    return {**whole, "cases": cases, "cells": cells}


def shared_file(factory: pytest.TempPathFactory) -> Path:
    """What LAB_PROBE_SHARED names for notebook 08: {"args": ARGS, "result": verdicts(...)}."""
    if not os.environ.get(ALL_JSON):
        return probed(factory).shared
    path = session_folder(factory) / "shared-from-ci.json"
    with locked(session_folder(factory) / "shared-from-ci.lock"):
        if not path.exists():
            path.write_text(json.dumps({"args": list(ARGS), "result": verdicts(factory)}))
    return path


def run(folder: Path) -> dict:
    """`lab probe ARGS --json --report`, under strace, in `folder`: how it ended."""
    strace = shutil.which("strace")
    assert strace, "strace is needed to watch the probe (apt-get install -y strace)"
    trace = folder / "trace"
    trace.mkdir()
    env = {**os.environ, "TMPDIR": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}
    command = [
        strace, "-ff", "-y", "-qq", "--seccomp-bpf", "-e", f"trace={TRACED}",
        "-o", str(trace / "log"),
        *LAB, "probe", *ARGS, "--json", "--report", str(folder / "report.html"),
    ]  # fmt: skip
    ended = subprocess.run(
        command, cwd=folder, env=env, capture_output=True, text=True, timeout=900
    )
    return {"status": ended.returncode, "stdout": ended.stdout, "stderr": ended.stderr}
