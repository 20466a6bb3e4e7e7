"""`lab matrix` and `lab hunt` at work: the kill matrix computed and printed, a hunted case written
out as an experiment file.

Progress goes to stderr; stdout carries only the table (or its JSON) or the experiment's source.
"""

from __future__ import annotations

import itertools
import json
import os
import sys
import tempfile
from pathlib import Path

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from lab.chapter.experiment import load_file, run_experiment
from lab.chapter.source_lines import declared_id
from lab.kernel.errors import UsageError
from lab.kernel.switches import Switches, switch_names
from lab.testing.case_file import experiment_id, experiment_source
from lab.testing.search import Finding, Row, flipped_value, hunt, kill_matrix
from lab.views.matrix import matrix_json, matrix_view

# What the commands say on stderr (the experiment file `lab hunt` writes is code: English).
WORDS = {
    "en": {
        "matrix": "kill matrix",
        "reference": "reference",
        "hunting": "hunting {switch}",
        "none": "lab hunt: no counterexample for {switch} in {examples} cases",
        "found": "{ident}: {title} breaks ({size} {noun})",
        "wrote": "; wrote {path}",
        "unwritten": "; {path} not written",
        "fails": " (it does not reproduce)",
    },
    "zh": {
        "matrix": "杀伤矩阵",
        "reference": "参考实现",
        "hunting": "追猎 {switch}",
        "none": "追猎 {switch}：{examples} 个用例里没有找到反例",
        "found": "{ident}：{title}被打破（{size} 个{noun}）",
        "wrote": "；已写出 {path}",
        "unwritten": "；没有写出 {path}",
        "fails": "（它复现不了）",
    },
}
INGREDIENTS = {"en": ("ingredient", "ingredients"), "zh": ("成分", "成分")}  # one, several


def progress_bar(auto_refresh: bool = True) -> Progress:
    """Progress on stderr, only when it is a terminal (a log gets the summary line alone)."""
    console = Console(stderr=True)
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        auto_refresh=auto_refresh,
        disable=not console.is_terminal,
    )


# ---- lab matrix ----------------------------------------------------------------------------
def matrix_command(examples: int, jobs: int, as_json: bool, out: Console, lang: str = "en") -> int:
    """Print the kill matrix and the score; 0 when every fault is caught and the reference
    harness breaks nothing."""
    w = WORDS[lang]
    rows = 1 + len(switch_names())
    # No self-refreshing progress thread: the matrix forks its worker processes.
    with progress_bar(auto_refresh=False) as progress:
        task = progress.add_task(w["matrix"], total=rows)

        def done(row: Row) -> None:
            shown = f"{w['matrix']} · {row.switch or w['reference']}"
            progress.update(task, advance=1, description=shown)
            progress.refresh()

        matrix = kill_matrix(examples=examples, jobs=jobs, done=done)
    if as_json:
        print(json.dumps(matrix_json(matrix, examples), ensure_ascii=False, indent=2))
    else:
        out.print(matrix_view(matrix, examples, out, lang))
    return 0 if matrix.score == 1 and not matrix.reference.findings else 1


# ---- lab hunt ------------------------------------------------------------------------------
def reproduces(path: Path) -> bool:
    """The written experiment loads and shows its before→after (the reference vs the flip)."""
    return run_experiment(load_file(path)).reproduced


def free_id(wanted: str, folder: Path, besides: Path | None = None) -> str:
    """`wanted` (D4h), or D4h2, D4h3, ... when an experiment file in `folder` (other than
    `besides`, the file about to be replaced) already declares it."""
    taken = {
        declared_id(path)
        for path in folder.glob("*.py")
        if besides is None or path.resolve() != besides.resolve()
    }
    candidates = itertools.chain([wanted], (f"{wanted}{n}" for n in itertools.count(2)))
    return next(c for c in candidates if c not in taken)


def write_atomically(source: str, out_path: Path, force: bool) -> bool:
    """Write into a temp file beside the target, check it reproduces, then move it into place
    in one step (never over an existing file unless `force`). Returns whether it reproduced.
    The file is created like any other (mode 0666 less the umask), not private to its owner."""
    # A leading underscore: `lab run --dir` skips the file while it is being checked.
    temp = out_path.with_name(f"_{out_path.stem}.{os.getpid()}.py")
    try:
        try:
            with open(temp, "x", encoding="utf-8") as file:
                file.write(source)
        except OSError as error:  # a full disk, a folder that became read-only
            raise UsageError(f"--out {out_path}: {error.strerror or error}") from None
        if not reproduces(temp):
            return False
        if force:
            os.replace(temp, out_path)
        else:
            os.link(temp, out_path)  # fails if the file appeared meanwhile: never clobber
        return True
    finally:
        if os.path.exists(temp):
            os.unlink(temp)


def render(switch: str, finding: Finding, ident: str) -> str:
    before = finding.case.run(Switches())
    after = finding.case.run(Switches().flipped(**{switch: flipped_value(switch)}))
    return experiment_source(
        switch, finding.invariant, finding.case, finding.reason, before, after, ident
    )


def hunt_command(
    switch: str,
    invariant: str | None,
    out_path: Path | None,
    force: bool,
    examples: int,
    out: Console,
    lang: str = "en",
) -> int:
    """Print (or write to `out_path`) the smallest experiment that breaks an invariant with
    `switch` flipped; 1 when none is found or it does not reproduce."""
    w = WORDS[lang]
    if out_path and out_path.exists() and not force:
        raise FileExistsError(f"{out_path} exists; pass --force to overwrite it")
    if out_path and not out_path.parent.is_dir():
        raise NotADirectoryError(f"{out_path.parent} is not a folder")
    with progress_bar() as progress:
        task = progress.add_task(w["hunting"].format(switch=switch), total=None)
        finding = hunt(
            switch,
            invariant=invariant,
            examples=examples,
            tick=lambda runs: progress.update(task, completed=runs),
        )
    if finding is None:
        print(w["none"].format(switch=switch, examples=examples), file=sys.stderr)
        return 1
    ident = experiment_id(switch)
    if out_path is not None:
        ident = free_id(ident, out_path.parent, besides=out_path)
    source = render(switch, finding, ident)
    title = finding.invariant.zh if lang == "zh" else finding.invariant.title
    noun = INGREDIENTS[lang][finding.size != 1]
    summary = w["found"].format(ident=ident, title=title, size=finding.size, noun=noun)
    if out_path is None:
        with tempfile.TemporaryDirectory() as folder:
            check = Path(folder) / "hunted.py"
            check.write_text(source, encoding="utf-8")
            ok = reproduces(check)
        out.file.write(source)  # raw: the source, not rich markup
    else:
        ok = write_atomically(source, out_path, force)
        summary += w["wrote" if ok else "unwritten"].format(path=out_path)
    print(summary + ("" if ok else w["fails"]), file=sys.stderr)
    return 0 if ok else 1
