"""`lab ARGV`: parse, run the command, and turn every way it can end into its exit code (the
table in lab/cli/parser.py, also in `lab --help` and the README).

Every input either does exactly what it says or fails with one line; a bug is one line too, with
the traceback in a file.
"""

from __future__ import annotations

import _thread
import argparse
import gc
import os
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from lab import __version__
from lab.cli import commands, probe
from lab.cli.parser import EXIT_BUG, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, build_parser
from lab.errors import InputError

if TYPE_CHECKING:
    from rich.console import Console

# Every command, by the name it is typed as.
COMMANDS: dict[str, Callable[[argparse.Namespace, Console], int]] = {
    "list": commands.cmd_list,
    "run": commands.cmd_run,
    "show": commands.cmd_show,
    "compare": commands.cmd_compare,
    "switches": commands.cmd_switches,
    "matrix": commands.cmd_matrix,
    "hunt": commands.cmd_hunt,
    "live": commands.cmd_live,
    "check": commands.cmd_check,
    "report": commands.cmd_report,
    **probe.COMMANDS,
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
