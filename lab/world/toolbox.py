"""The course's five tools (bash, read_file, write_file, edit_file, glob) acting on a World.

Schemas are the course's exactly (s02). The file tools are handed a wall: `WorkspaceWall` is
the course's `safe_path` (s02), a path that resolves outside the workspace is refused; `NoWall`
is s03, where the file tools dropped `safe_path` and can reach anywhere on the (virtual) disk.
`sandbox=True` runs bash in production's sandbox: its commands may write only below the
workspace (the course has none).
"""

from __future__ import annotations

import copy
from collections.abc import Callable

from lab.kernel.tool import Tool, ToolError
from lab.world.shell_commands import is_read_only
from lab.world.world import World

OUTPUT_LIMIT = 50_000  # bash output is cut here, as in the course

# Virtual seconds each file tool costs, charged on every call (a refused call still took time).
# bash is charged by the shell instead: see shell.COMMAND_SECONDS.
TOOL_SECONDS: dict[str, float] = {
    "read_file": 1.0,
    "write_file": 1.0,
    "edit_file": 1.0,
    "glob": 0.5,
}


def _schema(required: list[str], **properties: str) -> dict:
    """An input schema: property name -> JSON type; `required` lists the mandatory ones."""
    return {
        "type": "object",
        "properties": {name: {"type": kind} for name, kind in properties.items()},
        "required": required,
    }


SCHEMAS: dict[str, dict] = {
    "bash": _schema(["command"], command="string"),
    "read_file": _schema(["path"], path="string", limit="integer"),
    "write_file": _schema(["path", "content"], path="string", content="string"),
    "edit_file": _schema(
        ["path", "old_text", "new_text"], path="string", old_text="string", new_text="string"
    ),
    "glob": _schema(["pattern"], pattern="string"),
}

DESCRIPTIONS: dict[str, str] = {
    "bash": "Run a shell command in the workspace.",
    "read_file": "Read a file's contents, optionally only the first `limit` lines.",
    "write_file": "Write content to a file, creating it if needed.",
    "edit_file": "Replace the first occurrence of old_text with new_text in a file.",
    "glob": "List files matching a glob pattern.",
}


def _always(**_: object) -> bool:
    return True


def _never(**_: object) -> bool:
    return False


class WorkspaceWall:
    """The course's `safe_path` (s02): the file tools reach only inside the workspace."""

    def __init__(self, world: World) -> None:
        self.world = world

    def escape(self, path: str) -> str | None:
        """Why `path` may not be touched (it resolves outside the workspace), or None."""
        return None if self.world.inside_workspace(path) else f"Path escapes workspace: {path}"

    def visible(self, matches: list[str]) -> list[str]:
        """Like the course: glob matches outside the workspace are silently dropped."""
        return [m for m in matches if self.world.inside_workspace(m)]


class NoWall:
    """The course's s03 (D7): the file tools dropped `safe_path` and reach the whole disk."""

    def escape(self, path: str) -> str | None:
        return None

    def visible(self, matches: list[str]) -> list[str]:
        return matches


Wall = WorkspaceWall | NoWall


def course_tools(world: World, *, wall: Wall | None = None, sandbox: bool = False) -> list[Tool]:
    """The five tools bound to `world`, in the course's order, behind `wall` (default: the
    workspace wall)."""
    wall = WorkspaceWall(world) if wall is None else wall

    def spend(tool: str) -> None:
        world.clock.advance(TOOL_SECONDS[tool])

    def locate(path: str) -> str:
        """The absolute virtual path for a tool argument; the wall refuses escapes."""
        if problem := wall.escape(path):
            raise ToolError(problem)
        return world.resolve(path)

    def missing_file(path: str) -> str | None:
        resolved = world.resolve(path)
        if world.fs.is_dir(resolved):
            return f"Is a directory: {path}"
        if not world.fs.is_file(resolved):
            return f"File not found: {path}"
        return None

    def edit_problem(path: str, old_text: str) -> str | None:
        if problem := missing_file(path):
            return problem
        if not old_text:
            return "old_text is empty"
        if old_text not in world.fs.read(world.resolve(path)):
            return f"old_text not found in {path}"
        return None

    # ---- handlers: parameter names equal the schema properties (the registry checks) ----
    def bash(command: str) -> str:
        result = world.run_shell(command, sandboxed=sandbox)
        output = result.output.strip()[:OUTPUT_LIMIT] or "(no output)"
        if result.status != 0:
            output += f"\n(exit status {result.status})"
        return output

    def read_file(path: str, limit: int | None = None) -> str:
        spend("read_file")
        resolved = locate(path)
        if limit is not None and limit < 0:
            raise ToolError(f"limit must not be negative (got {limit})")
        if problem := missing_file(path):
            raise ToolError(problem)
        lines = world.fs.read(resolved).splitlines()
        # as in the course, lines are rejoined with "\n" and limit 0 means "no limit"
        if limit and limit < len(lines):
            lines = lines[:limit] + [f"... ({len(lines) - limit} more lines)"]
        return "\n".join(lines)

    def write_file(path: str, content: str) -> str:
        spend("write_file")
        resolved = locate(path)
        try:
            world.fs.write(resolved, content)  # parent directories are created on the way
        except OSError as error:
            raise ToolError(str(error)) from None
        return f"Wrote {len(content)} bytes to {path}"  # characters, counted as the course does

    def edit_file(path: str, old_text: str, new_text: str) -> str:
        spend("edit_file")
        resolved = locate(path)
        if problem := edit_problem(path, old_text):
            raise ToolError(problem)
        text = world.fs.read(resolved)
        world.fs.write(resolved, text.replace(old_text, new_text, 1))
        return f"Edited {path}"

    def glob(pattern: str) -> str:
        spend("glob")
        matches = wall.visible(world.fs.glob(pattern, world.workspace))
        return "\n".join(matches) or "(no matches)"

    # ---- each tool's own check, and whether a call may run alongside others ----
    outside = wall.escape  # the wall is checked before any gate: nobody is asked about an escape

    checks: dict[str, Callable[..., str | None]] = {
        "read_file": lambda path, limit=None: outside(path) or missing_file(path),
        "write_file": lambda path, content: outside(path),
        "edit_file": lambda path, old_text, new_text: outside(path) or edit_problem(path, old_text),
    }
    concurrency: dict[str, Callable[..., bool]] = {
        "bash": lambda command: is_read_only(command),
        "read_file": _always,
        "write_file": _never,
        "edit_file": _never,
        "glob": _always,
    }
    handlers: dict[str, Callable[..., str]] = {
        "bash": bash,
        "read_file": read_file,
        "write_file": write_file,
        "edit_file": edit_file,
        "glob": glob,
    }
    return [
        Tool(
            name=name,
            description=DESCRIPTIONS[name],
            input_schema=copy.deepcopy(SCHEMAS[name]),  # each tool owns its schema
            handler=handler,
            check=checks.get(name),
            concurrency_safe=concurrency[name],
        )
        for name, handler in handlers.items()
    ]
