"""Nothing outlives `lab probe`: a target's grandchild in a session of its own is gone when the
probe ends, is interrupted or killed, no scratch folder is left in the temp folder, and a file the
target wrote outside its scratch folder is named in its evidence — only the target's own, never a
file another process wrote meanwhile."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import patience
import psutil
import pytest

AGENTS = Path(__file__).parent / "agents"


def leaver(marker: str, outside: Path, pause: float = 0.0) -> str:
    return f"{sys.executable} {AGENTS / 'leaver.py'} {marker} {outside} {pause:g}"


def with_marker(marker: str) -> list[psutil.Process]:
    """Live processes whose command line holds `marker`."""
    found = []
    for process in psutil.process_iter(["cmdline", "status"]):
        cmdline = process.info["cmdline"] or []
        if marker in cmdline and process.info["status"] != psutil.STATUS_ZOMBIE:
            found.append(process)
    return found


def grandchildren(marker: str) -> list[psutil.Process]:
    """The leavers' grandchildren (`python -c … MARKER`); the leavers hold MARKER too."""
    return [p for p in with_marker(marker) if "-c" in (p.info["cmdline"] or [])]


def probe_command(marker: str, outside: Path, *extra: str, pause: float = 0.0) -> list[str]:
    command = [sys.executable, "-m", "lab", "probe", "--cmd", leaver(marker, outside, pause)]
    return [*command, *extra]


def test_a_grandchild_and_scratch_folders_are_gone_and_an_outside_write_is_reported(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    marker = f"lab-leftover-{uuid.uuid4().hex}"
    outside = temp / f"outside-{marker}.txt"
    done = patience.run(
        probe_command(marker, outside, "--case", "P1b", "P2", "--json"),
        300,
        "lab probe of the leaver",
        env={**os.environ, "TMPDIR": str(temp)},
        cwd=tmp_path,
    )
    assert done.returncode in (0, 1), done.stderr
    assert with_marker(marker) == []  # both trials' grandchildren ended with the probe
    # No lab-probe-* left, and the write outside stayed in the target's own view (view.py).
    assert sorted(p.name for p in temp.iterdir()) == []
    cells = json.loads(done.stdout)["cells"]
    for cell in cells:
        assert f"wrote outside its scratch folder: {outside}" in cell["evidence"], cell


def test_only_the_targets_own_writes_are_outside_writes_while_a_neighbour_writes_in_tmp(tmp_path):
    """`lab probe --cmd false --case P1 P2`: `false` writes nothing, while another process (the
    test's) writes a file in the probe's temp folder every 50 ms."""
    temp = tmp_path / "temp"
    temp.mkdir()
    writer = "import sys, time, itertools\nfor n in itertools.count():\n"
    writer += "    open(f'{sys.argv[1]}/neighbour-{n}.txt', 'w').write('x')\n    time.sleep(0.05)\n"
    neighbour = subprocess.Popen([sys.executable, "-c", writer, str(temp)])
    try:
        command = [sys.executable, "-m", "lab", "probe", "--cmd", "false", "--case", "P1", "P2"]
        done = patience.run(
            [*command, "--json"],
            120,
            "lab probe --cmd false",
            env={**os.environ, "TMPDIR": str(temp)},
            cwd=tmp_path,
        )
    finally:
        neighbour.kill()
        neighbour.wait()
    assert done.returncode == 4, done.stderr  # `false` was not reached
    cells = json.loads(done.stdout)["cells"]
    assert [c["case"] for c in cells] == ["P1", "P2"]
    for cell in cells:
        assert not [e for e in cell["evidence"] if "outside its scratch folder" in e], cell
    assert len(list(temp.glob("neighbour-*"))) > 5  # the neighbour did write meanwhile


@pytest.mark.parametrize(
    ("extra", "running"), [(["--jobs", "2"], 2), (["--fuzz", "5"], 1)], ids=["cases", "fuzz"]
)
def test_ctrl_c_mid_probe_ends_every_process_and_removes_every_scratch_folder(
    tmp_path, extra, running
):
    temp = tmp_path / "temp"
    temp.mkdir()
    marker = f"lab-leftover-{uuid.uuid4().hex}"
    outside = temp / f"outside-{marker}.txt"
    process = subprocess.Popen(
        probe_command(marker, outside, *extra, pause=60),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(temp)},
        cwd=tmp_path,
        start_new_session=True,  # a group of its own, as a terminal runs a command
    )
    try:
        patience.wait_for(  # each running trial started its grandchild: the probe is busy
            lambda: len(grandchildren(marker)) >= running, 120, "the probe's trials to start"
        )
        assert len(grandchildren(marker)) == running
        os.killpg(process.pid, signal.SIGINT)  # what Ctrl-C sends
        _, err = patience.communicate(process, 60, "the probe to end after Ctrl-C")
        assert process.returncode == 130
        assert b"Traceback" not in err
        assert with_marker(marker) == []
        assert [p.name for p in temp.iterdir() if p.name.startswith("lab-probe-")] == []
    finally:  # a failed check must not leave the probe (or what it failed to end) running
        stop_all(process, marker)


def stop_all(process: subprocess.Popen, marker: str) -> None:
    """Kill the probe's group and every process holding the marker, if any is still there."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
    for leftover in with_marker(marker):
        with contextlib.suppress(psutil.NoSuchProcess):
            leftover.kill()


def descendants(pid: int) -> list[psutil.Process]:
    try:
        return psutil.Process(pid).children(recursive=True)
    except psutil.NoSuchProcess:
        return []


def command_line(process: psutil.Process) -> str:
    """Its command line, "" once it is gone."""
    try:
        return " ".join(process.cmdline())
    except (psutil.NoSuchProcess, psutil.ZombieProcess):
        return ""


def running(process: psutil.Process) -> bool:
    try:
        return process.is_running() and process.status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def test_ctrl_c_on_a_warm_started_probe_leaves_no_warm_parent_and_no_scratch_folder(tmp_path):
    temp = tmp_path / "temp"
    temp.mkdir()
    command = [sys.executable, "-m", "lab", "probe", "lab-reference", "--jobs", "2"]
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, "TMPDIR": str(temp)},
        cwd=tmp_path,
        start_new_session=True,
    )
    deadline = time.monotonic() + patience.limit(120)
    started: dict[int, psutil.Process] = {}
    while time.monotonic() < deadline:
        started |= {p.pid: p for p in descendants(process.pid)}
        names = [command_line(p) for p in started.values()]
        if any("lab.probe.own_harness" in n for n in names):  # a trial forked from the parent
            break
        time.sleep(0.05)
    assert any("lab.probe.warm" in command_line(p) for p in started.values())
    started |= {p.pid: p for p in descendants(process.pid)}
    os.killpg(process.pid, signal.SIGINT)
    patience.communicate(process, 60, "the probe to end after Ctrl-C")
    assert process.returncode == 130
    assert [p for p in started.values() if running(p)] == []
    assert [p.name for p in temp.iterdir()] == []


# ---- a probe killed from outside: nothing it started keeps running -------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM], ids=["kill-9", "sigterm"])
def test_a_probe_killed_from_outside_leaves_nothing_running(tmp_path, how):
    """Only the probe's own process gets the signal (not its group, as `kill PID` or a CI
    runner's timeout sends it): the namespaced probe, its targets and their grandchildren end."""
    temp = tmp_path / "temp"
    temp.mkdir()
    marker = f"lab-leftover-{uuid.uuid4().hex}"
    outside = temp / f"outside-{marker}.txt"
    process = subprocess.Popen(
        probe_command(marker, outside, "--jobs", "2", pause=600),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "TMPDIR": str(temp)},
        cwd=tmp_path,
        start_new_session=True,
    )
    try:
        started = patience.wait_for(
            lambda: len(grandchildren(marker)) >= 2 and with_marker(marker),
            60,
            "two trials started their grandchildren",
        )
        assert started
        os.kill(process.pid, how)
        process.wait()
        patience.wait_for(
            lambda: with_marker(marker) == [], 30, f"every process ended after {how.name}"
        )
    finally:
        stop_all(process, marker)


def test_the_next_probe_sweeps_the_scratch_folders_of_a_run_killed_with_no_cleanup(tmp_path):
    from lab.probe.confinement import sweep_stale

    ended = subprocess.Popen([sys.executable, "-c", "pass"])
    ended.wait()  # its PID now names no live process
    killed = tmp_path / f"lab-probe-{ended.pid}-abc"
    running = tmp_path / f"lab-probe-{os.getpid()}-def"
    other = tmp_path / "lab-probe-in_process"  # a probe run in process: no PID in its name
    for folder in (killed, running, other):
        (folder / "work").mkdir(parents=True)
    sweep_stale(tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([running.name, other.name])
