"""One entry that runs anything against the fake Messages API, and the one record it leaves.

    run(Scenario(...), switches)            the lab's harness, in process        -> Run
    run(harness_function, script, prompt)   a function written to the wire       -> Record
    run(["python", "agent.py"], script)     any program, over loopback           -> Record

The lab's harness over loopback is a program like any other: `python -m lab.probe.own_harness`.
`wire` builds the lab's harness on the fake API (or on a client it is given: a real model, a
loopback URL) without running it, for callers that step it themselves (the notebooks' Stepper,
live mode, the own-harness program). Whatever runs, a `Tap` in front of the fake API writes the
requests as sent, when they were sent and what the fake answered, so the promises
(lab/promises.py) judge every kind of run from the same Record.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lab.model.script import Responder, Step
from lab.record import Ending, Record, Tap, WatchedModel
from lab.scenario import Run, Scenario, Wired, run_scenario, wire

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


def run_program(
    argv: Sequence[str],
    script: Sequence[Step] | Responder,
    *,
    cwd: str | None = None,
    timeout: float = PROGRAM_TIMEOUT_S,
) -> Record:
    """Run a program with ANTHROPIC_BASE_URL pointing at the fake API on 127.0.0.1, in `cwd`
    (by default a fresh temporary folder, removed afterwards: nothing lands where you stand),
    as `lab probe` runs one: stopped once it has been idle for `timeout` seconds (no CPU used,
    no request on its connection: lab/probe/idle.py), so a busy machine never cuts it short."""
    from lab.model.fake_api import FakeMessagesAPI
    from lab.model.wiring import FAKE_KEY, on_loopback
    from lab.probe.idle import run_while_working

    tap = Tap(FakeMessagesAPI(WatchedModel(script)))
    with on_loopback(tap) as server, tempfile.TemporaryDirectory(prefix="lab-run-") as scratch:
        env = {**os.environ, "ANTHROPIC_BASE_URL": server.url, "ANTHROPIC_API_KEY": FAKE_KEY}
        where = Path(cwd or scratch)
        output = Path(scratch) / ".lab-run-output.txt"
        status, said, progress = run_while_working(argv, where, env, output, timeout, tap.wire)
    if progress is not None:
        ending = Ending("timeout", True, progress.line(timeout))
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
