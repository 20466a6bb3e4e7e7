"""Run probe cases against targets: a scratch folder, the fake on loopback, the program, a verdict.

One trial = one case × one target: the case's script is served on 127.0.0.1, the target runs as a
program in its scratch folder with a minimal environment, and the case judges what crossed the
wire, the exit status and the files that appeared. Trials run in parallel, each with its own
server and folder; results come back in a fixed order.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import signal
import subprocess
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace

from lab.probe.cases import CASES, NA, Case, Verdict, judge
from lab.probe.conversation import Conversation
from lab.probe.recorder import Recorder
from lab.probe.sandbox import Scratch, environment, listing, outside_places, written_outside
from lab.probe.target import Target
from lab.probe.trial import Exchange, Exit, Setting, Trial, short
from lab.probe.warm import COLD, WarmStarts, program_args, warm_module

TIMEOUT = 60.0  # seconds a target may take for one case before it is stopped
NOTES = "notes.txt"
OUTPUT_LINES = 30  # lines of the program's output kept as evidence
ERROR_LINE = re.compile(r"^\s*(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception|Exit)\b.*$")


@dataclass(frozen=True)
class Cell:
    """One cell of the matrix: a target, a case, the verdict and (when it ran) the trial."""

    target: str
    case: str
    verdict: Verdict
    trial: Trial | None = None


def canary_for(target: str, case: str) -> str:
    """A canary unique to the target and case, and the same on every run (deterministic output)."""
    digest = hashlib.sha256(f"{target}\0{case}".encode()).hexdigest()[:12]
    return f"lab-canary-{case.lower()}-{digest}"


def fill(call: tuple[str, str], folder: str) -> tuple[str, dict]:
    """A declared call with `{dir}` filled in, its JSON parsed."""
    name, raw = call
    return name, json.loads(raw.replace("{dir}", json.dumps(folder)[1:-1]))


def setting_for(target: Target, case: Case, scratch: Scratch) -> Setting:
    canary = canary_for(target.name, case.id)
    marker = f"[lab probe {case.id}]"
    prompt = (
        f"{marker} A conformance probe of your tool loop. Use your tools when asked to; "
        f"{NOTES} in the working folder holds a test string."
    )
    folder = str(scratch.work)
    denied = fill(target.denied_call, folder) if target.denied_call else None
    return Setting(case.id, canary, fill(target.call, folder), denied, marker, prompt)


def error_line(output: str, status: int | None) -> str:
    """Why a program failed, in one line: the last line that names an exception (a Python
    traceback's last line), else its last line of output."""
    if status == 0:
        return ""
    lines = [line.strip() for line in output.splitlines() if ERROR_LINE.match(line)]
    lines = lines or [line.strip() for line in output.splitlines() if line.strip()]
    return short(lines[-1], 200) if lines else ""


def run_program(
    argv: list[str], scratch: Scratch, env: dict[str, str], timeout: float
) -> tuple[int | None, str]:
    """Start the program cold and run it to its end (or stop its process group at the limit).
    Its output goes to a file, not a pipe: a process it left running holds no pipe open."""
    output = scratch.root / "output.txt"
    with output.open("wb") as sink:
        process = subprocess.Popen(
            argv,
            cwd=scratch.work,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=sink,
            stderr=subprocess.STDOUT,
            start_new_session=True,  # its own process group, so a stop reaches its children
        )
    try:
        status: int | None = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        status = None
    finally:
        try:
            os.killpg(process.pid, signal.SIGKILL)  # anything it left behind
        except ProcessLookupError:
            pass
        process.wait()
    return status, output.read_text(encoding="utf-8", errors="replace")


def run_warm(
    argv: list[str], scratch: Scratch, env: dict[str, str], timeout: float, warm: WarmStarts
) -> tuple[int | None, str] | None:
    """Fork the program from a warm parent (see warm.py); None when it must start cold."""
    module = warm_module(argv)
    parent = warm.take(module) if module else None
    if parent is None:
        return None
    output = scratch.root / "output.txt"
    try:
        status = parent.run(program_args(argv), scratch.work, env, output, timeout)
    finally:
        warm.give(parent)
    if status == COLD:
        return None
    return status, output.read_text(encoding="utf-8", errors="replace")


def run_trial(
    target: Target, case: Case, *, timeout: float = TIMEOUT, warm: WarmStarts | None = None
) -> Cell:
    """One case against one target, judged."""
    from lab.model import FakeMessagesAPI, ScriptedModel
    from lab.model.server import FakeServer

    if (missing := target.missing()) is not None:
        return Cell(target.name, case.id, Verdict(NA, missing))
    if case.needs_denied_call and target.denied_call is None:
        why = "the target declares no deny rule to test (no permission system)"
        return Cell(target.name, case.id, Verdict(NA, why))

    scratch = Scratch.create({NOTES: ""})
    try:
        setting = setting_for(target, case, scratch)
        (scratch.work / NOTES).write_text(
            f"Probe notes. The canary for this run is {setting.canary}.\n", encoding="utf-8"
        )
        stages = case.stages(setting)
        conversation = Conversation(stages, setting.marker)
        recorder = Recorder(FakeMessagesAPI(ScriptedModel(conversation)), conversation.log)
        modes = {s.mode for s in stages if s.mode}
        stream = (modes.pop() == "stream") if len(modes) == 1 else None
        before = scratch.files()
        places = outside_places()
        outside_before = listing(places)
        with FakeServer(recorder) as server:
            env = environment(scratch, server.url, target.env, stream)
            argv = target.argv(setting.prompt, scratch.work)
            ran = run_warm(argv, scratch, env, timeout, warm) if warm else None
            status, output = ran or run_program(argv, scratch, env, timeout)
            hide = {str(scratch.work): "{dir}", str(scratch.root): "{scratch}", server.url: "{url}"}
        new_files = sorted(scratch.files() - before)
        outside = written_outside(outside_before, listing(places))
    finally:
        scratch.remove()

    def clean(text: str) -> str:
        for secret, shown in hide.items():
            text = text.replace(secret, shown)
        return text

    exchanges = [
        Exchange(e.number, e.method, e.path, e.body, e.status, clean(e.answer), e.played)
        for e in recorder.exchanges
    ]
    tail = "\n".join(clean(output).splitlines()[-OUTPUT_LINES:])
    trial = Trial(
        target.name,
        setting,
        stages,
        exchanges,
        Exit(status, error_line(tail, status), timeout),
        new_files,
        tail,
        hide,
        outside_files=outside,
    )
    return Cell(target.name, case.id, with_outside_writes(judge(case, trial), outside), trial)


def with_outside_writes(verdict: Verdict, outside: Sequence[str]) -> Verdict:
    """The verdict, its evidence naming what the target wrote outside its scratch folder."""
    if not outside:
        return verdict
    line = f"wrote outside its scratch folder: {', '.join(outside)}"
    return replace(verdict, evidence=(*verdict.evidence, short(line, 400)))


def select_cases(ids: Sequence[str]) -> list[Case]:
    """Cases by id (case-insensitive), in catalogue order; all when none is named."""
    if not ids:
        return list(CASES)
    known = {c.id.lower(): c for c in CASES}
    unknown = [i for i in ids if i.lower() not in known]
    if unknown:
        raise KeyError(
            f"unknown case {unknown[0]!r}; known cases: {', '.join(c.id for c in CASES)}"
        )
    wanted = {i.lower() for i in ids}
    return [c for c in CASES if c.id.lower() in wanted]


def probe(
    targets: Sequence[Target],
    cases: Sequence[Case],
    *,
    jobs: int | None = None,
    timeout: float = TIMEOUT,
    cold: bool = False,
    on_cell: Callable[[Cell], None] | None = None,
) -> list[Cell]:
    """Every case against every target; cells in target order, then case order.

    Python targets start warm (warm.py) unless `cold`: same verdicts, a second less a trial."""
    pairs = [(t, c) for t in targets for c in cases]
    return probe_pairs(pairs, jobs=jobs, timeout=timeout, cold=cold, on_cell=on_cell)


def probe_pairs(
    pairs: Sequence[tuple[Target, Case]],
    *,
    jobs: int | None = None,
    timeout: float = TIMEOUT,
    cold: bool = False,
    on_cell: Callable[[Cell], None] | None = None,
) -> list[Cell]:
    """Each (target, case) pair once, in parallel; cells in the pairs' order.

    By default two trials per core: a trial mostly waits (on its socket, a retry-after, the
    server's shutdown), so the cores stay busy with twice as many."""
    workers = max(1, jobs or 2 * (os.cpu_count() or 1))

    with warm_starts([t for t, _ in pairs], cold) as warm:

        def one(pair: tuple[Target, Case]) -> Cell:
            cell = run_trial(*pair, timeout=timeout, warm=warm)
            if on_cell is not None:
                on_cell(cell)
            return cell

        with ThreadPoolExecutor(max_workers=workers) as pool:
            return list(pool.map(one, pairs))


@contextmanager
def warm_starts(targets: Sequence[Target], cold: bool = False) -> Iterator[WarmStarts | None]:
    """Warm parents for these targets' Python programs (None when `cold`), ended afterwards."""
    if cold:
        yield None
        return
    parents = Scratch.create({})
    extra = {warm_module(t.argv("", parents.work)): t.env for t in targets}
    warm = WarmStarts(parents, extra)
    try:
        yield warm
    finally:
        warm.close()
        parents.remove()
