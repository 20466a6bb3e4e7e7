"""The `lab` command line: every command's arguments, the exit codes, the defaults in `--help`.

Light on purpose: `lab --help` imports this and nothing heavy (no SDK, no hypothesis).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

from lab import __version__
from lab.cli.probe_commands import add_parsers as add_probe_parsers
from lab.cli.teacher import add_parsers as add_teacher_parsers
from lab.kernel.errors import UsageError, at_least_one
from lab.kernel.switches import Switches, SwitchValueError, parse_switch_value, switch_names
from lab.languages.choice import LANGUAGES, chosen_lang, default_lang

EXIT_OK, EXIT_DEVIATED, EXIT_USAGE, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_CODES = """\
exit codes:
  0    every experiment reproduced its expected degradation (or the command did its job)
  1    an experiment did not reproduce, or an invariant broke (`lab probe`: a case a
       target claims reads fail)
  2    usage or input error: a bad flag or value, an unknown id, a bad experiment file
       (or one whose code raised while running), a missing folder, an output file that
       cannot be written (checked before any work starts), stdout closed or full; one
       line says what and where
  3    an internal error of the lab, a bug: one line, and the full traceback in a file
       in the temp folder
  4    `lab probe --cmd`, `lab serve CASE`: the program was not reached on some case
       (it never got a script answer: a missing script, a crash at import, a hang, a
       wrong path); the grades' policy is in lab/probe/grades.py
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
    lang = "en"  # "zh" once lab/cli/help_words.py has put its help into Chinese

    def error(self, message: str) -> NoReturn:  # one readable line instead of argparse's usage dump
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def format_usage(self) -> str:
        return self.in_lang(super().format_usage())

    def format_help(self) -> str:
        return self.in_lang(super().format_help())

    def in_lang(self, text: str) -> str:
        if self.lang != "zh":
            return text
        from lab.cli.help_words import argparse_words_in_zh

        return argparse_words_in_zh(text)


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


def lang_after_command(argv: list[str]) -> list[str]:
    """`lab --lang zh list` read as `lab list --lang zh`: `--lang` belongs to each command, and
    a user who sets the language first means the command that follows."""
    before: list[str] = []
    moved: list[str] = []
    words = iter(argv)
    for word in words:
        if word == "--lang":
            moved += [word, next(words, "")]
        elif word.startswith("--lang="):
            moved.append(word)
        elif word.startswith("-") and word != "--":
            before.append(word)
        else:  # the command: the language goes right after it
            rest = list(words)
            return [*before, word, *moved, *rest] if moved else argv
    return before  # no command: `lab --lang zh --help` is the help in Chinese, and so on


def parse(argv: list[str] | None) -> argparse.Namespace | None:
    """The command line read; None for `lab --version` (printed here), else a command."""
    parser = build_parser()
    words = sys.argv[1:] if argv is None else argv
    if chosen_lang(words) == "zh":
        from lab.cli.help_words import in_chinese

        in_chinese(parser)
    args = parser.parse_args(lang_after_command(words))
    if args.version:
        if args.command is not None:
            raise UsageError(f"--version takes nothing else (see '{parser.prog} --help')")
        print(f"lab {__version__}")
        return None
    if args.command is None:
        raise UsageError(f"name a command (see '{parser.prog} --help')")
    return args


def build_parser() -> Parser:
    parser = Parser(
        prog="lab",
        description="harness-lab: break one guarantee at a time.",
        epilog=EXIT_CODES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="store_true", help="print the version and exit")
    # Not required here: `lab --nosuchflag` then reads "unrecognized arguments: --nosuchflag",
    # and `lab` alone is answered by parse() below.
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=Parser)
    folder = Parser(add_help=False)
    folder.add_argument("--dir", type=Path, help="load the experiments from this folder instead")
    lang = Parser(add_help=False)
    lang.add_argument(
        "--lang",
        choices=LANGUAGES,
        default=default_lang(),
        help="output language (default: zh when LAB_LANG=zh or the locale is Chinese, else en)",
    )
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
    sub.add_parser(
        "switches", parents=[as_json, lang], help="every switch and the fault it injects"
    )
    parts = sub.add_parser(
        "parts", parents=[lang, switch], help="the harness's parts and the switch that chose each"
    )
    shown = parts.add_mutually_exclusive_group()
    shown.add_argument("--preset", choices=sorted(PRESETS), help="the parts of a preset")
    shown.add_argument(
        "--diff", choices=sorted(PRESETS), metavar="PRESET", help="what a preset swaps (+/−)"
    )
    matrix = sub.add_parser(
        "matrix", parents=[as_json, lang], help="flip each switch alone, check every invariant"
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
    hunt = sub.add_parser(
        "hunt", parents=[lang], help="the smallest script that breaks an invariant"
    )
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
    page = report.add_mutually_exclusive_group(required=True)
    page.add_argument("--html", type=Path, metavar="FILE", help="write it here")
    page.add_argument(
        "--slides",
        type=Path,
        metavar="FILE",
        help="write the projector slides here instead: one experiment per screen, ←/→ to move",
    )
    report.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    check = sub.add_parser(
        "check", parents=[lang], help="check a student's exercise (hidden checks, hints)"
    )
    check.add_argument("exercise", nargs="?", metavar="EXERCISE", help="e.g. m4_rule_set")
    check.add_argument("--file", type=Path, metavar="FILE", help="the student's file")
    check.add_argument(
        "--init",
        action="store_true",
        help="copy the exercise's starter into this folder (or to --file) to edit",
    )
    check.add_argument(
        "--list", action="store_true", help="every exercise (or EXERCISE's) and its checks"
    )
    notebooks = sub.add_parser("notebooks", help="write the notebooks' sources into a folder")
    notebooks.add_argument(
        "folder",
        nargs="?",
        type=Path,
        default=Path("notebooks"),
        metavar="DIR",
        help="where to write them (default: ./notebooks)",
    )
    notebooks.add_argument(
        "--lang",
        choices=["en", "zh"],
        # Under a Chinese locale (or LAB_LANG=zh) the students' edition a Chinese class reads,
        # as every other command speaks Chinese there; elsewhere both languages.
        default="zh" if default_lang() == "zh" else None,
        help="the students' edition: the Markdown in this language only (default: zh when "
        "LAB_LANG=zh or the locale is Chinese, else both)",
    )
    live = sub.add_parser(
        "live", parents=[lang], help="the reference harness with a real model, tools simulated"
    )
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
    add_probe_parsers(sub, lang)
    add_teacher_parsers(sub, lang)
    return parser
