"""Renderings of outcomes and runs with rich: verdict tables, turn-by-turn transcripts, JSON,
two runs side by side with their first divergence marked, and trays on the virtual clock."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from lab.experiment import MECHANISMS, Experiment, Outcome
from lab.scenario import Run
from lab.switches import Switches, switch_info, switch_names
from lab.trace import (
    ApiRejected,
    BatchRan,
    CheckFailed,
    CheckPassed,
    Event,
    GateDecision,
    HistoryTrimmed,
    HookFailed,
    HookFired,
    HookSkipped,
    HumanAsked,
    ModelAnswered,
    ModelCalled,
    ResultAppended,
    ResultSpilled,
    RunEnded,
    RunStarted,
    StopContinued,
    ToolCallSeen,
    ToolExecuted,
    ToolRefused,
)

WORDS = {
    "en": {
        "switch": "switch",
        "observable": "observable",
        "before": "before",
        "after": "after",
        "expected": "expected",
        "verdict": "verdict",
        "ok": "✓ reproduced",
        "bad": "✗ deviated",
        "takeaway": "takeaway",
        "summary": "{n} of {total} experiments reproduced their expected degradation.",
        "rerun": "rerun: {command}",
        "errors": "{n} could not run: the error is under its heading above.",
        "error": "error",
        "baseline": "baseline",
        "degraded": "degraded",
    },
    "zh": {
        "switch": "改动",
        "observable": "观测量",
        "before": "之前",
        "after": "之后",
        "expected": "预期",
        "verdict": "判定",
        "ok": "✓ 复现",
        "bad": "✗ 偏离",
        "takeaway": "口播落点",
        "summary": "{total} 个实验中 {n} 个复现了预期的退化。",
        "rerun": "重跑：{command}",
        "errors": "{n} 个实验无法运行：错误写在各自标题下。",
        "error": "错误",
        "baseline": "基线",
        "degraded": "退化",
    },
}


def show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def flips_text(flips: dict[str, Any]) -> str:
    return ", ".join(f"Switches.{name} = {value}" for name, value in flips.items())


def heading(experiment: Experiment, lang: str) -> Text:
    mechanism = MECHANISMS[experiment.mechanism][0 if lang == "en" else 1]
    return Text.assemble(
        (f"{experiment.id}", "bold"),
        f" · {experiment.mechanism} {mechanism} · ",
        (experiment.title[lang], "bold"),
    )


def baseline_text(base: Switches, lang: str = "en") -> Text:
    """A changed baseline, e.g. `baseline: Switches(trust_stop_reason=False → True)`."""
    reference = Switches()
    changes = ", ".join(
        f"{name}={getattr(reference, name)} → {value}" for name, value in base.differences().items()
    )
    return Text(f"{WORDS[lang]['baseline']}: Switches({changes})", "bold yellow")


def outcome_view(outcome: Outcome, lang: str = "en") -> RenderableType:
    w = WORDS[lang]
    experiment = outcome.experiment
    if outcome.error is not None:
        return Group(
            heading(experiment, lang),
            Padding(Text(f"{w['switch']}: {flips_text(dict(experiment.flips))}"), (0, 0, 0, 2)),
            Padding(Text(f"✗ {w['error']}: {outcome.error}", "bold red"), (0, 0, 1, 2)),
        )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for column in ("observable", "before", "after", "expected", "verdict"):
        table.add_column(w[column])
    for row in outcome.rows:
        verdict = Text(w["ok"], "green") if row.ok else Text(w["bad"], "bold red")
        expected = f"{show(row.expected_before)} → {show(row.expected_after)}"
        table.add_row(row.observable, show(row.before), show(row.after), expected, verdict)
    return Group(
        heading(experiment, lang),
        Padding(Text(f"{w['switch']}: {flips_text(dict(experiment.flips))}"), (0, 0, 0, 2)),
        Padding(table, (0, 0, 0, 2)),
        Padding(Text(f"{w['takeaway']}: {experiment.takeaway[lang]}", "italic"), (0, 0, 1, 2)),
    )


def summary_view(outcomes: list[Outcome], lang: str = "en", reruns: bool = True) -> RenderableType:
    """How many reproduced (and how many could not run); with `reruns`, the rerun lines."""
    w = WORDS[lang]
    n = sum(o.reproduced for o in outcomes)
    lines = [Text(w["summary"].format(n=n, total=len(outcomes)), "bold")]
    if errors := sum(o.error is not None for o in outcomes):
        lines.append(Text(w["errors"].format(n=errors), "bold red"))
    return Group(*lines, *(rerun_lines(outcomes, lang) if reruns else []))


def rerun_lines(
    outcomes: list[Outcome],
    lang: str = "en",
    command: Callable[[str], str] = lambda ident: f"lab show {ident}",
) -> list[Text]:
    """For each experiment that did not reproduce, the command that reruns it. Print them
    with `soft_wrap=True`: a command is never wrapped or cut."""
    w = WORDS[lang]
    return [
        Text(w["rerun"].format(command=command(o.experiment.id)), "red")
        for o in outcomes
        if not o.reproduced
    ]


def outcome_json(o: Outcome) -> dict[str, Any]:
    """One experiment's verdict as JSON (its schema is in the README)."""
    return {
        "id": o.experiment.id,
        "mechanism": o.experiment.mechanism,
        "title": dict(o.experiment.title),
        "takeaway": dict(o.experiment.takeaway),
        "flips": dict(o.experiment.flips),
        "base": o.base.differences(),
        "reproduced": o.reproduced,
        "error": o.error,
        "observables": [
            {
                "name": r.observable,
                "before": r.before,
                "after": r.after,
                "expected_before": r.expected_before,
                "expected_after": r.expected_after,
                "ok": r.ok,
            }
            for r in o.rows
        ],
    }


def outcomes_json(outcomes: list[Outcome]) -> dict[str, Any]:
    return {
        "experiments": [outcome_json(o) for o in outcomes],
        "reproduced": sum(o.reproduced for o in outcomes),
        "total": len(outcomes),
    }


def run_json(run: Run | None) -> dict[str, Any] | None:
    """One run as JSON: why it ended, every trace event (its class name under "event") and
    the final messages."""
    if run is None:
        return None
    events = [{"event": type(e).__name__, **asdict(e)} for e in run.trace]
    return {"ended": run.ended, "events": events, "messages": run.messages}


def show_json(outcome: Outcome) -> dict[str, Any]:
    """`lab show --json`: the verdict and both runs."""
    return {
        **outcome_json(outcome),
        "runs": {"baseline": run_json(outcome.before), "degraded": run_json(outcome.after)},
    }


def experiments_view(experiments: list[Experiment], lang: str = "en") -> RenderableType:
    """`lab list`: per mechanism, each experiment's id, switch, title and takeaway. Titles and
    takeaways wrap (fold, for Chinese, which has no spaces) and are never cut short."""
    tables = []
    for mechanism, names in MECHANISMS.items():
        group = [e for e in experiments if e.mechanism == mechanism]
        if not group:
            continue
        table = Table(
            title=f"{mechanism} · {names[0]} · {names[1]}", title_justify="left", expand=True
        )
        table.add_column("id", no_wrap=True)
        table.add_column("switch", no_wrap=True)
        table.add_column("title · takeaway", overflow="fold")
        for e in group:
            flips = "\n".join(f"{name}={value}" for name, value in e.flips.items())
            text = Text.assemble((e.title[lang], "bold"), "\n", e.takeaway[lang])
            table.add_row(e.id, flips, text)
        tables.append(table)
    return Group(*tables)


# -- one run, turn by turn ------------------------------------------------------------------
def clip(text: str, limit: int = 60) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def one_line(text: str) -> str:
    """Newlines shown as ⏎: one event, one paragraph (it wraps, nothing is cut)."""
    return text.replace("\n", "⏎")


def output_text(output: str, limit: int = 200) -> str:
    """A tool's raw output on one line; a long one by its size (the result line shows what
    the model received of it, in full)."""
    if len(output) <= limit:
        return one_line(output)
    return f"{len(output):,} characters of output (the result below is what the model got)"


def block_line(block: dict[str, Any]) -> str:
    if block["type"] == "text":
        return f"text  {clip(block['text'])}"
    if block["type"] == "tool_use":
        args = json.dumps(block["input"], ensure_ascii=False)
        return f"tool_use {block['id']}  {block['name']} {clip(args, 50)}"
    return block["type"]


EVENT_LINES = {
    ToolCallSeen: lambda e: Text(f"  ▸ call {e.call_id} {e.name}", "cyan"),
    CheckFailed: lambda e: Text(f"    ✗ check {e.stage}: {one_line(e.reason)}", "red"),
    HookFired: lambda e: Text(f"    hook {e.event}/{e.hook} → {clip(show(e.result))}", "magenta"),
    HookFailed: lambda e: Text(f"    hook {e.event}/{e.hook} raised: {clip(e.error)}", "red"),
    GateDecision: lambda e: Text(
        f"    gate {e.gate}: {e.decision} ({one_line(e.reason)})", "yellow"
    ),
    HumanAsked: lambda e: Text(f"    human asked “{one_line(e.question)}” → {e.answer}", "yellow"),
    ToolExecuted: lambda e: Text(
        f"    ran ({e.started:g}s→{e.finished:g}s): {output_text(e.output)}"
    ),
    # What the model received, in full: it wraps at the terminal's width, never cut short.
    ResultAppended: lambda e: Text(
        f"    result{' [is_error]' if e.is_error else ''}: {one_line(e.content)}",
        "dim",
    ),
    HistoryTrimmed: lambda e: Text(f"  history trimmed: {e.removed} messages removed", "blue"),
    StopContinued: lambda e: Text(f"  Stop hook {e.hook} continues: {clip(e.reason)}", "magenta"),
    ApiRejected: lambda e: Text(f"  API {e.status} {e.error_type}: {e.message}", "bold red"),
    RunEnded: lambda e: Text(f"  run ended: {e.reason} {e.detail}".rstrip(), "bold"),
}


def run_view(run: Run, title: str = "") -> RenderableType:
    """The run turn by turn: model blocks, declared stop_reason, calls, checks, results."""
    lines: list[RenderableType] = [Text(title, "bold underline")] if title else []
    for event in run.trace:
        if isinstance(event, ModelAnswered):
            seen = "yes" if event.tool_use_seen else "no"
            lines.append(
                Text(
                    f"turn {event.turn} · {event.message_id} · declared stop_reason="
                    f"{event.stop_reason} · tool_use seen: {seen}",
                    "bold",
                )
            )
            lines += [Text(f"  {block_line(b)}") for b in event.blocks]
        elif type(event) in EVENT_LINES:
            lines.append(indented(EVENT_LINES[type(event)](event)))
    return Group(*lines)


def indented(line: Text) -> RenderableType:
    """A line whose leading spaces become padding, so its wrapped lines keep the indent."""
    text = line.plain
    depth = len(text) - len(text.lstrip(" "))
    return Padding(line[depth:], (0, 0, 0, depth)) if depth else line


def experiment_runs_view(outcome: Outcome, lang: str = "en") -> RenderableType:
    """`lab show`: both runs turn by turn (with their trays on the clock when any ran in
    parallel), then the verdict table."""
    w = WORDS[lang]
    experiment = outcome.experiment
    if outcome.before is None or outcome.after is None:
        return outcome_view(outcome, lang)  # the experiment's own code raised: its error
    base = flips_text(outcome.base.differences()) or "the reference harness"
    parts: list[RenderableType] = [
        heading(experiment, lang),
        Text(f"  {w['switch']}: {flips_text(dict(experiment.flips))}"),
    ]
    for run, title in (
        (outcome.before, f"{w['baseline']} ({base})"),
        (outcome.after, f"{w['degraded']} ({flips_text(dict(experiment.flips))})"),
    ):
        parts += [Text(""), run_view(run, title)]
        if any(e.parallel for r in (outcome.before, outcome.after) for e in r.trace.of(BatchRan)):
            parts.append(tray_view(run))
    return Group(*parts, Text(""), outcome_view(outcome, lang))


# -- one turn at a time, two runs side by side, trays on a clock ------------------------------
# Everything below reads only trace events, so it draws a finished Run, a Trace, a plain list
# of events or anything with a `.trace` (a notebook's Stepper) alike.
MARK_STYLE = "on #fff3b0"  # the line holding the first event where two runs part ways
CHAIN_EVENTS = (CheckPassed, CheckFailed)
CALL_EVENTS = (
    ToolCallSeen,
    CheckPassed,
    CheckFailed,
    GateDecision,
    HumanAsked,
    ToolExecuted,
    ResultSpilled,
    ResultAppended,
)


def events_of(source: Any) -> list[Event]:
    """The events of a Run, a Trace, a Stepper (anything with `.trace`) or a list of events."""
    return list(getattr(source, "trace", source))


def call_id_of(event: Event) -> str | None:
    """The tool call an event belongs to, if any (hooks without a call belong to the turn)."""
    if isinstance(event, CALL_EVENTS) or isinstance(event, HookFired | HookFailed | HookSkipped):
        return getattr(event, "call_id", None)
    return None


def input_text(input: dict[str, Any], limit: int = 50) -> str:
    return clip(json.dumps(input, ensure_ascii=False), limit)


EVENT_TEXT = {
    RunStarted: lambda e: Text(f"start · prompt “{clip(e.prompt)}”", "bold"),
    ToolRefused: lambda e: Text(f"dispatch table refused {e.tool}: {clip(e.reason)}", "red"),
    ModelCalled: lambda e: Text(
        f"model called with {e.messages} message{'s' * (e.messages != 1)}"
        + (" · streamed" if e.stream else ""),
        "dim",
    ),
    ModelAnswered: lambda e: Text(
        f"{e.message_id} · stop_reason={e.stop_reason} (declared) · "
        f"tool_use in content: {'yes' if e.tool_use_seen else 'no'}",
        "bold",
    ),
    ApiRejected: lambda e: Text(
        f"✗ API {e.status} {e.error_type}: {clip(e.message, 160)}", "bold red"
    ),
    ToolCallSeen: lambda e: Text(f"▸ {e.call_id} {e.name} down the chain", "bold cyan"),
    CheckPassed: lambda e: Text(f"✓ {e.stage}", "green"),
    CheckFailed: lambda e: Text(f"✗ {e.stage}: {clip(e.reason, 90)}", "bold red"),
    HookFired: lambda e: Text(f"hook {e.event}/{e.hook} → {clip(show(e.result), 50)}", "magenta"),
    HookFailed: lambda e: Text(f"hook {e.event}/{e.hook} raised {clip(e.error, 50)}", "red"),
    HookSkipped: lambda e: Text(
        f"hook {e.event}/{e.hook} skipped: {e.because} answered first", "bold magenta"
    ),
    GateDecision: lambda e: Text(f"gate {e.gate} → {e.decision} ({clip(e.reason, 50)})", "yellow"),
    HumanAsked: lambda e: Text(f"human asked “{clip(e.question, 40)}” → {e.answer}", "yellow"),
    ToolExecuted: lambda e: Text(
        f"ran {e.started:g}s→{e.finished:g}s{' (error)' if e.is_error else ''}: {clip(e.output)}",
        "red" if e.is_error else "",
    ),
    ResultSpilled: lambda e: Text(f"spilled {e.size} chars to {e.path}", "blue"),
    ResultAppended: lambda e: Text(
        f"tool_result{' [is_error]' if e.is_error else ''}: {clip(e.content, 80)}", "dim"
    ),
    BatchRan: lambda e: Text(
        f"tray [{' '.join(e.call_ids)}]{' in parallel' if e.parallel else ''} "
        f"{e.started:g}s→{e.finished:g}s",
        "blue",
    ),
    HistoryTrimmed: lambda e: Text(
        f"history trimmed: {e.removed} messages removed, {e.kept} sent", "blue"
    ),
    StopContinued: lambda e: Text(f"Stop hook keeps the loop going: {clip(e.reason)}", "magenta"),
    RunEnded: lambda e: Text(f"■ run ended: {e.reason} {clip(e.detail, 50)}".rstrip(), "bold"),
}


def event_text(event: Event) -> Text:
    """One event as one line of text (any event type)."""
    render = EVENT_TEXT.get(type(event))
    return render(event) if render else Text(clip(repr(event), 80), "dim")


def _line(text: Text, events: list[Event], mark: Event | None, indent: int) -> RenderableType:
    """One line, indented (wrapped lines keep the indent), marked if it holds `mark`."""
    if mark is not None and any(e is mark for e in events):
        text = text.copy()
        text.stylize(MARK_STYLE)
        text.append(" ◀ first divergence", "bold red")
    return Padding(text, (0, 0, 0, indent), expand=False)


def call_lines(events: list[Event], mark: Event | None) -> list[RenderableType]:
    """One call down the chain: a line per stage that had something to say, then its result."""
    seen, rest = events[0], events[1:]
    lines = [_line(event_text(seen), [seen], mark, 2)]
    quiet: list[Event] = []  # consecutive passed stages with nothing inside them
    inside: list[Event] = []  # hooks, gates, questions that happened during the current stage

    def flush_quiet() -> None:
        if quiet:
            text = Text("  ").join(event_text(e) for e in quiet)
            lines.append(_line(text, list(quiet), mark, 4))
            quiet.clear()

    for event in rest:
        if isinstance(event, CHAIN_EVENTS):
            if isinstance(event, CheckPassed) and not inside:
                quiet.append(event)
                continue
            flush_quiet()
            lines.append(_line(event_text(event), [event], mark, 4))
            lines += [_line(event_text(e), [e], mark, 8) for e in inside]
            inside.clear()
        else:
            inside.append(event)
    flush_quiet()
    lines += [_line(event_text(e), [e], mark, 4) for e in inside]
    if not any(isinstance(e, ResultAppended) for e in rest):
        lines.append(
            _line(Text("✗ no tool_result was sent for this call", "bold red"), [], None, 4)
        )
    return lines


def one_turn(events: list[Event], mark: Event | None = None) -> list[RenderableType]:
    """The lines of one turn: the model's answer, each call down the chain, trays, the ending."""
    turn = events[0].turn if events else 0
    lines: list[RenderableType] = [Text("start" if turn == 0 else f"turn {turn}", "bold underline")]
    calls: dict[str, list[Event]] = {}
    for event in events:
        if (call_id := call_id_of(event)) is not None:
            calls.setdefault(call_id, []).append(event)
    calls_shown = False
    for event in events:
        if call_id_of(event) is not None:
            if not calls_shown:
                calls_shown = True
                for call_events in calls.values():
                    if isinstance(call_events[0], ToolCallSeen):
                        lines += call_lines(call_events, mark)
            continue
        lines.append(_line(event_text(event), [event], mark, 0))
        if isinstance(event, ModelAnswered):
            if (event.stop_reason == "tool_use") != event.tool_use_seen:
                warning = Text("⚠ the declaration disagrees with the content", "bold yellow")
                lines.append(_line(warning, [], None, 2))
            lines += [_line(Text(block_line(b)), [], None, 2) for b in event.blocks]
            for block in event.blocks:
                if block["type"] == "tool_use" and block["id"] not in calls:
                    dropped = f"✗ {block['id']} {block['name']} never looked at: dropped"
                    lines.append(_line(Text(dropped, "bold red"), [], None, 2))
    if turn > 0 and not any(isinstance(e, RunEnded) for e in events):
        lines.append(Text("↻ the loop goes on", "dim"))
    return lines


def by_turn(events: list[Event]) -> dict[int, list[Event]]:
    turns: dict[int, list[Event]] = {}
    for event in events:
        turns.setdefault(event.turn, []).append(event)
    return turns


def turn_view(source: Any, mark: Event | None = None) -> RenderableType:
    """Events turn by turn: the model's blocks and declared stop_reason, each call's chain
    stages (✓ passed, ✗ stopped), the hooks, gates and questions inside them, the results."""
    turns = by_turn(events_of(source))
    return Group(*[line for events in turns.values() for line in [*one_turn(events, mark), ""]])


@dataclass(frozen=True)
class Divergence:
    """Where two runs part ways: the first event (by position) that differs."""

    index: int
    turn: int
    left: Event | None  # None: the left run had already ended
    right: Event | None


def first_divergence(a: Any, b: Any) -> Divergence | None:
    """The first event where two runs differ, or None when they are event-for-event equal."""
    left, right = events_of(a), events_of(b)
    for i in range(max(len(left), len(right))):
        x = left[i] if i < len(left) else None
        y = right[i] if i < len(right) else None
        if x != y:
            return Divergence(i, min(e.turn for e in (x, y) if e is not None), x, y)
    return None


def side_by_side(
    a: Any,
    b: Any,
    titles: tuple[str, str] = ("baseline", "switched"),
    turns: Sequence[int] | None = None,
) -> RenderableType:
    """Two runs turn by turn in two columns; the first diverging event is marked on both."""
    left, right = events_of(a), events_of(b)
    split = first_divergence(left, right)
    if split is None:
        header = Text("no divergence: the two runs are event for event the same", "green")
    else:
        header = Text.assemble(
            (f"first divergence at turn {split.turn} (event #{split.index})", "bold red"),
            f"\n  {titles[0]}: ",
            event_text(split.left) if split.left else Text("(the run had ended)"),
            f"\n  {titles[1]}: ",
            event_text(split.right) if split.right else Text("(the run had ended)"),
        )
    table = Table(box=box.SIMPLE_HEAD, show_lines=True, expand=True, pad_edge=False)
    table.add_column("", width=3, no_wrap=True)
    table.add_column(titles[0], ratio=1, overflow="fold")
    table.add_column(titles[1], ratio=1, overflow="fold")
    left_turns, right_turns = by_turn(left), by_turn(right)
    marks = (split.left, split.right) if split else (None, None)
    parted_at = split.turn if split else None
    shown = turns if turns is not None else sorted(set(left_turns) | set(right_turns))
    for turn in shown:
        ours, theirs = left_turns.get(turn, []), right_turns.get(turn, [])
        same = ours == theirs
        label = Text(str(turn), "dim" if same else "bold")
        if turn == parted_at:
            label = Text(f"{turn}◀", "bold red")
        cells = [
            Group(*one_turn(events, mark)) if events else Text("(no such turn)", "dim")
            for events, mark in ((ours, marks[0]), (theirs, marks[1]))
        ]
        before_split = parted_at is not None and turn < parted_at
        table.add_row(label, *cells, style="dim" if same and before_split else "")
    return Group(header, table)


@dataclass(frozen=True)
class Bar:
    """One executed call on the virtual clock, with the tray it ran in."""

    tray: int  # 1-based, counted over the whole run
    turn: int
    call_id: str
    label: str
    started: float
    finished: float
    parallel: bool
    is_error: bool


def tray_bars(source: Any) -> list[Bar]:
    """The executed calls of a run, tray by tray, in virtual seconds (from BatchRan and
    ToolExecuted events)."""
    events = events_of(source)
    executed = {e.call_id: e for e in events if isinstance(e, ToolExecuted)}
    bars = []
    trays = [e for e in events if isinstance(e, BatchRan)]
    for number, tray in enumerate(trays, start=1):
        for call_id in tray.call_ids:
            if (run := executed.get(call_id)) is None:
                continue
            label = f"{call_id} {run.name} {input_text(run.input, 28)}"
            bars.append(
                Bar(
                    number,
                    tray.turn,
                    call_id,
                    label,
                    run.started,
                    run.finished,
                    tray.parallel,
                    run.is_error,
                )
            )
    return bars


def tray_view(source: Any, per_second: int = 4) -> RenderableType:
    """The trays as a text Gantt chart: one row per executed call, one column per 1/4 s."""
    bars = tray_bars(source)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("tray", "call", "virtual seconds"):
        table.add_column(column, no_wrap=True)
    for bar in bars:
        start = round(bar.started * per_second)
        length = max(1, round((bar.finished - bar.started) * per_second))
        chart = Text(" " * start) + Text("█" * length, "red" if bar.is_error else "blue")
        chart.append(f" {bar.started:g}→{bar.finished:g}s", "dim")
        kind = "∥" if bar.parallel else "·"
        table.add_row(f"{bar.tray} {kind}", bar.label, chart)
    end = max((bar.finished for bar in bars), default=0.0)
    return Group(table, Text(f"makespan {end:g} virtual seconds", "bold"))


def outcomes_table(outcomes: list[Outcome], lang: str = "en") -> RenderableType:
    """Every experiment in one table: its switch, each observable before → after, verdict."""
    w = WORDS[lang]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("id", "mechanism", "switch", "observable", "before", "after", "verdict"):
        table.add_column(w.get(column, column))
    for outcome in outcomes:
        experiment = outcome.experiment
        for i, row in enumerate(outcome.rows):
            first = i == 0
            verdict = Text(w["ok"], "green") if row.ok else Text(w["bad"], "bold red")
            table.add_row(
                experiment.id if first else "",
                experiment.mechanism if first else "",
                ", ".join(f"{k}={v}" for k, v in experiment.flips.items()) if first else "",
                row.observable,
                show(row.before),
                show(row.after),
                verdict,
            )
        table.add_section()
    return Group(table, summary_view(outcomes, lang))


def switches_view() -> RenderableType:
    """The switchboard: every flag with its mechanism, its reference and course values, its
    experiments and the fault it injects."""
    reference, course = Switches(), Switches.course()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_lines=True)
    table.add_column("switch", overflow="fold", ratio=2)
    for column in ("mechanism", "reference", "course", "experiments"):
        table.add_column(column, overflow="fold")
    table.add_column("fault it injects", overflow="fold", ratio=5)
    for name in switch_names():
        info = switch_info(name)
        table.add_row(
            name,
            info["mechanism"],
            str(getattr(reference, name)),
            str(getattr(course, name)),
            info["experiments"],
            info["fault"],
        )
    return table


def switches_json() -> list[dict[str, Any]]:
    """`lab switches --json`: every flag and what it documents (schema in the README)."""
    reference, course = Switches(), Switches.course()
    return [
        {
            "name": name,
            "mechanism": info["mechanism"],
            "reference": getattr(reference, name),
            "course": getattr(course, name),
            "course_why": info["course_why"],
            "experiments": [e.strip() for e in info["experiments"].split(",") if e.strip()],
            "reader": info["reader"],
            "fault": info["fault"],
        }
        for name in switch_names()
        for info in [switch_info(name)]
    ]


def blocks_of(message: dict[str, Any] | None, kind: str, key: str) -> set[str]:
    content = [] if message is None else message["content"]
    return set() if isinstance(content, str) else {b[key] for b in content if b["type"] == kind}


def messages_view(messages: list[dict[str, Any]], title: str = "") -> RenderableType:
    """A history as the API sees it, one row per message; a tool_use not answered in the next
    message, or a tool_result that answers nothing in the previous one, is flagged ✗."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=title or None, title_justify="left")
    for column in ("#", "role", "content"):
        table.add_column(column, overflow="fold")
    for i, message in enumerate(messages):
        before = messages[i - 1] if i > 0 else None
        after = messages[i + 1] if i + 1 < len(messages) else None
        content = message["content"]
        parts = [Text(f"“{clip(content)}”")] if isinstance(content, str) else []
        for block in [] if isinstance(content, str) else content:
            if block["type"] == "tool_result":
                error = " is_error" if block.get("is_error") else ""
                line = Text(
                    f"tool_result → {block['tool_use_id']}{error}: {clip(block['content'])}"
                )
                line.stylize("yellow" if error else "green")
                if block["tool_use_id"] not in blocks_of(before, "tool_use", "id"):
                    line.append("  ✗ answers no tool_use of the message before", "bold red")
                parts.append(line)
            elif block["type"] == "tool_use":
                line = Text(block_line(block), "cyan")
                answered = blocks_of(after, "tool_result", "tool_use_id")
                if after is not None and block["id"] not in answered:
                    line.append("  ✗ no tool_result in the next message", "bold red")
                parts.append(line)
            else:
                parts.append(Text(block_line(block)))
        table.add_row(str(i), message["role"], Group(*parts))
    return table
