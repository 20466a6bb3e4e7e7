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
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from lab.world.fs import VirtualFS, normalize

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

# Commands that never change the disk; see is_read_only().
READ_ONLY_COMMANDS = frozenset(
    {"ls", "cat", "grep", "head", "tail", "wc", "pwd", "echo", "true", "false", "sleep"}
)

# ---- syntax --------------------------------------------------------------------------------
SEPARATORS = frozenset({"&&", "||", ";", "&", "\n", "|", "|&"})
REDIRECTS = frozenset({">", ">>", "2>", "2>>", "&>", "<", "2>&1", ">&2"})
DUPLICATIONS = frozenset({"2>&1", ">&2"})  # copy one stream onto the other; no file involved
_OPERATORS = sorted(SEPARATORS | REDIRECTS, key=len, reverse=True)  # longest match first
_WORD_ENDS = " \t\r\n;&|<>"
_GLOB_CHARS = "*?["
BIN_DIRS = frozenset({"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"})
SHELLS = frozenset({"bash", "sh"})
MAX_NESTING = 16  # child shells inside child shells: a script that runs itself stops here
_VARIABLE = re.compile(r"\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))")
_ASSIGNMENT = re.compile(r"([A-Za-z_]\w*)=")
_IFS = re.compile(r"[ \t\n]+")


class ShellSyntaxError(Exception):
    """The command line cannot be parsed; bash would answer status 2."""


@dataclass(frozen=True)
class _Token:
    kind: str  # "word" or "op"
    text: str  # a word after quote removal, or the operator itself
    start: int  # span in the command line (split_commands returns slices of it)
    end: int
    pattern: str | None = None  # set when the word holds an unquoted wildcard
    # The word as typed, in parts: ("plain" | "double" | "single", text). Single-quoted and
    # backslash-escaped text is literal; `$NAME` expands in plain and double-quoted parts.
    parts: tuple[tuple[str, str], ...] = ()

    @property
    def expands(self) -> bool:
        return any(q != "single" and _VARIABLE.search(t) for q, t in self.parts)


@dataclass
class _Simple:
    """One simple command: its words, its redirections (operator, target) and its text span."""

    words: list[_Token] = field(default_factory=list)
    redirects: list[tuple[str, _Token | None]] = field(default_factory=list)
    tokens: list[_Token] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.tokens)


# A pipeline is its simple commands plus the pipe operators between them; a chain is a list of
# (connector, pipeline), where the connector decides whether the pipeline runs.
_Pipeline = tuple[list[_Simple], list[str]]


def _operator_at(line: str, i: int) -> str | None:
    for op in _OPERATORS:
        if line.startswith(op, i):
            return op
    return None


def _escape_glob(text: str) -> str:
    """Make quoted wildcard characters literal for fnmatch ("*" -> "[*]")."""
    return "".join(f"[{ch}]" if ch in _GLOB_CHARS else ch for ch in text)


def _read_quoted(line: str, i: int) -> tuple[list[tuple[str, str]], int]:
    """The parts of a quoted span starting at line[i] (a quote), and the index after it."""
    quote = line[i]
    kind = "single" if quote == "'" else "double"
    i += 1
    parts: list[tuple[str, str]] = []
    while i < len(line) and line[i] != quote:
        # inside double quotes a backslash only escapes these characters (they become literal)
        if kind == "double" and line[i] == "\\" and line[i + 1 : i + 2] in ('"', "\\", "$", "`"):
            parts.append(("single", line[i + 1]))
            i += 2
            continue
        parts.append((kind, line[i]))
        i += 1
    if i >= len(line):
        raise ShellSyntaxError(f"unexpected EOF while looking for matching `{quote}'")
    return parts or [(kind, "")], i + 1


def _merge(parts: list[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Neighbouring parts of the same kind joined: ("plain", "a"), ("plain", "b") -> "ab"."""
    merged: list[tuple[str, str]] = []
    for kind, text in parts:
        if merged and merged[-1][0] == kind:
            merged[-1] = (kind, merged[-1][1] + text)
        else:
            merged.append((kind, text))
    return tuple(merged)


def _read_word(line: str, i: int) -> tuple[_Token, int]:
    start = i
    value, pattern, wild = [], [], False
    parts: list[tuple[str, str]] = []
    while i < len(line) and line[i] not in _WORD_ENDS:
        ch = line[i]
        if ch in "'\"":
            quoted, i = _read_quoted(line, i)
            parts += quoted
            text = "".join(t for _, t in quoted)
        elif ch == "\\":
            text, i = line[i + 1 : i + 2], i + 2
            text = "" if text == "\n" else text  # backslash-newline continues the line
            parts.append(("single", text))
        else:
            value.append(ch)
            pattern.append(ch)
            parts.append(("plain", ch))
            wild = wild or ch in _GLOB_CHARS
            i += 1
            continue
        value.append(text)
        pattern.append(_escape_glob(text))
    glob = "".join(pattern) if wild else None
    token = _Token("word", "".join(value), start, i, glob, _merge(parts))
    return token, i


def _tokenize(line: str) -> list[_Token]:
    tokens: list[_Token] = []
    i = 0
    while i < len(line):
        if line[i] in " \t\r":
            i += 1
        elif line[i] == "#":  # a comment runs to the end of the line
            end = line.find("\n", i)
            i = len(line) if end < 0 else end
        elif op := _operator_at(line, i):
            tokens.append(_Token("op", op, i, i + len(op)))
            i += len(op)
        else:
            token, i = _read_word(line, i)
            tokens.append(token)
    return tokens


def _unexpected(token: _Token | None) -> ShellSyntaxError:
    text = "newline" if token is None or token.text == "\n" else token.text
    return ShellSyntaxError(f"syntax error near unexpected token `{text}'")


def _parse(tokens: list[_Token]) -> list[tuple[str, _Pipeline]]:
    chain: list[tuple[str, _Pipeline]] = []
    connector = ";"
    commands: list[_Simple] = []
    pipes: list[str] = []
    current = _Simple()
    pending = False  # an operator (&&, ||, |) still waits for its right-hand command
    i = 0
    while i < len(tokens):
        token = tokens[i]
        i += 1
        if token.kind == "word":
            current.words.append(token)
            current.tokens.append(token)
            pending = False
        elif token.text in REDIRECTS:
            target = None
            if token.text not in DUPLICATIONS:
                target = tokens[i] if i < len(tokens) else None
                if target is None or target.kind != "word":
                    raise _unexpected(target)
                i += 1
            current.redirects.append((token.text, target))
            current.tokens += [token] if target is None else [token, target]
            pending = False
        elif token.text == "\n" and not current:
            continue  # blank line, or a line break right after && / || / |
        elif not current:
            raise _unexpected(token)
        else:
            commands.append(current)
            current = _Simple()
            if token.text in ("|", "|&"):
                pipes.append(token.text)
                pending = True
            else:
                chain.append((connector, (commands, pipes)))
                commands, pipes = [], []
                connector = token.text if token.text in ("&&", "||") else ";"
                pending = token.text in ("&&", "||")
    if pending:
        raise ShellSyntaxError("syntax error: unexpected end of file")
    if current:
        commands.append(current)
    if commands:
        chain.append((connector, (commands, pipes)))
    return chain


def split_commands(command: str) -> list[str]:
    """The texts of the simple commands in a command line, split on && || ; | |& & and newline.

    Quotes are respected (`echo "a && b"` is one command); comments are dropped. A line that
    cannot even be tokenized (an unbalanced quote) comes back whole, so a rule scanning the
    pieces still sees every character.
    """
    try:
        tokens = _tokenize(command)
    except ShellSyntaxError:
        return [command.strip()] if command.strip() else []
    pieces, group = [], []
    for token in [*tokens, None]:
        if token is None or (token.kind == "op" and token.text in SEPARATORS):
            if group:
                pieces.append(command[group[0].start : group[-1].end])
            group = []
        else:
            group.append(token)
    return pieces


def program_name(word: str, cwd: str = "/") -> str | None:
    """The command a word names: itself, or `rm` for `/bin/rm` (a path into a bin directory);
    None for a path that names no known command."""
    if "/" not in word:
        return word
    path = normalize(word, cwd)
    name = posixpath.basename(path)
    return name if posixpath.dirname(path) in BIN_DIRS and name in COMMANDS else None


def _is_assignment(word: _Token) -> bool:
    return (
        bool(word.parts)
        and word.parts[0][0] == "plain"
        and bool(_ASSIGNMENT.match(word.parts[0][1]))
    )


def _simple_is_read_only(simple: _Simple, depth: int) -> bool:
    if any(op not in DUPLICATIONS and op != "<" for op, _ in simple.redirects):
        return False
    words = list(simple.words)
    while words and _is_assignment(words[0]):
        words.pop(0)  # an assignment changes a variable, never the disk
    if not words:
        return True
    if words[0].expands:  # `$CMD ...`: what runs is only known when it runs
        return False
    name = program_name(words[0].text)
    args = [w.text for w in words[1:]]
    if name in SHELLS:  # a child shell is read-only iff the line it runs is
        literal = len(args) >= 2 and args[0] == "-c" and not words[2].expands
        return literal and depth < MAX_NESTING and _is_read_only(args[1], depth + 1)
    if name == "find":
        return not any(a == "-delete" or a.startswith("-exec") for a in args)
    return name in READ_ONLY_COMMANDS


def _is_read_only(command: str, depth: int) -> bool:
    try:
        chain = _parse(_tokenize(command))
    except ShellSyntaxError:
        return False
    return all(
        _simple_is_read_only(simple, depth)
        for _, (commands, _pipes) in chain
        for simple in commands
    )


def is_read_only(command: str) -> bool:
    """True iff every simple command is in READ_ONLY_COMMANDS (by name or by path, a child
    shell judged by the line it runs, `find` without -delete) and nothing is redirected to a
    file. A command word held in a variable is not read-only: nobody can tell before it runs.

    Unparseable input is not read-only (we cannot tell what it would do); an empty line, which
    runs nothing, is.
    """
    return _is_read_only(command, 0)


# ---- running -------------------------------------------------------------------------------
@dataclass(frozen=True)
class ShellResult:
    """What one command line produced: stdout then stderr (as the course captures them)."""

    output: str
    status: int
    seconds: float


@dataclass
class Outcome:
    """What one simple command produced; `seconds` is time beyond its COMMAND_SECONDS entry."""

    out: str = ""
    err: str = ""
    status: int = 0
    seconds: float = 0.0


class CommandFailed(Exception):
    """A command gives up as a whole: message goes to stderr as "NAME: message"."""

    def __init__(self, message: str, status: int = 1) -> None:
        super().__init__(message)
        self.status = status


Command = Callable[["Shell", list[str], str], Outcome]
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


def _reason(error: OSError) -> str:
    """The shell wording for a VirtualFS error (its message is "PATH: reason")."""
    return str(error).rsplit(": ", 1)[-1]


# ---- the commands --------------------------------------------------------------------------
def _options(args: list[str], allowed: str, status: int = 1) -> tuple[set[str], list[str]]:
    """Split short flags ("-rf" -> {"r", "f"}) from operands; "--" ends the flags.

    `allowed` lists the accepted letters; "*" accepts any (and ignores the unknown ones).
    """
    flags: set[str] = set()
    operands: list[str] = []
    for i, arg in enumerate(args):
        if arg == "--":
            operands += args[i + 1 :]
            break
        if arg.startswith("-") and len(arg) > 1:
            for letter in arg[1:]:
                if letter not in allowed and allowed != "*":
                    raise CommandFailed(f"invalid option -- '{letter}'", status)
                flags.add(letter)
        else:
            operands.append(arg)
    return flags, operands


def _lines(text: str) -> list[str]:
    """Lines with their newline kept, so that joining them gives the text back."""
    return text.splitlines(keepends=True)


def _ls(sh: Shell, args: list[str], stdin: str) -> Outcome:
    flags, names = _options(args, "*", status=2)
    names = names or ["."]
    result = Outcome()

    def entry(path: str, name: str) -> str:
        if "l" not in flags:
            return name + "\n"
        if sh.fs.is_dir(path):
            return f"drwxr-xr-x {4096:>8} {name}\n"
        return f"-rw-r--r-- {len(sh.fs.read(path)):>8} {name}\n"

    files, dirs = [], []
    for name in names:
        path = sh.path(name)
        if not sh.fs.exists(path):
            result.err += f"ls: cannot access '{name}': No such file or directory\n"
            result.status = 2
        else:
            (dirs if sh.fs.is_dir(path) else files).append(name)
    for name in sorted(files):
        result.out += entry(sh.path(name), name)
    for n, name in enumerate(sorted(dirs)):
        if len(names) > 1:  # several operands: each directory gets a heading
            result.out += ("\n" if files or n else "") + f"{name}:\n"
        path = sh.path(name)
        for child in sh.fs.listdir(path):
            if child.startswith(".") and "a" not in flags:
                continue
            result.out += entry(normalize(child, path), child)
    return result


def _read_inputs(
    sh: Shell, name: str, operands: list[str], stdin: str, result: Outcome
) -> Iterator[tuple[str, str]]:
    """(operand, text) for each readable input ("-" or none: stdin); errors go to result.err."""
    for operand in operands or ["-"]:
        if operand == "-":
            yield operand, stdin
            continue
        try:
            yield operand, sh.fs.read(sh.path(operand))
        except OSError as error:
            result.err += f"{name}: {operand}: {_reason(error)}\n"
            result.status = 1


def _cat(sh: Shell, args: list[str], stdin: str) -> Outcome:
    flags, operands = _options(args, "n")
    result = Outcome()
    for _, text in _read_inputs(sh, "cat", operands, stdin, result):
        if "n" in flags:
            text = "".join(f"{n:>6}\t{line}" for n, line in enumerate(_lines(text), 1))
        result.out += text
    return result


_ECHO_ESCAPES = {"\\n": "\n", "\\t": "\t", "\\\\": "\\"}


def _echo(sh: Shell, args: list[str], stdin: str) -> Outcome:
    newline, escapes = True, False
    while args and args[0] in ("-n", "-e", "-ne", "-en", "-E"):
        newline = newline and "n" not in args[0]
        escapes = escapes or "e" in args[0]
        args = args[1:]
    text = " ".join(args)
    if escapes:
        text = re.sub(r"\\[nt\\]", lambda m: _ECHO_ESCAPES[m.group()], text)
    return Outcome(out=text + ("\n" if newline else ""))


def _rm(sh: Shell, args: list[str], stdin: str) -> Outcome:
    flags, operands = _options(args, "rRfiv")
    force, recursive = "f" in flags, bool(flags & {"r", "R"})
    if not operands and not force:
        raise CommandFailed("missing operand")
    result = Outcome()
    for operand in operands:
        path = sh.path(operand)
        # No --preserve-root here on purpose: `rm -rf /` wipes the whole virtual disk.
        if posixpath.basename(operand.rstrip("/")) in (".", ".."):
            result.err += f"rm: refusing to remove '.' or '..' directory: skipping '{operand}'\n"
        elif not sh.fs.exists(path):
            if force:
                continue
            result.err += f"rm: cannot remove '{operand}': No such file or directory\n"
        elif sh.fs.is_dir(path) and not recursive:
            result.err += f"rm: cannot remove '{operand}': Is a directory\n"
        else:
            try:
                sh.fs.remove(path, recursive=True)
                continue
            except OSError as error:  # the sandbox: what lies outside the workspace stays
                result.err += f"rm: cannot remove '{operand}': {_reason(error)}\n"
        result.status = 1
    return result


def _mkdir(sh: Shell, args: list[str], stdin: str) -> Outcome:
    flags, operands = _options(args, "pv")
    if not operands:
        raise CommandFailed("missing operand")
    result = Outcome()
    for operand in operands:
        try:
            sh.fs.mkdir(sh.path(operand), parents="p" in flags)
        except OSError as error:
            result.err += f"mkdir: cannot create directory '{operand}': {_reason(error)}\n"
            result.status = 1
    return result


def _touch(sh: Shell, args: list[str], stdin: str) -> Outcome:
    _, operands = _options(args, "ac")
    if not operands:
        raise CommandFailed("missing file operand")
    result = Outcome()
    for operand in operands:
        path = sh.path(operand)
        if sh.fs.exists(path):
            continue  # no timestamps in this world, so nothing to update
        if sh.fs.is_dir(posixpath.dirname(path)):
            try:
                sh.fs.write(path, "")
            except OSError as error:
                result.err += f"touch: cannot touch '{operand}': {_reason(error)}\n"
                result.status = 1
        else:
            result.err += f"touch: cannot touch '{operand}': No such file or directory\n"
            result.status = 1
    return result


def _basic_to_python(pattern: str) -> str:
    """grep's basic regex to Python's: `\\|`, `\\(`, `\\)`... are operators, bare ones literal."""
    special = "|(){}+?"
    out, i = [], 0
    while i < len(pattern):
        ch, nxt = pattern[i], pattern[i + 1 : i + 2]
        if ch == "\\" and nxt in special and nxt:
            out.append(nxt)
            i += 2
            continue
        out.append("\\" + ch if ch in special else ch)
        i += 1
    return "".join(out)


def _grep_inputs(
    sh: Shell, operands: list[str], recursive: bool, result: Outcome
) -> Iterator[tuple[str, str]]:
    """(display name, path) of each file to search; directories expand under -r."""
    for operand in operands:
        path = sh.path(operand)
        if sh.fs.is_dir(path) and recursive:
            prefix = path.rstrip("/") + "/"
            for file in sh.fs.files():
                if file.startswith(prefix):
                    yield posixpath.join(operand, file[len(prefix) :]), file
        elif sh.fs.is_dir(path):
            result.err += f"grep: {operand}: Is a directory\n"
        elif not sh.fs.exists(path):
            result.err += f"grep: {operand}: No such file or directory\n"
        else:
            yield operand, path


def _grep(sh: Shell, args: list[str], stdin: str) -> Outcome:
    flags, operands = _options(args, "nicvrRlEFwqsH", status=2)
    if not operands:
        raise CommandFailed("usage: grep [OPTION]... PATTERNS [FILE]...", 2)
    pattern, operands = operands[0], operands[1:]
    if "F" in flags:
        pattern = re.escape(pattern)
    elif "E" not in flags:
        pattern = _basic_to_python(pattern)
    if "w" in flags:
        pattern = rf"\b(?:{pattern})\b"
    try:
        regex = re.compile(pattern, re.IGNORECASE if "i" in flags else 0)
    except re.error as error:
        raise CommandFailed(f"invalid regular expression: {error}", 2) from None
    recursive = bool(flags & {"r", "R"})
    result = Outcome()
    if operands:
        found = _grep_inputs(sh, operands, recursive, result)
        inputs = [(name, sh.fs.read(path)) for name, path in found]
        label = len(operands) > 1 or recursive or "H" in flags
    elif recursive:  # grep -r with no operand searches the working directory, names unprefixed
        found = _grep_inputs(sh, ["."], True, result)
        inputs = [(name.removeprefix("./"), sh.fs.read(path)) for name, path in found]
        label = True
    else:
        inputs, label = [("(standard input)", stdin)], "H" in flags
    selected = 0
    for name, text in inputs:
        hits = [
            (n, line)
            for n, line in enumerate(text.splitlines(), 1)
            if bool(regex.search(line)) != ("v" in flags)
        ]
        selected += len(hits)
        prefix = f"{name}:" if label else ""
        if "l" in flags:
            result.out += f"{name}\n" if hits else ""
        elif "c" in flags:
            result.out += f"{prefix}{len(hits)}\n"
        else:
            numbered = "n" in flags
            for n, line in hits:
                result.out += f"{prefix}{n}:{line}\n" if numbered else f"{prefix}{line}\n"
    if "q" in flags:
        result.out = ""
    if "s" in flags:
        result.err = ""
    if result.err and not (selected and "q" in flags):
        result.status = 2
    else:
        result.status = 0 if selected else 1
    return result


def _line_count(args: list[str]) -> tuple[str, list[str]]:
    """Pull "-n N", "-nN" or "-N" out of head/tail arguments: (the count as typed, the rest)."""
    count, rest, i = "10", [], 0
    while i < len(args):
        arg = args[i]
        if arg == "-n":
            if i + 1 == len(args):
                raise CommandFailed("option requires an argument -- 'n'")
            count, i = args[i + 1], i + 2
            continue
        if arg.startswith("-n"):
            count = arg[2:]
        elif re.fullmatch(r"-\d+", arg):
            count = arg[1:]
        else:
            rest.append(arg)
        i += 1
    if not re.fullmatch(r"\+?\d+", count):
        raise CommandFailed(f"invalid number of lines: '{count}'")
    return count, rest


def _head_or_tail(name: str, sh: Shell, args: list[str], stdin: str) -> Outcome:
    count, operands = _line_count(args)
    result = Outcome()
    chunks = []
    for operand in operands or ["-"]:
        if operand == "-":
            text = stdin
        else:
            try:
                text = sh.fs.read(sh.path(operand))
            except OSError as error:
                result.err += f"{name}: cannot open '{operand}' for reading: {_reason(error)}\n"
                result.status = 1
                continue
        lines = _lines(text)
        n = int(count)
        if name == "head":
            kept = lines[:n]
        elif count.startswith("+"):  # tail -n +K: from line K on
            kept = lines[max(n - 1, 0) :]
        else:
            kept = lines[len(lines) - n :] if n else []
        heading = f"==> {operand} <==\n" if len(operands) > 1 else ""
        chunks.append(heading + "".join(kept))
    result.out = "\n".join(chunks)
    return result


def _wc(sh: Shell, args: list[str], stdin: str) -> Outcome:
    flags, operands = _options(args, "lwcm")
    # counts are printed separated by one space (GNU pads them into columns)
    wanted = [f for f in "lwcm" if f in flags] or ["l", "w", "c"]
    counters = {
        "l": lambda t: t.count("\n"),
        "w": lambda t: len(t.split()),
        "c": lambda t: len(t.encode()),
        "m": len,
    }
    result = Outcome()
    totals = dict.fromkeys(wanted, 0)
    for operand, text in _read_inputs(sh, "wc", operands, stdin, result):
        counts = {f: counters[f](text) for f in wanted}
        for f in wanted:
            totals[f] += counts[f]
        name = "" if operand == "-" and not operands else f" {operand}"
        result.out += " ".join(str(counts[f]) for f in wanted) + name + "\n"
    if len(operands) > 1:
        result.out += " ".join(str(totals[f]) for f in wanted) + " total\n"
    return result


def _pwd(sh: Shell, args: list[str], stdin: str) -> Outcome:
    return Outcome(out=sh.cwd + "\n")


_SLEEP_UNITS = {"": 1, "s": 1, "m": 60, "h": 3600, "d": 86400}


def _sleep(sh: Shell, args: list[str], stdin: str) -> Outcome:
    if not args:
        raise CommandFailed("missing operand")
    total = 0.0
    for arg in args:
        match = re.fullmatch(r"(\d+(?:\.\d*)?|\.\d+)([smhd]?)", arg)
        if not match:
            raise CommandFailed(f"invalid time interval '{arg}'")
        total += float(match.group(1)) * _SLEEP_UNITS[match.group(2)]
    return Outcome(seconds=total)  # virtual time: the clock jumps, nobody waits


def _cd(sh: Shell, args: list[str], stdin: str) -> Outcome:
    if len(args) > 1:
        raise CommandFailed("too many arguments")
    target = args[0] if args else sh.home
    path = sh.path(target)
    if sh.fs.is_file(path):
        raise CommandFailed(f"{target}: Not a directory")
    if not sh.fs.is_dir(path):
        raise CommandFailed(f"{target}: No such file or directory")
    sh.cwd = path
    return Outcome()


def _child_shell(sh: Shell, args: list[str], stdin: str) -> Outcome:
    """`bash -c LINE`, `bash FILE`, or `bash` reading its script from stdin: a child shell on
    the same disk (and the same sandbox), starting where its parent stands."""
    if sh.depth >= MAX_NESTING:
        raise CommandFailed("maximum nesting level exceeded")
    if args and args[0] == "-c":
        if len(args) < 2:
            raise CommandFailed("-c: option requires an argument", 2)
        source = args[1]
    elif args:
        try:
            source = sh.fs.read(sh.path(args[0]))
        except OSError as error:
            raise CommandFailed(f"{args[0]}: {_reason(error)}", 127) from None
    else:
        source = stdin
    return Shell(sh.fs, sh.clock, cwd=sh.cwd, depth=sh.depth + 1).execute(source)


def _walk(sh: Shell, path: str, shown: str) -> Iterator[tuple[str, str]]:
    """(shown, path) of `path` and everything below it, parents before children."""
    yield shown, path
    if sh.fs.is_dir(path):
        for name in sh.fs.listdir(path):
            yield from _walk(sh, normalize(name, path), posixpath.join(shown, name))


def _find(sh: Shell, args: list[str], stdin: str) -> Outcome:
    """find [PATH...] [-name GLOB] [-type f|d] [-print] [-delete]; -delete removes the
    matches deepest first (a directory only once it is empty)."""
    roots = []
    while args and not args[0].startswith("-"):
        roots.append(args.pop(0))
    name, kind, delete = None, None, False
    while args:
        predicate = args.pop(0)
        if predicate in ("-name", "-type"):
            if not args:
                raise CommandFailed(f"missing argument to `{predicate}'")
            value = args.pop(0)
            if predicate == "-type" and value not in ("f", "d"):
                raise CommandFailed(f"Unknown argument to -type: {value}")
            name, kind = (value, kind) if predicate == "-name" else (name, value)
        elif predicate == "-delete":
            delete = True
        elif predicate != "-print":
            raise CommandFailed(f"unknown predicate `{predicate}'")
    result = Outcome()
    for root in roots or ["."]:
        if not sh.fs.exists(sh.path(root)):
            result.err += f"find: '{root}': No such file or directory\n"
            result.status = 1
            continue
        found = [
            (shown, path)
            for shown, path in _walk(sh, sh.path(root), root)
            if (name is None or fnmatch.fnmatchcase(posixpath.basename(path), name))
            and (kind is None or sh.fs.is_dir(path) == (kind == "d"))
        ]
        if not delete:
            result.out += "".join(f"{shown}\n" for shown, _ in found)
            continue
        for shown, path in reversed(found):  # children before their directory
            if path == sh.cwd:
                continue  # find never deletes the directory it stands in
            try:
                if sh.fs.is_dir(path) and sh.fs.listdir(path):
                    raise OSError(f"{path}: Directory not empty")
                sh.fs.remove(path, recursive=True)
            except OSError as error:
                result.err += f"find: cannot delete '{shown}': {_reason(error)}\n"
                result.status = 1
    return result


COMMANDS: dict[str, Command] = {
    "bash": _child_shell,
    "cat": _cat,
    "cd": _cd,
    "echo": _echo,
    "false": lambda sh, args, stdin: Outcome(status=1),
    "find": _find,
    "grep": _grep,
    "head": lambda sh, args, stdin: _head_or_tail("head", sh, args, stdin),
    "ls": _ls,
    "mkdir": _mkdir,
    "pwd": _pwd,
    "rm": _rm,
    "sh": _child_shell,
    "sleep": _sleep,
    "tail": lambda sh, args, stdin: _head_or_tail("tail", sh, args, stdin),
    "touch": _touch,
    "true": lambda sh, args, stdin: Outcome(),
    "wc": _wc,
}
