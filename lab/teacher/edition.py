"""The students' edition: a notebook source (jupytext percent format) with its Markdown in one
language. Code cells are copied as they are; a Markdown cell left with nothing is removed."""

from __future__ import annotations

from dataclasses import dataclass

from lab.teacher.one_language import one_language

CELL = "# %%"
MARKDOWN = "# %% [markdown]"


@dataclass(frozen=True)
class Cell:
    marker: str  # the "# %%" line that opens it, as written
    lines: list[str]  # what follows, up to the next cell

    @property
    def is_markdown(self) -> bool:
        return self.marker.startswith(MARKDOWN)

    def markdown(self) -> str:
        """A Markdown cell's text, without the "# " each line is commented with."""
        text = [line[2:] if line.startswith("# ") else line.lstrip("#") for line in self.lines]
        return "\n".join(text).strip("\n")


def cells(source: str) -> tuple[list[str], list[Cell]]:
    """The header (jupytext's metadata) and the cells of a percent-format source."""
    header: list[str] = []
    found: list[Cell] = []
    for line in source.splitlines():
        if line.startswith(CELL):
            found.append(Cell(line, []))
        elif found:
            found[-1].lines.append(line)
        else:
            header.append(line)
    return header, found


def commented(markdown: str) -> list[str]:
    return [f"# {line}".rstrip() for line in markdown.splitlines()]


def edition(source: str, lang: str) -> str:
    """The notebook source with its Markdown in `lang` only ("zh" or "en")."""
    header, found = cells(source)
    out = list(header)
    for cell in found:
        if not cell.is_markdown:
            out += [cell.marker, *cell.lines]
            continue
        text = one_language(cell.markdown(), lang)
        if text:
            out += [cell.marker, *commented(text), ""]
    return "\n".join(out).rstrip("\n") + "\n"


# -- the students' edition on disk: notebooks that open by double-click ------------------------
class EditionError(Exception):
    """The edition cannot be written here (no jupytext): one line saying what to install."""


def notebook_file(source: str, lang: str) -> str:
    """The edition of one notebook as an `.ipynb` (what Jupyter opens by double-click), written
    by jupytext from the percent source; it carries no pairing back to a `.py`."""
    try:
        import jupytext
    except ImportError:
        raise EditionError(
            "the students' edition needs jupytext: pip install 'harness-lab[notebooks]'"
        ) from None
    notebook = jupytext.reads(edition(source, lang), fmt="py:percent")
    notebook.metadata.pop("jupytext", None)
    for number, cell in enumerate(notebook.cells):  # nbformat draws random ids: the same file
        cell.id = f"cell-{number:03d}"  # every time instead
    text: str = jupytext.writes(notebook, fmt="ipynb")
    return text


# How to open and run the edition, for a student who has not used Jupyter before.
README = {
    "zh": """\
# 本章的笔记本（学生版）

每个 `.ipynb` 文件是一本笔记本，一个机制一本，按编号从 `00` 学到 `09`。

## 打开

1. 装好实验室和 Jupyter（老师会告诉你是否已经装好）：
   `pip install 'harness-lab[notebooks]'`
2. 在这个文件夹里运行 `jupyter lab`，浏览器会打开；在左边的文件列表里双击一本笔记本。
   （也可以用 VS Code 打开 `.ipynb`，选 Python 内核。）

## 运行

- 从上往下一格一格运行：选中一格，按 **Shift+Enter**。也可以用菜单「Run → Run All Cells」。
- 遇到 `prediction = ...` 的格子：**先把 `...` 换成你的预测，再运行**。下一格的
  `check("编号", prediction)` 才会告诉你对不对、为什么，以及代码是怎么算出来的。
  数字、中文（「第二轮」「三处」）、是／否都可以；还没写预测时它什么都不揭晓。
- 标了 `skip-in-class` 的格子课堂上不停下来讲，但照样要运行（后面的格子可能用到它）；课后可以细看。
- 出错了：菜单「Kernel → Restart Kernel and Run All Cells」从头再跑一遍。
- 整堂课不需要联网，也不需要 API key。
""",
    "en": """\
# The chapter's notebooks (students' edition)

Each `.ipynb` file is one notebook, one mechanism each, in order from `00` to `09`.

## Opening them

1. Install the lab and Jupyter (your teacher will tell you if it is done):
   `pip install 'harness-lab[notebooks]'`
2. Run `jupyter lab` in this folder; a browser opens; double-click a notebook in the file list
   on the left. (VS Code opens `.ipynb` files too: choose a Python kernel.)

## Running them

- Run the cells from top to bottom: select one and press **Shift+Enter**, or use
  "Run → Run All Cells".
- At a cell `prediction = ...`: **replace `...` with your prediction, then run it**. The next
  cell, `check("ID", prediction)`, tells you whether it is right, why, and how the code measured
  it. Numbers, words and yes/no are read as you type them; before you predict it reveals nothing.
- Cells tagged `skip-in-class` are not discussed in class, but run them all the same (later
  cells may need them); read them after class.
- Stuck: "Kernel → Restart Kernel and Run All Cells" runs everything again from the top.
- The class needs no network and no API key.
""",
}
