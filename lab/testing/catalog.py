"""Named ingredients for generated scenarios: hooks, extra tools, human policies, files.

Everything a generated case uses lives here under a plain name, so a hunted counterexample
can be written out as an experiment file that simply imports what it needs.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from lab.harness.hooks import Hook
from lab.harness.tools import Tool, ToolError
from lab.world import World

# ---- files ---------------------------------------------------------------------------------
BIG_TEXT = "row\n" * 8_000  # 32,000 characters: over the 30,000-character result cap
BIG_SOURCE = '"row\\n" * 8_000'  # how an experiment file spells BIG_TEXT

FILES: dict[str, str] = {
    "notes.txt": "keep me\n",
    "src/app.py": "print('hi')\n",
    "big.log": BIG_TEXT,
}


# ---- the scripted human's policies (the answer does not depend on its position) ------------
def always_yes(question: str) -> str:
    """A human who approves every question."""
    return "y"


def always_no(question: str) -> str:
    """A human who refuses every question."""
    return "n"


POLICIES: dict[str, Callable[[str], str]] = {"always_yes": always_yes, "always_no": always_no}


# ---- hooks ---------------------------------------------------------------------------------
def audit_log(payload: dict[str, Any]) -> None:
    """Sees every call (an audit trail); returns nothing, so it never blocks."""
    return None


def deny_rm(payload: dict[str, Any]) -> dict[str, str] | None:
    """Denies shell commands that remove files."""
    if payload["tool_name"] == "bash" and "rm " in str(payload["tool_input"].get("command")):
        return {"permissionDecision": "deny", "permissionDecisionReason": "no removals"}
    return None


def ask_edits(payload: dict[str, Any]) -> dict[str, str] | None:
    """Asks the human before any file is written or edited."""
    if payload["tool_name"] in ("write_file", "edit_file"):
        return {"permissionDecision": "ask", "permissionDecisionReason": "edits need a look"}
    return None


def auto_approve(payload: dict[str, Any]) -> dict[str, str]:
    """A convenience hook that approves every call (it may only tighten, never loosen)."""
    return {"permissionDecision": "allow", "permissionDecisionReason": "trusted session"}


def block_shell(payload: dict[str, Any]) -> str | None:
    """Blocks every shell command with a plain string, the course's way."""
    return "no shell today" if payload["tool_name"] == "bash" else None


def broken_hook(payload: dict[str, Any]) -> None:
    """A hook with a bug: it raises; the harness must contain it."""
    raise RuntimeError("hook bug")


def note_output(payload: dict[str, Any]) -> str:
    """Returns a note about every result (production ignores it; the course short-circuits)."""
    return "noted"


def metrics_recorder(payload: dict[str, Any]) -> None:
    """Counts every executed call for a dashboard."""
    return None


def failure_logger(payload: dict[str, Any]) -> None:
    """Logs every failed call."""
    return None


def style_guide(payload: dict[str, Any]) -> str:
    """Injects the team's conventions as context for the model."""
    return "Team convention: answers cite the file they come from."


def prompt_logger(payload: dict[str, Any]) -> None:
    """Logs the prompt; adds nothing."""
    return None


def double_check(payload: dict[str, Any]) -> dict[str, str] | None:
    """Asks for one more pass, relying on the harness's stop_hook_active flag to stop."""
    if payload.get("stop_hook_active"):
        return None
    return {"decision": "block", "reason": "Double-check your answer before stopping."}


def never_done(payload: dict[str, Any]) -> dict[str, str]:
    """Blocks every stop: only the harness's cap ends the run."""
    return {"decision": "block", "reason": "Keep going."}


@dataclass(frozen=True)
class HookEntry:
    event: str
    hook: Hook


HOOKS: dict[str, HookEntry] = {
    hook.__name__: HookEntry(event, hook)
    for event, hook in [
        ("PreToolUse", audit_log),
        ("PreToolUse", deny_rm),
        ("PreToolUse", ask_edits),
        ("PreToolUse", auto_approve),
        ("PreToolUse", block_shell),
        ("PreToolUse", broken_hook),
        ("PostToolUse", note_output),
        ("PostToolUse", metrics_recorder),
        ("PostToolUseFailure", failure_logger),
        ("UserPromptSubmit", style_guide),
        ("UserPromptSubmit", prompt_logger),
        ("Stop", double_check),
        ("Stop", never_done),
    ]
}


def hooks(*names: str) -> list[tuple[str, Hook]]:
    """(event, callback) pairs for Scenario.hooks, by catalog name."""
    return [(HOOKS[name].event, HOOKS[name].hook) for name in names]


# ---- extra tools ---------------------------------------------------------------------------
def _path_schema(name: str) -> dict[str, Any]:
    return {"type": "object", "properties": {name: {"type": "string"}}, "required": [name]}


def word_count(world: World) -> Tool:
    """D8's tool: the schema says `file_path` while the handler takes `path` (broken contract)."""

    def word_count(path: str) -> str:
        return str(len(world.fs.read(world.resolve(path)).split()))

    return Tool("word_count", "Count the words in a file.", _path_schema("file_path"), word_count)


def line_count(world: World) -> Tool:
    """A well-made read-only tool: schema and handler agree, and it may run in parallel."""

    def line_count(path: str) -> str:
        try:
            return str(len(world.fs.read(world.resolve(path)).splitlines()))
        except OSError as error:
            raise ToolError(str(error)) from None

    return Tool(
        "line_count",
        "Count the lines in a file.",
        _path_schema("path"),
        line_count,
        concurrency_safe=lambda **_: True,
    )


def explode(world: World) -> Tool:
    """A tool with a bug: its handler raises; the failure must become an is_error result."""

    def explode() -> str:
        raise ValueError("tool bug")

    schema = {"type": "object", "properties": {}, "required": []}
    return Tool("explode", "Always fails.", schema, explode)


def clean_workspace(world: World) -> Tool:
    """D21's tool: removes every file under `path` except those under a `keep` entry; with
    `dry_run` it only lists them. Its safety lives in its input: cut the flag off and the
    preview becomes the real thing."""

    def clean_workspace(path: str, keep: list[str], dry_run: bool = False) -> str:
        root = world.resolve(path)
        if not world.inside_workspace(root):
            raise ToolError(f"{path} is outside the workspace")
        kept = [world.resolve(f"{root}/{entry}") for entry in keep]

        def under(file: str, folder: str) -> bool:
            return file == folder or file.startswith(folder.rstrip("/") + "/")

        doomed = [
            file
            for file in world.fs.files()
            if under(file, root) and not any(under(file, k) for k in kept)
        ]
        if not dry_run:
            for file in doomed:
                world.fs.remove(file)
        verb = "would remove" if dry_run else "removed"
        return f"{verb} {len(doomed)} files: {', '.join(doomed) or '(none)'}"

    schema = {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "keep": {"type": "array", "items": {"type": "string"}},
            "dry_run": {"type": "boolean"},
        },
        "required": ["path", "keep"],
    }
    return Tool(
        "clean_workspace",
        "Remove every file under path except those under the keep entries; dry_run lists them.",
        schema,
        clean_workspace,
    )


TOOLS: dict[str, Callable[[World], Tool]] = {  # the extra tools generated cases may register
    "word_count": word_count,
    "line_count": line_count,
    "explode": explode,
}
EXPERIMENT_TOOLS: dict[str, Callable[[World], Tool]] = {  # hand-written experiments only
    "clean_workspace": clean_workspace,
}


def extra_tools(*names: str) -> Callable[[World], list[Tool]]:
    """A Scenario.tools factory for catalog tools, by name."""
    known = {**TOOLS, **EXPERIMENT_TOOLS}

    def make(world: World) -> list[Tool]:
        return [known[name](world) for name in names]

    return make
