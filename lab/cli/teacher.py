"""The teacher's kit on the command line: `lab worksheet`, `lab report --slides` and the students'
edition `lab notebooks --lang zh`, hooked into `lab` by lab/cli/parser.py and lab/cli/dispatch.py.
Nothing heavy is imported at module level: `lab --help` stays quick.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lab.kernel.errors import UsageError

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK, EXIT_DEVIATED = 0, 1

# The one line each command prints once its files are written.
WORDS = {
    "en": {
        "kit": "wrote {n} files into {folder}: {names}",
        "worksheet": "wrote {path} ({n} questions)",
        "slides": "wrote {path} ({n} experiments, one per slide)",
        "notebooks": "wrote {n} notebooks {what}into {folder}; open them with Jupyter and "
        "jupytext (pip install jupyterlab jupytext)",
        "both": "and README.md ",
        "edition": "wrote {n} notebooks (.ipynb, the {lang} edition) and README.md into "
        "{folder}; run jupyter lab there and double-click one",
    },
    "zh": {
        "kit": "已把 {n} 个文件写进 {folder}：{names}",
        "worksheet": "已写出 {path}（{n} 道题）",
        "slides": "已写出 {path}（{n} 个实验，一屏一个）",
        "notebooks": "已把 {n} 个笔记本{what}写进 {folder}；用 Jupyter 和 jupytext 打开"
        "（pip install jupyterlab jupytext）",
        "both": "和 README.md ",
        # an edition named sets the language: zh here
        "edition": "已把 {n} 本笔记本（中文学生版，双击即开）和 README.md 写进 {folder}；"
        "打开方法见 README.md",
    },
}


def add_parsers(sub: Any, lang: argparse.ArgumentParser) -> None:
    """Add `worksheet` and `kit` to the `lab` subparsers (`lang`: the shared --lang option)."""
    worksheet = sub.add_parser(
        "worksheet", parents=[lang], help="the notebooks' questions as a printable PDF"
    )
    worksheet.add_argument("file", type=Path, metavar="FILE.pdf", help="write the PDF here")
    kit = sub.add_parser(
        "kit",
        parents=[lang],
        help="write the teacher's kit (lesson plan, answer key, claims, worksheets) into a folder",
    )
    kit.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=Path("teacher"),
        metavar="DIR",
        help="where to write it (default: ./teacher)",
    )


def kit_dir() -> Path:
    """Installed: lab/teacher_kit inside the package; from a checkout: ./docs/teacher."""
    package = Path(__file__).resolve().parent.parent
    shipped = package / "teacher_kit"
    return shipped if shipped.is_dir() else package.parent / "docs" / "teacher"


def write_new_files(folder: Path, files: list[tuple[str, bytes]]) -> None:
    """Write each (name, bytes) into `folder`, never over a file: nothing is written if one of
    them exists already; every failure is one line (exit 2)."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"{folder} is a file; name a folder")
    taken = [folder / name for name, _ in files if (folder / name).exists()]
    if taken:
        raise UsageError(f"{taken[0]} exists; name another folder (nothing was written)")
    try:
        folder.mkdir(parents=True, exist_ok=True)
        for name, data in files:
            (folder / name).write_bytes(data)
    except OSError as error:
        raise UsageError(f"{folder}: {error.strerror or error}") from None


def cmd_kit(args: argparse.Namespace, out: Console) -> int:
    """`lab kit DIR`: the lesson plan, the answer key, the claims table and the two worksheets,
    from a wheel too."""
    files = sorted(p for p in kit_dir().iterdir() if p.is_file())
    write_new_files(args.folder, [(p.name, p.read_bytes()) for p in files])
    names = ", ".join(p.name for p in files)
    said = WORDS[args.lang]["kit"].format(n=len(files), folder=args.folder, names=names)
    out.print(said, soft_wrap=True)
    return EXIT_OK


def settings() -> dict[str, dict[str, str]]:
    """What each question's notebook shows before it, for the worksheet (from the bank)."""
    from lab.classroom.questions import QUESTIONS

    return {id: dict(q.setting) for id, q in QUESTIONS.items() if q.setting}


def cmd_worksheet(args: argparse.Namespace, out: Console) -> int:
    """`lab worksheet FILE.pdf`: every question of the notebooks, one line each, to print."""
    from lab.cli.commands import notebooks_dir
    from lab.cli.output import check_output_path, write_whole
    from lab.teacher.worksheet import WorksheetError, pdf, questions

    check_output_path(args.file, "worksheet", (".pdf",))
    found = questions(notebooks_dir())
    try:
        data = pdf(found, args.lang, settings())
    except WorksheetError as error:
        raise UsageError(str(error)) from None
    write_whole(args.file, data, "worksheet")
    said = WORDS[args.lang]["worksheet"].format(path=args.file, n=len(found))
    out.print(said, soft_wrap=True)
    return EXIT_OK


def write_slides(args: argparse.Namespace, out: Console) -> int:
    """`lab report --slides FILE.html`: one experiment per screen, for the projector."""
    from lab.chapter.experiment import run_experiment
    from lab.cli.commands import chosen, say_errors, verdict
    from lab.cli.output import check_not_over, check_output_path, write_whole
    from lab.views import slides

    check_output_path(args.slides, "--slides")
    check_not_over(args.slides, "--slides", args.force)
    outcomes = [run_experiment(e) for e in chosen(args, [])]
    write_whole(args.slides, slides.page(outcomes, args.lang), "--slides")
    said = WORDS[args.lang]["slides"].format(path=args.slides, n=len(outcomes))
    out.print(said, soft_wrap=True)
    say_errors(outcomes, args.lang)
    return verdict(outcomes)


def notebooks_note(n: int, edition: str | None, folder: Path) -> str:
    """What `lab notebooks` says once written: in the edition's language when `--lang` named
    one, else in the default language (LAB_LANG, then the locale)."""
    from lab.languages.choice import default_lang

    lang = edition or default_lang()
    w = WORDS[lang]
    if edition is not None:
        return w["edition"].format(n=n, lang=edition, folder=folder)
    return w["notebooks"].format(n=n, what=w["both"], folder=folder)


def edition_sources(lang: str | None) -> list[tuple[str, str]]:
    """(file name, text) of every notebook, in both languages (and their README) or in one."""
    from lab.cli.commands import notebooks_dir
    from lab.teacher.edition import README, EditionError, notebook_file

    folder = notebooks_dir()
    sources = sorted(folder.glob("[0-9][0-9]_*.py"))
    if lang is None:
        return [(s.name, s.read_text("utf-8")) for s in [*sources, folder / "README.md"]]
    try:
        written = [(f"{s.stem}.ipynb", notebook_file(s.read_text("utf-8"), lang)) for s in sources]
    except EditionError as error:
        raise UsageError(str(error)) from None
    return [*written, ("README.md", README[lang])]


COMMANDS = {"worksheet": cmd_worksheet, "kit": cmd_kit}
