"""The probe's results for readers: the matrix and evidence on the terminal, Markdown and JSON.

The terminal text is laid out here, not by rich: every line is wrapped at word boundaries to the
console's width (a stacked layout below WIDE columns), and nothing is padded, so a file or a pipe
gets no trailing spaces.
"""

from __future__ import annotations

import shlex
import textwrap
from collections.abc import Mapping, Sequence
from importlib import metadata
from typing import Any

from rich.text import Text

from lab.probe.bench import Cell
from lab.probe.catalogue import BY_ID
from lab.probe.grades import FAIL, GRADES, INCONCLUSIVE, INFO, KEPT, NA, NON_STRICT, NOT_REACHED
from lab.probe.target import Target
from lab.probe.trial import Trial
from lab.probe.which_wire import CHAT, MESSAGES

STYLE = {
    KEPT: "green",
    FAIL: "bold red",
    NON_STRICT: "yellow",
    INFO: "cyan",
    NA: "dim",
    NOT_REACHED: "bold magenta",
    INCONCLUSIVE: "blue",
}
MARK = {
    KEPT: "✓",
    FAIL: "✗",
    NON_STRICT: "≈",
    INFO: "i",
    NA: "–",
    NOT_REACHED: "?",
    INCONCLUSIVE: "…",
}
WIDE = 100  # columns from which a cell's grade and title share a line with its id


def installed(distribution: str) -> str | None:
    """A pip distribution's installed version; "npm:<package>" as the peers install it."""
    if distribution.startswith("npm:"):
        try:
            from lab.probe.peers.install import installed_version
        except ModuleNotFoundError:
            return None
        return installed_version(distribution)
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def versions(target: Target) -> dict[str, str]:
    """The installed version of each distribution the target declares (or the versions
    recorded where its trials ran)."""
    if target.pinned is not None:
        return dict(target.pinned)
    return {name: installed(name) or "not installed" for name in target.distributions}


def grid(cells: Sequence[Cell]) -> tuple[list[str], list[str], dict[tuple[str, str], Cell]]:
    targets = list(dict.fromkeys(c.target for c in cells))
    cases = list(dict.fromkeys(c.case for c in cells))
    return targets, cases, {(c.target, c.case): c for c in cells}


def wrapped(text: str, width: int, indent: int, hang: int = 2) -> list[str]:
    """`text` wrapped at word boundaries (a word longer than the line stays whole)."""
    return textwrap.wrap(
        text,
        width=max(width, indent + 20),
        initial_indent=" " * indent,
        subsequent_indent=" " * (indent + hang),
        break_long_words=False,
        break_on_hyphens=False,
    ) or [" " * indent]


def lines_view(lines: Sequence[tuple[str, str]]) -> Text:
    """(text, style) lines as one Text, nothing padded."""
    text = Text()
    for k, (line, style) in enumerate(lines):
        text.append(("\n" if k else "") + line, style=style or None)
    return text


def matrix_view(cells: Sequence[Cell]) -> Text:
    """Targets down, cases across, a mark in every cell (14 cases fit 80 columns)."""
    targets, cases, by = grid(cells)
    legend = ", ".join(f"{MARK[k]} {k}" for k in GRADES)
    name_width = max(len(t) for t in targets) + 1
    text = Text("lab probe: the matrix (" + legend + ")\n")
    text.append(" " * name_width + " ".join(cases) + "\n")
    for name in targets:
        text.append(name.ljust(name_width))
        for k, case in enumerate(cases):
            kind = by[(name, case)].verdict.kind
            pad = " " * (len(case) - 1) if k < len(cases) - 1 else ""
            text.append(MARK[kind], style=STYLE[kind])
            text.append(pad + (" " if k < len(cases) - 1 else ""))
        text.append("\n")
    text.rstrip()
    return text


# The variables that point a program at `lab serve`, on each wire (its clients' base URL names /v1).
REPRODUCE_ENV = {
    MESSAGES: ("ANTHROPIC_BASE_URL=<the printed URL>", "ANTHROPIC_API_KEY=x"),
    CHAT: ("OPENAI_BASE_URL=<the printed OPENAI_BASE_URL>", "OPENAI_API_KEY=x"),
}


def reproduce(cell: Cell, target: Target) -> str:
    """The one command line that reproduces a cell by hand: `lab serve` the case, then run
    the target as the probe ran it."""
    serve = ["lab", "serve", cell.case]
    if target.command and target.call != ("read_file", '{"path": "notes.txt"}'):
        serve += ["--call", "=".join(target.call)]
    wire = cell.trial.wire if cell.trial else target.wire or MESSAGES
    case = BY_ID.get(cell.case)
    asked = dict(case.asks) if case else {}  # the features the case asks the program for
    env = list(REPRODUCE_ENV[wire])
    env += [shlex.quote(f"{k}={v}") for k, v in sorted({**target.env, **asked}.items())]
    if cell.stream is not None:
        env.append(f"LAB_PROBE_STREAM={int(cell.stream)}")
    run = " ".join(env) + " " + shlex.join(cell.argv) if cell.argv else "(the target)"
    files = " and ".join(["notes.txt", *(name for name, _ in (case.files if case else ()))])
    return f"{shlex.join(serve)} (in a folder with {files}), then in another shell: {run}"


def cell_lines(cell: Cell, target: Target, width: int, *, detail: bool) -> list[tuple[str, str]]:
    """One cell: its id, grade, case title and mode; then why, the evidence, and for a fail
    the command that reproduces it. Stacked (grade under the id) below WIDE columns."""
    verdict, title = cell.verdict, cell.title
    differs = cell.other is not None and cell.other.verdict.kind != verdict.kind
    mode = f" · in {cell.mode} mode" if differs and cell.mode else ""
    style = STYLE[verdict.kind]
    if width >= WIDE:
        indent = 20
        head = f"  {cell.case:<5}{verdict.kind:<13}{title}{mode}"  # the title at column 20
    else:
        indent = 6
        head = f"  {cell.case} {verdict.kind}: {title}{mode}"
    lines = [(line, style) for line in wrapped(head.strip(), width, 2, indent - 2)]
    lines += [(line, "") for line in wrapped(verdict.because, width, indent)]
    if detail:
        dim = "dim" if verdict.kind in (KEPT, NA) else ""
        for evidence in verdict.evidence:
            step = len(evidence) - len(evidence.lstrip())  # a quoted request's own indent
            lines += [(line, dim) for line in wrapped(evidence.strip(), width, indent + step)]
        if verdict.kind == FAIL:
            how = "reproduce: " + reproduce(cell, target)
            lines += [(line, "bold") for line in wrapped(how, width, indent)]
    return lines


def target_view(
    target: Target, cells: Sequence[Cell], width: int = 80, *, only_failures: bool = False
) -> Text:
    """One target: its name and pins, each cell (only the ones not kept in a matrix run), and
    the count of each grade."""
    counts = {kind: sum(c.verdict.kind == kind for c in cells) for kind in GRADES}
    shown = [c for c in cells if c.verdict.kind != KEPT] if only_failures else list(cells)
    heading = target.name
    if target.about and target.about != f"the program `{target.name}`":
        heading += f" · {target.about}"
    lines = [(line, "bold") for line in wrapped(heading, width, 0)]
    if pins := ", ".join(f"{k} {v}" for k, v in versions(target).items()):
        lines += [(line, "dim") for line in wrapped(pins, width, 2)]
    if spoken_wire(target.name, cells, target.wire) == CHAT:  # said when not the default
        lines += [("  wire: openai (the Chat Completions API)", "dim")]
    for cell in shown:
        detail = only_failures or cell.verdict.kind != KEPT or len(cells) == 1
        lines += cell_lines(cell, target, width, detail=detail)
    summary = ", ".join(f"{counts[kind]} {kind}" for kind in GRADES)
    claimed = [c.case for c in cells if c.verdict.kind == FAIL and c.case in target.claims]
    if claimed:
        summary += f"; {', '.join(claimed)} read fail, which it claims to keep"
    lines += [(line, "bold") for line in wrapped(summary, width, 2)]
    return lines_view(lines)


def spoken_wire(name: str, cells: Sequence[Cell], declared: str | None) -> str:
    """A target's wire: the one it declares, else the one its trials were judged on."""
    wires = [c.trial.wire for c in cells if c.target == name and c.trial is not None]
    return declared or (wires[0] if wires else "?")


def markdown(cells: Sequence[Cell], wires: Mapping[str, str | None] | None = None) -> str:
    """The matrix as a Markdown table (what the README shows): a row with each column's wire,
    then a fail in bold, and the mode that decided a case run in both modes when the two modes
    disagree."""
    targets, cases, by = grid(cells)
    lines = [
        "| case | " + " | ".join(f"`{t}`" for t in targets) + " |",
        "|---|" + "---|" * len(targets),
        "| *wire* | "
        + " | ".join(spoken_wire(t, cells, (wires or {}).get(t)) for t in targets)
        + " |",
    ]
    for case in cases:
        marks = []
        for name in targets:
            cell = by[(name, case)]
            kind = cell.verdict.kind
            mark = f"**{kind}**" if kind == FAIL else kind
            if cell.other is not None and cell.other.verdict.kind != kind and cell.mode:
                mark += f" ({cell.mode})"
            marks.append(mark)
        lines.append(f"| {case} {BY_ID[case].title} | " + " | ".join(marks) + " |")
    return "\n".join(lines)


def exchange_json(exchange: Any, shown: Any) -> dict[str, Any]:
    return {
        "number": exchange.number,
        "request": f"{exchange.method} {exchange.path}",
        "at": round(exchange.at, 3),
        "status": exchange.status,
        "answer": exchange.answer,
        "stream": bool(isinstance(exchange.body, dict) and exchange.body.get("stream")),
        "messages": len(exchange.messages),
        "body": shown(exchange.body),
        # A chat request's body as it was sent (`body` is its neutral reading).
        **({"sent": shown(exchange.sent)} if exchange.sent is not None else {}),
    }


def trial_json(cell: Cell) -> dict[str, Any]:
    """One trial's record: how it ended and every request, body and all (this run's paths
    and address hidden as {dir}, {scratch}, {url})."""
    trial = cell.trial
    if trial is None:
        return {"exit": None, "requests": [], "new_files": []}

    def shown(value: Any) -> Any:
        return shown_value(trial, value)

    ended = trial.exit
    return {
        "exit": ended.line(),
        # The exit's parts, so that `lab probe merge` reads the trial back (merge.py).
        "ended": {"status": ended.status, "error": ended.error, "timeout": ended.timeout},
        "wire": trial.wire,  # the wire it was judged on (lab/probe/which_wire.py)
        "requests": [exchange_json(e, shown) for e in trial.exchanges],
        "new_files": list(trial.new_files),
        "output": trial.output,
    }


def shown_value(trial: Trial, value: Any) -> Any:
    """A request body with the run's paths and address hidden (Trial.shown), strings at any
    depth."""
    if isinstance(value, str):
        return trial.shown(value)
    if isinstance(value, dict):
        return {k: shown_value(trial, v) for k, v in value.items()}
    if isinstance(value, list):
        return [shown_value(trial, v) for v in value]
    return value


def cell_json(cell: Cell, target: Target | None = None) -> dict[str, Any]:
    found: dict[str, Any] = {
        "target": cell.target,
        "case": cell.case,
        "verdict": cell.verdict.kind,
        "because": cell.verdict.because,
        "evidence": list(cell.verdict.evidence),
        "mode": cell.mode,
        "argv": list(cell.argv),  # how the target was run, and with which LAB_PROBE_STREAM
        "stream": cell.stream,
        **trial_json(cell),
    }
    if target is not None and cell.verdict.kind == FAIL:
        found["reproduce"] = reproduce(cell, target)
    if cell.other is not None:
        found["other"] = cell_json(cell.other)
    return found


def results_json(
    targets: Sequence[Target],
    cells: Sequence[Cell],
    isolation: str,
    run: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The whole result; `run` (the command that defines the run, the lab's version, the shard)
    lets `lab probe merge` join the shards of one run."""
    case_ids = list(dict.fromkeys(c.case for c in cells))
    by_name = {t.name: t for t in targets}
    return {
        **({"run": run} if run is not None else {}),
        "isolation": isolation,
        "grades": list(GRADES),
        "targets": [
            {
                "name": t.name,
                "about": t.about,
                "versions": versions(t),
                "missing": t.missing(),
                "wire": t.wire,  # None: read from the program's first request
            }
            for t in targets
        ],
        "cases": [
            {
                "id": BY_ID[i].id,
                "title": BY_ID[i].title,
                "checks": BY_ID[i].checks,
                "kept_when": BY_ID[i].kept_when,
                "grade": BY_ID[i].grade,
                "outcomes": BY_ID[i].outcomes,
            }
            for i in case_ids
        ],
        "cells": [cell_json(c, by_name.get(c.target)) for c in cells],
    }
