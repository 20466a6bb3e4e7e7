"""The `lab` command: list, run, show and compare the experiments; matrix, hunt; live mode.

Exit codes, in the shape of fault tools: 0 every experiment reproduced its expected
degradation, 1 one deviated, 2 a usage error (bad flag, unknown id, malformed file).
"""

from __future__ import annotations

import argparse
import ast
import json
import sys
from pathlib import Path
from types import ModuleType

from rich.console import Console
from rich.table import Table

from lab import exercises
from lab.experiment import MECHANISMS, ExperimentError, load_all, run_experiment, select
from lab.live import DEFAULT_MODEL, LiveError, live_client, live_run
from lab.predict import NoMoreInput, run_with_predictions
from lab.probe.cli import COMMANDS as PROBE_COMMANDS
from lab.probe.cli import add_parsers as add_probe_parsers
from lab.report import (
    experiment_runs_view,
    flips_text,
    grade_label,
    outcome_view,
    outcomes_json,
    prose,
    run_view,
    show,
    summary_view,
)
from lab.scenario import run_scenario
from lab.switches import Switches, switch_names
from lab.testing import BY_NAME

PRESETS = {"course": Switches.course}


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one readable line instead of argparse's usage dump
        raise UsageError(f"{message} (see '{self.prog} --help')")


def parse_switch(text: str) -> tuple[str, object]:
    """NAME=VALUE, VALUE a Python literal (True, False, 3, 'course')."""
    name, sep, raw = text.partition("=")
    if not sep:
        raise UsageError(f"--switch {text!r}: expected NAME=VALUE")
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        value = raw
    return name.strip(), value


def build_parser() -> Parser:
    parser = Parser(prog="lab", description="harness-lab: break one guarantee at a time.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=Parser)
    common = Parser(add_help=False)
    common.add_argument("--lang", choices=["en", "zh"], default="en", help="output language")
    common.add_argument("--dir", type=Path, help="load experiments from this folder instead")

    sub.add_parser("list", parents=[common], help="list the experiments")
    run = sub.add_parser("run", parents=[common], help="run experiments, print before→after")
    run.add_argument("ids", nargs="*", metavar="ID", help="experiment ids (default: all)")
    run.add_argument("--json", action="store_true", help="print only JSON on stdout")
    run.add_argument(
        "--predict", action="store_true", help="ask for each observable's after value first"
    )
    run.add_argument(
        "--switch",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="change the baseline switches (repeatable)",
    )
    show = sub.add_parser("show", parents=[common], help="show baseline and degraded runs")
    show.add_argument("id", metavar="ID")
    compare = sub.add_parser("compare", parents=[common], help="the reference harness vs a preset")
    compare.add_argument("preset", choices=sorted(PRESETS))
    matrix = sub.add_parser("matrix", help="flip each switch alone, check every invariant")
    matrix.add_argument("--examples", type=int, metavar="N", help="generated cases per switch")
    matrix.add_argument("--jobs", type=int, metavar="N", help="processes (default: the cores)")
    hunt = sub.add_parser("hunt", help="the smallest script that breaks an invariant")
    hunt.add_argument("switch", choices=switch_names(), metavar="SWITCH", help="the switch to flip")
    hunt.add_argument("--invariant", choices=list(BY_NAME), metavar="NAME", help="only this one")
    hunt.add_argument("--out", type=Path, metavar="FILE", help="write the experiment file here")
    hunt.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    hunt.add_argument("--examples", type=int, metavar="N", help="generated cases to try")
    report = sub.add_parser("report", parents=[common], help="every experiment on one page")
    report.add_argument("--html", type=Path, required=True, metavar="FILE", help="write it here")
    check = sub.add_parser("check", help="check a student's exercise (hidden checks, hints)")
    check.add_argument("exercise", nargs="?", metavar="EXERCISE", help="e.g. m4_rule_set")
    check.add_argument("--file", type=Path, metavar="FILE", help="the student's file")
    check.add_argument("--list", action="store_true", help="every exercise and its checks")
    check.add_argument("--lang", choices=["en", "zh"], default="en", help="output language")
    live = sub.add_parser("live", help="the reference harness with a real model, tools simulated")
    live.add_argument("prompt", help="what to ask the model")
    live.add_argument(
        "--model", default=DEFAULT_MODEL, help=f"model name (default {DEFAULT_MODEL})"
    )
    live.add_argument(
        "--human", default="", metavar="y,n,...", help="the human's answers, in order"
    )
    live.add_argument("--max-turns", type=int, default=12, metavar="N", help="turn limit")
    add_probe_parsers(sub)
    return parser


def cmd_list(args: argparse.Namespace, out: Console) -> int:
    experiments = load_all(args.dir)
    for mechanism, names in MECHANISMS.items():
        group = [e for e in experiments if e.mechanism == mechanism]
        if not group:
            continue
        table = Table(title=f"{mechanism} · {names[0]} · {names[1]}", title_justify="left")
        for column in ("id", "grade", "switch", "title", "takeaway"):
            table.add_column(column)
        for e in group:
            title, takeaway = (prose(t[args.lang], args.lang) for t in (e.title, e.takeaway))
            grade = grade_label(e.grade, args.lang)
            table.add_row(e.id, grade, flips_text(dict(e.flips)), title, takeaway)
        out.print(table)
    return 0


def cmd_compare(args: argparse.Namespace, out: Console) -> int:
    """Reference vs a preset, for every experiment whose switch the preset flips."""
    preset = PRESETS[args.preset]()
    flipped = preset.differences()
    chosen = [
        e
        for e in load_all(args.dir)
        if all(name in flipped and flipped[name] == value for name, value in e.flips.items())
    ]
    table = Table(title=f"reference harness vs the {args.preset} preset", title_justify="left")
    for column in ("id", "observable", "reference", args.preset, "as degraded?"):
        table.add_column(column)
    for experiment in chosen:
        reference = run_scenario(experiment.scenario, Switches())
        other = run_scenario(experiment.scenario, preset)
        for name, (_, degraded) in experiment.expect.items():
            observe = experiment.observable(name)
            seen = observe(other)
            verdict = "yes" if seen == degraded else "no"
            table.add_row(experiment.id, name, show(observe(reference)), show(seen), verdict)
        table.add_section()
    out.print(table)
    out.print(f"{args.preset} preset: {flips_text(flipped)}")
    return 0


def cmd_run(args: argparse.Namespace, out: Console) -> int:
    base = Switches()
    try:
        base = base.flipped(**dict(parse_switch(s) for s in args.switch))
    except KeyError as error:
        raise UsageError(error.args[0]) from None
    if args.predict and args.json:
        raise UsageError("--predict asks questions on the terminal; it cannot go with --json")
    experiments = select(load_all(args.dir), args.ids)
    outcomes = [run_experiment(e, base) for e in experiments]
    if args.predict:
        try:
            return run_with_predictions(outcomes, out, args.lang, sys.stdin)
        except NoMoreInput as error:
            raise UsageError(str(error)) from None
    if args.json:
        print(json.dumps(outcomes_json(outcomes), ensure_ascii=False, indent=2))
    else:
        for outcome in outcomes:
            out.print(outcome_view(outcome, args.lang))
        out.print(summary_view(outcomes, args.lang))
    return 0 if all(o.reproduced for o in outcomes) else 1


def cmd_show(args: argparse.Namespace, out: Console) -> int:
    (experiment,) = select(load_all(args.dir), [args.id])
    outcome = run_experiment(experiment)
    out.print(experiment_runs_view(outcome, args.lang))
    return 0 if outcome.reproduced else 1


def testing_commands() -> ModuleType:
    """lab.testing.commands, imported only when asked for: it needs hypothesis (a test extra)."""
    try:
        from lab.testing import commands
    except ModuleNotFoundError as error:
        raise UsageError(f"{error.name} is not installed: pip install -e '.[test]'") from None
    return commands


def cmd_matrix(args: argparse.Namespace, out: Console) -> int:
    return testing_commands().matrix_command(args.examples, args.jobs, out)


def cmd_hunt(args: argparse.Namespace, out: Console) -> int:
    command = testing_commands().hunt_command
    try:
        return command(args.switch, args.invariant, args.out, args.force, args.examples, out)
    except (FileExistsError, NotADirectoryError) as error:  # a bad --out FILE
        raise UsageError(str(error)) from None


def cmd_live(args: argparse.Namespace, out: Console) -> int:
    """A real model drives the harness; every tool acts on the virtual world only."""
    try:
        human = tuple(a.strip() for a in args.human.split(",") if a.strip())
        harness, world = live_run(
            args.prompt, live_client(), model=args.model, human=human, max_turns=args.max_turns
        )
    except LiveError as error:
        raise UsageError(str(error)) from None
    out.print(run_view(harness, f"live · {args.model}"))
    out.print(
        f"virtual disk after the run: {len(world.snapshot())} files; the host was not touched"
    )
    return 0 if harness.ended == "done" else 1


def cmd_report(args: argparse.Namespace, out: Console) -> int:
    """The projector page: panorama, claims with grades, every experiment side by side."""
    from lab import html_report  # lazily: only this command draws pages

    if not args.html.parent.is_dir():
        raise UsageError(f"--html {args.html}: no folder {args.html.parent}")
    outcomes = [run_experiment(e) for e in load_all(args.dir)]
    html_report.write(args.html, outcomes, args.lang)
    out.print(f"wrote {args.html} ({len(outcomes)} experiments)")
    return 0 if all(o.reproduced for o in outcomes) else 1


def cmd_check(args: argparse.Namespace, out: Console) -> int:
    """pass (0) or fail (1) per hidden check, with hints; --list for the teacher."""
    if args.list:
        out.print(exercises.list_view(args.lang))
        return 0
    if not args.exercise:
        raise UsageError(f"name an exercise ({', '.join(exercises.EXERCISES)}) or use --list")
    try:
        results = exercises.check(args.exercise, args.file)
    except exercises.ExerciseError as error:
        raise UsageError(str(error)) from None
    exercise = exercises.EXERCISES[args.exercise]
    path = (args.file or exercises.starter_path(exercise)).resolve()
    out.print(exercises.results_view(exercise, path, results, args.lang))
    return 0 if all(r.passed for r in results) else 1


COMMANDS = {
    "list": cmd_list,
    "run": cmd_run,
    "show": cmd_show,
    "compare": cmd_compare,
    "matrix": cmd_matrix,
    "hunt": cmd_hunt,
    "live": cmd_live,
    "check": cmd_check,
    "report": cmd_report,
    **PROBE_COMMANDS,
}


def main(argv: list[str] | None = None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args, Console(highlight=False))
    except (UsageError, ExperimentError) as error:
        print(f"lab: error: {error}", file=sys.stderr)  # one line, never wrapped
        return 2


if __name__ == "__main__":
    sys.exit(main())
