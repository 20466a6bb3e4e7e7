"""One entry that runs anything against the fake Messages API, and the one record it leaves.

    run(Scenario(...), switches)            the lab's harness, in process        -> Run
    run(harness_function, script, prompt)   a function written to the wire       -> Record
    run(["python", "agent.py"], script)     any program, over loopback           -> Record

The lab's harness over loopback is a program like any other: `python -m lab.probe.own_harness`.
`wire` builds the lab's harness on the fake API (or on a client it is given: a real model, a
loopback URL) without running it, for callers that step it themselves (the notebooks' Stepper,
live mode, the own-harness program). Whatever runs, a `Tap` in front of the fake API writes the
requests as sent, when they were sent and what the fake answered, so the promises
(lab/kernel/promises.py) judge every kind of run from the same Record.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from lab.kernel.record import Ending, Record, Tap, WatchedModel
from lab.kernel.scenario import Run, Scenario, Wired, run_scenario, wire
from lab.model.script import Responder, Step

if TYPE_CHECKING:
    import anthropic


__all__ = [
    "ClientFactory",
    "WireHarness",
    "Wired",
    "run",
    "run_function",
    "run_program",
    "run_scenario",
    "wire",
    "with_sdk_retries",
    "without_sdk_retries",
]

WireHarness = Callable[[Any, str], object]  # (anthropic.Anthropic client, prompt) -> anything
ClientFactory = Callable[[Callable[..., Any]], Any]  # the fake's handler -> a client for it
PROGRAM_TIMEOUT_S = 60.0


# ---------------------------------------------------------------- a function, a program
# The two clients a function under test may get: the SDK on the fake, in process
# (lab.model.client.make_client, on the in-process wiring of lab/model/wiring.py).
def without_sdk_retries(handler: Callable[..., Any]) -> anthropic.Anthropic:
    """For a loop that owns its retries: the SDK's own retries off (max_retries=0), so every
    fault the script plays reaches the harness once (the lab's own harness is built this way)."""
    from lab.model.client import make_client

    return make_client(handler)


def with_sdk_retries(handler: Callable[..., Any]) -> anthropic.Anthropic:
    """The SDK as an application gets it: its default retries (2, with backoff and
    retry-after) on, as a program under `lab probe` has them."""
    from lab.model.client import make_client

    return make_client(handler, sdk_retries=True)


def run_function(
    harness: WireHarness,
    script: Sequence[Step] | Responder,
    prompt: str = "Please help.",
    *,
    client: ClientFactory = with_sdk_retries,
    serve: Callable[[Tap], Callable[..., Any]] | None = None,
    notes: Sequence[Any] | None = None,
) -> Record:
    """Run `harness(client, prompt)` against the fake API playing `script`; `serve` may stand
    in front of the tap (the probe's Recorder does), `notes` is the script's own log when it
    keeps one (the tap's), `client` builds the client."""
    from lab.model.fake_api import FakeMessagesAPI

    api = FakeMessagesAPI(WatchedModel(script))
    tap = Tap(api, notes=notes)
    handler: Callable[..., Any] = serve(tap) if serve is not None else tap
    try:
        harness(client(handler), prompt)
        ending = Ending("returned")
    except Exception as error:
        ending = Ending("raised", True, " ".join(f"{type(error).__name__}: {error}".split()))
    return Record(requests=list(tap.requests), ending=ending)


Stopped = TypeVar("Stopped")  # what a wait says of a program it stopped (None: it ended)


def run_to_end(
    argv: Sequence[str],
    cwd: Path,
    env: Mapping[str, str],
    output: Path,
    wait: Callable[[subprocess.Popen], Stopped | None],
) -> tuple[int | None, str, Stopped | None]:
    """Start a program in its own process group and `wait` for it; then stop whatever of it is
    left. Its output goes to the file `output`, not a pipe: a process it left running holds no
    pipe open. Returns its exit status (None: `wait` stopped it), its output, and what `wait`
    said. (`run_program` waits a fixed time; `lab probe` while the program works: idle.py.)"""
    with output.open("wb") as sink:
        try:
            process = subprocess.Popen(
                list(argv),
                cwd=cwd,
                env=dict(env),
                stdin=subprocess.DEVNULL,
                stdout=sink,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: a stop reaches its children
            )
        except OSError as error:  # no such program, not executable: it never reached the model
            return 127, f"{argv[0]}: {error.strerror or error}", None
    try:
        stopped = wait(process)
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # anything it left behind
        except ProcessLookupError:
            pass
        process.wait()
    status = None if stopped is not None else process.returncode
    return status, output.read_text(encoding="utf-8", errors="replace"), stopped


def within(timeout: float) -> Callable[[subprocess.Popen], str | None]:
    """A wait of at most `timeout` seconds; what it says of a program it had to stop."""

    def wait(process: subprocess.Popen) -> str | None:
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return f"timed out after {timeout:g} s (stopped)"
        return None

    return wait


def run_program(
    argv: Sequence[str],
    script: Sequence[Step] | Responder,
    *,
    cwd: str | None = None,
    timeout: float = PROGRAM_TIMEOUT_S,
) -> Record:
    """Run a program with ANTHROPIC_BASE_URL pointing at the fake API on 127.0.0.1, in `cwd`
    (by default a fresh temporary folder, removed afterwards: nothing lands where you stand)."""
    from lab.model.fake_api import FakeMessagesAPI
    from lab.model.wiring import FAKE_KEY, on_loopback

    tap = Tap(FakeMessagesAPI(WatchedModel(script)))
    with on_loopback(tap) as server, tempfile.TemporaryDirectory(prefix="lab-run-") as scratch:
        env = {**os.environ, "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": FAKE_KEY}
        work = Path(scratch, "work")
        work.mkdir()
        output = Path(scratch, "output.txt")
        status, said, stopped = run_to_end(
            argv, Path(cwd) if cwd else work, env, output, within(timeout)
        )
    if stopped is not None:
        ending = Ending("timeout", True, stopped)
    else:
        lines = said.strip().splitlines()
        line = f"exit status {status}" + (f": {lines[-1]}" if lines else "")
        ending = Ending(f"exit {status}", status != 0, line)
    return Record(requests=list(tap.requests), ending=ending)


def run(target: Scenario | WireHarness | Sequence[str], *args: Any, **options: Any) -> Run | Record:
    """The one entry: a Scenario runs the lab's harness in process (-> Run, whose `.record`
    is the Record); a function runs in process with a client (-> Record); an argv runs as a
    program over loopback (-> Record)."""
    if isinstance(target, Scenario):
        return run_scenario(target, *args, **options)
    if callable(target):
        return run_function(target, *args, **options)
    return run_program(target, *args, **options)
