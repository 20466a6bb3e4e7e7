"""`lab serve`: an experiment's or a probe case's script on 127.0.0.1, every request logged.

The first four lines printed are what a shell needs to point a harness at it, ready to paste:
`export ANTHROPIC_BASE_URL=http://127.0.0.1:PORT` and `export ANTHROPIC_API_KEY=...` for the
Messages API, `export OPENAI_BASE_URL=http://127.0.0.1:PORT/v1` and `export OPENAI_API_KEY=...`
for the Chat Completions API (the same server and script serve both). Then what
is served (for a probe case: its rule and the canary notes.txt must hold), one line per request
with the fake's verdict, and, when the server stops (Ctrl-C, SIGTERM, or `--until-done`), the
run's verdict: script consumed, rejections, faults — and for a probe case its graded verdict with
the evidence, judged by the same judge `lab probe` uses, and whether the canary came back.

A fault is played once per run: a request that repeats a stage gets the healthy answer (so a
harness that retries can pass). Once the script was answered to its end, a new conversation
starts a new run with `--replay` (the fault again, a verdict per run); without it, it gets the
healthy answers, and the server says so. `--until-done` stops once the script was answered and
the harness hung up, or once `--idle` seconds (default 30) passed without a request after the
first: a harness that stops early does not keep it waiting. The exit status is the probe's
(lab/probe/grades.py): 4 when a served case was not reached, 1 when it reads fail or when the
script was not consumed or a request was rejected, else 0 (non-strict and info are not
failures). What it prints is lab/views/serve_log.py's.

It lasts: what it keeps is bounded by count, not by the requests it answered (a run's first
KEPT requests whole for its verdict, the later ones counted; the fake forgets each request once
it was logged; nothing kept per run but the current one's record and the exit status so far).
"""

from __future__ import annotations

import signal
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from lab.kernel.record import result_text
from lab.kernel.user_code import run_file
from lab.languages.bilingual import Words
from lab.probe.conversation import Played
from lab.probe.grades import counts, exit_status
from lab.probe.trial import Exchange, Exit, Setting, Trial, short

IDLE = 30.0  # seconds without a request after which --until-done stops
KEPT = 100  # a run's requests kept whole for its verdict; the later ones are counted

GREETING = "Hello from the lab's fake Messages API."


class ServeError(Exception):
    """An unknown id or a bad script file: one readable line."""


@dataclass
class Served:
    """What is served: a responder that keeps a `log`, whether it is used up, and a note; for a
    probe case, the case and the run's setting (so its judge can grade each run)."""

    responder: Any
    note: str
    case: Any = None
    setting: Setting | None = None

    @property
    def consumed(self) -> bool:
        return bool(getattr(self.responder, "consumed", False))


class Log(Protocol):
    """Where `lab serve` shows what happens (lab/views/serve_log.py's ServeLog prints it)."""

    def intro(self, served: Served, url: str) -> None: ...
    def exchange(self, exchange: Exchange) -> None: ...
    def say(self, line: str) -> None: ...  # a note for a reader (not in the JSON lines)
    def verdict(self, result: dict[str, Any]) -> None: ...


class Runs:
    """The served script, from the top again for each new run (`replay`): a run ends once its
    script was answered to the end, and the next request that stands at its start (a new
    conversation) begins the next run. Without `replay` that request gets the healthy answers,
    and `unreplayed` counts it. A run that goes on past its script's end keeps at most 2 x KEPT
    of its responder's records, the newest (it stays consumed: decided before any is let go)."""

    def __init__(self, make: Callable[[], Any], replay: bool) -> None:
        self.make = make
        self.replay = replay
        self.current = make()
        self.log: deque[Played] = deque(maxlen=1)  # the newest record (the Recorder reads it)
        self.number = 1
        self.unreplayed = 0
        self.was_consumed = False  # the current run's script was answered to its end

    @property
    def consumed(self) -> bool:
        self.was_consumed = self.was_consumed or bool(self.current.consumed)
        return self.was_consumed

    @property
    def stages(self) -> Any:
        return getattr(self.current, "stages", None)

    def starts_over(self, request: Any) -> bool:
        stage_of = getattr(self.current, "stage_of", None)  # an in-order script: any request
        return self.consumed and (stage_of is None or stage_of(request.messages) == 0)

    def __call__(self, request: Any) -> Any:
        if self.starts_over(request):
            if self.replay:
                self.current, self.number = self.make(), self.number + 1
                self.was_consumed = False
            else:
                self.unreplayed += 1
        step = self.current(request)
        record = self.current.log
        self.log.append(record[-1])
        if len(record) > 2 * KEPT and self.consumed:  # a run past its script: bounded
            del record[:-KEPT]
        return step


class Greeter:
    """No script: every request gets the same short text answer (used up once it was given)."""

    def __init__(self) -> None:
        self.log: deque[Played] = deque(maxlen=1)  # the newest record (the Recorder reads it)
        self.answered = 0

    @property
    def consumed(self) -> bool:
        return self.answered > 0

    def __call__(self, request: Any) -> Any:
        from lab.model import turn
        from lab.probe.conversation import Played

        step = turn(GREETING)
        self.log.append(Played(self.answered, None, 1, "answer", step, request.stream, False))
        self.answered += 1
        return step


def load_script_file(path: Path) -> list:
    try:
        module = run_file(path, f"lab_served_{path.stem}")
    except Exception as error:
        raise ServeError(f"{path}: {type(error).__name__}: {error}") from None
    script = getattr(module, "SCRIPT", None)
    if not isinstance(script, list) or not script:
        raise ServeError(f"{path}: defines no SCRIPT = [turn(...), ...]")
    return script


def resolve(ident: str | None, call: str | None, replay: bool = False) -> Served:
    """What `lab serve ID` serves: nothing named, a script file, a probe case or an experiment."""
    from lab.probe.conversation import Conversation, ScriptError, stages_from_script

    if ident is None:
        said = Words(
            "no script: every request gets a short text answer",
            "没有脚本：每个请求都得到一句简短的文本回答",
        )
        return Served(Greeter(), said)
    path = Path(ident)
    if path.suffix == ".py":
        if not path.is_file():
            raise ServeError(f"{ident}: no such script file")
        try:
            stages = stages_from_script(load_script_file(path))
        except ScriptError as error:
            raise ServeError(f"{path}: {error}") from None
        note = Words(
            f"the script in {path}: {len(stages)} answers, asked for by content",
            f"{path} 里的脚本：{len(stages)} 个回答，按请求的内容取用",
        )
        return Served(Runs(lambda: Conversation(stages, marker=""), replay), note)
    from lab.probe.catalogue import BY_ID

    cases = {k.lower(): v for k, v in BY_ID.items()}
    if ident.lower() in cases:
        return served_case(cases[ident.lower()], call, replay)
    if call is not None:
        raise ServeError("--call goes with a probe case id (P1, P2, ...)")
    return served_experiment(ident, replay)


def served_case(case: Any, call: str | None, replay: bool = False) -> Served:
    from lab.probe.bench import canary_for, fill
    from lab.probe.conversation import Conversation
    from lab.probe.target import READ_NOTES
    from lab.probe.targets import LAB_DENIED_CALL, TargetError, parse_call

    try:
        declared = parse_call(call) if call else READ_NOTES
    except TargetError as error:
        raise ServeError(str(error)) from None
    folder = str(Path.cwd())
    canary = canary_for("serve", case.id)
    denied = fill(LAB_DENIED_CALL, folder)
    setting = Setting(case.id, canary, fill(declared, folder), denied, "", "")
    stages = case.script(setting)
    note = Words(  # the probe's catalogue is English: its title is quoted as data
        f"probe case {case.id} ({case.title}): {len(stages)} answers",
        f"探针用例 {case.id}（“{case.title}”）：{len(stages)} 个回答",
    )
    runs = Runs(lambda: Conversation(stages, marker=""), replay)
    return Served(runs, note, case, setting)


def served_experiment(ident: str, replay: bool = False) -> Served:
    from lab.chapter.experiment import ExperimentError, load_all, select
    from lab.probe.recorder import InOrder

    try:
        (experiment,) = select(load_all(), [ident])
    except ExperimentError as error:
        raise ServeError(f"{error} (or a probe case P1, P1s, ..., or a FILE.py)") from None
    script = experiment.scenario.script
    if callable(script):
        raise ServeError(f"{experiment.id}'s script is a responder: it cannot be served alone")
    title = experiment.title
    note = Words(
        f"experiment {experiment.id} ({title['en']}): {len(script)} answers, in order",
        f"实验 {experiment.id}（{title['zh']}）：{len(script)} 个回答，按顺序",
    )
    return Served(Runs(lambda: InOrder(list(script)), replay), note)


# ---------------------------------------------------------------- judging a run by hand
class UnseenExit(Exit):
    """`lab serve` does not start the harness, so it never sees how it ended: judged as a clean
    end, and the evidence says so."""

    def line(self) -> str:
        return "exit status not seen (lab serve does not start the harness): taken as 0"


def folder_files(folder: Path) -> set[str]:
    """The files at the top of the folder the harness runs in (P11's canary file lands there)."""
    try:
        return {p.name for p in folder.iterdir() if p.is_file()}
    except OSError:
        return set()


def canary_line(trial: Trial) -> str:
    """Whether the canary came back in a tool_result, and where first."""
    for exchange in trial.exchanges:
        for message in exchange.messages:
            content = message.get("content") if isinstance(message, dict) else None
            for block in content if isinstance(content, list) else []:
                if isinstance(block, dict) and block.get("type") == "tool_result":
                    if trial.setting.canary in result_text(block):
                        return f"came back (request #{exchange.number})"
    return (
        f"never came back (a harness whose call runs reads {trial.setting.canary} "
        "from notes.txt in its working folder)"
    )


def judged(served: Served, exchanges: list[Exchange], new_files: list[str]) -> dict[str, Any]:
    """A probe case's verdict on one run: the case's judge (the one `lab probe` uses) on a Trial
    built from what the server saw."""
    from lab.probe.verdict import verdict
    from lab.probe.wire_promises import ended

    assert served.setting is not None
    stages = served.responder.stages
    trial = ended(Trial("serve", served.setting, stages, exchanges, UnseenExit(0), new_files))
    graded = verdict(served.case, trial)
    return {
        "id": served.case.id,
        "grade": graded.kind,
        "because": graded.because,
        "evidence": list(graded.evidence),
        "canary": canary_line(trial),
    }


@dataclass
class RunRecord:
    """One run's requests as its verdict needs them, bounded however long the run: the first
    KEPT whole (a run plays its script at its start, and the case's judge reads them), the
    later ones counted, with the lines of those rejected or faulted (the first KEPT of each,
    the others counted in `not_listed`)."""

    kept: list[Exchange] = field(default_factory=list)
    later: int = 0  # requests past the kept ones
    later_lines: dict[str, list[str]] = field(
        default_factory=lambda: {"rejections": [], "faults": []}
    )
    not_listed: dict[str, int] = field(default_factory=lambda: {"rejections": 0, "faults": 0})

    def add(self, exchange: Exchange) -> None:
        if len(self.kept) < KEPT:
            self.kept.append(exchange)
            return
        self.later += 1
        fault = exchange.played is not None and exchange.played.kind == "fault"
        kind = "rejections" if exchange.rejected else "faults" if fault else None
        if kind is None:
            return
        if len(self.later_lines[kind]) < KEPT:
            self.later_lines[kind].append(short(exchange.line(), 400))
        else:
            self.not_listed[kind] += 1

    def summary(self, consumed: bool) -> dict[str, Any]:
        from lab.probe.recorder import summary

        result = summary(self.kept, consumed)
        if self.later:  # said only when it happened: a run's usual verdict is unchanged
            result["requests"] += self.later
            for kind, lines in self.later_lines.items():
                result[kind] += lines
            result["judged_on"] = f"its first {len(self.kept)} requests (the later ones counted)"
            if any(self.not_listed.values()):
                result["not_listed"] = dict(self.not_listed)
        return result


@dataclass
class Watch:
    """The runs of one `lab serve`: the current run's record, each run's verdict as it ends,
    and the exit status so far (nothing kept per request or per run beyond the current one)."""

    served: Served
    log: Log
    folder: Path = field(default_factory=Path.cwd)

    def __post_init__(self) -> None:
        self.run, self.noted = 1, False
        self.grades: set[str] = set()  # the counted grades seen so far (exit policy)
        self.failed = False  # a run left its script unconsumed or had a request rejected
        self.record = RunRecord()
        self.before = folder_files(self.folder)
        self.last_request: float | None = None  # the idle clock starts at the first request

    def idle_for(self) -> float:
        return 0.0 if self.last_request is None else time.monotonic() - self.last_request

    def exchange(self, exchange: Exchange) -> None:
        """A request was answered; one that begins a new run ends the previous."""
        self.last_request = time.monotonic()
        number = getattr(self.served.responder, "number", 1)
        if number != self.run:
            self.finish(consumed=True)
            self.record, self.run = RunRecord(), number
        self.record.add(exchange)
        self.log.exchange(exchange)
        if getattr(self.served.responder, "unreplayed", 0) and not self.noted:
            self.noted = True
            self.log.say(
                Words(
                    "# a new conversation after the script's end: the fault was played once, "
                    "so it gets the healthy answers (--replay plays it to every new run)",
                    "# 脚本放完之后又来了一段新对话：故障只放一次，所以它拿到的是健康的回答"
                    "（--replay 对每段新对话都重放）",
                )
            )

    def finish(self, consumed: bool) -> None:
        result = self.record.summary(consumed)
        if self.served.case is not None:
            new_files = sorted(folder_files(self.folder) - self.before)
            result["case"] = judged(self.served, self.record.kept, new_files)
        if getattr(self.served.responder, "replay", False):
            result["run"] = self.run
            self.log.say(Words(f"run {self.run}:", f"第 {self.run} 次运行："))
        grade = result.get("case", {}).get("grade")
        if grade is not None and counts(grade, True, True):
            self.grades.add(grade)
        self.failed |= not result["script_consumed"] or bool(result["rejections"])
        self.log.verdict(result)

    @property
    def status(self) -> int:
        """The grades' exit policy (lab/probe/grades.py): a served case is claimed and its
        harness is the program under test; a run that left the script unconsumed or had a
        request rejected fails too."""
        return exit_status(self.grades, self.failed)


def serve_command(
    ident: str | None,
    port: int,
    log: Log,
    call: str | None,
    until_done: bool,
    replay: bool = False,
    idle: float = IDLE,
) -> int:
    served = resolve(ident, call, replay)
    done = threading.Event()
    watch = Watch(served, log)

    def logged(exchange: Exchange) -> None:
        if until_done and served.consumed and not replay:
            done.set()

    server = loopback_server(answering(served, watch, logged), port)
    previous = signal.signal(signal.SIGTERM, lambda *_: done.set())
    try:
        with server:
            log.intro(served, server.url)
            try:
                while not done.wait(0.2):
                    if until_done and watch.idle_for() > idle:
                        log.say(
                            Words(
                                f"# no request for {idle:g} s: stopping (--idle)",
                                f"# {idle:g} 秒没有请求：停下（--idle）",
                            )
                        )
                        break
            except KeyboardInterrupt:
                pass
            finish_answers()
    finally:
        signal.signal(signal.SIGTERM, previous)
    watch.finish(served.consumed)
    return watch.status


def answering(served: Served, watch: Watch, then: Callable[[Exchange], None]) -> Any:
    """The fake API that answers for `lab serve`: each exchange goes to `watch`, then to `then`,
    and nothing is kept per request (neither the tap nor the Recorder keeps an exchange, the
    fake forgets each one once it was logged), so a server that answers for days stays the size
    it started."""
    from lab.kernel.record import Tap, WatchedModel
    from lab.model import FakeMessagesAPI
    from lab.probe.recorder import Recorder

    api = FakeMessagesAPI(WatchedModel(served.responder))

    def logged(exchange: Exchange) -> None:
        api.forget()  # the exchange holds what lab serve reads
        watch.exchange(exchange)
        then(exchange)

    return Recorder(Tap(api, notes=served.responder.log, keep=False), logged, keep=False)


def loopback_server(api: Any, port: int) -> Any:
    """The fake on loopback at `port` (0: any free port); a port taken is a usage error."""
    from lab.model.wiring import on_loopback

    try:
        return on_loopback(api, port=port)
    except OSError as error:
        raise ServeError(f"--port {port}: {error.strerror or error}") from None


def finish_answers(timeout: float = 10.0) -> None:
    """Let the answers being written finish before the server closes (its threads are daemons):
    wait for each connection to end — a harness that exits hangs up; an idle one is let go by
    the server after its keep-alive timeout."""
    for thread in threading.enumerate():
        if thread is not threading.current_thread() and "process_request" in thread.name:
            thread.join(timeout)
