"""`lab probe --report FILE.html`: one self-contained page — the matrix, and per cell the requests
and answers that decided it. No script, no external resource: it opens anywhere, offline."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from html import escape

from lab.probe.bench import Cell
from lab.probe.catalogue import BY_ID
from lab.probe.grades import FAIL
from lab.probe.target import Target
from lab.probe.trial import Exchange, block_line, cut
from lab.views.probe_matrix import reproduce, shown_value, versions

STYLE = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 2em; color: #222; }
h1 { font-size: 1.5em; } h2 { font-size: 1.2em; margin-top: 2em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #ccc; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
td.kept { background: #e3f4e3; } td.fail { background: #f9d6d6; font-weight: bold; }
td.non-strict { background: #fcefc7; } td.info { background: #e0effa; }
td.na { background: #eee; color: #777; } td.not-reached { background: #ead7f3; font-weight: bold; }
td.inconclusive { background: #dde3f0; }
td a { color: inherit; }
details { margin: .4em 0; border: 1px solid #ddd; padding: .3em .6em; }
summary { cursor: pointer; }
.evidence { margin: .3em 0 .3em 1.2em; }
pre { white-space: pre-wrap; background: #f7f7f7; padding: .4em; margin: .2em 0; font-size: 12px; }
.meta { color: #666; }
"""
CLASS = {
    "kept": "kept",
    "fail": "fail",
    "non-strict": "non-strict",
    "info": "info",
    "n/a": "na",
    "not reached": "not-reached",
    "inconclusive": "inconclusive",
}


def anchor(target: str, case: str) -> str:
    return "cell-" + "".join(ch if ch.isalnum() else "-" for ch in f"{target}-{case}")


def request_text(exchange: Exchange) -> str:
    """The whole request as the harness sent it: its settings, every tool it declared, then
    every message block by block (a cell is decided by calls and results anywhere in it)."""
    lines = []
    body = exchange.body if isinstance(exchange.body, dict) else {}
    settings = {k: body[k] for k in ("model", "max_tokens", "stream", "tool_choice") if k in body}
    if settings:
        lines.append(" ".join(f"{k}={json.dumps(v)}" for k, v in settings.items()))
    if exchange.betas:
        lines.append(f"anthropic-beta: {exchange.betas}")
    tools = body.get("tools")
    if isinstance(tools, list) and tools:
        names = [str(t.get("name")) if isinstance(t, dict) else "?" for t in tools]
        lines.append(f"tools: {', '.join(names)}")
    system = body.get("system")
    if system:
        text = system if isinstance(system, str) else json.dumps(system, ensure_ascii=False)
        lines.append(f"system: {cut(text)}")
    if body.get("thread"):
        lines.append(f"thread: {json.dumps(body['thread'])}")
    for index, message in enumerate(exchange.messages):
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        blocks = [{"type": "text", "text": content}] if isinstance(content, str) else content
        lines.append(f"messages.{index} {message.get('role')}:")
        lines += [f"  {block_line(b)}" for b in blocks or []]
    return "\n".join(lines)


def cell_section(target: Target, cell: Cell) -> str:
    verdict = cell.verdict
    case = BY_ID.get(cell.case)
    opened = " open" if verdict.kind == FAIL else ""  # a reader sees the evidence of a fail
    parts = [
        f'<details id="{anchor(cell.target, cell.case)}"{opened}>',
        f"<summary><b>{escape(cell.case)}</b> {escape(cell.title)} — "
        f"<b>{escape(verdict.kind)}</b>: {escape(verdict.because)}</summary>",
    ]
    if case:
        parts.append(f'<p class="meta">kept when {escape(case.kept_when)}</p>')
    parts.append(f'<pre class="evidence">{escape(chr(10).join(verdict.evidence))}</pre>')
    if verdict.kind == FAIL:
        parts.append(f"<p><b>reproduce:</b> <code>{escape(reproduce(cell, target))}</code></p>")
    for shown in (cell, cell.other) if cell.other else (cell,):
        if shown.trial is None:
            continue
        if shown is not cell:
            parts.append(
                f"<p>in {escape(shown.mode or 'the other')} mode: "
                f"{escape(shown.verdict.kind)}: {escape(shown.verdict.because)}</p>"
            )
        for exchange in shown.trial.exchanges:
            # Hidden before it is cut: the text is cut at what the reader sees (and a trial
            # read back by `lab probe merge`, its paths already hidden, shows the same).
            hidden = replace(exchange, body=shown_value(shown.trial, exchange.body))
            parts.append(f"<p>{escape(exchange.line())}</p>")
            parts.append(f"<pre>{escape(request_text(hidden))}</pre>")
        if shown.trial.output.strip():
            parts.append("<p>the program's last output lines:</p>")
            parts.append(f"<pre>{escape(shown.trial.output)}</pre>")
    parts.append("</details>")
    return "\n".join(parts)


def matrix_table(verdicts: Sequence[tuple[str, str, str]], links: bool = True) -> str:
    """The matrix as an HTML table: cases down, targets across; (target, case, verdict) in."""
    names = list(dict.fromkeys(t for t, _, _ in verdicts))
    cases = list(dict.fromkeys(c for _, c, _ in verdicts))
    by = {(t, c): v for t, c, v in verdicts}
    head = "".join(f"<th>{escape(n)}</th>" for n in names)
    rows = []
    for case in cases:
        tds = []
        for name in names:
            kind = by[(name, case)]
            shown = f'<a href="#{anchor(name, case)}">{escape(kind)}</a>' if links else kind
            tds.append(f'<td class="{CLASS[kind]}">{shown}</td>')
        title = escape(BY_ID[case].title)
        rows.append(f"<tr><th>{escape(case)}</th><td>{title}</td>{''.join(tds)}</tr>")
    return "\n".join(
        [
            f'<table id="matrix"><tr><th>case</th><th>what it breaks</th>{head}</tr>',
            *rows,
            "</table>",
        ]
    )


def report_page(targets: Sequence[Target], cells: Sequence[Cell], isolation: str) -> str:
    cases = list(dict.fromkeys(c.case for c in cells))
    about = []
    for target in targets:
        pins = ", ".join(f"{k} {v}" for k, v in versions(target).items())
        line = f"<li><b>{escape(target.name)}</b>: {escape(target.about)}"
        about.append(
            line + (f' <span class="meta">({escape(pins)})</span>' if pins else "") + "</li>"
        )
    case_rows = "".join(
        f"<tr><th>{escape(c)}</th><td>{escape(BY_ID[c].title)}</td>"
        f"<td>{escape(BY_ID[c].checks)}</td><td>{escape(BY_ID[c].grade)}</td>"
        f"<td>{escape(BY_ID[c].kept_when)}</td><td>{escape(BY_ID[c].outcomes)}</td></tr>"
        for c in cases
    )
    sections = []
    for target in targets:
        sections.append(f"<h2>{escape(target.name)}</h2>")
        sections += [cell_section(target, c) for c in cells if c.target == target.name]
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en"><head><meta charset="utf-8">',
            "<title>lab probe report</title>",
            f"<style>{STYLE}</style></head><body>",
            "<h1>lab probe: the matrix</h1>",
            f'<p class="meta">isolation: {escape(isolation)}</p>',
            matrix_table([(c.target, c.case, c.verdict.kind) for c in cells]),
            "<h2>Targets</h2>",
            f"<ul>{''.join(about)}</ul>",
            "<h2>Cases</h2>",
            '<table id="cases"><tr><th>case</th><th>fault</th><th>checks</th><th>grade</th>'
            "<th>kept when</th><th>the other outcomes</th></tr>",
            case_rows,
            "</table>",
            *sections,
            "</body></html>",
            "",
        ]
    )
