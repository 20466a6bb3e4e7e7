"""Run probe cases against targets: a scratch folder, the fake on loopback, the program, a verdict.

One trial = one case × one target × one answer mode: the case's script is served on 127.0.0.1,
the target runs as a program in its scratch folder with a minimal environment, and the case
judges what crossed the wire, the exit status and the files that appeared. A case with no fixed
mode runs twice (LAB_PROBE_STREAM=0, then 1); its cell shows the worse outcome and the mode that
produced it, the other mode's outcome in its evidence. Trials run in parallel, each with its own
server and folder; results come back in a fixed order.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, replace

from lab.kernel.record import Tap, WatchedModel
from lab.kernel.runner import run_to_end
from lab.probe.cases import script_tools
from lab.probe.catalogue import BY_ID, CASES
from lab.probe.confinement import Scratch, environment, listing, outside_places, written_outside
from lab.probe.conversation import Conversation
from lab.probe.grades import Verdict, worse
from lab.probe.idle import Progress, Wire, while_working
from lab.probe.recorder import Recorder
from lab.probe.target import Target
from lab.probe.trial import Exit, Setting, Trial, short
from lab.probe.verdict import Case, verdict
from lab.probe.view import wrapped, written
from lab.probe.warm import WarmStarts, program_args, warm_module
from lab.probe.wire_promises import ended

# What a program run comes back with: its exit status (None: stopped at the limit), its output,
# and how it stood when it was stopped (None: it ended by itself).
Ran = tuple[int | None, str, Progress | None]

TIMEOUT = 60.0  # seconds a target may stay idle in one case before it is stopped (idle.py)
NOTES = "notes.txt"
OUTPUT_LINES = 30  # lines of the program's output kept as evidence
# A line that names an exception: Python's `ValueError: ...`, Node's `Error: ...` or
# `TypeError [ERR_X]: ...`, `Uncaught AbortError: ...`.
ERROR_LINE = re.compile(
    r"^\s*(?:Uncaught )?(?:[\w.]+\.)?(?:[A-Z]\w*)?(?:Error|Exception|Exit)\b.*$"
)
# Lines a runtime prints after the error that say nothing about it: Node's version banner, a
# stack frame, the caret under the thrown line, and the brackets that close a dumped error object.
BANNER = re.compile(r"^\s*(?:Node\.js v\d|at |\^+$|[\]}),;]+$)")
MODES = {"json": False, "stream": True}
TRIALS_PER_CORE = 3
# Seconds a trial of these cases takes, roughly (measured on the built-in targets): retries
# with backoff (P15, P7, P16), retry-after (P6, P14), a long run with large answers (P22: a
# framework that handles each streamed chunk in Python spends ~30 CPU seconds on it). Started
# first, so none is left running alone at the end.
SLOW = {"P15": 30, "P22": 20, "P14": 12, "P6": 12, "P7": 3, "P16": 3}


@dataclass(frozen=True)
class Cell:
    """One cell of the matrix: a target, a case, the verdict and (when it ran) the trial.

    `mode` is the answer mode of the deciding trial (None: the case has no trial or one
    fixed mode); `other` is the cell of the other mode, when the case ran in both."""

    target: str
    case: str
    verdict: Verdict
    trial: Trial | None = None
    mode: str | None = None
    other: Cell | None = None
    argv: tuple[str, ...] = ()  # how the target was run (the prompt last)
    stream: bool | None = None  # the LAB_PROBE_STREAM the target was given

    @property
    def trials(self) -> list[Trial]:
        mine = [self.trial] if self.trial else []
        return mine + (self.other.trials if self.other else [])

    @property
    def title(self) -> str:
        """The case's title in the words of the wire its program spoke."""
        case = BY_ID.get(self.case)
        return case.title_on(self.trial.wire if self.trial else None) if case else ""


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
    final = fill(target.final_call, folder) if target.final_call else None
    return Setting(case.id, canary, fill(target.call, folder), denied, marker, prompt, final)


def error_line(output: str, status: int | None) -> str:
    """Why a program failed, in one line: the last line that names an exception (a Python
    traceback's last line), else its last line of output."""
    if status == 0:
        return ""
    said = [line.strip() for line in output.splitlines() if line.strip()]
    lines = [line for line in said if ERROR_LINE.match(line)]
    lines = lines or [line for line in said if not BANNER.match(line)]
    return short(lines[-1], 200) if lines else ""


def run_warm(
    argv: list[str],
    scratch: Scratch,
    env: dict[str, str],
    timeout: float,
    wire: Wire,
    warm: WarmStarts,
    own_view: bool = False,
) -> Ran | None:
    """Fork the program from a warm parent (see warm.py); None when it must start cold."""
    module = warm_module(argv)
    parent = warm.take(module) if module else None
    if parent is None:
        return None
    output = scratch.root / "output.txt"
    try:
        view = scratch.root if own_view else None
        ran = parent.run(program_args(argv), scratch.work, env, output, timeout, wire, view)
    finally:
        warm.give(parent)
    if isinstance(ran, int):  # COLD
        return None
    status, progress = ran
    return status, output.read_text(encoding="utf-8", errors="replace"), progress


def case_modes(case: Case) -> list[bool | None]:
    """The LAB_PROBE_STREAM values a case runs with: its one fixed mode, or both."""
    stages = case.script(Setting(case.id, "", ("read_file", {}), ("bash", {}), "", ""))
    modes = {s.mode for s in stages if s.mode}
    if len(modes) == 1:
        return [MODES[modes.pop()]]
    return [False, True]


def run_trial(
    target: Target,
    case: Case,
    *,
    timeout: float = TIMEOUT,
    warm: WarmStarts | None = None,
    stream: bool | None = None,
) -> Cell:
    """One case against one target in one answer mode (None: the case's own), judged."""
    from lab.model import FakeMessagesAPI
    from lab.model.wiring import on_loopback

    if (missing := target.missing()) is not None:
        return Cell(target.name, case.id, verdict(case, None, missing))
    if case.needs_denied_call and target.denied_call is None:
        why = "the target declares no deny rule to test (no permission system)"
        return Cell(target.name, case.id, verdict(case, None, why))
    if target.wire is not None and target.wire in case.off_wire:  # its verdict would be n/a
        why = f"{case.off_wire[target.wire]} ({target.wire} wire)"
        return Cell(target.name, case.id, verdict(case, None, why))

    scratch = Scratch.create({NOTES: ""})
    try:
        setting = setting_for(target, case, scratch)
        (scratch.work / NOTES).write_text(
            f"Probe notes. The canary for this run is {setting.canary}.\n", encoding="utf-8"
        )
        for name, content in case.files:
            (scratch.work / name).write_bytes(content)
        stages = case.script(setting)
        conversation = Conversation(stages, setting.marker, tools=script_tools(setting))
        # Besides Steps, a conversation may play an HtmlPage (a proxy's error page), not a Step.
        model = WatchedModel(conversation)  # type: ignore[arg-type]
        recorder = Recorder(Tap(FakeMessagesAPI(model), notes=conversation.log))
        modes = {s.mode for s in stages if s.mode}
        if stream is None and len(modes) == 1:
            stream = modes.pop() == "stream"
        before = scratch.files()
        places = outside_places()  # the degraded alternative to a view of its own (view.py)
        outside_before = listing(places)
        with on_loopback(recorder) as server:
            env = environment(scratch, server.url, {**target.env, **dict(case.asks)}, stream)
            argv = target.argv(setting.prompt, scratch.work)
            own_view = places != []  # under `lab probe`: see outside_places
            wire = recorder.wire
            warmed = warm if warm and target.warm else None
            ran = run_warm(argv, scratch, env, timeout, wire, warmed, own_view) if warmed else None
            cold = wrapped(argv, scratch.root) if own_view else argv
            output_file = scratch.root / "output.txt"
            status, output, progress = ran or run_to_end(
                cold, scratch.work, env, output_file, while_working(timeout, wire)
            )
            hide = {str(scratch.work): "{dir}", str(scratch.root): "{scratch}", server.url: "{url}"}
        new_files = sorted(scratch.files() - before)
        outside = written(scratch.root)
        if outside is None:  # no view of its own: every process's writes, the listing's
            outside = written_outside(outside_before, listing(places))
    finally:
        scratch.remove()

    def clean(text: str) -> str:
        for secret, shown in hide.items():
            text = text.replace(secret, shown)
        return text

    exchanges = [replace(e, answer=clean(e.answer)) for e in recorder.exchanges]
    tail = "\n".join(clean(output).splitlines()[-OUTPUT_LINES:])
    trial = ended(  # its record filled once, here, as the run ended
        Trial(
            target.name,
            setting,
            stages,
            exchanges,
            # The error line is read from the whole output: a dumped error object (Node prints its
            # properties after the message) can push the message out of the last lines.
            Exit(status, error_line(clean(output), status), timeout, progress),
            new_files,
            tail,
            hide,
            outside_files=outside,
            forced_wire=target.wire,
        )
    )
    graded = with_facts(with_outside_writes(verdict(case, trial), outside), case.id, trial)
    mode = asked_mode(trial)
    shown_argv = tuple(clean(word) for word in argv)
    return Cell(target.name, case.id, graded, trial, mode, None, shown_argv, stream)


def asked_mode(trial: Trial) -> str | None:
    """The answer mode the target asked for in its first script request."""
    first = next((e.played for e in trial.exchanges if e.in_script and e.played), None)
    if first is None:
        return None
    return "stream" if first.stream else "json"


def the_worse(cells: Sequence[Cell]) -> Cell:
    """One cell from a case's trials in both modes: the worse outcome (the JSON one on a tie),
    the other mode's outcome in its evidence."""
    if len(cells) == 1:
        return cells[0]
    decided, other = cells
    if worse(decided.verdict.kind, other.verdict.kind) != decided.verdict.kind:
        decided, other = other, decided
    said, also = decided.verdict, other.verdict
    if (said.kind, said.because) == (also.kind, also.because):
        note = "the same in the other answer mode"
    elif decided.mode is not None and decided.mode == other.mode:
        note = f"the target asked for {decided.mode} answers both times (it ignores "
        note += "LAB_PROBE_STREAM)"
    else:
        note = f"in {other.mode or 'the other'} mode: {also.kind}: {also.because}"
    return replace(decided, verdict=noted(said, note), other=other)


def noted(said: Verdict, line: str) -> Verdict:
    """The verdict with one more line of evidence (its grade and reason unchanged)."""
    return replace(said, evidence=(*said.evidence, line))


def with_outside_writes(said: Verdict, outside: Sequence[str]) -> Verdict:
    """The verdict, its evidence naming what the target wrote outside its scratch folder."""
    if not outside:
        return said
    return noted(said, short(f"wrote outside its scratch folder: {', '.join(outside)}", 400))


# Facts a reader of a case's cell needs beside the judge's evidence: P4's invalid streamed JSON
# is something a harness had to expect only if it asked for fine-grained tool streaming.
CASE_FACTS: dict[str, Callable[[Trial], str]] = {"P4": Trial.fine_grained_streaming}


def with_facts(said: Verdict, case: str, trial: Trial) -> Verdict:
    """The verdict, its evidence ending with the case's facts (CASE_FACTS)."""
    fact = CASE_FACTS.get(case)
    return noted(said, fact(trial)) if fact else said


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

    The lab's own Python targets start warm (warm.py) unless `cold`: same verdicts, a second less
    a trial."""
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

    By default three trials per core: a trial mostly waits (on its socket, a retry-after, a
    harness's own backoff, the time limit of one that never ends), so the cores stay busy only
    with several at once; the probe judges waits from below (at least retry-after), so a loaded
    machine makes no wait pass. Each target's quickest trial starts first: a warm target's
    first trial runs alone (warm.py), its others wait for it. Then the longest trials (`SLOW`)."""
    workers = max(1, jobs or TRIALS_PER_CORE * (os.cpu_count() or 1))
    runs = [(t, c, s) for t, c in pairs for s in case_modes(c)]
    slow = [SLOW.get(c.id, 0) for _, c, _ in runs]
    quickest: dict[int, int] = {}  # each target's quickest run
    for k, (target, _, _) in enumerate(runs):
        if id(target) not in quickest or slow[k] < slow[quickest[id(target)]]:
            quickest[id(target)] = k
    scouts = set(quickest.values())
    order = sorted(range(len(runs)), key=lambda k: (k not in scouts, -slow[k]))

    with warm_starts([t for t, _ in pairs if t.warm], cold) as warm:

        def one(run: tuple[Target, Case, bool | None]) -> Cell:
            target, case, stream = run
            return run_trial(target, case, timeout=timeout, warm=warm, stream=stream)

        with ThreadPoolExecutor(max_workers=workers) as pool:
            started = {k: pool.submit(one, runs[k]) for k in order}
            done = [started[k].result() for k in range(len(runs))]
    cells = []
    for target, case in pairs:
        mine = [c for (t, k, _), c in zip(runs, done, strict=True) if (t, k) == (target, case)]
        cells.append(the_worse(mine))
        if on_cell is not None:
            on_cell(cells[-1])
    return cells


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
