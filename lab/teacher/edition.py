"""The students' edition: a notebook source (jupytext percent format) with its Markdown in one
language. Code cells are copied as they are; a Markdown cell left with nothing is removed."""

from __future__ import annotations

from dataclasses import dataclass

from lab.teacher.bilingual import one_language

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
