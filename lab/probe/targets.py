"""The targets `lab probe` knows by name, and the one it builds from `--cmd`.

Built in: the lab's own harness under both presets (run as a program, like everyone else), then
the peers declared in `lab/probe/peers/` (`PEERS: dict[str, Target]`).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
from pathlib import Path

from lab.probe.target import CONTRACT_ENV, OFFLINE_SWITCHES, READ_NOTES, Call, Target

LAB_DENIED_CALL: Call = ("bash", '{"command": "touch denied.canary"}')
# What the course keeps (see each switch's `course` value): its SDK client retries (P6, P7) and it
# never streams, so it keeps no partial answer (P8, P9); it runs a call cut by max_tokens (P10)
# and hands a schema-invalid call to its handler, which raises with no try around it (P3).
# Of the later cases it keeps all but P23: the course
# asks its human before any validation (the seed's D9). It keeps P19-P20 through the program
# that wraps it (own_harness.py), not through its own loop; it asks for no thinking and declares
# no server tool, as the course is taught, so P18, P24 and P25 read n/a for it (never a fail).
COURSE_KEEPS = (
    *("P1", "P1s", "P1b", "P2", "P4", "P5", "P6", "P7", "P8", "P9", "P11", "P12"),
    *("P13", "P14", "P15", "P16", "P17", "P18", "P19", "P20", "P21", "P22"),
)


def lab_target(preset: str, *flips: str) -> Target:
    """The lab's harness under Switches() ("reference") or Switches.course() ("course"),
    optionally with switches flipped (`"trust_stop_reason=true"`: to watch a case catch it)."""
    switches = [word for flip in flips for word in ("--switch", flip)]

    def argv(prompt: str, folder: Path) -> list[str]:
        module = "lab.probe.own_harness"
        return [sys.executable, "-m", module, "--preset", preset, *switches, prompt]

    about = {
        "reference": "the lab's own harness, every protection on (Switches())",
        "course": "the lab's own harness as the course pins it (Switches.course())",
    }[preset]
    from lab.probe.catalogue import CASES

    claims = tuple(c.id for c in CASES) if preset == "reference" else COURSE_KEEPS
    if flips:
        return Target(
            name=f"lab-{preset} " + " ".join(flips),
            argv=argv,
            call=READ_NOTES,
            denied_call=LAB_DENIED_CALL,
            env=CONTRACT_ENV,
            about=f"{about}, with {', '.join(flips)}",
        )
    return Target(
        name=f"lab-{preset}",
        argv=argv,
        call=READ_NOTES,
        denied_call=LAB_DENIED_CALL,
        env=CONTRACT_ENV,
        distributions=("harness-lab", "anthropic"),
        about=about,
        claims=claims,
    )


def peers() -> dict[str, Target]:
    """The peer adapters, when this checkout has them."""
    try:
        from lab.probe.peers import PEERS
    except ModuleNotFoundError as error:
        if error.name not in ("lab.probe.peers",):
            raise
        return {}
    return dict(PEERS)


def builtin() -> dict[str, Target]:
    return {"lab-reference": lab_target("reference"), "lab-course": lab_target("course"), **peers()}


class TargetError(Exception):
    """A bad target name, --cmd or --call: one readable line."""


def parse_call(text: str, flag: str = "--call") -> Call:
    """`TOOL=JSON` (the JSON an object; `{dir}` stands for the scratch folder)."""
    name, sep, raw = text.partition("=")
    if not sep or not name.strip():
        raise TargetError(f"{flag} {text!r}: expected TOOL=JSON, e.g. read_file={READ_NOTES[1]}")
    try:
        value = json.loads(raw.replace("{dir}", "/scratch"))
    except ValueError as error:
        raise TargetError(f"{flag} {text!r}: the JSON does not parse: {error}") from None
    if not isinstance(value, dict):
        raise TargetError(f"{flag} {text!r}: the JSON must be an object")
    return (name.strip(), raw)


def exists(path: Path) -> bool:
    """The path names a file or folder (a name too long to be one names none)."""
    try:
        return path.exists()
    except OSError:
        return False


def absolute(word: str) -> str:
    """A word naming a file here, made absolute: the program runs in a scratch folder."""
    path = Path(word)
    if word.startswith("-") or path.is_absolute() or not exists(path):
        return word
    return str(path.absolute())  # not resolved: a venv's bin/python is a symlink that matters


# Interpreters whose first argument (when it is not an option) is the script they run: a
# script that does not exist is a mistake in --cmd, like a program that does not exist.
INTERPRETER = re.compile(r"(python[0-9.]*|pypy[0-9.]*|node|bun|deno|ruby|perl|bash|sh)")


def command_problem(command: str) -> str | None:
    """Why `--cmd COMMAND` cannot run here (one line), or None: not UTF-8, no such program, or
    an interpreter's script that is not there. Checked before the probe runs, so that a typo
    is a usage error, not a matrix of `not reached`."""
    try:
        command.encode("utf-8")
    except UnicodeEncodeError:
        shown = command.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
        return f"--cmd {shown}: not UTF-8 text (name the file by a UTF-8 link to it)"
    try:
        words = shlex.split(command)
    except ValueError:
        return None  # command_target says what is wrong with the quoting
    if not words:
        return None
    name = words[0]
    found = absolute(name) if "/" in name else shutil.which(name)
    if found is None or not exists(Path(found)):
        where = "no such file" if "/" in name else "not found on PATH"
        return f"--cmd: no program {short_name(name)} ({where})"
    if not os.access(found, os.X_OK) or Path(found).is_dir():
        return f"--cmd: {short_name(name)} is not an executable program"
    script = words[1] if len(words) > 1 else "-"
    if INTERPRETER.fullmatch(Path(name).name) and not script.startswith("-"):
        if not exists(Path(script)):
            return f"--cmd: {Path(name).name} would run {short_name(script)}, which does not exist"
    return None


def short_name(name: str, limit: int = 80) -> str:
    """A file name for an error line: quoted, and cut in the middle when it is long."""
    if len(name) <= limit:
        return repr(name)
    return f"{name[: limit // 2] + '…' + name[-limit // 4 :]!r} ({len(name)} characters)"


def program(word: str) -> str:
    """The program a command names, found on the caller's PATH now (`python` is the user's
    interpreter, their venv's if one is active, not the lab's); as typed when not found."""
    if "/" in word:
        return absolute(word)
    return shutil.which(word) or word


def command_target(
    command: str,
    call: Call = READ_NOTES,
    final: Call | None = None,
    denied_call: Call | None = None,
    warm: bool = False,
    wire: str | None = None,
) -> Target:
    """Any program: `command` split like a shell would, the prompt appended as its last argument.

    The program is looked up on the caller's PATH; words that name a file or folder in the
    current folder (`my_agent.py`, `./agent`) become absolute paths, so `python my_agent.py`
    still finds its file from the scratch folder. It starts cold, exactly as typed, unless `warm`
    (`--warm`): then `python SCRIPT.py` or `python -m MODULE`, when that `python` is the lab's
    own interpreter, is forked from a warm parent (warm.py) as the built-in targets are. Its
    wire is read from its first request unless `wire` (`--wire`) names one."""
    try:
        words = shlex.split(command)
    except ValueError as error:
        raise TargetError(f"--cmd {command!r}: {error}") from None
    if not words:
        raise TargetError("--cmd: the command is empty")
    words = [program(words[0]), *(absolute(word) for word in words[1:])]
    from lab.probe.catalogue import CASES

    return Target(
        name=command,
        argv=lambda prompt, folder: [*words, prompt],
        call=call,
        denied_call=denied_call,  # the permission contract (target.py): P11, P23
        env={**OFFLINE_SWITCHES, **CONTRACT_ENV},
        about=f"the program `{command}`",
        claims=tuple(c.id for c in CASES),
        final_call=final,
        warm=warm,
        command=True,
        wire=wire,
    )


def resolve(name: str) -> Target:
    known = builtin()
    if name not in known:
        raise TargetError(f"unknown target {name!r}; known targets: {', '.join(known)}")
    return known[name]
