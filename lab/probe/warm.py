"""A warm start for Python targets: import the program's module once, fork it for every trial.

A short agent run in Python spends most of its time importing its framework (the anthropic SDK
alone takes about a second). For a target started as `python -m MODULE ...` by this interpreter,
a warm parent (`python -m lab.probe.warm MODULE`) imports MODULE once, not as __main__ (its
framework imports run; its `if __name__ == "__main__"` part does not). For `python SCRIPT.py
...` (`lab probe --cmd ... --warm`) the parent imports what the script's top-level import
statements name (read from its source, not run; the script's folder first on the path, as the
script has it), so trials started at once are all warm, and learns the rest from each run, below.
Each trial forks the parent, and the child becomes the program: a session of its own, the
trial's working folder, environment (the parent's is replaced whole), output file and argv; then
MODULE (or SCRIPT) runs as __main__, and the child ends the way the interpreter ends a program
(threads joined, atexit run, output flushed). The program cannot tell, except that its framework
was imported before its environment was set: a library that reads the environment at import time
sees the parent's (the same minimal environment, with the target's own variables). What a run
imports on the way (SDKs import lazily) the parent imports before the next fork; so a target's
first trial runs alone, and the others, forked after it ended, need not import it again.

The parent is started with that environment in a scratch folder of its own, inside the probe's
network namespace; it runs several children at once. If an import left a thread running, forking
is not safe: the parent says so and the probe starts that target cold (`python -m MODULE` per
trial), as it does for every other target.
"""

from __future__ import annotations

import ast
import atexit
import gc
import json
import os
import runpy
import select
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

from lab.kernel.record import Wire
from lab.probe.confinement import Scratch, environment
from lab.probe.idle import Progress, wait_while_working
from lab.probe.view import enter, places

# ---------------------------------------------------------------- the parent (and the child)


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
    # What the run imported goes to the parent through this file, opened before the view: in
    # the view the parent's folder is an outside place, whose writes the parent would not see.
    learned = os.open(job["modules"], os.O_WRONLY | os.O_CREAT, 0o600)
    if job.get("view"):  # before anything of the program runs (view.py)
        scratch, *chosen = job["view"]
        enter(Path(scratch), [Path(p) for p in chosen])
    os.chdir(job["cwd"])
    os.environ.clear()
    os.environ.update(job["env"])
    output = os.open(job["output"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.dup2(output, 1)
    os.dup2(output, 2)
    os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
    sys.stdin = open(os.devnull)  # the program's stdin for its whole life
    import tempfile

    tempfile.tempdir = None  # so TMPDIR is read again
    sys.argv = [module, *job["args"]]
    try:
        if is_script(module):
            sys.path[0] = os.path.dirname(module)  # as `python SCRIPT.py` has it
            runpy.run_path(module, run_name="__main__")
        else:
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
        os.ftruncate(learned, 0)  # what the run imported: the parent imports it next time
        os.write(learned, "\n".join(sorted(sys.modules)).encode())
    return 0


def leave(code: int) -> NoReturn:
    """End the child as the interpreter ends a program — its threads joined, atexit run, output
    flushed — but without tearing down the thousand modules it inherited (that teardown touches
    every page the parent shares and costs more than a short run)."""
    threading._shutdown()  # type: ignore[attr-defined]  # the interpreter's own wait for non-daemon threads
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def learn(listing: Path) -> None:
    """Import what the previous run imported on its way (the SDKs import lazily, on first use)."""
    if listing.is_file():
        imports(listing.read_text(encoding="utf-8").split())


def imports(names: list[str]) -> None:
    for name in names:
        if name not in sys.modules and not name.startswith("__"):
            try:
                __import__(name)
            except BaseException:  # a module that cannot be imported here is simply skipped
                continue


def script_imports(script: str) -> list[str]:
    """The modules a script's top-level `import` statements name, read from its source."""
    try:
        tree = ast.parse(Path(script).read_bytes())
    except (OSError, SyntaxError, ValueError):
        return []  # the run will say what is wrong with it
    names: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
    return names


def reply(message: dict) -> None:
    os.write(1, (json.dumps(message) + "\n").encode())


def serve(module: str) -> int:
    """Import `module`; then, for each job line on stdin, fork a child that becomes the program,
    and report each child's exit status (and CPU time) as it ends. Ends at end of input."""
    try:
        if is_script(module):
            sys.path[0] = os.path.dirname(module)  # as `python SCRIPT.py` has it
            imports(script_imports(module))
        else:
            __import__(module)
    except BaseException as error:
        reply({"ready": False, "why": f"importing {module}: {type(error).__name__}: {error}"})
        return 0
    if threading.active_count() > 1:
        reply({"ready": False, "why": f"importing {module} started a thread"})
        return 0
    woken, wake = os.pipe()
    os.set_blocking(wake, False)
    signal.set_wakeup_fd(wake)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # a child ended: the wakeup fd says so
    reply({"ready": True})
    running: dict[int, str] = {}  # pid -> job id
    pending, open_input = b"", True
    while open_input or running:
        readable, _, _ = select.select([0, woken] if open_input else [woken], [], [])
        if woken in readable:
            os.read(woken, 4096)
        while running and (ended := os.wait4(-1, os.WNOHANG))[0]:
            pid, status, usage = ended
            code = os.waitstatus_to_exitcode(status)
            cpu = usage.ru_utime + usage.ru_stime
            reply({"id": running.pop(pid), "status": code, "cpu": cpu})
        if 0 in readable:
            data = os.read(0, 65536)
            open_input = bool(data)
            pending += data
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                job = json.loads(line)
                learn(Path(job["modules"]))
                if threading.active_count() > 1:
                    reply({"id": job["id"], "cold": "an import started a thread"})
                    continue
                gc.freeze()  # what is here now is never collected in a child: pages stay shared
                pid = os.fork()
                if pid == 0:
                    signal.set_wakeup_fd(-1)
                    signal.signal(signal.SIGCHLD, signal.SIG_DFL)
                    os.close(woken)
                    os.close(wake)
                    leave(become(job, module))  # the child never comes back to this loop
                running[pid] = job["id"]
                reply({"id": job["id"], "pid": pid})
    return 0


# ---------------------------------------------------------------- the probe's side
COLD = -1000  # WarmParent.run's answer when the program must be started cold after all
SCOUT_WAIT = 15.0  # seconds a target's other trials wait for its first one to end, at most


def warm_module(argv: list[str]) -> str | None:
    """What a warm parent runs, for a program run by this interpreter: MODULE of `python -m
    MODULE ...`, or SCRIPT of `python SCRIPT.py ...` (an absolute path); else None (cold)."""
    if len(argv) >= 3 and argv[0] == sys.executable and argv[1] == "-m":
        return argv[2]
    if len(argv) >= 2 and argv[0] == sys.executable and is_script(argv[1]):
        return argv[1]
    return None


def is_script(program: str) -> bool:
    return program.endswith(".py") and os.path.isabs(program)


def program_args(argv: list[str]) -> list[str]:
    """The program's own arguments: what follows `-m MODULE`, or the script."""
    return argv[3:] if argv[1] == "-m" else argv[2:]


@dataclass
class Job:
    started: threading.Event = field(default_factory=threading.Event)
    ended: threading.Event = field(default_factory=threading.Event)
    answers: dict = field(default_factory=dict)


class WarmParent:
    """One warm parent process, shared by the probe's worker threads: a job per trial."""

    def __init__(self, module: str, cwd: Path, env: dict[str, str]) -> None:
        self.module = module
        name = module.replace(os.sep, "_")
        self.modules = cwd / f"{name}.modules"  # what the last run imported
        self.process = subprocess.Popen(
            [sys.executable, "-m", "lab.probe.warm", module],
            cwd=cwd,
            env=env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert self.process.stdout is not None
        first = self.process.stdout.readline()
        ready = json.loads(first) if first else {"why": "the warm parent exited"}
        self.problem = None if ready.get("ready") else ready.get("why", "not ready")
        self.jobs: dict[str, Job] = {}
        self.lock = threading.Lock()
        self.counter = 0
        # The first trial runs alone: what it imports on the way (a framework's lazy imports,
        # several seconds for some), the parent imports before forking the others, instead of
        # every trial started at once importing it again. Not for longer than SCOUT_WAIT: a
        # trial that hangs until its time limit teaches nothing (it is killed, never reports).
        self.scouted = threading.Event()
        self.reader = threading.Thread(target=self.read_answers, daemon=True)
        self.reader.start()

    def read_answers(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            answer = json.loads(line)
            job = self.jobs[answer["id"]]
            job.answers.update(answer)
            (job.ended if "status" in answer or "cold" in answer else job.started).set()
            if "cold" in answer:
                job.started.set()
        for job in list(self.jobs.values()):  # the parent died: nobody waits forever
            job.started.set()
            job.ended.set()

    def run(
        self,
        args: list[str],
        cwd: Path,
        env: dict[str, str],
        output: Path,
        timeout: float,
        wire: Wire,
        view: Path | None = None,
    ) -> tuple[int | None, Progress | None] | int:
        """The program's exit status (None when it was stopped at the idle limit, idle.py) and
        how it stood when stopped; or COLD. With `view` (a scratch folder) the program gets its
        own view of the outside places (view.py)."""
        assert self.process.stdin is not None
        with self.lock:
            self.counter += 1
            ident = str(self.counter)
        first = ident == "1"
        if not first:
            self.scouted.wait(SCOUT_WAIT)
        try:
            return self.start(ident, args, cwd, env, output, timeout, wire, view)
        finally:
            if first:
                self.scouted.set()

    def start(
        self,
        ident: str,
        args: list[str],
        cwd: Path,
        env: dict,
        output: Path,
        timeout: float,
        wire: Wire,
        view: Path | None,
    ) -> tuple[int | None, Progress | None] | int:
        """Send job `ident` to the parent and wait for it: `run`'s answer."""
        assert self.process.stdin is not None
        with self.lock:
            job = self.jobs[ident] = Job()
            order: dict[str, object] = {"id": ident, "args": args, "cwd": str(cwd), "env": env}
            order.update(output=str(output), modules=str(self.modules))
            order["view"] = [str(view), *map(str, places(view))] if view else None
            self.process.stdin.write(json.dumps(order) + "\n")
            self.process.stdin.flush()
        job.started.wait()
        if "cold" in job.answers or "pid" not in job.answers:
            self.problem = job.answers.get("cold", f"the warm parent for {self.module} died")
            return COLD
        pid = job.answers["pid"]  # a session of its own: the child calls setsid first
        progress = wait_while_working(job.ended.wait, pid, timeout, wire)
        try:
            os.killpg(pid, signal.SIGKILL)  # at the limit: the program; after: what it left
        except ProcessLookupError:
            pass
        job.ended.wait()
        return (None, progress) if progress else (job.answers.get("status"), None)

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait()
        self.reader.join()


@dataclass
class WarmStarts:
    """One warm parent per module, started on first use; `close` ends them all."""

    scratch: Scratch  # the parents' own working folder, HOME and TMPDIR
    target_env: dict[str | None, Mapping[str, str]]  # each module's target's own variables
    parents: dict[str, WarmParent | None] = field(default_factory=dict)
    cold: dict[str, str] = field(default_factory=dict)  # module -> why it starts cold

    def __post_init__(self) -> None:
        self.lock = threading.Lock()
        self.starting: dict[str, threading.Lock] = {}

    def take(self, module: str) -> WarmParent | None:
        with self.lock:
            starting = self.starting.setdefault(module, threading.Lock())
        with starting:  # one start per module; the others wait for it
            if module not in self.parents:
                # The environment a trial gets, but no model yet (nothing listens on port 9).
                extra = self.target_env.get(module, {})
                env = environment(self.scratch, "http://127.0.0.1:9", extra, None)
                started = WarmParent(module, self.scratch.work, env)
                self.parents[module] = started
                if started.problem is not None:
                    self.cold[module] = started.problem
        parent = self.parents[module]
        return None if parent is None or parent.problem is not None else parent

    def give(self, parent: WarmParent) -> None:
        if parent.problem is not None:
            self.cold[parent.module] = parent.problem

    def close(self) -> None:
        for parent in self.parents.values():
            if parent is not None:
                parent.close()


if __name__ == "__main__":
    sys.exit(serve(sys.argv[1]))
