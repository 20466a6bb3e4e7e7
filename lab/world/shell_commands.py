"""The simulated shell's commands: a table name -> function over the shell's disk.

Each command takes (shell, args, stdin) and returns an Outcome; a command that gives up as a
whole raises CommandFailed. The shell in shell.py looks a name up here and runs it;
`is_read_only` says from the same table whether a line can change the disk.
"""

from __future__ import annotations

import fnmatch
import posixpath
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING

from lab.world.fs import normalize
from lab.world.shell_parsing import (
    DUPLICATIONS,
    ShellSyntaxError,
    _is_assignment,
    _parse,
    _Simple,
    _tokenize,
)

if TYPE_CHECKING:
    from lab.world.shell import Shell


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
BIN_DIRS = frozenset({"/bin", "/usr/bin", "/usr/local/bin", "/sbin", "/usr/sbin"})
SHELLS = frozenset({"bash", "sh"})
MAX_NESTING = 16  # child shells inside child shells: a script that runs itself stops here

# Commands that never change the disk; see is_read_only().
READ_ONLY_COMMANDS = frozenset(
    {"ls", "cat", "grep", "head", "tail", "wc", "pwd", "echo", "true", "false", "sleep"}
)


def program_name(word: str, cwd: str = "/") -> str | None:
    """The command a word names: itself, or `rm` for `/bin/rm` (a path into a bin directory);
    None for a path that names no known command."""
    if "/" not in word:
        return word
    path = normalize(word, cwd)
    name = posixpath.basename(path)
    return name if posixpath.dirname(path) in BIN_DIRS and name in COMMANDS else None


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

    files: list[str] = []
    dirs: list[str] = []
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
    return sh.child().execute(source)


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
