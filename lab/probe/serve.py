"""`lab serve`: an experiment's or a probe case's script on 127.0.0.1, every request logged.

The first line printed is `ANTHROPIC_BASE_URL=http://127.0.0.1:PORT` (so `eval`/`export` can use
it); then one line per request with the fake's verdict; when the server stops (Ctrl-C, SIGTERM,
or `--until-done` once the whole script was answered), the run's verdict: script consumed,
rejections, faults. Exit status 0 when the script was consumed and no request was rejected.
"""

from __future__ import annotations

import importlib.util
import json
import signal
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab.probe.trial import Exchange

GREETING = "Hello from the lab's fake Messages API."


class ServeError(Exception):
    """An unknown id or a bad script file: one readable line."""


@dataclass
class Served:
    """What is served: a responder that keeps a `log`, whether it is used up, and a note."""

    responder: Any
    note: str

    @property
    def consumed(self) -> bool:
        return bool(getattr(self.responder, "consumed", False))


class Greeter:
    """No script: every request gets the same short text answer (used up once it was given)."""

    def __init__(self) -> None:
        self.log: list = []

    @property
    def consumed(self) -> bool:
        return bool(self.log)

    def __call__(self, request: Any) -> Any:
        from lab.model import turn
        from lab.probe.conversation import Played

        step = turn(GREETING)
        self.log.append(Played(len(self.log), None, 1, "answer", step, request.stream, False))
        return step


def load_script_file(path: Path) -> list:
    spec = importlib.util.spec_from_file_location(f"lab_served_{path.stem}", path)
    if spec is None or spec.loader is None:
        raise ServeError(f"{path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    try:
        spec.loader.exec_module(module)
    except Exception as error:
        raise ServeError(f"{path}: {type(error).__name__}: {error}") from None
    script = getattr(module, "SCRIPT", None)
    if not isinstance(script, list) or not script:
        raise ServeError(f"{path}: defines no SCRIPT = [turn(...), ...]")
    return script


def resolve(ident: str | None, call: str | None) -> Served:
    """What `lab serve ID` serves: nothing named, a script file, a probe case or an experiment."""
    from lab.probe.conversation import Conversation, ScriptError, stages_from_script

    if ident is None:
        return Served(Greeter(), "no script: every request gets a short text answer")
    path = Path(ident)
    if path.suffix == ".py":
        if not path.is_file():
            raise ServeError(f"{ident}: no such script file")
        try:
            stages = stages_from_script(load_script_file(path))
        except ScriptError as error:
            raise ServeError(f"{path}: {error}") from None
        note = f"the script in {path}: {len(stages)} answers, asked for by content"
        return Served(Conversation(stages, marker=""), note)
    from lab.probe.catalogue import BY_ID

    cases = {k.lower(): v for k, v in BY_ID.items()}
    if ident.lower() in cases:
        return served_case(cases[ident.lower()], call)
    if call is not None:
        raise ServeError("--call goes with a probe case id (P1, P2, ...)")
    return served_experiment(ident)


def served_case(case: Any, call: str | None) -> Served:
    from lab.probe.bench import canary_for, fill
    from lab.probe.conversation import Conversation
    from lab.probe.target import READ_NOTES
    from lab.probe.targets import LAB_DENIED_CALL, TargetError, parse_call
    from lab.probe.trial import Setting

    try:
        declared = parse_call(call) if call else READ_NOTES
    except TargetError as error:
        raise ServeError(str(error)) from None
    folder = str(Path.cwd())
    canary = canary_for("serve", case.id)
    denied = fill(LAB_DENIED_CALL, folder)
    setting = Setting(case.id, canary, fill(declared, folder), denied, "", "")
    stages = case.stages(setting)
    note = (
        f"probe case {case.id} ({case.title}): {len(stages)} answers; kept when "
        f"{case.kept_when}; notes.txt should hold the canary {canary}"
    )
    return Served(Conversation(stages, marker=""), note)


def served_experiment(ident: str) -> Served:
    from lab.experiment import ExperimentError, load_all, select
    from lab.probe.recorder import InOrder

    try:
        (experiment,) = select(load_all(), [ident])
    except ExperimentError as error:
        raise ServeError(f"{error} (or a probe case P1, P1s, ..., or a FILE.py)") from None
    script = experiment.scenario.script
    if callable(script):
        raise ServeError(f"{experiment.id}'s script is a responder: it cannot be served alone")
    note = f"experiment {experiment.id} ({experiment.title['en']}): {len(script)} answers, in order"
    return Served(InOrder(list(script)), note)


def exchange_line(exchange: Exchange, as_json: bool) -> str:
    if as_json:
        return json.dumps(
            {
                "request": exchange.number,
                "method": exchange.method,
                "path": exchange.path,
                "status": exchange.status,
                "answer": exchange.answer,
            },
            ensure_ascii=False,
        )
    return f"#{exchange.number} {exchange.method} {exchange.path} → {exchange.answer}"


def verdict_lines(summary: dict[str, Any], as_json: bool) -> list[str]:
    if as_json:
        return [json.dumps({"verdict": summary}, ensure_ascii=False)]
    consumed = "yes" if summary["script_consumed"] else "no"
    lines = [
        f"verdict: {summary['requests']} request(s); script consumed: {consumed}; "
        f"rejections: {len(summary['rejections'])}; faults: {len(summary['faults'])}"
    ]
    lines += [f"  rejected: {line}" for line in summary["rejections"]]
    lines += [f"  fault: {line}" for line in summary["faults"]]
    return lines


def serve_command(
    ident: str | None, port: int, as_json: bool, call: str | None, until_done: bool
) -> int:
    from lab.model import FakeMessagesAPI, ScriptedModel
    from lab.probe.recorder import Recorder, summary

    served = resolve(ident, call)
    done = threading.Event()

    def logged(exchange: Exchange) -> None:
        print(exchange_line(exchange, as_json), flush=True)
        if until_done and served.consumed:
            done.set()

    recorder = Recorder(FakeMessagesAPI(ScriptedModel(served.responder)), served.responder.log)
    recorder.on_exchange = logged
    server = loopback_server(recorder, port)
    previous = signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        with server:
            print(f"ANTHROPIC_BASE_URL={server.url}", flush=True)
            if not as_json:
                print(f"serving {served.note}", flush=True)
            try:
                while not done.wait(0.2):
                    pass
            except KeyboardInterrupt:
                pass
            finish_answers()
    finally:
        signal.signal(signal.SIGTERM, previous)
    result = summary(recorder.exchanges, served.consumed)
    for line in verdict_lines(result, as_json):
        print(line, flush=True)
    return 0 if result["script_consumed"] and not result["rejections"] else 1


def loopback_server(api: Any, port: int) -> Any:
    """A FakeServer on `port` (0: any free port)."""
    from lab.model.server import FakeServer

    try:
        return FakeServer(api, port)
    except OSError as error:
        raise ServeError(f"--port {port}: {error.strerror or error}") from None


def finish_answers(timeout: float = 10.0) -> None:
    """Let the answers being written finish before the server closes (its threads are daemons):
    wait for each connection to end — a harness that exits hangs up; an idle one is let go by
    the server after its keep-alive timeout."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and "process_request" in thread.name:
            thread.join(timeout)
