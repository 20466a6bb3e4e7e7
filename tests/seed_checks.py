"""The notebooks quote the seed word for word: checked against the seed's text, which lives
outside the repository (../shared/seed). So it is a step of .ci/run, not of the README's suite
(a fresh clone has no ../shared beside it):

    .venv/bin/python tests/seed_checks.py [SEED_FOLDER]      # default: ../shared/seed

Exits 0 when every quote is found in the seed, 1 with one line per quote that is not, 2 when the
seed folder holds no text. tests/test_notebooks.py checks this checker on a seed of its own.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import jupytext

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
SEED = ROOT.parent / "shared" / "seed"


def markdown(path: Path) -> str:
    return "\n".join(c.source for c in jupytext.read(path).cells if c.cell_type == "markdown")


def quotes(text: str) -> list[str]:
    """The seed's words a notebook's Markdown quotes: its `> ` lines, per paragraph."""
    found, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("> ") and re.search(r"[\u4e00-\u9fff]", line):
            current.append(line[2:].strip())
        elif current:
            found.append("".join(current))
            current = []
    return found


def squeeze(text: str) -> str:
    """Without grade tags and attributions, labels, emphasis and white space."""
    text = re.sub(r"【[一二三]】", "", text)
    text = re.sub(r"【[一二三]，[^：】]*：", "", text)  # an attribution before the quoted words
    text = re.sub(r"【[一二三]，[^】]*】", "", text)  # an attribution alone
    text = re.sub(r"（种子[^）]*）", "", text)
    text = re.sub(r"^\*\*(类比|不变式|顺序不变式|安全不变量|§\d+)\*\*", "", text.strip())
    return "".join(text.replace("**", "").replace("】", "").replace("`", "").split())


def problems(name: str, text: str, seed_text: str) -> list[str]:
    """One line per quote of `text` (a notebook's Markdown) that the seed does not hold, and one
    when the notebook quotes too little (00 at least once, 07 need not, the others twice)."""
    seed, quoted = squeeze(seed_text), quotes(text)
    found = []
    least = {"00": 1, "07": 0}.get(name[:2], 2)
    if len(quoted) < least:
        found.append(f"{name}: {len(quoted)} quotes of the seed, at least {least} expected")
    for quote in quoted:
        for fragment in squeeze(quote).split("……"):
            fragment = fragment.strip("。…")
            if re.search(r"[\u4e00-\u9fff]", fragment) and fragment not in seed:
                found.append(f"{name}: not in the seed: {fragment[:60]}")
    return found


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else SEED
    seed_text = "".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt")))
    if not seed_text:
        print(f"seed_checks: no seed text (*.txt) in {folder}", file=sys.stderr)
        return 2
    found = [line for path in NOTEBOOKS for line in problems(path.name, markdown(path), seed_text)]
    for line in found:
        print(line, file=sys.stderr)
    print(f"seed_checks: {len(NOTEBOOKS)} notebooks, {len(found)} quotes not in the seed")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
