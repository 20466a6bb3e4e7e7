"""Hypothesis strategies for scripted conversations: shell commands, paths, tool calls, turns
and whole scripts, each drawn from lab/testing/pools.py's tables. Tool-call ids are left out
and filled in by the ScriptedModel (`toolu_001`, `toolu_002`, ...), so they are deterministic.
"""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st

from lab.model import Turn, text, tool_use, turn
from lab.testing.pools import (
    BROKEN_COMMANDS,
    COMPOUND_COMMANDS,
    CONTENTS,
    DANGEROUS_COMMANDS,
    EXISTING_PATHS,
    EXTRA_TOOL_CALLS,
    GLOB_PATTERNS,
    HARMLESS_COMMANDS,
    INSIDE_PATHS,
    INVALID_CALLS,
    NEW_TEXTS,
    OLD_TEXTS,
    OUTSIDE_PATHS,
    SEPARATORS,
    STOP_REASONS,
    TEXTS,
    UNKNOWN_CALLS,
    WRITING_COMMANDS,
)
from lab.testing.weighted import weighted


def _block(call: tuple[str, dict[str, Any]]) -> dict:
    name, input = call
    return tool_use(name, dict(input))


# ---- commands and paths --------------------------------------------------------------------
def simple_commands() -> st.SearchStrategy[str]:
    return st.sampled_from(
        HARMLESS_COMMANDS + WRITING_COMMANDS + DANGEROUS_COMMANDS + BROKEN_COMMANDS
    )


def compound_commands() -> st.SearchStrategy[str]:
    """A known compound, or two simple commands joined by && ; || | or a newline."""
    simple = simple_commands()
    joined = st.builds(lambda a, sep, b: a + sep + b, simple, st.sampled_from(SEPARATORS), simple)
    return weighted((1, st.sampled_from(COMPOUND_COMMANDS)), (1, joined))


def shell_commands() -> st.SearchStrategy[str]:
    """A command line: one simple command, or (a third of the time) a compound one."""
    return weighted((2, simple_commands()), (1, compound_commands()))


def paths(outside: int = 0) -> st.SearchStrategy[str]:
    """A path inside the workspace (relative, ./, absolute, missing, a directory) or outside;
    with `outside` n, an outside path is n times as likely as an inside one."""
    if outside:
        return weighted(
            (1, st.sampled_from(INSIDE_PATHS)), (outside, st.sampled_from(OUTSIDE_PATHS))
        )
    return st.sampled_from(INSIDE_PATHS + OUTSIDE_PATHS)


# ---- tool calls ----------------------------------------------------------------------------
def bash_calls(commands: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[dict]:
    commands = shell_commands() if commands is None else commands
    return st.builds(lambda c: tool_use("bash", {"command": c}), commands)


def read_calls() -> st.SearchStrategy[dict]:
    """Calls that only read, so they may share a parallel tray: reads of existing files,
    globs, read-only commands."""
    return st.one_of(
        st.builds(lambda p: tool_use("read_file", {"path": p}), st.sampled_from(EXISTING_PATHS)),
        st.builds(lambda c: tool_use("bash", {"command": c}), st.sampled_from(HARMLESS_COMMANDS)),
        st.builds(lambda g: tool_use("glob", {"pattern": g}), st.sampled_from(GLOB_PATTERNS)),
    )


def big_reads() -> st.SearchStrategy[dict]:
    """Reads of the file over the result cap: the read tool pages, the shell's output spills."""
    return st.sampled_from(
        [tool_use("read_file", {"path": "big.log"}), tool_use("bash", {"command": "cat big.log"})]
    )


def path_calls(outside: int = 0) -> st.SearchStrategy[dict]:
    """Well-formed calls of the four file tools, on any path (see `paths`)."""
    paths_ = paths(outside)
    return st.one_of(
        st.builds(lambda p: tool_use("read_file", {"path": p}), paths_),
        st.builds(
            lambda p, n: tool_use("read_file", {"path": p, "limit": n}),
            paths_,
            st.integers(-1, 2),
        ),
        st.builds(
            lambda p, c: tool_use("write_file", {"path": p, "content": c}),
            paths_,
            st.sampled_from(CONTENTS),
        ),
        st.builds(
            lambda p, o, n: tool_use("edit_file", {"path": p, "old_text": o, "new_text": n}),
            paths_,
            st.sampled_from(OLD_TEXTS),
            st.sampled_from(NEW_TEXTS),
        ),
        st.builds(lambda g: tool_use("glob", {"pattern": g}), st.sampled_from(GLOB_PATTERNS)),
    )


def valid_calls() -> st.SearchStrategy[dict]:
    """A well-formed call of one of the course's five tools, shell commands half the time."""
    return weighted((1, bash_calls()), (1, path_calls()))


def odd_calls() -> st.SearchStrategy[dict]:
    """A malformed call (missing field, wrong type, unknown field), an unknown tool name, or a
    call of one of the catalog's extra tools (one has a broken contract, one raises)."""
    return st.one_of(
        st.sampled_from(INVALID_CALLS).map(_block),
        st.sampled_from(UNKNOWN_CALLS).map(_block),
        st.sampled_from(EXTRA_TOOL_CALLS).map(_block),
    )


def tool_calls() -> st.SearchStrategy[dict]:
    """Any tool_use block, well-formed most of the time."""
    return weighted((3, bash_calls()), (3, path_calls()), (2, read_calls()), (1, odd_calls()))


# ---- turns and scripts ---------------------------------------------------------------------
def tool_turns(
    calls: st.SearchStrategy[dict] | None = None, max_calls: int = 4
) -> st.SearchStrategy[Turn]:
    """A turn with 1..max_calls tool calls, maybe a text first, and a declared stop_reason
    that agrees with the content (None) or not."""

    def build(lead: bool, blocks: list[dict], declared: str | None) -> Turn:
        return turn(*([text("Let me look.")] if lead else []), *blocks, stop_reason=declared)

    return st.builds(
        build,
        st.booleans(),
        st.lists(tool_calls() if calls is None else calls, min_size=1, max_size=max_calls),
        st.sampled_from(STOP_REASONS),
    )


def final_turns() -> st.SearchStrategy[Turn]:
    """A text-only turn; it may still *declare* tool_use (a stream that lies)."""
    return st.builds(
        lambda s, declared: turn(text(s), stop_reason=declared),
        st.sampled_from(TEXTS),
        st.sampled_from([None, "end_turn", "tool_use"]),
    )


def scripts(
    calls: st.SearchStrategy[dict] | None = None,
    *,
    min_turns: int = 1,
    max_turns: int = 4,
    max_calls: int = 4,
) -> st.SearchStrategy[tuple[Turn, ...]]:
    """A whole script: min_turns - 1 to max_turns - 1 tool turns, then a final text turn."""
    middle = st.lists(tool_turns(calls, max_calls), min_size=min_turns - 1, max_size=max_turns - 1)
    return st.builds(lambda turns, final: (*turns, final), middle, final_turns())
