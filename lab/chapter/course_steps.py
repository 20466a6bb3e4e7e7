"""The course's loop as its first four chapters grow it (s01 → s04), runnable on the virtual world.

The loop (`run_course`) is the same in every chapter: ask the model, append its answer, run
each tool_use, send the results back as one user message, stop when the answer holds no
tool_use. What the chapters change is the one line that runs a call, a chapter's step:

  s01  `run_bash(block.input["command"])`: every call is a shell command (run_bash's own
       few refusals aside), whatever the model asks;
  s02  the name looked up in the dispatch table: `handler(**block.input)`, or "Unknown: <name>";
  s03  `check_permission(block)` in front of the table, a line of the loop body: the deny list
       (bash only), two rules that ask the human, "Permission denied." for a refused call;
  s04  the same check as the first PreToolUse callback, `trigger_hooks("PreToolUse", block)`:
       the loop names no check any more, and log_hook, registered after it, never sees a
       call it blocked (D12).

A small model of the course at the pinned commit, written from its facts
(lab/chapter/course_rules.py, lab/harness/course_hooks.py), for notebooks 01, 02 and 05; the
reference harness is lab/harness. The tools act on a `World`, a virtual disk and a simulated shell,
never the host.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lab.chapter import course_rules
from lab.kernel.tool import Tool, ToolError
from lab.model import Step, scripted_client
from lab.world import NoWall, WorkspaceWall, World, course_tools

# s01's and s02's run_bash refuses a command holding one of these, and runs anything else
# (s03 moved the refusals into its deny list).
RUN_BASH_REFUSES = ("rm -rf /", "sudo", "shutdown", "reboot", "> /dev/")
OUTPUT_LIMIT = 50_000  # characters of a result the course keeps


@dataclass
class Desk:
    """What a chapter's step works with: the world, the dispatch table, the human's answers
    (y/N questions, in order; out of answers means no) and the audit log (s04's log_hook)."""

    world: World
    handlers: dict[str, Callable[..., str]]
    human: list[str]
    asked: list[str] = field(default_factory=list)
    log: list[str] = field(default_factory=list)


def run_bash(desk: Desk, command: str) -> str:
    """s01's run_bash: its own few refusals, then the shell (simulated, unsandboxed)."""
    if any(refused in command for refused in RUN_BASH_REFUSES):
        return "Error: Dangerous command blocked"
    return desk.world.run_shell(command).output.strip()[:OUTPUT_LIMIT] or "(no output)"


# -- s01 and s02: one line runs the call -----------------------------------------------------
def s01_step(desk: Desk, block: Any) -> str:
    return run_bash(desk, block.input["command"])


def s02_step(desk: Desk, block: Any) -> str:
    handler = desk.handlers.get(block.name)
    return handler(**block.input) if handler else f"Unknown: {block.name}"


# -- s03: the permission call, a line of the loop body ---------------------------------------
def rule_reason(desk: Desk, block: Any) -> str | None:
    """s03's two rules: a file tool's path outside the workspace, or a destructive command."""
    path = block.input.get("path")
    outside = isinstance(path, str) and not desk.world.inside_workspace(path)
    if block.name in course_rules.OUTSIDE_TOOLS and outside:
        return course_rules.OUTSIDE
    command = str(block.input.get("command", ""))
    if block.name == "bash" and any(t in command for t in course_rules.DESTRUCTIVE_TEXTS):
        return course_rules.DESTRUCTIVE
    return None


def ask_user(desk: Desk, question: str) -> bool:
    answer = desk.human[len(desk.asked)] if len(desk.asked) < len(desk.human) else "n"
    desk.asked.append(f"{question} Allow? [y/N] {answer}")
    return answer.strip().lower() in ("y", "yes")


def denied_by(desk: Desk, block: Any) -> str | None:
    """Why s03's three gates refuse the call ("deny list", "user"), or None: it may run."""
    command = str(block.input.get("command", ""))
    if block.name == "bash" and any(d in command for d in course_rules.DENY_LIST):
        return "deny list"
    reason = rule_reason(desk, block)
    if reason and not ask_user(desk, f"{reason}: {block.name} {json.dumps(block.input)}"):
        return "user"
    return None


def check_permission(desk: Desk, block: Any) -> bool:
    return denied_by(desk, block) is None


def s03_step(desk: Desk, block: Any) -> str:
    if not check_permission(desk, block):
        return course_rules.DENIAL
    return s02_step(desk, block)


# -- s04: the same check as a hook -------------------------------------------------------------
def permission_hook(desk: Desk, block: Any) -> str | None:
    """s03's check_permission as a PreToolUse callback: a refusal is its result."""
    why = denied_by(desk, block)
    return None if why is None else f"Permission denied by {why}"


def log_hook(desk: Desk, block: Any) -> None:
    """The audit log: one line per call it sees."""
    desk.log.append(f"{block.name} {json.dumps(block.input)}")


PRE_TOOL_USE: tuple[Callable[[Desk, Any], str | None], ...] = (permission_hook, log_hook)


def trigger_hooks(desk: Desk, event: str, block: Any) -> str | None:
    """The callbacks in registration order; the first non-None result wins (short-circuit)."""
    for callback in {"PreToolUse": PRE_TOOL_USE}[event]:
        result = callback(desk, block)
        if result is not None:
            return result
    return None


def s04_step(desk: Desk, block: Any) -> str:
    blocked = trigger_hooks(desk, "PreToolUse", block)
    if blocked:
        return blocked
    return s02_step(desk, block)


# The chapter -> its step, and the tools it offers the model (s01: bash alone).
STEPS: dict[str, Callable[[Desk, Any], str]] = {
    "s01": s01_step,
    "s02": s02_step,
    "s03": s03_step,
    "s04": s04_step,
}


def chapter_tools(chapter: str, world: World) -> list[Tool]:
    """s01 offers bash alone; s02 the five tools behind safe_path; s03 and s04 dropped it."""
    wall = WorkspaceWall(world) if chapter in ("s01", "s02") else NoWall()
    tools = course_tools(world, wall=wall)
    return [t for t in tools if t.name == "bash"] if chapter == "s01" else tools


def course_handler(tool: Tool) -> Callable[..., str]:
    """The tool's handler as the course writes its handlers: a tool's own error becomes an
    "Error: ..." string; a keyword the handler does not take still raises (D8)."""

    def handler(**arguments: Any) -> str:
        try:
            return tool.handler(**arguments)
        except ToolError as error:
            return f"Error: {error}"

    return handler


def dispatch_table(chapter: str, tools: list[Tool], desk: Desk) -> dict[str, Callable[..., str]]:
    """Each tool's name -> its handler; in s01 and s02 bash is run_bash, with its refusals."""
    table = {tool.name: course_handler(tool) for tool in tools}
    if chapter in ("s01", "s02"):
        table["bash"] = lambda command: run_bash(desk, command)
    return table


@dataclass
class CourseRun:
    """What a run of a chapter's loop left: every call with its result, the history, the
    questions put to the human, the audit log, the world and the files it lost."""

    chapter: str
    calls: list[tuple[str, dict[str, Any], str]]
    messages: list[dict[str, Any]]
    asked: list[str]
    log: list[str]
    world: World
    lost: list[str]


def run_course(
    chapter: str,
    script: Sequence[Step],
    world: World,
    *,
    prompt: str = "Please help with the files in the workspace.",
    human: Sequence[str] = (),
    max_turns: int = 12,
) -> CourseRun:
    """Run the chapter's loop against the scripted fake API (the real SDK in front of it)."""
    client, _ = scripted_client(script)
    tools = chapter_tools(chapter, world)
    desk = Desk(world, {}, list(human))
    desk.handlers = dispatch_table(chapter, tools, desk)
    step = STEPS[chapter]
    before = world.snapshot()
    messages: list[dict[str, Any]] = [{"role": "user", "content": prompt}]
    calls: list[tuple[str, dict[str, Any], str]] = []
    for _ in range(max_turns):
        request: dict[str, Any] = {
            "model": "claude-lab-1",
            "max_tokens": 8000,
            "messages": messages,
            "tools": [t.to_api() for t in tools],
        }
        response = client.messages.create(**request)
        content = [b.model_dump(mode="json", exclude_none=True) for b in response.content]
        messages.append({"role": "assistant", "content": content})
        blocks = [b for b in response.content if b.type == "tool_use"]
        if not blocks:
            break
        results = []
        for block in blocks:
            output = step(desk, block)
            calls.append((block.name, dict(block.input), output))
            results.append({"type": "tool_result", "tool_use_id": block.id, "content": output})
        messages.append({"role": "user", "content": results})
    lost = sorted(set(before) - set(world.snapshot()))
    return CourseRun(chapter, calls, messages, desk.asked, desk.log, world, lost)
