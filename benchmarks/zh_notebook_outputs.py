"""How much English a student of the zh edition sees in the notebooks' OUTPUTS.

Executes each notebook's source (the students' edition runs the same code cells) and counts, per
notebook, the runs of three or more English words in what its cells print or display, outside
code and data (the detector of tests/test_zh.py); beside it, the runs inside the lab's code that
a notebook shows on purpose (`code(...)`, English as written), not counted in the first.
Notebook 08 runs the bench, whose report stays English by design, and is left out.

    .venv/bin/python benchmarks/zh_notebook_outputs.py [NOTEBOOK ...] [--show]
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
from test_zh import as_text, cell_outputs, english_sentences  # noqa: E402  (the suite's own)

SKIPPED = {"08_real_harnesses.py"}  # the bench speaks to harness authors, in English


def english_runs(source: Path) -> tuple[list[str], list[str]]:
    """The runs outside the code a notebook shows, and those inside it."""
    outputs = cell_outputs(source)
    runs = [[r for o in outputs for r in english_sentences(as_text(o, code=c))] for c in (0, 1)]
    return runs[0], runs[1]


def main(argv: list[str]) -> int:
    show = "--show" in argv
    names = [a for a in argv if not a.startswith("--")]
    sources = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
    sources = [s for s in sources if (s.name in names or not names) and s.name not in SKIPPED]
    total = in_code = 0
    for source in sources:
        runs, code = english_runs(source)
        total, in_code = total + len(runs), in_code + len(code)
        print(
            f"{source.name:40} {len(runs):4} English runs ({len(code)} in code shown)", flush=True
        )
        if show:
            for run in runs:
                print(f"    {run}")
    print(f"{'total':40} {total:4} English runs ({in_code} in code shown)")
    return 0


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="lab-zh-scan-") as scratch:
        os.environ["IPYTHONDIR"] = scratch  # the kernels' profile, not the user's ~/.ipython
        sys.exit(main(sys.argv[1:]))
