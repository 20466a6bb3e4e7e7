"""`lab` as a real process: a closed pipe ends quietly with 0, Ctrl-C ends any command with
130 and no traceback and no worker left, quick commands never import the SDK, and the
searches write nothing where they run.

How long Ctrl-C takes is measured by benchmarks, not asserted here (see the README).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import patience
import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent
ENV = {key: value for key, value in os.environ.items() if key != "HYPOTHESIS_STORAGE_DIRECTORY"} | {
    "PYTHONPATH": str(ROOT),
    "COLUMNS": "100",
}


def start(*argv: str, cwd: Path, **env: str) -> subprocess.Popen:
    """`python -m lab ARGV` in its own process group, as a terminal would run it."""
    return subprocess.Popen(
        [sys.executable, "-m", "lab", *argv],
        cwd=cwd,
        env=ENV | env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )


def children(pid: int) -> list[int]:
    """The live (not zombie) child processes of `pid`."""
    return [child.pid for child in psutil.Process(pid).children() if alive(child.pid)]


def alive(pid: int) -> bool:
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


@pytest.mark.parametrize("argv", [["run"], ["run", "--json"], ["show", "D17"]])
def test_a_closed_pipe_ends_quietly_with_0(tmp_path, argv):
    process = start(*argv, cwd=tmp_path)
    process.stdout.close()  # like `| head -0`: every write meets a closed pipe
    err = process.stderr.read()
    assert patience.wait(process, 120, f"lab {' '.join(argv)} to end on a closed pipe") == 0
    assert err == b""


def ran(command: list[str], what: str, **options) -> subprocess.CompletedProcess:
    """`subprocess.run(command, capture_output=True)` (bytes) within 60 s scaled to this machine."""
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **options)
    out, err = patience.communicate(process, 60, what)
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def interrupted(process: subprocess.Popen) -> tuple[int, bytes]:
    os.killpg(process.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group gets it
    _, err = patience.communicate(process, 60, "lab to end after Ctrl-C")
    return process.returncode, err


def test_ctrl_c_on_run_is_130_without_a_traceback(tmp_path):
    process = start("run", cwd=tmp_path)
    process.stdout.readline()  # the first experiment is on its way
    assert interrupted(process) == (130, b"lab: interrupted\n")


def test_ctrl_c_on_matrix_ends_every_worker(tmp_path):
    process = start("matrix", "--jobs", "2", cwd=tmp_path)
    patience.wait_for(
        lambda: len(children(process.pid)) >= 2, 60, "two matrix workers to start", every=0.05
    )
    workers = children(process.pid)
    time.sleep(0.5)  # the workers are searching
    assert interrupted(process) == (130, b"lab: interrupted\n")
    assert [pid for pid in workers if alive(pid)] == []
    assert list(tmp_path.iterdir()) == []  # hypothesis wrote nothing where it ran


def test_ctrl_c_on_hunt_is_130_without_a_traceback(tmp_path):
    # Ctrl-C once the hunt is searching: its hypothesis folder has appeared in the temp folder.
    # (Earlier, while Python is still importing the lab, nothing of the lab's can answer it.)
    here, temp = tmp_path / "here", tmp_path / "temp"
    here.mkdir()
    temp.mkdir()
    process = start("hunt", "pair_protection", "--examples", "100000", cwd=here, TMPDIR=str(temp))
    patience.wait_for(
        lambda: any(p.name.startswith("lab-hypothesis-") for p in temp.iterdir()),
        60,
        "the hunt's hypothesis folder to appear",
        every=0.05,
    )
    assert interrupted(process) == (130, b"lab: interrupted\n")
    assert list(here.iterdir()) == []
    assert list(temp.iterdir()) == []  # the hypothesis folder is removed on Ctrl-C too


def test_a_hunt_writes_only_its_file_and_with_normal_permissions(tmp_path):
    out = tmp_path / "out"
    out.mkdir()
    process = start(
        "hunt", "pair_protection", "--examples", "30", "--out", str(out / "d3h.py"), cwd=tmp_path
    )
    _, err = patience.communicate(process, 300, "lab hunt --examples 30 to end")
    assert process.returncode == 0, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]  # no .hypothesis/ here
    assert [p.name for p in out.iterdir()] == ["d3h.py"]
    umask = os.umask(0)
    os.umask(umask)
    assert (out / "d3h.py").stat().st_mode & 0o777 == 0o666 & ~umask


@pytest.mark.parametrize("argv", [["--help"], ["list"], ["list", "--lang", "zh"]])
def test_quick_commands_never_import_the_sdk(argv):
    check = (
        "import sys; from lab.cli import main; code = main(sys.argv[1:]); "
        "heavy = [m for m in ('anthropic', 'httpx2', 'hypothesis') if m in sys.modules]; "
        "assert code == 0 and not heavy, heavy"
    )
    done = ran([sys.executable, "-c", check, *argv], f"lab {' '.join(argv)} to end", env=ENV)
    assert done.returncode == 0, done.stderr.decode()[-500:]


LOADING = """
import importlib.abc, os, signal, sys

class CtrlCWhileLoading(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name == "lab.cli":  # the user presses Ctrl-C while the command is still loading
            os.kill(os.getpid(), signal.SIGINT)
        return None

sys.meta_path.insert(0, CtrlCWhileLoading())
from lab.start import main
sys.exit(main())
"""


def test_ctrl_c_while_the_command_is_still_loading_is_130_without_a_traceback(tmp_path):
    done = ran(
        [sys.executable, "-c", LOADING, "list"], "lab list to end after Ctrl-C", cwd=tmp_path
    )
    assert (done.returncode, done.stderr) == (130, b"lab: interrupted\n")
    assert done.stdout == b""


def test_the_lab_script_and_python_m_lab_start_with_the_early_handler():
    text = (Path(__file__).resolve().parent.parent / "pyproject.toml").read_text()
    assert 'lab = "lab.start:main"' in text
    main = (Path(__file__).resolve().parent.parent / "lab" / "__main__.py").read_text()
    assert "from lab.start import main" in main
