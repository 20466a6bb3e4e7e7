"""The `lab` commands but probe's: each takes the parsed arguments and a console and returns its
exit code. What a command needs (the SDK, the harness, hypothesis) is imported inside it, so a
quick command stays quick.
"""

from __future__ import annotations

import argparse
import json
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lab.cli.parser import EXIT_DEVIATED, EXIT_OK, EXIT_USAGE
from lab.kernel.errors import UsageError
from lab.kernel.switches import Switches

if TYPE_CHECKING:
    from rich.console import Console

    from lab.chapter.experiment import Experiment, Outcome


# ---- the experiments -------------------------------------------------------------------------
def baseline(args: argparse.Namespace) -> Switches:
    return Switches().flipped(**dict(args.switch))


def rerun_command(args: argparse.Namespace, ident: str) -> str:
    """The exact command that reruns one experiment as it was just run."""
    words = ["lab", "show", ident]
    for name, value in dict(args.switch).items():
        words += ["--switch", f"{name}={value}"]
    if args.dir is not None:
        words += ["--dir", str(args.dir)]
    if args.lang != "en":
        words += ["--lang", args.lang]
    return shlex.join(words)


def verdict(outcomes: list[Outcome]) -> int:
    """2 when an experiment's own code raised, 1 when one deviated, else 0."""
    if any(o.error is not None for o in outcomes):
        return EXIT_USAGE
    return EXIT_OK if all(o.reproduced for o in outcomes) else EXIT_DEVIATED


def chosen(args: argparse.Namespace, ids: list[str]) -> list[Experiment]:
    from lab.chapter.experiment import load_all, select

    return select(load_all(args.dir), ids)


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def cmd_list(args: argparse.Namespace, out: Console) -> int:
    from lab.views.report import experiments_view

    out.print(experiments_view(chosen(args, []), args.lang))
    return EXIT_OK


def cmd_run(args: argparse.Namespace, out: Console) -> int:
    from lab.chapter.experiment import run_experiment
    from lab.views.report import (
        baseline_text,
        outcome_view,
        outcomes_json,
        rerun_lines,
        summary_view,
    )

    base = baseline(args)
    if args.predict and args.json:
        raise UsageError("--predict asks questions on the terminal; it cannot go with --json")
    experiments = chosen(args, args.ids)
    if args.predict:
        return predicting(args, [run_experiment(e, base) for e in experiments], out)
    if args.json:
        outcomes = [run_experiment(e, base) for e in experiments]
        print_json(outcomes_json(outcomes))
        return verdict(outcomes)
    if base != Switches():
        out.print(baseline_text(base, args.lang))
    outcomes = []
    for experiment in experiments:  # each printed as soon as it ran
        outcomes.append(run_experiment(experiment, base))
        out.print(outcome_view(outcomes[-1], args.lang))
    out.print(summary_view(outcomes, args.lang, reruns=False))
    for line in rerun_lines(outcomes, args.lang, lambda ident: rerun_command(args, ident)):
        out.print(line, soft_wrap=True)  # a command to copy: never wrapped
    return verdict(outcomes)


def predicting(args: argparse.Namespace, outcomes: list[Outcome], out: Console) -> int:
    """`lab run --predict`: the student guesses each after value before seeing it."""
    from lab.classroom.reading import NoMoreInput
    from lab.views.predict_view import run_with_predictions

    try:
        return run_with_predictions(outcomes, out, args.lang, sys.stdin)
    except NoMoreInput as error:
        raise UsageError(str(error)) from None


def cmd_show(args: argparse.Namespace, out: Console) -> int:
    from lab.chapter.experiment import run_experiment
    from lab.views.report import baseline_text, experiment_runs_view, show_json

    base = baseline(args)
    (experiment,) = chosen(args, [args.id])
    outcome = run_experiment(experiment, base)
    if args.json:
        print_json(show_json(outcome))
    else:
        if base != Switches():
            out.print(baseline_text(base, args.lang))
        out.print(experiment_runs_view(outcome, args.lang))
    return verdict([outcome])


def cmd_compare(args: argparse.Namespace, out: Console) -> int:
    """Reference vs a preset (its switches and its own rules), for every experiment whose
    switches the preset flips; each row also read with the experiment's own rules."""
    from lab.chapter.compare import PRESETS as COMPARED
    from lab.chapter.compare import compare, compare_json
    from lab.views.compare_table import compare_view

    rows = compare(args.preset, chosen(args, []))
    if args.json:
        print_json(compare_json(args.preset, rows))
        return EXIT_OK
    flips = COMPARED[args.preset][0]().differences()
    out.print(compare_view(args.preset, rows, flips, args.lang))
    return EXIT_OK


def cmd_switches(args: argparse.Namespace, out: Console) -> int:
    from lab.views.report import switches_json, switches_view

    if args.json:
        print_json(switches_json())
    else:
        out.print(switches_view(args.lang))
    return EXIT_OK


def cmd_report(args: argparse.Namespace, out: Console) -> int:
    """The projector page: panorama, claims with grades, every experiment side by side; or
    (--slides) one experiment per screen."""
    from lab.cli.output import check_not_over, check_output_path, write_whole

    if args.slides is not None:
        from lab.cli.teacher import write_slides

        return write_slides(args, out)
    from lab.chapter.experiment import run_experiment
    from lab.views import html_report

    check_output_path(args.html, "--html")
    check_not_over(args.html, "--html", args.force)
    outcomes = [run_experiment(e) for e in chosen(args, [])]
    write_whole(args.html, html_report.page(outcomes, args.lang), "--html")
    out.print(html_report.wrote_note(args.html, len(outcomes), args.lang))
    say_errors(outcomes, args.lang)
    return verdict(outcomes)


def say_errors(outcomes: list[Outcome], lang: str) -> None:
    """One line on stderr per experiment whose own code raised: the page shows it, and the
    exit status 2 needs its line where the terminal shows errors."""
    from lab.cli.error_words import error_line

    for outcome in outcomes:
        if outcome.error is not None:
            print(error_line("lab: error: ", outcome.error, lang), file=sys.stderr)


def cmd_check(args: argparse.Namespace, out: Console) -> int:
    """pass (0) or fail (1) per hidden check, with hints; --init copies a starter here; --list
    for the teacher (only the named exercise's checks when one is named)."""
    from lab.classroom import exercises
    from lab.views.exercise_results import list_view, own_starter_note, results_view

    try:
        if args.list:
            if args.init or args.file:
                raise UsageError("--list shows the checks; it cannot go with --init or --file")
            out.print(list_view(args.lang, [args.exercise] if args.exercise else None))
            return EXIT_OK
        if not args.exercise:
            raise UsageError(f"name an exercise ({', '.join(exercises.EXERCISES)}) or use --list")
        if args.init:
            return init_exercise(args, out)
        results = exercises.check(args.exercise, args.file)
    except exercises.ExerciseError as error:
        raise UsageError(str(error)) from None
    exercise = exercises.EXERCISES[args.exercise]
    path = (args.file or exercises.starter_path(exercise)).resolve()
    out.print(results_view(exercise, path, results, args.lang))
    if exercises.is_own_starter(path):
        out.print(own_starter_note(exercise.id, args.lang))
    return EXIT_OK if all(r.passed for r in results) else EXIT_DEVIATED


def init_exercise(args: argparse.Namespace, out: Console) -> int:
    """`lab check ID --init [--file F]`: the starter copied to F (default ./FILE)."""
    from lab.classroom import exercises
    from lab.cli.output import check_output_path
    from lab.views.exercise_results import wrote_note

    target = args.file or Path(exercises.exercise_named(args.exercise).file)
    if not target.exists():
        check_output_path(target, "--file" if args.file else "--init")
    written = exercises.init(args.exercise, target)
    out.print(wrote_note(written, args.exercise, args.lang), soft_wrap=True)
    return EXIT_OK


def notebooks_dir() -> Path:
    """Installed: lab/notebook_sources inside the package; from a checkout: ./notebooks."""
    package = Path(__file__).resolve().parent.parent
    shipped = package / "notebook_sources"
    return shipped if shipped.is_dir() else package.parent / "notebooks"


def cmd_notebooks(args: argparse.Namespace, out: Console) -> int:
    """Write the notebooks' sources (and their README) into a folder, never over a file; with
    --lang, the students' edition: the Markdown in that language only."""
    from lab.cli.teacher import edition_sources, notebooks_note, write_new_files

    sources = edition_sources(args.lang)
    write_new_files(args.folder, [(name, text.encode("utf-8")) for name, text in sources])
    notebooks = sum(1 for name, _ in sources if name.endswith((".py", ".ipynb")))
    out.print(notebooks_note(notebooks, args.lang, args.folder), soft_wrap=True)
    return EXIT_OK


# ---- the search and the real model -----------------------------------------------------------
def cmd_matrix(args: argparse.Namespace, out: Console) -> int:
    from lab.cli.searches import matrix_command

    return matrix_command(args.examples, args.jobs, args.json, out, args.lang)


def cmd_hunt(args: argparse.Namespace, out: Console) -> int:
    from lab.cli.output import check_output_path

    if args.out is not None:  # checked before anything is searched
        if args.out.exists() and not args.out.is_dir() and not args.force:
            raise UsageError(f"--out {args.out}: the file exists; pass --force to overwrite it")
        check_output_path(args.out, "--out", (".py",))
    from lab.testing.invariants import BY_NAME

    if args.invariant is not None and args.invariant not in BY_NAME:
        known = ", ".join(BY_NAME)
        raise UsageError(f"unknown invariant {args.invariant!r}; known invariants: {known}")
    from lab.cli.searches import hunt_command

    try:
        return hunt_command(
            args.switch, args.invariant, args.out, args.force, args.examples, out, args.lang
        )
    except (FileExistsError, NotADirectoryError) as error:  # the file appeared meanwhile
        raise UsageError(str(error)) from None


LIVE_WORDS = {
    "en": {
        "title": "live · {model}",
        "end": "virtual disk after the run: {n} files; the host was not touched",
    },
    "zh": {
        "title": "真实模型 · {model}",
        "end": "运行之后虚拟磁盘上有 {n} 个文件；宿主机没有被碰过",
    },
}


def cmd_live(args: argparse.Namespace, out: Console) -> int:
    """A real model drives the harness; every tool acts on the virtual world only."""
    from lab.kernel.live import human_answers, live_client, live_run
    from lab.views.report import run_view

    human = human_answers(args.human)
    harness, world = live_run(
        args.prompt, live_client(), model=args.model, human=human, max_turns=args.max_turns
    )
    w = LIVE_WORDS[args.lang]
    out.print(run_view(harness, w["title"].format(model=args.model), args.lang))
    out.print(w["end"].format(n=len(world.snapshot())))
    return EXIT_OK if harness.ended == "done" else EXIT_DEVIATED
