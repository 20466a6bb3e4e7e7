"""Renderings of outcomes and runs with rich: verdict tables, turn-by-turn transcripts, JSON."""

from __future__ import annotations

import json
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from lab.experiment import MECHANISMS, Experiment, Outcome
from lab.scenario import Run
from lab.trace import (
    ApiRejected,
    CheckFailed,
    GateDecision,
    HistoryTrimmed,
    HookFailed,
    HookFired,
    HumanAsked,
    ModelAnswered,
    ResultAppended,
    RunEnded,
    StopContinued,
    ToolCallSeen,
    ToolExecuted,
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


def outcome_view(outcome: Outcome, lang: str = "en") -> RenderableType:
    w = WORDS[lang]
    experiment = outcome.experiment
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("observable", "before", "after", "expected", "verdict"):
        table.add_column(w[column])
    for row in outcome.rows:
        verdict = Text(w["ok"], "green") if row.ok else Text(w["bad"], "bold red")
        expected = f"{show(row.expected_before)} → {show(row.expected_after)}"
        table.add_row(row.observable, show(row.before), show(row.after), expected, verdict)
    return Group(
        heading(experiment, lang),
        Text(f"  {w['switch']}: {flips_text(dict(experiment.flips))}"),
        table,
        Text(f"  {w['takeaway']}: {experiment.takeaway[lang]}", "italic"),
        Text(""),
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
    w = WORDS[lang]
    experiment = outcome.experiment
    return Group(
        heading(experiment, lang),
        Text(f"  {w['switch']}: {flips_text(dict(experiment.flips))}"),
        Text(""),
        run_view(outcome.before, f"{w['baseline']} (Switches{outcome.base.differences() or '()'})"),
        Text(""),
        run_view(outcome.after, f"{w['degraded']} ({flips_text(dict(experiment.flips))})"),
        Text(""),
        outcome_view(outcome, lang),
    )
