"""The probe's results for readers: the matrix on the terminal, as Markdown, and as JSON."""

from __future__ import annotations

from collections.abc import Sequence
from importlib import metadata
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from lab.probe.bench import Cell
from lab.probe.cases import BROKEN, BY_ID, KEPT, NA
from lab.probe.target import Target

STYLE = {KEPT: "green", BROKEN: "bold red", NA: "dim"}
MARK = {KEPT: "✓", BROKEN: "✗", NA: "–"}


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
    """The installed version of each distribution the target declares."""
    return {name: installed(name) or "not installed" for name in target.distributions}


def grid(cells: Sequence[Cell]) -> tuple[list[str], list[str], dict[tuple[str, str], Cell]]:
    targets = list(dict.fromkeys(c.target for c in cells))
    cases = list(dict.fromkeys(c.case for c in cells))
    return targets, cases, {(c.target, c.case): c for c in cells}


def matrix_view(cells: Sequence[Cell]) -> Table:
    """Targets down, cases across, a mark in every cell (it fits 80 columns)."""
    targets, cases, by = grid(cells)
    legend = ", ".join(f"{MARK[k]} {k}" for k in (KEPT, BROKEN, NA))
    table = Table(
        title=f"lab probe: the matrix ({legend})",
        title_justify="left",
        box=None,
        pad_edge=False,
        padding=(0, 1, 0, 0),
    )
    table.add_column("target", no_wrap=True)
    for case in cases:
        table.add_column(case, justify="center", no_wrap=True)
    for name in targets:
        marks = [by[(name, case)].verdict.kind for case in cases]
        table.add_row(name, *[Text(MARK[k], style=STYLE[k]) for k in marks])
    return table


def evidence_view(cell: Cell) -> Text:
    verdict = cell.verdict
    text = Text()
    text.append(f"{cell.case:<4} ", style="bold")
    text.append(f"{verdict.kind:<6}", style=STYLE[verdict.kind])
    text.append(f" {verdict.because}")
    for line in verdict.evidence:
        text.append(f"\n            {line}", style="dim" if verdict.kind == KEPT else "")
    return text


def target_view(target: Target, cells: Sequence[Cell], *, only_failures: bool = False) -> Group:
    counts = {kind: sum(c.verdict.kind == kind for c in cells) for kind in (KEPT, BROKEN, NA)}
    shown = [c for c in cells if c.verdict.kind != KEPT] if only_failures else list(cells)
    pins = ", ".join(f"{k} {v}" for k, v in versions(target).items())
    heading = Text(target.name, style="bold")
    if target.about and target.about != f"the program `{target.name}`":
        heading.append(f" · {target.about}")
    lines = [heading]
    if pins:
        lines.append(Text(f"  {pins}", style="dim"))
    summary = f"  {counts[KEPT]} kept, {counts[BROKEN]} broken, {counts[NA]} n/a"
    claimed = [c.case for c in cells if c.verdict.kind == BROKEN and c.case in target.claims]
    if claimed:
        summary += f"; broke {', '.join(claimed)}, which it claims to keep"
    lines += [Text("  ").append_text(evidence_view(c)) for c in shown]
    return Group(*lines, Text(summary, style="bold"))


def markdown(cells: Sequence[Cell]) -> str:
    """The matrix as a Markdown table (what the README shows)."""
    targets, cases, by = grid(cells)
    lines = [
        "| case | " + " | ".join(f"`{t}`" for t in targets) + " |",
        "|---|" + "---|" * len(targets),
    ]
    for case in cases:
        marks = []
        for name in targets:
            kind = by[(name, case)].verdict.kind
            marks.append(f"**{kind}**" if kind == BROKEN else kind)
        lines.append(f"| {case} {BY_ID[case].title} | " + " | ".join(marks) + " |")
    return "\n".join(lines)


def exchange_json(exchange: Any) -> dict[str, Any]:
    return {
        "number": exchange.number,
        "request": f"{exchange.method} {exchange.path}",
        "status": exchange.status,
        "answer": exchange.answer,
        "stream": bool(isinstance(exchange.body, dict) and exchange.body.get("stream")),
        "messages": len(exchange.messages),
    }


def cell_json(cell: Cell) -> dict[str, Any]:
    trial = cell.trial
    return {
        "target": cell.target,
        "case": cell.case,
        "verdict": cell.verdict.kind,
        "because": cell.verdict.because,
        "evidence": list(cell.verdict.evidence),
        "exit": trial.exit.line() if trial else None,
        "requests": [exchange_json(e) for e in trial.exchanges] if trial else [],
        "new_files": list(trial.new_files) if trial else [],
    }


def results_json(
    targets: Sequence[Target], cells: Sequence[Cell], isolation: str
) -> dict[str, Any]:
    case_ids = list(dict.fromkeys(c.case for c in cells))
    return {
        "isolation": isolation,
        "targets": [
            {"name": t.name, "about": t.about, "versions": versions(t), "missing": t.missing()}
            for t in targets
        ],
        "cases": [
            {
                "id": BY_ID[i].id,
                "title": BY_ID[i].title,
                "checks": BY_ID[i].checks,
                "kept_when": BY_ID[i].kept_when,
            }
            for i in case_ids
        ],
        "cells": [cell_json(c) for c in cells],
    }
