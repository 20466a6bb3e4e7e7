"""The bench in a notebook: `lab probe` run as a user runs it (in its network namespace), its
matrix and the wire of one cell shown inline."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from html import escape
from pathlib import Path
from typing import Any

from lab.views.probe_html import STYLE, matrix_table


class Html:
    """Markup a notebook displays inline."""

    def __init__(self, markup: str) -> None:
        self.markup = markup

    def _repr_html_(self) -> str:
        return self.markup

    def __repr__(self) -> str:
        return f"<Html: {len(self.markup)} characters; display it in a notebook>"


# A test session that already ran `lab probe ARGS --json` (tests/shared_probe.py) names its output
# here, a JSON file {"args": ARGS, "result": the JSON}, so the notebook does not run the same
# command again. Only the same ARGS are taken from it; in class nothing sets it.
SHARED = "LAB_PROBE_SHARED"


def probe(*args: str) -> dict[str, Any]:
    """`lab probe ARGS --json` in a subprocess (so it runs isolated), its JSON; or the JSON of
    the same command run earlier in this test session, when $LAB_PROBE_SHARED holds it."""
    if (shared := shared_result(args)) is not None:
        return shared
    command = [sys.executable, "-m", "lab", "probe", *args, "--json"]
    done = subprocess.run(command, capture_output=True, text=True, check=False)
    if not done.stdout:
        raise RuntimeError(f"lab probe {' '.join(args)}: {done.stderr.strip()}")
    return json.loads(done.stdout)


def shared_result(args: tuple[str, ...]) -> dict[str, Any] | None:
    """The result $LAB_PROBE_SHARED holds when it is that of `lab probe ARGS --json`, else None."""
    named = os.environ.get(SHARED)
    if not named:
        return None
    saved = json.loads(Path(named).read_text(encoding="utf-8"))
    return saved["result"] if saved["args"] == list(args) else None


def verdicts(result: dict[str, Any]) -> dict[tuple[str, str], str]:
    return {(c["target"], c["case"]): c["verdict"] for c in result["cells"]}


def matrix(result: dict[str, Any]) -> Html:
    cells = [(c["target"], c["case"], c["verdict"]) for c in result["cells"]]
    return Html(f"<style>{STYLE}</style>{matrix_table(cells, links=False)}")


def cell(result: dict[str, Any], target: str, case: str) -> dict[str, Any]:
    return next(c for c in result["cells"] if c["target"] == target and c["case"] == case)


def wire(found: dict[str, Any]) -> str:
    """One cell as text: each request and the fake's answer, the exit, the verdict."""
    lines = [f"#{r['number']} {r['request']} → {r['answer']}" for r in found["requests"]]
    lines.append(found["exit"] or "")
    lines.append(f"verdict: {found['verdict']}: {found['because']}")
    return "\n".join(lines)


def beside(left: tuple[str, str], right: tuple[str, Any]) -> Html:
    """Two things side by side: a text (left) and anything with _repr_html_ (right)."""
    (left_title, text), (right_title, shown) = left, right
    column = 'style="flex:1; min-width:0"'
    return Html(
        '<div style="display:flex; gap:1.5em">'
        f"<div {column}><b>{escape(left_title)}</b>"
        f'<pre style="white-space:pre-wrap; font-size:12px">{escape(text)}</pre></div>'
        f"<div {column}><b>{escape(right_title)}</b>{shown._repr_html_()}</div></div>"
    )


def cases() -> Html:
    """The case catalogue as a table."""
    from lab.probe.catalogue import CASES

    rows = "".join(
        f"<tr><th>{escape(c.id)}</th><td>{escape(c.title)}</td><td>{escape(c.checks)}</td>"
        f"<td>{escape(c.kept_when)}</td></tr>"
        for c in CASES
    )
    head = "<tr><th>case</th><th>fault</th><th>checks</th><th>kept when</th></tr>"
    return Html(f"<style>{STYLE}</style><table>{head}{rows}</table>")
