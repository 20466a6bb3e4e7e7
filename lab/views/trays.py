"""A run's trays: each executed call on the virtual clock, as bars and as a text Gantt chart."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lab.kernel.trace import BatchRan, Event, ToolExecuted

WORDS = {
    "en": {
        "tray": "tray",
        "call": "call",
        "seconds": "virtual seconds",
        "makespan": "makespan {s:g} virtual seconds",
    },
    "zh": {"tray": "托盘", "call": "调用", "seconds": "虚拟秒", "makespan": "总耗时 {s:g} 虚拟秒"},
}


def clip(text: str, limit: int = 60) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def events_of(source: Any) -> list[Event]:
    """The events of a Run, a Trace, a Stepper (anything with `.trace`) or a list of events."""
    return list(getattr(source, "trace", source))


def by_turn(events: list[Event]) -> dict[int, list[Event]]:
    turns: dict[int, list[Event]] = {}
    for event in events:
        turns.setdefault(event.turn, []).append(event)
    return turns


def input_text(input: dict[str, Any], limit: int = 50) -> str:
    return clip(json.dumps(input, ensure_ascii=False), limit)


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


def tray_view(source: Any, per_second: int = 4, lang: str = "en") -> RenderableType:
    """The trays as a text Gantt chart: one row per executed call, one column per 1/4 s."""
    w = WORDS[lang]
    bars = tray_bars(source)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("tray", "call", "seconds"):
        table.add_column(w[column], no_wrap=True)
    for bar in bars:
        start = round(bar.started * per_second)
        length = max(1, round((bar.finished - bar.started) * per_second))
        chart = Text(" " * start) + Text("█" * length, "red" if bar.is_error else "blue")
        chart.append(f" {bar.started:g}→{bar.finished:g}s", "dim")
        kind = "∥" if bar.parallel else "·"
        table.add_row(f"{bar.tray} {kind}", bar.label, chart)
    end = max((bar.finished for bar in bars), default=0.0)
    return Group(table, Text(w["makespan"].format(s=end), "bold"))
