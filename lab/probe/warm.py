"""A warm start for Python targets: import the program's module once, fork it for every trial.

A short agent run in Python spends most of its time importing its framework (the anthropic SDK
alone takes about a second). For a target started as `python -m MODULE ...` by this interpreter,
a warm parent (`python -m lab.probe.warm MODULE`) imports MODULE once, not as __main__ (its
framework imports run; its `if __name__ == "__main__"` part does not). Each trial forks the parent,
and the child becomes the program: a session of its own, the trial's working folder, environment
(the parent's is replaced whole), output file and argv; then MODULE runs as __main__ from the top
and the child exits the normal way. The program cannot tell the difference, except that its
framework was imported before its environment was set: a library that reads the environment at
import time sees the parent's (the same minimal environment, with the target's own variables).

The parent is started with that environment in a scratch folder of its own, inside the probe's
network namespace. If importing left a thread running, forking is not safe: the parent says so
and the probe starts that target cold (`python -m MODULE` per trial), as it does for `--cold`.
"""

from __future__ import annotations

import json
import os
import runpy
import select
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path

# ---------------------------------------------------------------- the parent's side (in the fork)


def exit_code(code: object) -> int:
    """What the interpreter makes of `SystemExit(code)`."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def become(job: dict, module: str) -> int:
    """In the forked child: turn into the program the job describes, run it, return its status."""
    os.setsid()
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    output = os.open(job["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.stdin = open(os.devnull)  # noqa: SIM115 (the program's stdin for its whole life)
    import tempfile

    tempfile.tempdir = None  # so TMPDIR is read again
    sys.argv = [module, *job["args"]]
    try:
        runpy.run_module(module, run_name="__main__", alter_sys=True)
    except SystemExit as done:
        return exit_code(done.code)
    except KeyboardInterrupt:
        return 130
    except BaseException:
        import traceback

        traceback.print_exc()
        return 1
    finally:
        learned = Path(job["modules"])  # what the run imported: the parent imports it next time
        learned.write_text("\n".join(sorted(sys.modules)), encoding="utf-8")
    return 0


def learn(listing: Path) -> None:
    """Import what the previous run imported on its way (the SDKs import lazily, on first use)."""
    if not listing.is_file():
        return
    for name in listing.read_text(encoding="utf-8").split():
        if name not in sys.modules and not name.startswith("__"):
            try:
                __import__(name)
            except BaseException:  # noqa: S110 (a module that cannot be imported here is skipped)
                continue


def reply(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def serve(module: str) -> int:
    """Import `module`, then fork one child per job line on stdin, one at a time."""
    try:
        __import__(module)
    except BaseException as error:
        reply({"ready": False, "why": f"importing {module}: {type(error).__name__}: {error}"})
        return 0
    if threading.active_count() > 1:
        reply({"ready": False, "why": f"importing {module} started a thread"})
        return 0
    reply({"ready": True})
    for line in sys.stdin:
        job = json.loads(line)
        learn(Path(job["modules"]))
        if threading.active_count() > 1:
            reply({"cold": "a module the program imported started a thread"})
            continue
        pid = os.fork()
        if pid == 0:
            return become(job, module)  # the child leaves the loop and exits as the program
        reply({"pid": pid})
        _, status = os.waitpid(pid, 0)
        reply({"status": os.waitstatus_to_exitcode(status)})
    return 0


# ---------------------------------------------------------------- the probe's side
COLD = -1000  # WarmParent.run's answer when the program must be started cold after all


def warm_module(argv: list[str]) -> str | None:
    """The module of `python -m MODULE ...` run by this interpreter, else None (start cold)."""
    if len(argv) >= 3 and argv[0] == sys.executable and argv[1] == "-m":
        return argv[2]
    return None


class WarmParent:
    """One warm parent process; runs one trial at a time."""

    def __init__(self, module: str, cwd: Path, env: dict[str, str]) -> None:
        self.module = module
        self.modules = cwd / f"{module}.modules"  # what the last run imported
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lab.probe.warm", module],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        ready = self.read(None) or {"ready": False, "why": "the warm parent exited"}
        self.problem = None if ready.get("ready") else ready.get("why", "not ready")

    def read(self, timeout: float | None) -> dict | None:
        assert self.process.stdout is not None
        if timeout is not None:
            ready, _, _ = select.select([self.process.stdout], [], [], timeout)
            if not ready:
                return None
        line = self.process.stdout.readline()
        return json.loads(line) if line else None

    def run(
        self, args: list[str], cwd: Path, env: dict[str, str], output: Path, timeout: float
    ) -> int | None:
        """The program's exit status, or None when it was stopped at the time limit."""
        assert self.process.stdin is not None
        job = {
            "args": args,
            "cwd": str(cwd),
            "env": env,
            "output": str(output),
            "modules": str(self.modules),
        }
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        started = self.read(None)
        if started is None:
            raise RuntimeError(f"the warm parent for {self.module} died")
        if "cold" in started:
            self.problem = started["cold"]
            return COLD
        pid = started["pid"]
        finished = self.read(timeout)
        try:
            os.killpg(pid, signal.SIGKILL)  # at the limit: the program; after: what it left
        except ProcessLookupError:
            pass
        if finished is None:
            self.read(None)  # its status, now that it was stopped
            return None
        return finished["status"]

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()


@dataclass
class WarmStarts:
    """Warm parents by module, shared by the probe's worker threads; `close` ends them all."""

    base: Path  # a folder for the parents' own HOME and working folder
    idle: dict[str, list[WarmParent]] = field(default_factory=dict)
    cold: dict[str, str] = field(default_factory=dict)  # module -> why it starts cold
    everyone: list[WarmParent] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.lock = threading.Lock()

    def take(self, module: str, env: dict[str, str]) -> WarmParent | None:
        with self.lock:
            if module in self.cold:
                return None
            if self.idle.get(module):
                return self.idle[module].pop()
        parent = WarmParent(module, self.base, env)
        with self.lock:
            self.everyone.append(parent)
            if parent.problem is not None:
                self.cold[module] = parent.problem
                return None
        return parent

    def give(self, parent: WarmParent) -> None:
        with self.lock:
            if parent.problem is not None:
                self.cold[parent.module] = parent.problem
            else:
                self.idle.setdefault(parent.module, []).append(parent)

    def close(self) -> None:
        for parent in self.everyone:
            parent.close()


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1]))
