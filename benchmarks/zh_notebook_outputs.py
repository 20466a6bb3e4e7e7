"""How much English a student of the zh edition sees in the notebooks' OUTPUTS.

Executes each notebook's source (the students' edition runs the same code cells) and counts, per
notebook, the runs of three or more English words in what its cells print or display, outside
code and data (the detector of tests/test_zh.py). Notebook 08 runs the bench, whose report stays
English by design, and is left out.

    .venv/bin/python benchmarks/zh_notebook_outputs.py [NOTEBOOK ...] [--show]
"""

from __future__ import annotations

import html
import re
import sys
import tempfile
from pathlib import Path

import jupytext
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_zh import english_sentences  # noqa: E402  (the suite's own detector)

SKIPPED = {"08_real_harnesses.py"}  # the bench speaks to harness authors, in English


def outputs_text(notebook: object) -> list[str]:
    """Every output of every code cell, as plain text (HTML tags removed)."""
    texts = []
    for cell in notebook.cells:  # type: ignore[attr-defined]
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            text = output.get("text") or data.get("text/html") or data.get("text/plain") or ""
            text = "".join(text) if isinstance(text, list) else text
            texts.append(html.unescape(re.sub(r"<[^>]+>", "\n", text)))
    return texts


def english_runs(source: Path) -> list[str]:
    notebook = jupytext.read(source)
    with tempfile.TemporaryDirectory(prefix="lab-zh-scan-") as folder:
        NotebookClient(notebook, timeout=600, resources={"metadata": {"path": folder}}).execute()
    return [run for text in outputs_text(notebook) for run in english_sentences(text)]


def main(argv: list[str]) -> int:
    show = "--show" in argv
    names = [a for a in argv if not a.startswith("--")]
    sources = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
    sources = [s for s in sources if (s.name in names or not names) and s.name not in SKIPPED]
    total = 0
    for source in sources:
        runs = english_runs(source)
        total += len(runs)
        print(f"{source.name:40} {len(runs):4} English runs", flush=True)
        if show:
            for run in runs:
                print(f"    {run}")
    print(f"{'total':40} {total:4}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
