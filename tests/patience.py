"""How long a test waits for a process to do something: a base limit scaled by this machine's speed.

A test that runs programs waits on the event (a process ended, a line printed) and gives up only
after a limit; a fixed limit that an idle laptop meets is missed by a loaded CI runner. So a limit
is the base a test names times this machine's slowness, measured once per session: the time of a
fixed piece of pure-Python work against its time on an idle core (`REFERENCE`), and the load
average per core. A limit that fires says so: what was waited for, the base and the factor.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest

REFERENCE = 0.025  # seconds `work()` takes on one idle core of the machine the bases were set on
MOST = 20.0  # a factor past this is a machine that cannot run the test; the limit says so


def work() -> float:
    """Seconds a fixed piece of interpreter work takes here, the best of three."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter()
        sum(i * i for i in range(300_000))
        best = min(best, time.perf_counter() - start)
    return best


@cache
def factor() -> float:
    """This machine's slowness now: at least 1, the slower of the measured work and the load."""
    load = os.getloadavg()[0] / (os.cpu_count() or 1)
    return min(MOST, max(1.0, work() / REFERENCE, load))


def limit(base: float) -> float:
    return base * factor()


def expired(what: str, base: float) -> str:
    return (
        f"{what}: not within {limit(base):.0f} s "
        f"(a base of {base:g} s × this machine's slowness {factor():.1f})"
    )


def wait_for(condition: Callable[[], Any], base: float, what: str, every: float = 0.1) -> Any:
    """Poll `condition` until it is true; fail saying so after the scaled limit."""
    deadline = time.monotonic() + limit(base)
    while not (found := condition()):
        if time.monotonic() > deadline:
            pytest.fail(expired(what, base))
        time.sleep(every)
    return found


def communicate(process: subprocess.Popen, base: float, what: str) -> tuple[Any, Any]:
    """`process.communicate()` within the scaled limit; at the limit its group is killed and the
    test fails saying so."""
    try:
        return process.communicate(timeout=limit(base))
    except subprocess.TimeoutExpired:
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            process.kill()
        process.communicate()
        pytest.fail(expired(what, base))


def run(command: list[str], base: float, what: str, **options: Any) -> subprocess.CompletedProcess:
    """`subprocess.run(command, capture_output=True, text=True)` in a session of its own, within
    the scaled limit (see communicate)."""
    process = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        **options,
    )
    out, err = communicate(process, base, what)
    return subprocess.CompletedProcess(command, process.returncode, out, err)


def wait(process: subprocess.Popen, base: float, what: str) -> int:
    """`process.wait()` within the scaled limit; at the limit it is killed and the test fails
    saying so."""
    try:
        return process.wait(timeout=limit(base))
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
        pytest.fail(expired(what, base))
