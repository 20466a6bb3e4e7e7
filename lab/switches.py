"""The switchboard: one frozen dataclass, each flag breaks exactly one guarantee.

`Switches()` is the reference harness (every protection on, production semantics).
Every flag carries its fault, its mechanism (M1-M5), the experiments that flip it, the one
module that reads it, and the course's value with the reason, so `lab list`, the notebooks
and the kill matrix can show them. `Switches.course()` is the course as pinned.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any, get_type_hints


def flag(
    default: Any,
    *,
    course: tuple[Any, str],
    mechanism: str,
    experiments: str,
    reader: str,
    fault: str,
) -> Any:
    """A switch: its reference value, the course's value and why, and what it breaks."""
    info = {
        "mechanism": mechanism,
        "experiments": experiments,
        "reader": reader,
        "fault": fault,
        "course": course[0],
        "course_why": course[1],
    }
    return field(default=default, metadata=info)


@dataclass(frozen=True)
class Switches:
    trust_stop_reason: bool = flag(
        False,
        course=(
            False,
            "s01-s04 decide by the content blocks (an older web revision read stop_reason)",
        ),
        mechanism="M1",
        experiments="D1, D1b",
        reader="lab/harness/loop.py",
        fault="The continue test trusts the declared stop_reason instead of the content blocks: "
        "a tool call that arrives while the declaration says end_turn is dropped.",
    )
    unknown_tool_result: bool = flag(
        True,
        course=(True, 's02 answers an unknown name with the string "Unknown: <name>"'),
        mechanism="M2",
        experiments="D7",
        reader="lab/harness/checks.py",
        fault="Off: an unknown tool name raises instead of becoming an is_error result, and "
        "the run crashes in the middle of a batch.",
    )
    contract_checked: bool = flag(
        True,
        course=(False, "the schema<->signature contract is implicit: nothing checks it"),
        mechanism="M2",
        experiments="D8",
        reader="lab/scenario.py",
        fault="Off: the schema<->signature contract is not checked at registration; a tool "
        "whose schema says file_path while its handler takes path fails on first use.",
    )
    parallel_batches: bool = flag(
        True,
        course=(False, "tools run strictly one after another: no threads, no asyncio"),
        mechanism="M2",
        experiments="D19",
        reader="lab/harness/batching.py",
        fault="Off: every call is a tray of its own and runs serially, as in the course.",
    )
    concurrency_from_input: bool = flag(
        True,
        course=(True, "moot: with no parallelism nothing is decided either way"),
        mechanism="M2",
        experiments="D18",
        reader="lab/harness/batching.py",
        fault="Off: concurrency is decided by the tool, not the call's input, so `rm` shares "
        "a parallel tray with a `cat` of the same file.",
    )
    validate_before_gate: bool = flag(
        True,
        course=(True, "the SDK and the API do the shape checks before the gates run"),
        mechanism="M3",
        experiments="D9",
        reader="lab/harness/checks.py",
        fault="Off: the permission gates run before validation, so the human is asked about "
        "calls that were malformed anyway.",
    )
    read_exempt_from_cap: bool = flag(
        True,
        course=(True, "moot: the course truncates output at 50,000 chars and never spills"),
        mechanism="M3",
        experiments="D17",
        reader="lab/harness/results.py",
        fault="Off: the read tool's results are spilled like any other, so reading a big file "
        "yields a spill path, reading the path spills again: a loop that feeds on itself.",
    )
    pair_protection: bool = flag(
        True,
        course=(True, 'a denied call still gets "Permission denied." as its result'),
        mechanism="M3",
        experiments="D3, D3b",
        reader="lab/harness/pairing.py",
        fault="Off: a call stopped before running gets no tool_result, and the history "
        "trimmer cuts between a tool_use and its tool_result; the API rejects the next request.",
    )
    gate_order_correct: bool = flag(
        True,
        course=(True, "s03 checks the deny list before it asks the user"),
        mechanism="M4",
        experiments="D4",
        reader="lab/harness/permissions.py",
        fault="Off: the human is asked before the hard deny rules, so a 'yes' lets a "
        "deny-listed command run.",
    )
    workspace_wall: bool = flag(
        True,
        course=(False, "s03 dropped safe_path from the file tools"),
        mechanism="M4",
        experiments="D10",
        reader="lab/scenario.py",
        fault="Off (the course's s03 dropped safe_path): file tools reach outside the "
        "workspace, and only a question to the human stands in the way.",
    )
    split_compound_commands: bool = flag(
        True,
        course=(False, "the deny list matches substrings of the whole command"),
        mechanism="M4",
        experiments="D11",
        reader="lab/harness/permissions.py",
        fault="Off: a compound command is matched as one string, so `ls && rm -rf /` passes "
        "a `Bash(ls *)` allow rule and misses a `Bash(rm *)` deny rule.",
    )
    hooks_may_loosen: bool = flag(
        False,
        course=(False, "a course hook can only block: there is no 'allow' to loosen with"),
        mechanism="M5",
        experiments="D15",
        reader="lab/harness/permissions.py",
        fault="A PreToolUse hook's 'allow' skips the deny and ask rules (the real pre-v2.1.77 "
        "bug): hooks loosen instead of only tightening.",
    )
    course_hook_semantics: bool = flag(
        False,
        course=(True, "s04 runs callbacks in order and the first non-None result wins"),
        mechanism="M5",
        experiments="D12, D13, D14",
        reader="lab/harness/hooks.py",
        fault="The course's hooks: callbacks in order, the first non-None result skips the "
        "rest, permission is just the first PreToolUse callback, UserPromptSubmit and "
        "PostToolUse results are discarded.",
    )
    stop_hook_guard: bool = flag(
        True,
        course=(False, "no stop_hook_active flag and no cap on Stop continuations"),
        mechanism="M1/M5",
        experiments="D16",
        reader="lab/harness/hooks.py",
        fault="Off: no stop_hook_active flag and no cap of 8 consecutive Stop blocks, so a "
        "Stop hook that keeps blocking runs the loop to the turn limit.",
    )

    @classmethod
    def course(cls) -> Switches:
        """The course as pinned at f9e8b28 (s01-s04): each flag's `course` value (see its why)."""
        return cls(**{f.name: f.metadata["course"] for f in fields(cls)})

    def flipped(self, **flips: Any) -> Switches:
        """A copy with some flags changed; an unknown name raises a readable KeyError."""
        known = switch_names()
        for name in flips:
            if name not in known:
                raise KeyError(f"unknown switch {name!r}; known switches: {', '.join(known)}")
        return replace(self, **flips)

    def differences(self, base: Switches | None = None) -> dict[str, Any]:
        """The flags that differ from `base` (default: the reference harness)."""
        base = base or Switches()
        return {
            name: getattr(self, name)
            for name in switch_names()
            if getattr(self, name) != getattr(base, name)
        }


def switch_names() -> list[str]:
    return [f.name for f in fields(Switches)]


def switch_info(name: str) -> dict[str, str]:
    """The fault, mechanism, experiments and reader documented on one flag."""
    return dict(next(f.metadata for f in fields(Switches) if f.name == name))


# -- a switch's value typed on a command line -----------------------------------------------
BOOLEAN_WORDS = {
    **dict.fromkeys(("true", "yes", "on", "1"), True),
    **dict.fromkeys(("false", "no", "off", "0"), False),
}


def _whole_number(word: str) -> int | None:
    return int(word) if word.lstrip("-").isdigit() else None


# The declared type of a flag -> how to read a word as that type (None: not one), what it accepts.
VALUE_READERS: dict[type, tuple[Callable[[str], Any], str]] = {
    bool: (BOOLEAN_WORDS.get, "true/false, yes/no, on/off or 1/0"),
    int: (_whole_number, "a whole number"),
}


def switch_type(name: str) -> type:
    """The type a flag is declared with (the annotations are strings: resolve them)."""
    return get_type_hints(Switches)[name]


class SwitchValueError(ValueError):
    """An unknown switch, or a value that does not fit its declared type: one readable line."""


def parse_switch_value(name: str, text: str) -> Any:
    """`text` as a value of the switch `name`, read strictly by the flag's declared type:
    a bool accepts true/false, yes/no, on/off, 1/0 in any case, and nothing else."""
    if name not in switch_names():
        known = ", ".join(switch_names())
        raise SwitchValueError(f"unknown switch {name!r}; known switches: {known}")
    declared = switch_type(name)
    if declared not in VALUE_READERS:
        return text  # a text-valued flag takes the word as it is
    read, accepted = VALUE_READERS[declared]
    value = read(text.strip().lower())
    if value is None:
        raise SwitchValueError(
            f"switch {name}: {text!r} is not a {declared.__name__}; use {accepted}"
        )
    return value
