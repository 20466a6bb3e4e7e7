"""The `lab` command: list, run, show and compare the experiments; switches, matrix, hunt; live.

Every input either does exactly what it says or fails with one line and a distinct exit code
(the table below, also in `lab --help` and the README). The heavy parts (the SDK, hypothesis,
the harness) are imported inside the commands that need them, so `lab --help` and `lab list`
start quickly.
"""

from __future__ import annotations

import _thread
import argparse
import gc
import json
import os
import shlex
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from lab import __version__
from lab.errors import InputError, UsageError, at_least_one
from lab.probe.cli import COMMANDS as PROBE_COMMANDS  # light: it imports nothing heavy
from lab.probe.cli import add_parsers as add_probe_parsers
from lab.switches import Switches, SwitchValueError, parse_switch_value, switch_names

if TYPE_CHECKING:
    from rich.console import Console

    from lab.experiment import Experiment, Outcome

EXIT_OK, EXIT_DEVIATED, EXIT_USAGE, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_CODES = """\
exit codes:
  0    every experiment reproduced its expected degradation (or the command did its job)
  1    an experiment did not reproduce, or an invariant broke
  2    usage or input error: a bad flag or value, an unknown id, a bad experiment file
       (or one whose code raised while running), a missing folder; one line says what
       and where
  3    an internal error of the lab, a bug: one line, and the full traceback in a file
       in the temp folder
  130  interrupted (Ctrl-C)
  A closed pipe (`lab run | head -3`) ends quietly with 0.
"""
PRESETS = {"course": Switches.course}
# The searches' defaults, repeated here so `--help` need not import hypothesis (a test keeps
# them equal to lab.testing.search's).
MATRIX_EXAMPLES, HUNT_EXAMPLES = 100, 150
DEFAULT_JOBS = min(4, os.cpu_count() or 1)
DEFAULT_MODEL = "claude-sonnet-4-5"


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one readable line instead of argparse's usage dump
        raise UsageError(f"{message} (see '{self.prog} --help')")


# ---- values on the command line ------------------------------------------------------------
def switch_setting(text: str) -> tuple[str, Any]:
    """NAME=VALUE, the value read strictly by the switch's declared type."""
    name, sep, raw = text.partition("=")
    if not sep:
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE")
    try:
        return name.strip(), parse_switch_value(name.strip(), raw)
    except SwitchValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def build_parser() -> Parser:
    parser = Parser(
        prog="lab",
        description="harness-lab: break one guarantee at a time.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"lab {__version__}")
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=Parser
    )
    folder = Parser(add_help=False)
    folder.add_argument("--dir", type=Path, help="load the experiments from this folder instead")
    lang = Parser(add_help=False)
    lang.add_argument("--lang", choices=["en", "zh"], default="en", help="output language")
    as_json = Parser(add_help=False)
    as_json.add_argument("--json", action="store_true", help="print only JSON on stdout")
    switch = Parser(add_help=False)
    switch.add_argument(
        "--switch",
        action="append",
        default=[],
        type=switch_setting,
        metavar="NAME=VALUE",
        help="change the baseline switches (repeatable); a boolean takes true/false, yes/no, "
        "on/off or 1/0",
    )

    sub.add_parser("list", parents=[lang, folder], help="list the experiments")
    run = sub.add_parser(
        "run", parents=[as_json, lang, switch, folder], help="run experiments, print before→after"
    )
    run.add_argument("ids", nargs="*", metavar="ID", help="experiment ids (default: all)")
    run.add_argument(
        "--predict", action="store_true", help="ask for each observable's after value first"
    )
    show = sub.add_parser(
        "show", parents=[as_json, lang, switch, folder], help="show baseline and degraded runs"
    )
    show.add_argument("id", metavar="ID")
    compare = sub.add_parser(
        "compare", parents=[as_json, lang, folder], help="the reference harness vs a preset"
    )
    compare.add_argument("preset", choices=sorted(PRESETS))
    sub.add_parser("switches", parents=[as_json], help="every switch and the fault it injects")
    matrix = sub.add_parser(
        "matrix", parents=[as_json], help="flip each switch alone, check every invariant"
    )
    matrix.add_argument(
        "--examples",
        type=at_least_one,
        default=MATRIX_EXAMPLES,
        metavar="N",
        help=f"generated cases per switch (default: {MATRIX_EXAMPLES})",
    )
    matrix.add_argument(
        "--jobs",
        type=at_least_one,
        default=DEFAULT_JOBS,
        metavar="N",
        help=f"worker processes (default: {DEFAULT_JOBS}, the cores up to 4)",
    )
    hunt = sub.add_parser("hunt", help="the smallest script that breaks an invariant")
    hunt.add_argument("switch", choices=switch_names(), metavar="SWITCH", help="the switch to flip")
    hunt.add_argument("--invariant", metavar="NAME", help="only this invariant")
    hunt.add_argument("--out", type=Path, metavar="FILE", help="write the experiment file here")
    hunt.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    hunt.add_argument(
        "--examples",
        type=at_least_one,
        default=HUNT_EXAMPLES,
        metavar="N",
        help=f"generated cases to try (default: {HUNT_EXAMPLES})",
    )
    report = sub.add_parser("report", parents=[lang, folder], help="every experiment on one page")
    report.add_argument("--html", type=Path, required=True, metavar="FILE", help="write it here")
    check = sub.add_parser(
        "check", parents=[lang], help="check a student's exercise (hidden checks, hints)"
    )
    check.add_argument("exercise", nargs="?", metavar="EXERCISE", help="e.g. m4_rule_set")
    check.add_argument("--file", type=Path, metavar="FILE", help="the student's file")
    check.add_argument("--list", action="store_true", help="every exercise and its checks")
    live = sub.add_parser("live", help="the reference harness with a real model, tools simulated")
    live.add_argument("prompt", help="what to ask the model")
    live.add_argument(
        "--model", default=DEFAULT_MODEL, help=f"model name (default: {DEFAULT_MODEL})"
    )
    live.add_argument(
        "--human", default="", metavar="y,n,...", help="the human's answers in order, y or n"
    )
    live.add_argument(
        "--max-turns", type=at_least_one, default=12, metavar="N", help="turn limit (default: 12)"
    )
    add_probe_parsers(sub)
    return parser


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
    from lab.experiment import load_all, select

    return select(load_all(args.dir), ids)


def print_json(data: Any) -> None:
    print(json.dumps(data, ensure_ascii=False, indent=2, default=str))


def cmd_list(args: argparse.Namespace, out: Console) -> int:
    from lab.report import experiments_view

    out.print(experiments_view(chosen(args, []), args.lang))
    return EXIT_OK


def cmd_run(args: argparse.Namespace, out: Console) -> int:
    from lab.experiment import run_experiment
    from lab.report import (
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
    from lab.predict import NoMoreInput, run_with_predictions

    try:
        return run_with_predictions(outcomes, out, args.lang, sys.stdin)
    except NoMoreInput as error:
        raise UsageError(str(error)) from None


def cmd_show(args: argparse.Namespace, out: Console) -> int:
    from lab.experiment import run_experiment
    from lab.report import baseline_text, experiment_runs_view, show_json

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
    """Reference vs a preset, for every experiment whose switch the preset flips."""
    from rich.table import Table

    from lab.report import flips_text, show
    from lab.scenario import run_scenario

    preset = PRESETS[args.preset]()
    flipped = preset.differences()
    rows = []
    for experiment in chosen(args, []):
        flips = experiment.flips.items()
        if not all(name in flipped and flipped[name] == value for name, value in flips):
            continue
        reference = run_scenario(experiment.scenario, Switches())
        other = run_scenario(experiment.scenario, preset)
        for name, (_, degraded) in experiment.expect.items():
            observe = experiment.observable(name)
            seen = observe(other)
            rows.append((experiment.id, name, observe(reference), seen, seen == degraded))
    if args.json:
        print_json(
            {
                "preset": args.preset,
                "flips": flipped,
                "rows": [
                    {"id": i, "observable": n, "reference": r, args.preset: p, "as_degraded": d}
                    for i, n, r, p, d in rows
                ],
            }
        )
        return EXIT_OK
    table = Table(title=f"reference harness vs the {args.preset} preset", title_justify="left")
    for column in ("id", "observable", "reference", args.preset, "as degraded?"):
        table.add_column(column, overflow="fold")
    for i, (ident, name, reference_value, preset_value, degraded) in enumerate(rows):
        if i and ident != rows[i - 1][0]:
            table.add_section()
        table.add_row(
            ident, name, show(reference_value), show(preset_value), "yes" if degraded else "no"
        )
    out.print(table)
    out.print(f"{args.preset} preset: {flips_text(flipped)}")
    return EXIT_OK


def cmd_switches(args: argparse.Namespace, out: Console) -> int:
    from lab.report import switches_json, switches_view

    if args.json:
        print_json(switches_json())
    else:
        out.print(switches_view())
    return EXIT_OK


def cmd_report(args: argparse.Namespace, out: Console) -> int:
    """The projector page: panorama, claims with grades, every experiment side by side."""
    from lab import html_report
    from lab.experiment import run_experiment

    if not args.html.parent.is_dir():
        raise UsageError(f"--html {args.html}: no folder {args.html.parent}")
    outcomes = [run_experiment(e) for e in chosen(args, [])]
    html_report.write(args.html, outcomes, args.lang)
    out.print(f"wrote {args.html} ({len(outcomes)} experiments)")
    return verdict(outcomes)


def cmd_check(args: argparse.Namespace, out: Console) -> int:
    """pass (0) or fail (1) per hidden check, with hints; --list for the teacher."""
    from lab import exercises

    if args.list:
        out.print(exercises.list_view(args.lang))
        return EXIT_OK
    if not args.exercise:
        raise UsageError(f"name an exercise ({', '.join(exercises.EXERCISES)}) or use --list")
    try:
        results = exercises.check(args.exercise, args.file)
    except exercises.ExerciseError as error:
        raise UsageError(str(error)) from None
    exercise = exercises.EXERCISES[args.exercise]
    path = (args.file or exercises.starter_path(exercise)).resolve()
    out.print(exercises.results_view(exercise, path, results, args.lang))
    return EXIT_OK if all(r.passed for r in results) else EXIT_DEVIATED


# ---- the search and the real model -----------------------------------------------------------
def cmd_matrix(args: argparse.Namespace, out: Console) -> int:
    from lab.testing.commands import matrix_command

    return matrix_command(args.examples, args.jobs, args.json, out)


def cmd_hunt(args: argparse.Namespace, out: Console) -> int:
    from lab.testing import BY_NAME
    from lab.testing.commands import hunt_command

    if args.invariant is not None and args.invariant not in BY_NAME:
        known = ", ".join(BY_NAME)
        raise UsageError(f"unknown invariant {args.invariant!r}; known invariants: {known}")
    try:
        return hunt_command(args.switch, args.invariant, args.out, args.force, args.examples, out)
    except (FileExistsError, NotADirectoryError) as error:  # a bad --out FILE
        raise UsageError(str(error)) from None


def cmd_live(args: argparse.Namespace, out: Console) -> int:
    """A real model drives the harness; every tool acts on the virtual world only."""
    from lab.live import human_answers, live_client, live_run
    from lab.report import run_view

    human = human_answers(args.human)
    harness, world = live_run(
        args.prompt, live_client(), model=args.model, human=human, max_turns=args.max_turns
    )
    out.print(run_view(harness, f"live · {args.model}"))
    out.print(
        f"virtual disk after the run: {len(world.snapshot())} files; the host was not touched"
    )
    return EXIT_OK if harness.ended == "done" else EXIT_DEVIATED


COMMANDS: dict[str, Callable[[argparse.Namespace, Console], int]] = {
    "list": cmd_list,
    "run": cmd_run,
    "show": cmd_show,
    "compare": cmd_compare,
    "switches": cmd_switches,
    "matrix": cmd_matrix,
    "hunt": cmd_hunt,
    "live": cmd_live,
    "check": cmd_check,
    "report": cmd_report,
    **PROBE_COMMANDS,
}


# ---- the exit codes --------------------------------------------------------------------------
def bug_report() -> str:
    """Write the traceback being handled into a file in the temp folder; returns its path."""
    descriptor, path = tempfile.mkstemp(prefix="lab-error-", suffix=".txt")
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(f"lab {__version__}, argv {sys.argv!r}\n\n{traceback.format_exc()}")
    return path


def console() -> Console:
    """rich's console on stdout, except that a closed pipe (`lab run | head -3`) is not a
    failure: rich's documented hook exits 1 there, ours lets `main` end quietly with 0."""
    from rich.console import Console

    class Output(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    return Output(highlight=False)


def silence_stdout() -> None:
    """After a closed pipe: send what is left to /dev/null, so exiting does not complain."""
    try:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # stdout is not a real file (a test's capture): nothing to flush into a pipe


def interrupt_again(unraisable: Any) -> None:
    """A Ctrl-C that landed where Python cannot raise it (a garbage-collector callback, such
    as hypothesis's gc timer, or a __del__) would be printed as "Exception ignored" and lost:
    deliver it again instead, so it ends the command at the next line of ordinary code."""
    if issubclass(unraisable.exc_type, KeyboardInterrupt):
        # Later and from another thread: raised now, it would land in this hook and be lost.
        threading.Timer(0.05, _thread.interrupt_main).start()
    else:
        sys.__unraisablehook__(unraisable)


class Interrupts:
    """While a command runs: Ctrl-C raises KeyboardInterrupt as usual, and is remembered. An
    error that follows it is its consequence (a Ctrl-C inside an import can come out as a
    RuntimeError, inside hypothesis as a "flaky" failure), so it still means exit 130."""

    def __init__(self) -> None:
        self.seen = False

    def __enter__(self) -> Interrupts:
        self.previous = None
        if threading.current_thread() is threading.main_thread():
            self.previous = signal.signal(signal.SIGINT, self.interrupt)
        return self

    def interrupt(self, signum: int, frame: object) -> None:
        self.seen = True
        raise KeyboardInterrupt

    def __exit__(self, *exc: object) -> None:
        if self.previous is not None:
            signal.signal(signal.SIGINT, self.previous)


def main(argv: list[str] | None = None) -> int:
    """Run `lab ARGV` and return its exit code (argv None: the real command line)."""
    hook, sys.unraisablehook = sys.unraisablehook, interrupt_again
    try:
        with Interrupts() as interrupts:
            return run_command(argv, interrupts)
    finally:
        sys.unraisablehook = hook
        if argv is None:
            # A real command is about to exit: spare the interpreter its last collections
            # over every object the run left (a quarter of a second after `lab run`).
            gc.freeze()


def run_command(argv: list[str] | None, interrupts: Interrupts) -> int:
    try:
        try:
            args = build_parser().parse_args(argv)
        except SystemExit as done:  # --help, --version
            return int(done.code or 0)
        return COMMANDS[args.command](args, console())
    except InputError as error:
        for line in error.lines:
            print(error.prefix + line, file=sys.stderr)  # one line per problem, never wrapped
        return EXIT_USAGE
    except KeyboardInterrupt:
        return interrupted()
    except BrokenPipeError:
        silence_stdout()
        return EXIT_OK
    except Exception as error:
        if interrupts.seen:
            return interrupted()
        path = bug_report()
        what = " ".join(f"{type(error).__name__}: {error}".split())
        print(
            f"lab: internal error (a bug in the lab): {what}; traceback in {path}", file=sys.stderr
        )
        return EXIT_BUG


def interrupted() -> int:
    print("lab: interrupted", file=sys.stderr)
    return EXIT_INTERRUPTED


if __name__ == "__main__":
    sys.exit(main())
