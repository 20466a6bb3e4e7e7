"""A simulated bash: a small table of commands over the VirtualFS, with declared virtual durations.

Supported syntax: words with '...', "..." and backslash quoting; `#` comments; the separators
`&&`, `||`, `;`, `&` (run in order: nothing ever runs in the background), newline; pipes `|`
and `|&`; redirections `>`, `>>`, `2>`, `2>>`, `&>`, `2>&1`, `>&2`, `<`; unquoted `*`, `?`,
`[...]` expand against the virtual disk; `NAME=value` assignments and `$NAME` / `${NAME}`
(unquoted expansions split on whitespace, and are not globbed); a command named by its path
(`/bin/rm`); `bash -c '...'`, `bash FILE` and `... | bash` run a child shell on the same disk.
These are the spellings that slip past rules matching command text (D28). Not supported:
`$(...)`, subshells, here-documents. Nothing here touches the host: every path is a key of the
VirtualFS (or of a Sandbox over it, which refuses writes outside the workspace).

This module runs a line; shell_parsing.py reads it into a parse tree, shell_commands.py holds
the command table (and which commands only read).
"""

from __future__ import annotations

import posixpath
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lab.world.fs import VirtualFS, normalize
from lab.world.shell_commands import COMMANDS, CommandFailed, Outcome, _reason, program_name
from lab.world.shell_parsing import (
    _ASSIGNMENT,
    _IFS,
    _VARIABLE,
    DUPLICATIONS,
    ShellSyntaxError,
    _is_assignment,
    _parse,
    _Pipeline,
    _Simple,
    _Token,
    _tokenize,
)

if TYPE_CHECKING:
    from lab.world.sandbox import Sandbox
    from lab.world.world import VirtualClock

    Disk = VirtualFS | Sandbox

# ---- time ----------------------------------------------------------------------------------
# Every simple command that runs costs one virtual second, so "3 commands ran" reads as "3 s
# passed". `sleep N` costs exactly N (its own entry is 0 and the command adds what it slept).
# A command that never runs (skipped by && / ||, or a syntax error) costs nothing.
DEFAULT_COMMAND_SECONDS = 1.0  # for commands not in the table, e.g. an unknown one (127)
COMMAND_SECONDS: dict[str, float] = {
    "bash": 0.0,  # + what the child shell's commands cost
    "cat": 1.0,
    "cd": 1.0,
    "echo": 1.0,
    "false": 1.0,
    "find": 1.0,
    "grep": 1.0,
    "head": 1.0,
    "ls": 1.0,
    "mkdir": 1.0,
    "pwd": 1.0,
    "rm": 1.0,
    "sh": 0.0,
    "sleep": 0.0,  # + the N seconds slept
    "tail": 1.0,
    "touch": 1.0,
    "true": 1.0,
    "wc": 1.0,
}


# ---- running -------------------------------------------------------------------------------
@dataclass(frozen=True)
class ShellResult:
    """What one command line produced: stdout then stderr (as the course captures them)."""

    output: str
    status: int
    seconds: float


_NULL = "/dev/null"


class Shell:
    """Runs command lines against a disk, starting each run in `cwd` (cd and variables last one
    run). The disk is a VirtualFS, or a Sandbox over one that refuses writes outside the
    workspace."""

    def __init__(self, fs: Disk, clock: VirtualClock, cwd: str = "/", depth: int = 0) -> None:
        self.fs = fs
        self.clock = clock
        self.home = normalize(cwd)
        self.cwd = self.home
        self.depth = depth  # how many shells this one runs inside
        self.variables: dict[str, str] = {}

    def child(self) -> Shell:
        """A child shell (`bash -c`, `bash FILE`) on the same disk, where this one stands."""
        return Shell(self.fs, self.clock, cwd=self.cwd, depth=self.depth + 1)

    def path(self, name: str) -> str:
        """A command argument as an absolute virtual path."""
        return normalize(name, self.cwd)

    def run(self, command: str) -> ShellResult:
        outcome = self.execute(command)
        self.clock.advance(outcome.seconds)
        return ShellResult(outcome.out + outcome.err, outcome.status, outcome.seconds)

    def execute(self, command: str) -> Outcome:
        """Run a line without moving the clock: what it printed, its status, the seconds spent."""
        self.cwd = self.home
        self.variables = {"PWD": self.cwd}
        try:
            chain = _parse(_tokenize(command))
        except ShellSyntaxError as error:
            return Outcome(err=f"bash: -c: line 1: {error}\n", status=2)
        out: list[str] = []
        err: list[str] = []
        status, seconds = 0, 0.0
        for connector, pipeline in chain:
            # bash's rule: && runs on success, || on failure, judged by the last status so far
            if (connector == "&&" and status != 0) or (connector == "||" and status == 0):
                continue
            status, spent = self._run_pipeline(pipeline, out, err)
            seconds += spent
        return Outcome("".join(out), "".join(err), status, seconds)

    def _run_pipeline(
        self, pipeline: _Pipeline, out: list[str], err: list[str]
    ) -> tuple[int, float]:
        commands, pipes = pipeline
        stdin, seconds, outcome = "", 0.0, Outcome()
        for i, simple in enumerate(commands):
            outcome = self._run_simple(simple, stdin)
            seconds += outcome.seconds
            if i == len(commands) - 1:
                out.append(outcome.out)
                err.append(outcome.err)
            elif pipes[i] == "|&":  # stderr travels down the pipe too
                stdin = outcome.out + outcome.err
            else:
                stdin = outcome.out
                err.append(outcome.err)
        return outcome.status, seconds

    def _run_simple(self, simple: _Simple, stdin: str) -> Outcome:
        # Redirections are set up first, left to right, as bash does: `> f 2>&1` sends both
        # streams to f, and `cat f > f` finds f already emptied.
        targets = {1: "out", 2: "err"}  # fd -> "out", "err", _NULL or a file path
        for op, word in simple.redirects:
            target = " ".join(self._fields(word)) if word else ""
            if op == "<":
                try:
                    stdin = "" if target == _NULL else self.fs.read(self.path(target))
                except OSError as error:
                    return Outcome(err=f"bash: {target}: {_reason(error)}\n", status=1)
                continue
            if op in DUPLICATIONS:
                src, dst = (2, 1) if op == "2>&1" else (1, 2)
                targets[src] = targets[dst]
                continue
            path = _NULL if target == _NULL else self.path(target)
            if problem := self._open_for_write(path, truncate=op in (">", "2>", "&>")):
                return Outcome(err=f"bash: {target}: {problem}\n", status=1)
            for fd in {">": (1,), ">>": (1,), "2>": (2,), "2>>": (2,), "&>": (1, 2)}[op]:
                targets[fd] = path
        words = list(simple.words)
        assignments = []
        while words and _is_assignment(words[0]):
            assignments.append(words.pop(0))
        argv = self._expand(words)
        if not argv:  # `NAME=value` alone sets a shell variable (before a command: its env)
            for word in assignments:
                name = _ASSIGNMENT.match(word.parts[0][1])[1]  # type: ignore[index]
                self.variables[name] = self._value(word, len(name) + 1)
        outcome = self._call(argv, stdin)
        if argv:
            name = program_name(argv[0], self.cwd) or argv[0]
            outcome.seconds += COMMAND_SECONDS.get(name, DEFAULT_COMMAND_SECONDS)
        routed = Outcome(status=outcome.status, seconds=outcome.seconds)
        for fd, text in ((1, outcome.out), (2, outcome.err)):
            target = targets[fd]
            if target == "out":
                routed.out += text
            elif target == "err":
                routed.err += text
            elif self.fs.is_file(target):  # a target deleted meanwhile (rm -rf /) stays deleted
                self.fs.write(target, text, append=True)
        return routed

    def _call(self, argv: list[str], stdin: str) -> Outcome:
        if not argv:  # only redirections or assignments, e.g. `> empty.txt`
            return Outcome()
        typed, args = argv[0], argv[1:]
        name = program_name(typed, self.cwd)
        if name is None:  # a path, but not to a command this shell knows
            return Outcome(err=f"bash: {typed}: No such file or directory\n", status=127)
        command = COMMANDS.get(name)
        if command is None:
            return Outcome(err=f"bash: {name}: command not found\n", status=127)
        try:
            return command(self, args, stdin)
        except CommandFailed as failure:
            prefix = "bash: cd" if name == "cd" else name  # cd is a bash builtin
            return Outcome(err=f"{prefix}: {failure}\n", status=failure.status)
        except OSError as error:  # e.g. a sandbox refusing a write no command expected to fail
            return Outcome(err=f"{name}: {_reason(error)}\n", status=1)

    def _open_for_write(self, path: str, truncate: bool) -> str | None:
        """Create or empty a redirection target; the reason it cannot be opened, or None."""
        if path == _NULL:
            return None
        if self.fs.is_dir(path):
            return "Is a directory"
        if not self.fs.is_dir(posixpath.dirname(path)):
            return "No such file or directory"
        if truncate or not self.fs.exists(path):
            try:
                self.fs.write(path, "")
            except OSError as error:  # the sandbox: outside the workspace nothing is writable
                return _reason(error)
        return None

    def _expand(self, words: list[_Token]) -> list[str]:
        """Words after parameter expansion (`$NAME`, split on whitespace when unquoted) or
        pathname expansion (a wildcard that matches nothing stays as typed)."""
        argv: list[str] = []
        for word in words:
            if word.expands:
                argv += self._fields(word)
                continue
            matches = self.fs.glob(word.pattern, self.cwd) if word.pattern else []
            argv += matches or [word.text]
        return argv

    def _substitute(self, text: str) -> str:
        return _VARIABLE.sub(lambda m: self.variables.get(m[1] or m[2], ""), text)

    def _fields(self, word: _Token) -> list[str]:
        """One word expanded: quoted text stays whole, unquoted expansions split on whitespace
        (an unquoted expansion that comes out empty leaves no field at all)."""
        fields: list[str] = []
        current: str | None = None  # None: no field started yet
        for kind, text in word.parts:
            if kind != "plain":
                current = (current or "") + (text if kind == "single" else self._substitute(text))
                continue
            for i, piece in enumerate(_IFS.split(self._substitute(text))):
                if i > 0 and current is not None:  # whitespace: the field so far is complete
                    fields.append(current)
                    current = None
                if piece:
                    current = (current or "") + piece
        if current is not None:
            fields.append(current)
        return fields

    def _value(self, word: _Token, skip: int) -> str:
        """An assignment's value: the word after its first `skip` characters, expanded but
        never split."""
        value, seen = [], 0
        for kind, text in word.parts:
            if seen < skip:
                cut = min(skip - seen, len(text))
                seen += cut
                text = text[cut:]
            value.append(text if kind == "single" else self._substitute(text))
        return "".join(value)
