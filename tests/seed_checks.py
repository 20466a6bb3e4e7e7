"""The lab quotes the seed word for word, attributions and grade marks included: checked against
the seed's text, which lives outside the repository (../shared/seed). So it is a step of .ci/run,
not of the README's suite (a fresh clone has no ../shared beside it):

    .venv/bin/python tests/seed_checks.py [SEED_FOLDER]      # default: ../shared/seed

What counts as a quote: every `> ` paragraph with Chinese in a notebook's Markdown, and every
「…」 with two or more Chinese characters in experiments/*.py, lab/kernel/switches.py,
lab/classroom/questions/, lab/views/source_words.py and docs/teacher/claims.md. A quote
may leave words out with 「……」; each piece must be in the seed as written, with the
seed's 【一】【二】【三…】 marks where the seed has them: a piece that stops just before one
of them, or starts inside an attribution it does not open, drops it.

Exits 0 when every quote is found, 1 with one line per quote that is not, 2 when the seed folder
holds no text. tests/test_notebooks.py checks this checker on a seed of its own.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import jupytext

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
EXPERIMENTS = sorted((ROOT / "experiments").glob("*.py"))
SOURCES = [
    *EXPERIMENTS,
    ROOT / "lab" / "kernel" / "switches.py",
    *sorted((ROOT / "lab" / "classroom" / "questions").glob("*.py")),
]
SOURCES.append(ROOT / "lab" / "views" / "source_words.py")  # the claims' sources in Chinese
DOCS = [ROOT / "docs" / "teacher" / "claims.md"]  # Markdown: every 「…」 of the text is a quote
SEED = ROOT.parent / "shared" / "seed"
CJK = re.compile(r"[\u4e00-\u9fff]")


def markdown(path: Path) -> str:
    return "\n".join(c.source for c in jupytext.read(path).cells if c.cell_type == "markdown")


def quotes(text: str) -> list[str]:
    """The seed's words a notebook's Markdown quotes: its `> ` lines, per paragraph."""
    found, current = [], []
    for line in text.splitlines() + [""]:
        if line.startswith("> ") and CJK.search(line):
            current.append(line[2:].strip())
        elif current:
            found.append("".join(current))
            current = []
    return found


def inline_quotes(text: str) -> list[str]:
    """The 「…」 of a source file that quote the seed: two Chinese characters or more."""
    return [q for q in re.findall(r"「([^」]*)」", text) if len(CJK.findall(q)) >= 2]


def strings(source: str) -> str:
    """A Python file's string constants, one per line: a quote split over two adjacent
    literals reads as the one string Python makes of them."""
    nodes = ast.walk(ast.parse(source))
    return "\n".join(
        n.value for n in nodes if isinstance(n, ast.Constant) and isinstance(n.value, str)
    )


def squeeze(text: str) -> str:
    """Without a quote's leading label and source note, emphasis and white space. The grade
    marks and attributions stay: they are part of the words."""
    text = re.sub(r"（(?:种子|本章)[^）]*）", "", text)
    text = re.sub(r"^\*\*(类比|不变式|顺序不变式|安全不变量|§\d+)\*\*", "", text.strip())
    return "".join(text.replace("**", "").replace("`", "").split())


def open_bracket(text: str, at: int) -> bool:
    """Is position `at` of the seed inside a 【…】 mark?"""
    return text.rfind("【", 0, at) > text.rfind("】", 0, at)


def misquoted(quote: str, seed: str) -> str | None:
    """Why the quote is not the seed's words, or None."""
    inside = False  # an attribution opened by an earlier piece of the same quote
    for piece in squeeze(quote).split("……"):
        piece = piece.strip("。…")
        if not CJK.search(piece):
            continue
        starts = [m.start() for m in re.finditer(re.escape(piece), seed)]
        if not starts:
            return f"not in the seed: {piece[:60]}"
        whole = [
            s
            for s in starts
            if (inside or not open_bracket(seed, s)) and not seed.startswith("【", s + len(piece))
        ]
        if not whole:
            return f"drops the seed's 【…】 mark: {piece[:60]}"
        inside = piece.count("【") > piece.count("】") or (inside and "】" not in piece)
    return None


def problems(name: str, text: str, seed_text: str) -> list[str]:
    """One line per quote of `text` (a notebook's Markdown) that the seed does not hold, and one
    when the notebook quotes too little (00 at least once, 07 need not, the others twice)."""
    seed, quoted = squeeze(seed_text), quotes(text)
    found = []
    least = {"00": 1, "07": 0}.get(name[:2], 2)
    if len(quoted) < least:
        found.append(f"{name}: {len(quoted)} quotes of the seed, at least {least} expected")
    found += [f"{name}: {why}" for q in quoted if (why := misquoted(q, seed))]
    return found


def source_problems(name: str, text: str, seed_text: str) -> list[str]:
    """One line per 「…」 seed quote of a source file that the seed does not hold."""
    seed = squeeze(seed_text)
    return [f"{name}: {why}" for q in inline_quotes(text) if (why := misquoted(q, seed))]


def main(argv: list[str]) -> int:
    folder = Path(argv[0]) if argv else SEED
    seed_text = "".join(p.read_text(encoding="utf-8") for p in sorted(folder.glob("*.txt")))
    if not seed_text:
        print(f"seed_checks: no seed text (*.txt) in {folder}", file=sys.stderr)
        return 2
    found = [line for path in NOTEBOOKS for line in problems(path.name, markdown(path), seed_text)]
    for path in SOURCES:
        name = str(path.relative_to(ROOT))
        found += source_problems(name, strings(path.read_text(encoding="utf-8")), seed_text)
    for path in DOCS:
        name = str(path.relative_to(ROOT))
        found += source_problems(name, path.read_text(encoding="utf-8"), seed_text)
    for line in found:
        print(line, file=sys.stderr)
    print(
        f"seed_checks: {len(NOTEBOOKS)} notebooks, {len(SOURCES)} source files and "
        f"{len(DOCS)} document(s), "
        f"{len(found)} quotes not in the seed"
    )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
