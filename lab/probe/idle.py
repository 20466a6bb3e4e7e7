"""A trial's time limit counted in idle time, so that a busy machine never stops a working program.

A program is stopped only after it has been idle for the whole limit: no process of its session
runnable or using CPU, no request on its connection to the fake, and no wait the fake asked for
(a `retry-after`) still running. A program starved of CPU by other work is runnable, so a loaded
machine stretches its run instead of cutting it. Past `CAP` time limits of wall clock a program
still busy is stopped anyway; when it spent most of its run wanting CPU on a loaded machine
(`BUSY_LOAD`), its cell is inconclusive, not a grade against it. A program that was only talking
(a retry loop that never ends: requests, little CPU) is the program's doing, and judged.

Where /proc is missing (not Linux), only the wire counts (a degraded alternative): the idle time is
the time since the last request, or since the end of the wait the fake asked for.
"""

from __future__ import annotations

import os
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from lab.kernel.record import Wire

SAMPLE = 0.25  # seconds between two looks at the program
CAP = 5.0  # the wall-clock limit, in idle limits
BUSY_LOAD = 1.0  # the load average per core above which a run cut at the cap says nothing
WINDOW = 1.0  # seconds over which CPU use is measured
BUSY_SHARE = 0.05  # CPU seconds per second (5% of a core) that count as working
TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
BUSY_STATES = {"R", "D"}  # running or waiting for a CPU; in an uninterruptible disk wait


@dataclass(frozen=True)
class Progress:
    """How a program stood when it was stopped at the limit."""

    reason: str  # "idle": idle for the whole limit; "cap": still busy at CAP time limits
    wall: float  # seconds since it started
    idle: float  # seconds it had been idle
    cpu: float  # CPU seconds its session had used (as last seen; None-less: 0 when unknown)
    last_request: float | None  # seconds after its start of its last request (None: none)
    load: float  # the machine's load average per core when it was stopped
    computing: float = 0.0  # the share of its looks at which it was runnable or using CPU
    told: bool = False  # stopped inside a wait the fake asked for (a retry-after past the cap)

    @property
    def machine_busy(self) -> bool:
        """Stopped at the cap while mostly wanting CPU, on a loaded machine: the machine's."""
        return self.reason == "cap" and self.load > BUSY_LOAD and self.computing >= 0.5

    def line(self, limit: float) -> str:
        """One line for the cell: why it was stopped, and whether it was still making progress."""
        asked = (
            "no request"
            if self.last_request is None
            else (f"its last request at {self.last_request:.1f} s")
        )
        facts = f"{asked}, {self.cpu:.1f} CPU s used, load {self.load:.1f} per core"
        if self.reason == "cap":
            return (
                f"stopped after {self.wall:.0f} s ({CAP:g}× the {limit:g} s limit) while still "
                f"making progress: {facts}"
            )
        idle = f"{round(self.idle, 1):g}"
        return f"timed out: idle for {idle} s, stopped after {self.wall:.0f} s: {facts}"


# After a transient fault (lab.kernel.record.TRANSIENT: the client waits before asking again, as
# told by retry-after or on a back-off of its own) the program may stay quiet for two limits, not
# one, so that a back-off as long as the limit (smolagents waits 60 s) is not cut by a race with the
# clock. What the fake saw of the program's connection is the tap's `Wire` (lab/kernel/record.py).
AFTER_FAULT = 2.0


def session_usage(session: int) -> tuple[float, bool] | None:
    """(CPU seconds used, any process runnable) of this process's descendants in `session`
    (a session id as this process's PID namespace numbers it); None without /proc."""
    if not Path("/proc/self/stat").exists():
        return None
    cpu, busy = 0.0, False
    for pid in descendants():
        try:
            status = Path(f"/proc/{pid}/status").read_text()
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue  # it ended between two reads
        ours = [line.split()[1:] for line in status.splitlines() if line.startswith("NSsid")]
        sids = ours[0] if ours else []  # its session as each PID namespace numbers it, ours last
        if not sids or int(sids[-1]) != session:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after the name, which may hold spaces
        busy = busy or fields[0] in BUSY_STATES
        cpu += sum(int(t) for t in fields[11:15]) / TICKS  # utime stime cutime cstime
    return cpu, busy


def descendants() -> list[int]:
    """Every descendant of this process, as /proc numbers them (its own children files)."""
    found: list[int] = []
    frontier = ["self"]
    while frontier:
        pid = frontier.pop()
        try:
            tasks = os.listdir(f"/proc/{pid}/task")
        except OSError:
            continue  # it ended while we looked
        for task in tasks:
            try:
                kids = Path(f"/proc/{pid}/task/{task}/children").read_text().split()
            except OSError:
                continue
            found += [int(k) for k in kids]
            frontier += kids
    return found


def while_working(limit: float, wire: Wire) -> Callable[[subprocess.Popen], Progress | None]:
    """How `lab.kernel.runner.run_to_end` waits for a program under `lab probe`: while it works,
    until it has been idle for `limit` seconds (None: it ended by itself)."""

    def wait(process: subprocess.Popen) -> Progress | None:
        return wait_while_working(ended_within(process), process.pid, limit, wire)

    return wait


def ended_within(process: subprocess.Popen) -> Callable[[float], bool]:
    """The `ended` that wait_while_working asks for, of a process the probe started."""

    def ended(seconds: float) -> bool:
        try:
            process.wait(timeout=seconds)
        except subprocess.TimeoutExpired:
            return False
        return True

    return ended


def wait_while_working(
    ended: Callable[[float], bool], session: int, limit: float, wire: Wire, cap: float = CAP
) -> Progress | None:
    """Wait for the program (`ended(seconds)` waits that long at most and says whether it ended)
    while it works; None when it ended, else how it stood when the idle limit (or the cap) came.

    Idle time is summed look by look, each look counting at most two SAMPLEs: when the probe
    itself gets no CPU for a while (the fake answers from this process too), that gap is the
    machine's, not the program's."""
    start = previous = time.monotonic()
    history: list[tuple[float, float]] = []  # (time, CPU seconds) over the last WINDOW
    heard = wire.last_request
    idle = cpu = 0.0
    looks = computing = 0
    while not ended(SAMPLE):
        now = time.monotonic()
        usage = session_usage(session)
        working = wire.last_request != heard or now < wire.told_until
        heard = wire.last_request
        if usage is not None:
            cpu = max(cpu, usage[0])
            history = [(t, c) for t, c in history if now - t <= WINDOW] + [(now, cpu)]
            share = (cpu - history[0][1]) / max(now - history[0][0], SAMPLE)
            looks += 1
            if usage[1] or share >= BUSY_SHARE:
                computing += 1
                working = True
        idle = 0.0 if working else idle + min(now - previous, 2 * SAMPLE)
        previous = now
        allowed = limit * (AFTER_FAULT if wire.after_fault else 1.0)
        if idle >= allowed or now - start >= cap * limit:
            load = os.getloadavg()[0] / (os.cpu_count() or 1) if hasattr(os, "getloadavg") else 0
            asked = None if wire.last_request is None else wire.last_request - start
            reason = "idle" if idle >= allowed else "cap"
            shared = computing / looks if looks else 0.0
            told = now < wire.told_until
            return Progress(reason, now - start, idle, cpu, asked, load, shared, told)
    return None
