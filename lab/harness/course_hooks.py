"""The course's s04 sockets as the chapter counts them: four events, five callbacks.

「教学版四个事件、五个回调」 (seed §7). The course registers, in this order:
UserPromptSubmit: context_inject_hook · PreToolUse: permission_hook, then log_hook ·
PostToolUse: large_output_hook · Stop: summary_hook. permission_hook is the gates wrapped as a
callback, plugged in by the course's hook semantics (lab/harness/hooks.py); the other four are
modelled here and belong to the course preset, like its rules (`lab compare course`, `lab parts
--preset course`): an experiment that flips course_hook_semantics alone brings hooks of its own.
In the course they print a line and return None: what the loop sees of them is that they ran,
and that a call permission_hook blocks never reaches log_hook (D12).
"""

from __future__ import annotations

from typing import Any

# The course's HOOKS dict has these four keys and no other (production has six and more).
COURSE_EVENTS = ("UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop")
LARGE_OUTPUT = 100_000  # characters above which large_output_hook warns


def context_inject_hook(payload: dict[str, Any]) -> None:
    """Documented as "inject context"; it prints a line and returns nothing (D14)."""
    return None


def log_hook(payload: dict[str, Any]) -> None:
    """The audit log: prints the call it sees; registered after permission_hook (D12)."""
    return None


def large_output_hook(payload: dict[str, Any]) -> None:
    """Prints a warning for an output above LARGE_OUTPUT characters; returns nothing."""
    return None


def summary_hook(payload: dict[str, Any]) -> None:
    """Prints a summary when the loop would stop; returns nothing, so the loop stops."""
    return None


Hooks = tuple[tuple[str, Any], ...]  # (event, callback) pairs, in registration order

# The four callbacks besides permission_hook, in registration order, by event.
COURSE_CALLBACKS: Hooks = (
    ("UserPromptSubmit", context_inject_hook),
    ("PreToolUse", log_hook),
    ("PostToolUse", large_output_hook),
    ("Stop", summary_hook),
)
