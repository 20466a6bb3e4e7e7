"""Renderings of outcomes and runs with rich: verdict tables, turn-by-turn transcripts, JSON,
two runs side by side with their first divergence marked, and trays on the virtual clock."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
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
        "rerun": "rerun: lab show {id}",
        "baseline": "baseline",
        "degraded": "degraded",
        ":": ": ",
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
        "rerun": "重跑：lab show {id}",
        "baseline": "基线",
        "degraded": "退化",
        ":": "：",
    },
}


# -- Chinese line breaking -------------------------------------------------------------------
# rich breaks CJK text between any two characters, even before a 「。」. Prose breaks the way
# Chinese typesetting does (避头尾): closing punctuation never starts a line, opening never ends.
NO_LINE_START = "。，、；：！？）」』》〉】…"
NO_LINE_END = "（「『《〈【"
_CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
_UNIT = re.compile(rf"\s+|[{_CJK}]|[^\s{_CJK}]+")


def line_units(plain: str) -> list[tuple[int, int]]:
    """Spans that stay on one line: a word, one CJK character or a run of spaces, with
    closing punctuation glued to what precedes it and opening punctuation to what follows."""
    units: list[list[int]] = []
    for found in _UNIT.finditer(plain):
        start, end = found.span()
        last = units[-1] if units else None
        glue = (
            last is not None
            and not plain[start].isspace()
            and not plain[last[0]].isspace()
            and (plain[start] in NO_LINE_START or plain[last[1] - 1] in NO_LINE_END)
        )
        if glue and last is not None:
            last[1] = end
        else:
            units.append([start, end])
    return [(start, end) for start, end in units]


def break_lines(plain: str, width: int) -> list[tuple[int, int]]:
    """(start, end) of each line of `plain` wrapped to `width` cells, spaces at breaks dropped."""
    lines: list[tuple[int, int]] = []
    start = end = None
    used = 0
    for unit_start, unit_end in line_units(plain):
        unit = plain[unit_start:unit_end]
        if unit.isspace():
            used += cell_len(unit) if start is not None else 0
            continue
        size = cell_len(unit)
        if start is not None and used + size > width:
            lines.append((start, end))  # type: ignore[arg-type]
            start = None
        if start is None:
            start, used = unit_start, 0
        end, used = unit_end, cell_len(plain[start:unit_end])
    if start is not None:
        lines.append((start, end))  # type: ignore[arg-type]
    return lines


class Prose:
    """Text wrapped with Chinese line-breaking rules (use it for zh titles and takeaways)."""

    def __init__(self, text: Text | str, style: str = "") -> None:
        self.text = text if isinstance(text, Text) else Text(text, style)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        plain = self.text.plain
        for start, end in break_lines(plain, options.max_width):
            yield self.text[start:end]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        plain = self.text.plain
        widest = max((cell_len(plain[a:b]) for a, b in line_units(plain)), default=0)
        return Measurement(min(widest, options.max_width), cell_len(plain))


def prose(text: Text | str, lang: str, style: str = "") -> RenderableType:
    """Chinese text as Prose; other languages as rich Text (which breaks between words)."""
    if lang == "zh":
        return Prose(text, style)
    return text if isinstance(text, Text) else Text(text, style)


def show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def flips_text(flips: dict[str, Any]) -> str:
    return ", ".join(f"Switches.{name} = {value}" for name, value in flips.items())


BEYOND = {"en": "beyond the seed", "zh": "本文之外"}


def grade_label(grade: str, lang: str = "en") -> str:
    """The seed's evidence grade as the seed prints it: 【一】【二】【三】, or beyond the seed."""
    return BEYOND[lang] if grade == "beyond" else f"【{grade}】"


def heading(experiment: Experiment, lang: str) -> Text:
    mechanism = MECHANISMS[experiment.mechanism][0 if lang == "en" else 1]
    return Text.assemble(
        (f"{experiment.id}", "bold"),
        f" · {experiment.mechanism} {mechanism} · ",
        (grade_label(experiment.grade, lang), "cyan"),
        " · ",
        (experiment.title[lang], "bold"),
    )


def outcome_view(outcome: Outcome, lang: str = "en") -> RenderableType:
    w = WORDS[lang]
    experiment = outcome.experiment
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for column in ("observable", "before", "after", "expected", "verdict"):
        table.add_column(w[column])
    for row in outcome.rows:
        verdict = Text(w["ok"], "green") if row.ok else Text(w["bad"], "bold red")
        expected = f"{show(row.expected_before)} → {show(row.expected_after)}"
        table.add_row(row.observable, show(row.before), show(row.after), expected, verdict)
    takeaway = f"{w['takeaway']}{w[':']}{experiment.takeaway[lang]}"
    return Group(
        prose(heading(experiment, lang), lang),
        Padding(Text(f"{w['switch']}{w[':']}{flips_text(dict(experiment.flips))}"), (0, 0, 0, 2)),
        Padding(table, (0, 0, 0, 2)),
        Padding(prose(takeaway, lang, "italic"), (0, 0, 1, 2)),
    )


def summary_view(outcomes: list[Outcome], lang: str = "en") -> RenderableType:
    w = WORDS[lang]
    n = sum(o.reproduced for o in outcomes)
    lines = [Text(w["summary"].format(n=n, total=len(outcomes)), "bold")]
    lines += [
        Text(w["rerun"].format(id=o.experiment.id), "red") for o in outcomes if not o.reproduced
    ]
    return Group(*lines)


def outcomes_json(outcomes: list[Outcome]) -> dict[str, Any]:
    return {
        "experiments": [
            {
                "id": o.experiment.id,
                "mechanism": o.experiment.mechanism,
                "grade": o.experiment.grade,
                "source": o.experiment.source,
                "title": dict(o.experiment.title),
                "takeaway": dict(o.experiment.takeaway),
                "flips": dict(o.experiment.flips),
                "base": o.base.differences(),
                "reproduced": o.reproduced,
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
            for o in outcomes
        ],
        "reproduced": sum(o.reproduced for o in outcomes),
        "total": len(outcomes),
    }


# -- one run, turn by turn ------------------------------------------------------------------
def clip(text: str, limit: int = 60) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def block_line(block: dict[str, Any]) -> str:
    if block["type"] == "text":
        return f"text  {clip(block['text'])}"
    if block["type"] == "tool_use":
        args = json.dumps(block["input"], ensure_ascii=False)
        return f"tool_use {block['id']}  {block['name']} {clip(args, 50)}"
    return block["type"]


EVENT_LINES = {
    ToolCallSeen: lambda e: Text(f"  ▸ call {e.call_id} {e.name}", "cyan"),
    CheckFailed: lambda e: Text(f"    ✗ check {e.stage}: {clip(e.reason)}", "red"),
    HookFired: lambda e: Text(f"    hook {e.event}/{e.hook} → {clip(show(e.result))}", "magenta"),
    HookFailed: lambda e: Text(f"    hook {e.event}/{e.hook} raised: {clip(e.error)}", "red"),
    GateDecision: lambda e: Text(
        f"    gate {e.gate}: {e.decision} ({clip(e.reason, 50)})", "yellow"
    ),
    HumanAsked: lambda e: Text(f"    human asked “{clip(e.question, 40)}” → {e.answer}", "yellow"),
    ToolExecuted: lambda e: Text(f"    ran ({e.started:g}s→{e.finished:g}s): {clip(e.output)}"),
    ResultAppended: lambda e: Text(
        f"    result{' [is_error]' if e.is_error else ''}: {clip(e.content)}", "dim"
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
            lines.append(EVENT_LINES[type(event)](event))
    return Group(*lines)


def experiment_runs_view(outcome: Outcome, lang: str = "en") -> RenderableType:
    """`lab show`: both runs turn by turn (with their trays on the clock when any ran in
    parallel), then the verdict table."""
    w = WORDS[lang]
    experiment = outcome.experiment
    base = flips_text(outcome.base.differences()) or "the reference harness"
    parts: list[RenderableType] = [
        prose(heading(experiment, lang), lang),
        Text(f"  {w['switch']}{w[':']}{flips_text(dict(experiment.flips))}"),
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


def switches_view(switches: Switches | None = None) -> RenderableType:
    """The switchboard: every flag, its value, the mechanism and experiments, the fault."""
    switches = switches or Switches()
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("switch", "value", "mechanism", "grade", "experiments", "fault when flipped"):
        table.add_column(column, overflow="fold")
    for name in switch_names():
        info = switch_info(name)
        value, grade = str(getattr(switches, name)), grade_label(info["grade"])
        table.add_row(name, value, info["mechanism"], grade, info["experiments"], info["fault"])
    return table


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
