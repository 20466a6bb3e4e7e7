"""Reading a command line the way bash does: words, quotes, operators, and the parse tree.

`split_commands` cuts a line into its simple commands (what a permission rule must see);
the shell in shell.py runs the same parse tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

# ---- syntax --------------------------------------------------------------------------------
SEPARATORS = frozenset({"&&", "||", ";", "&", "\n", "|", "|&"})
REDIRECTS = frozenset({">", ">>", "2>", "2>>", "&>", "<", "2>&1", ">&2"})
DUPLICATIONS = frozenset({"2>&1", ">&2"})  # copy one stream onto the other; no file involved
_OPERATORS = sorted(SEPARATORS | REDIRECTS, key=len, reverse=True)  # longest match first
_WORD_ENDS = " \t\r\n;&|<>"
_GLOB_CHARS = "*?["
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
    pieces: list[str] = []
    group: list[_Token] = []
    for token in [*tokens, None]:
        if token is None or (token.kind == "op" and token.text in SEPARATORS):
            if group:
                pieces.append(command[group[0].start : group[-1].end])
            group = []
        else:
            group.append(token)
    return pieces


def _is_assignment(word: _Token) -> bool:
    return (
        bool(word.parts)
        and word.parts[0][0] == "plain"
        and bool(_ASSIGNMENT.match(word.parts[0][1]))
    )
