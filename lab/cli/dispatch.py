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
import re
import signal
import sys
import tempfile
import threading
import traceback
from collections.abc import Callable
from typing import IO, TYPE_CHECKING, Any, cast

from lab import __version__
from lab.cli import commands, teacher
from lab.cli import parts_command as parts
from lab.cli import probe_commands as probe
from lab.cli.error_words import BUG, error_line
from lab.cli.parser import EXIT_BUG, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, parse
from lab.kernel.errors import InputError, StdoutError, UsageError
from lab.languages.choice import INTERRUPTED, chosen_lang

if TYPE_CHECKING:
    from rich.console import Console

# Every command, by the name it is typed as.
COMMANDS: dict[str, Callable[[argparse.Namespace, Console], int]] = {
    "list": commands.cmd_list,
    "run": commands.cmd_run,
    "show": commands.cmd_show,
    "compare": commands.cmd_compare,
    "switches": commands.cmd_switches,
    "parts": parts.cmd_parts,
    "matrix": commands.cmd_matrix,
    "hunt": commands.cmd_hunt,
    "live": commands.cmd_live,
    "check": commands.cmd_check,
    "report": commands.cmd_report,
    "notebooks": commands.cmd_notebooks,
    **probe.COMMANDS,
    **teacher.COMMANDS,
}


# ---- the exit codes --------------------------------------------------------------------------
def bug_report() -> str:
    """Write the traceback being handled into a file in the temp folder; returns its path."""
    descriptor, path = tempfile.mkstemp(prefix="lab-error-", suffix=".txt")
    with os.fdopen(descriptor, "w", encoding="utf-8") as file:
        file.write(f"lab {__version__}, argv {sys.argv!r}\n\n{traceback.format_exc()}")
    return path


class Unpadded:
    """A file for rich when stdout is not a terminal: each line without the spaces rich pads it
    with up to the width (a log or a file keeps only what was printed)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    def write(self, text: str) -> int:
        return int(self.stream.write(TRAILING_SPACES.sub("", text)))


TRAILING_SPACES = re.compile(r" +(?=\n)")


def console() -> Console:
    """rich's console on stdout, except that a closed pipe (`lab run | head -3`) is not a
    failure: rich's documented hook exits 1 there, ours lets `main` end quietly with 0. Not on
    a terminal, lines carry no trailing padding."""
    from rich.console import Console

    class Output(Console):
        def on_broken_pipe(self) -> None:
            self.quiet = True
            raise BrokenPipeError

    terminal = Output(highlight=False)
    if terminal.is_terminal:
        return terminal
    unpadded = cast(IO[str], Unpadded(sys.stdout))
    return Output(highlight=False, file=unpadded, width=terminal.width)


class GuardedStdout:
    """sys.stdout while a command runs: a write or flush that fails (a full disk, an I/O error)
    becomes one line and exit 2 instead of a traceback; a closed pipe stays BrokenPipeError."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    def guarded(self, action: Callable[[], Any]) -> Any:
        try:
            return action()
        except BrokenPipeError:
            raise
        except OSError as error:
            raise StdoutError(f"cannot write to stdout: {error.strerror or error}") from None

    def write(self, text: str) -> int:
        return int(self.guarded(lambda: self.stream.write(text)))

    def flush(self) -> None:
        self.guarded(self.stream.flush)


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
        if self.previous is None:
            return
        # After a Ctrl-C the command is ending with 130: a second one (or one delivered again by
        # interrupt_again's timer) must not kill the process on its way out.
        signal.signal(signal.SIGINT, signal.SIG_IGN if self.seen else self.previous)


def main(argv: list[str] | None = None) -> int:
    """Run `lab ARGV` and return its exit code (argv None: the real command line)."""
    hook, sys.unraisablehook = sys.unraisablehook, interrupt_again
    if argv is None:
        # A real command: importing the SDK builds a few hundred thousand objects that live to
        # the end, and the collector, run every 700 of them by default, finds nothing to free
        # in them (a tenth of `lab run`'s start). Every 50,000 is plenty for a short command.
        gc.set_threshold(50_000, 20, 20)
    try:
        with Interrupts() as interrupts:
            return run_command(argv, interrupts)
    finally:
        sys.unraisablehook = hook
        if argv is None:
            # A real command is about to exit: spare the interpreter its last collections
            # over every object the run left (a quarter of a second after `lab run`).
            gc.freeze()


def error_lang(argv: list[str] | None) -> str:
    """The language of the lines on stderr: `--help`'s (an unknown LAB_LANG: English)."""
    try:
        return chosen_lang(sys.argv[1:] if argv is None else argv)
    except UsageError:
        return "en"


def run_command(argv: list[str] | None, interrupts: Interrupts) -> int:
    stdout, lang = sys.stdout, error_lang(argv)
    if stdout is None:  # started with stdout closed (`lab list >&-`): the output would be lost
        closed = "stdout is closed; nothing can be printed"
        print(error_line(StdoutError.prefix, closed, lang), file=sys.stderr)
        return EXIT_USAGE
    sys.stdout = GuardedStdout(stdout)  # type: ignore[assignment]
    try:
        return run_guarded(argv, interrupts, lang)
    finally:
        sys.stdout = stdout


def run_guarded(argv: list[str] | None, interrupts: Interrupts, lang: str = "en") -> int:
    try:
        try:
            args = parse(argv)
        except SystemExit as done:  # --help
            sys.stdout.flush()
            return int(done.code or 0)
        code = EXIT_OK if args is None else COMMANDS[args.command](args, console())
        sys.stdout.flush()  # what print() buffered fails here, not silently at exit
        return code
    except StdoutError as error:
        print(error_line(error.prefix, error.lines[0], lang), file=sys.stderr)
        silence_stdout()
        return EXIT_USAGE
    except InputError as error:
        for line in error.lines:  # one line per problem, never wrapped
            print(error_line(error.prefix, line, lang), file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return interrupted(lang)
    except BrokenPipeError:
        silence_stdout()
        return EXIT_OK
    except Exception as error:
        if interrupts.seen:
            return interrupted(lang)
        path = bug_report()
        what = " ".join(f"{type(error).__name__}: {error}".split())
        print(BUG[lang].format(what=what, path=path), file=sys.stderr)
        return EXIT_BUG


def interrupted(lang: str) -> int:
    print(INTERRUPTED[lang], file=sys.stderr)
    return EXIT_INTERRUPTED
