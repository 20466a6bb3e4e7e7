"""The worksheet: every predict-then-run question of the notebooks, one line each with room for
the student's prediction, as a printable PDF (fpdf2; Chinese drawn with a CJK font found on the
machine). The questions are read from the notebooks' sources, so the sheet never drifts from them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from lab.teacher.edition import cells
from lab.teacher.one_language import blocks, one_language

CHECK = re.compile(r"""check\(\s*["']([^"']+)["']""")
# A question's paragraph opens in bold: **问题 M1.1 / Question M1.1.** or **A.1　为什么……？**
QUESTION = re.compile(r"\*\*(?:问题|Question|[A-Z]\d*\.\d)")
LABEL = re.compile(r"^\*\*(?:问题\s*\S+|Question\s*\S+|[A-Z]\d*\.\d)[\s　.]*(?:\*\*)?")
MARKUP = re.compile(r"\*\*|(?<!\w)\*(?=\S)|(?<=\S)\*(?!\w)|`")


@dataclass(frozen=True)
class Question:
    id: str  # as `check("ID", ...)` names it
    notebook: str  # e.g. "01_conveyor_belt_M1"
    text: dict[str, str]  # {"zh": ..., "en": ...}, plain text on one line


def plain(markdown: str) -> str:
    """A question's Markdown as one line of plain text: no bold, italics or backticks, no label."""
    text = " ".join(markdown.split())
    text = LABEL.sub("", text)
    return MARKUP.sub("", text).strip()


def notebook_questions(name: str, source: str) -> list[Question]:
    """The questions of one notebook in order: each `check("ID", ...)` and the question paragraph
    before it (the one naming ID; else the nearest one not yet taken)."""
    found: list[Question] = []
    asked: list[str] = []  # question paragraphs seen so far, not yet taken
    for cell in cells(source)[1]:
        if cell.is_markdown:
            paragraphs = ["\n".join(lines) for lines in blocks(cell.markdown())]
            asked += [p for p in paragraphs if QUESTION.match(p)]
            continue
        for id in CHECK.findall("\n".join(cell.lines)):
            named = [p for p in asked if re.search(rf"(?<![\w.]){re.escape(id)}(?![\w])", p)]
            if not named and not asked:
                raise ValueError(f"{name}: check({id!r}) has no question before it")
            paragraph = (named or asked)[-1]
            asked.remove(paragraph)
            text = {lang: plain(one_language(paragraph, lang)) for lang in ("zh", "en")}
            found.append(Question(id, name, text))
    return found


def questions(folder: Path) -> list[Question]:
    """Every question of the notebooks in `folder`, in the order a class meets them."""
    found: list[Question] = []
    for path in sorted(folder.glob("[0-9][0-9]_*.py")):
        found += notebook_questions(path.stem, path.read_text(encoding="utf-8"))
    return found


# ---- the PDF ---------------------------------------------------------------------------------
WORDS = {
    "en": {
        "title": "harness-lab · predict, then run",
        "intro": 'Write your prediction on each line before you run the cell check("ID", ...) '
        "in the notebook named; the code computes the answer only then.",
        "name": "Name: ____________________    Date: ____________",
        "notebook": "notebook",
        "optional": "(optional: outside the chapter)",
        "prediction": "my prediction:",
        "right": "right?",
    },
    "zh": {
        "title": "harness-lab · 先预测，再运行",
        "intro": '在笔记本里运行 check("编号", ...) 之前，先在每一行写下你的预测；代码只在那之后'
        "才算出答案。",
        "name": "姓名：____________________    日期：____________",
        "notebook": "笔记本",
        "optional": "（选做：超出本章）",
        "prediction": "我的预测：",
        "right": "对吗？",
    },
}
# The notebooks a 90-minute class skips (docs/teacher/lesson-plan.md): the hunt and the bench.
OUTSIDE_THE_CHAPTER = ("07_hypothesis_hunt", "08_real_harnesses")
# Fonts that draw Chinese, tried in order (Debian's fonts-wqy-microhei, fonts-noto-cjk, macOS).
CJK_FONTS = [
    "/usr/share/fonts/truetype/wqy/wqy-microhei.ttc",
    "/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf",
    "/System/Library/Fonts/PingFang.ttc",
]


FIXED_DATE = datetime(2026, 1, 1, tzinfo=UTC)

# A font for the signs the CJK fonts lack (the ✗ of a question), when the machine has one.
SYMBOL_FONTS = ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"]
FONT_FILES = {".ttf", ".ttc", ".otf"}  # what fpdf2 can embed


class WorksheetError(Exception):
    """The worksheet cannot be made here (no fpdf2, no font): one line saying what to install."""


def cjk_font() -> Path:
    """A font file that draws Chinese: a known path, else what fontconfig names for zh."""
    for candidate in CJK_FONTS:
        if Path(candidate).is_file():
            return Path(candidate)
    if shutil.which("fc-match"):
        named = subprocess.run(
            ["fc-match", "-f", "%{file}", ":lang=zh"], capture_output=True, text=True, timeout=20
        ).stdout.strip()
        if named and Path(named).is_file() and Path(named).suffix.lower() in FONT_FILES:
            return Path(named)
    raise WorksheetError(
        "no CJK font found for the worksheet (on Debian: apt-get install fonts-wqy-microhei)"
    )


def in_order(found: list[Question]) -> list[Question]:
    """The chapter's notebooks first, each one's questions by number (M2.1, M2.2, M2.3), then
    the optional notebooks outside the chapter."""

    def number(question: Question) -> tuple[int, ...]:
        return tuple(int(n) for n in re.findall(r"\d+", question.id))

    def place(question: Question) -> tuple[bool, str, tuple[int, ...]]:
        return (question.notebook in OUTSIDE_THE_CHAPTER, question.notebook, number(question))

    return sorted(found, key=place)


# The pieces a line never breaks inside: a bracketed part ("(True / False)", 「（cat x）」),
# a word of Latin letters or code, and a Chinese character with the punctuation that closes on it.
PIECE = re.compile(r"\s*(?:\([^()（）]*\)|（[^()（）]*）|[\x21-\x7e]+|.[，。：；？！、」』）]*)")


def wrapped(width_of: Callable[[str], float], text: str, width: float) -> list[str]:
    """The text broken into lines no wider than `width`, never inside a piece (a piece wider
    than a line gets a line of its own)."""
    lines = [""]
    for piece in PIECE.findall(text):
        if lines[-1] and width_of(lines[-1] + piece) > width:
            lines.append(piece.lstrip())
        else:
            lines[-1] += piece if lines[-1] else piece.lstrip()
    return lines


# The page's layout, in millimetres: the label column, the line heights.
LABEL_WIDTH = 12.0
TEXT_LINE = 4.8
ANSWER_LINE = 6.5
GAP = 0.5


def pdf(
    found: list[Question], lang: str, settings: dict[str, dict[str, str]] | None = None
) -> bytes:
    """The worksheet as PDF bytes: A4, a title, the questions in order (each with what its
    notebook shows before it, from `settings`), a line to write the prediction on and a box to
    tick. A question and its line are never split across pages."""
    try:
        from fpdf import FPDF
    except ImportError:
        raise WorksheetError(
            "the worksheet needs fpdf2: pip install 'harness-lab[teacher]' (or pip install fpdf2)"
        ) from None
    w = WORDS[lang]
    settings = settings or {}
    sheet = FPDF(format="A4")
    sheet.set_creation_date(FIXED_DATE)  # the same questions give the same bytes
    sheet.set_title(w["title"])
    sheet.add_font("cjk", fname=str(cjk_font()))
    symbols = [path for path in SYMBOL_FONTS if Path(path).is_file()][:1]
    for path in symbols:  # ✗ and ✓, which the CJK fonts lack
        sheet.add_font("symbols", fname=path)
    sheet.set_fallback_fonts(["symbols"] if symbols else [])
    sheet.set_margins(15, 12, 15)
    sheet.set_auto_page_break(True, margin=12)
    sheet.add_page()
    sheet.set_font("cjk", size=15)
    sheet.cell(0, 9, w["title"], new_x="LMARGIN", new_y="NEXT")
    sheet.set_font("cjk", size=9.5)
    sheet.multi_cell(0, 5, w["intro"], align="L", new_x="LMARGIN", new_y="NEXT")
    sheet.cell(0, 8, w["name"], new_x="LMARGIN", new_y="NEXT")
    width = sheet.epw - LABEL_WIDTH
    notebook = ""
    for question in in_order(found):
        setting = settings.get(question.id, {}).get(lang, "")
        space = "" if lang == "zh" else " "  # Chinese sentences follow on without a space
        text = f"{setting}{space}{question.text[lang]}".strip()
        sheet.set_font("cjk", size=9.5)
        lines = wrapped(sheet.get_string_width, text, width - 2 * sheet.c_margin)
        needed = len(lines) * TEXT_LINE + ANSWER_LINE + GAP
        heading = question.notebook != notebook
        if heading:
            needed += 7
        if sheet.get_y() + needed > sheet.page_break_trigger:
            sheet.add_page()  # a question and its answer line stay together
        if heading:
            notebook = question.notebook
            sheet.set_font("cjk", size=11)
            title = f"{w['notebook']} {notebook}"
            if notebook in OUTSIDE_THE_CHAPTER:
                title += f" {w['optional']}"
            sheet.cell(0, 7, title, new_x="LMARGIN", new_y="NEXT")
            sheet.set_font("cjk", size=9.5)
        sheet.cell(LABEL_WIDTH, TEXT_LINE, question.id)
        for line in lines:
            sheet.set_x(sheet.l_margin + LABEL_WIDTH)
            sheet.cell(width, TEXT_LINE, line, new_x="LMARGIN", new_y="NEXT")
        sheet.set_text_color(110, 110, 110)
        sheet.set_x(sheet.l_margin + LABEL_WIDTH)
        sheet.cell(0, ANSWER_LINE, f"{w['prediction']} " + "_" * 56 + f"   {w['right']} □",
                   new_x="LMARGIN", new_y="NEXT")  # fmt: skip
        sheet.set_text_color(0, 0, 0)
        sheet.ln(GAP)
    return bytes(sheet.output())
