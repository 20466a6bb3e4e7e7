"""The course's five tools over a simulated World: schemas, behaviour, the wall, checks, time."""

from __future__ import annotations

import ast
import builtins
import os
import subprocess
from pathlib import Path

import pytest

import lab.world
from lab.harness.tools import Tool, ToolError, ToolRegistry, contract_mismatch
from lab.world import TOOL_SECONDS, NoWall, WorkspaceWall, World, course_tools

# The course's s02 schemas, written out by hand so a drift in ours shows up here.
COURSE_SCHEMAS = {
    "bash": {
        "type": "object",
        "properties": {"command": {"type": "string"}},
        "required": ["command"],
    },
    "read_file": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "limit": {"type": "integer"}},
        "required": ["path"],
    },
    "write_file": {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"],
    },
    "edit_file": {
        "type": "object",
        "properties": {
            "path": {"type": "string"},
            "old_text": {"type": "string"},
            "new_text": {"type": "string"},
        },
        "required": ["path", "old_text", "new_text"],
    },
    "glob": {
        "type": "object",
        "properties": {"pattern": {"type": "string"}},
        "required": ["pattern"],
    },
}

NOTES = "line 1\nline 2\nline 3\nline 4\nline 5\n"


@pytest.fixture
def world() -> World:
    return World.create({"notes.txt": NOTES, "src/app.py": "x = 1\nx = 1\n"})


def wall_of(world: World, wall: bool) -> WorkspaceWall | NoWall:
    return WorkspaceWall(world) if wall else NoWall()


def tools_of(world: World, wall: bool = True) -> dict[str, Tool]:
    return {tool.name: tool for tool in course_tools(world, wall=wall_of(world, wall))}


def call(world: World, name: str, wall: bool = True, **arguments: object) -> str:
    return tools_of(world, wall)[name].handler(**arguments)


# ---- schemas and the registry ------------------------------------------------------------
def test_the_five_tools_register_with_the_course_schemas(world: World) -> None:
    registry = ToolRegistry(course_tools(world))  # raises if a handler disagrees with its schema
    assert registry.names() == ["bash", "read_file", "write_file", "edit_file", "glob"]
    for spec in registry.to_api():
        assert spec["input_schema"] == COURSE_SCHEMAS[spec["name"]]
        assert 0 < len(spec["description"]) <= 80


@pytest.mark.parametrize("wall", [True, False])
def test_handler_parameters_equal_schema_properties(world: World, wall: bool) -> None:
    for tool in course_tools(world, wall=wall_of(world, wall)):
        assert contract_mismatch(tool) is None
        params = tool.handler.__code__.co_varnames[: tool.handler.__code__.co_argcount]
        assert list(params) == list(tool.input_schema["properties"])


def test_tools_do_not_share_schema_objects(world: World) -> None:
    first, second = course_tools(world), course_tools(world)
    first[0].input_schema["properties"]["command"]["type"] = "number"
    assert second[0].input_schema == COURSE_SCHEMAS["bash"]


# ---- bash --------------------------------------------------------------------------------
def test_bash_runs_the_simulated_shell(world: World) -> None:
    assert call(world, "bash", command="ls") == "notes.txt\nsrc"  # stripped, like the course
    assert call(world, "bash", command="echo hi > new.txt") == "(no output)"
    assert world.fs.read("/workspace/new.txt") == "hi\n"


def test_bash_reports_non_zero_status(world: World) -> None:
    assert call(world, "bash", command="cat nope") == (
        "cat: nope: No such file or directory\n(exit status 1)"
    )
    assert call(world, "bash", command="false") == "(no output)\n(exit status 1)"
    assert call(world, "bash", command="nope").endswith("command not found\n(exit status 127)")
    assert call(world, "bash", command="echo 'x").endswith("(exit status 2)")


def test_bash_output_is_cut_at_50000_chars(world: World) -> None:
    world.fs.write("/workspace/big.txt", "y" * 60_000)
    assert call(world, "bash", command="cat big.txt") == "y" * 50_000


def test_bash_rm_rf_root_wipes_only_the_virtual_disk(world: World) -> None:
    assert call(world, "bash", command="rm -rf /") == "(no output)"
    assert world.fs.file_count == 0


# ---- read_file ---------------------------------------------------------------------------
def test_read_file(world: World) -> None:
    assert call(world, "read_file", path="notes.txt") == NOTES.rstrip("\n")
    assert call(world, "read_file", path="/workspace/src/app.py") == "x = 1\nx = 1"
    assert (
        call(world, "read_file", path="notes.txt", limit=2) == "line 1\nline 2\n... (3 more lines)"
    )
    assert call(world, "read_file", path="notes.txt", limit=5) == NOTES.rstrip("\n")
    assert call(world, "read_file", path="notes.txt", limit=0) == NOTES.rstrip(
        "\n"
    )  # as the course


@pytest.mark.parametrize(
    ("path", "message"),
    [("missing.txt", "File not found: missing.txt"), ("src", "Is a directory: src")],
)
def test_read_file_failures_raise_tool_error(world: World, path: str, message: str) -> None:
    with pytest.raises(ToolError, match=message):
        call(world, "read_file", path=path)


# ---- write_file and edit_file ------------------------------------------------------------
def test_write_file(world: World) -> None:
    assert call(world, "write_file", path="a/b/new.txt", content="héllo") == (
        "Wrote 5 bytes to a/b/new.txt"
    )
    assert world.fs.read("/workspace/a/b/new.txt") == "héllo"
    call(world, "write_file", path="notes.txt", content="replaced")
    assert world.fs.read("/workspace/notes.txt") == "replaced"
    with pytest.raises(ToolError, match="Is a directory"):
        call(world, "write_file", path="src", content="x")


def test_edit_file_replaces_the_first_occurrence_only(world: World) -> None:
    assert call(world, "edit_file", path="src/app.py", old_text="x = 1", new_text="x = 2") == (
        "Edited src/app.py"
    )
    assert world.fs.read("/workspace/src/app.py") == "x = 2\nx = 1\n"


def test_edit_file_failures(world: World) -> None:
    with pytest.raises(ToolError, match="File not found: nope.py"):
        call(world, "edit_file", path="nope.py", old_text="a", new_text="b")
    with pytest.raises(ToolError, match="old_text not found in src/app.py"):
        call(world, "edit_file", path="src/app.py", old_text="y = 3", new_text="b")
    assert world.fs.read("/workspace/src/app.py") == "x = 1\nx = 1\n"


# ---- glob --------------------------------------------------------------------------------
def test_glob(world: World) -> None:
    world.fs.write("/workspace/src/deep/b.py", "")
    assert call(world, "glob", pattern="**/*.py") == "src/app.py\nsrc/deep/b.py"
    assert call(world, "glob", pattern="*.txt") == "notes.txt"
    assert call(world, "glob", pattern="*.rs") == "(no matches)"


def test_glob_wall_drops_matches_outside_the_workspace(world: World) -> None:
    assert call(world, "glob", pattern="../etc/*") == "(no matches)"
    assert call(world, "glob", pattern="/etc/pass*") == "(no matches)"
    assert call(world, "glob", wall=False, pattern="../etc/*") == "../etc/hosts\n../etc/passwd"
    assert call(world, "glob", wall=False, pattern="/etc/pass*") == "/etc/passwd"


# ---- the workspace wall ------------------------------------------------------------------
OUTSIDE_PATHS = ["/etc/passwd", "../etc/passwd", "src/../../etc/passwd"]


@pytest.mark.parametrize("path", OUTSIDE_PATHS)
def test_wall_on_refuses_every_file_tool_outside(world: World, path: str) -> None:
    before = world.snapshot()
    for name, arguments in [
        ("read_file", {"path": path}),
        ("write_file", {"path": path, "content": "pwned"}),
        ("edit_file", {"path": path, "old_text": "root", "new_text": "toor"}),
    ]:
        with pytest.raises(ToolError, match=f"^Path escapes workspace: {path}$"):
            call(world, name, **arguments)
    assert world.snapshot() == before


@pytest.mark.parametrize("path", OUTSIDE_PATHS)
def test_wall_off_reaches_the_virtual_system_files(world: World, path: str) -> None:
    assert call(world, "read_file", wall=False, path=path).startswith("root:x:0:0")
    assert call(world, "edit_file", wall=False, path=path, old_text="root", new_text="toor") == (
        f"Edited {path}"
    )
    assert world.fs.read("/etc/passwd").startswith("toor:x:0:0")
    call(world, "write_file", wall=False, path=path, content="pwned")
    assert world.fs.read("/etc/passwd") == "pwned"


def test_wall_lets_inside_paths_through(world: World) -> None:
    assert call(world, "read_file", path="/workspace/notes.txt", limit=1).startswith("line 1")
    assert call(world, "read_file", path="src/../notes.txt", limit=1).startswith("line 1")


# ---- checks and concurrency --------------------------------------------------------------
def test_checks(world: World) -> None:
    tools = tools_of(world)
    assert tools["read_file"].check(path="notes.txt") is None
    assert tools["read_file"].check(path="nope.txt", limit=3) == "File not found: nope.txt"
    edit = tools["edit_file"].check
    assert edit(path="src/app.py", old_text="x = 1", new_text="y") is None
    assert edit(path="nope.py", old_text="a", new_text="b") == "File not found: nope.py"
    assert edit(path="src/app.py", old_text="zzz", new_text="b") == (
        "old_text not found in src/app.py"
    )
    assert all(tools[name].check is None for name in ["bash", "glob"])
    # The wall is part of each file tool's own check, so it runs before any permission gate.
    assert tools["write_file"].check(path="/etc/passwd", content="x") == (
        "Path escapes workspace: /etc/passwd"
    )
    assert tools["read_file"].check(path="../etc/hosts") == "Path escapes workspace: ../etc/hosts"
    assert tools["write_file"].check(path="new.txt", content="x") is None
    unwalled = tools_of(world, wall=False)
    assert unwalled["read_file"].check(path="/etc/passwd") is None
    assert world.clock.now == 0.0  # checks cost no time and change nothing


@pytest.mark.parametrize(
    ("name", "arguments", "safe"),
    [
        ("read_file", {"path": "notes.txt"}, True),
        ("read_file", {"path": "notes.txt", "limit": 2}, True),
        ("glob", {"pattern": "**/*"}, True),
        ("bash", {"command": "ls -la && cat notes.txt | grep line"}, True),
        ("bash", {"command": "echo hi > out.txt"}, False),
        ("bash", {"command": "ls && rm -rf /"}, False),
        ("write_file", {"path": "a.txt", "content": ""}, False),
        ("edit_file", {"path": "a.txt", "old_text": "a", "new_text": "b"}, False),
    ],
)
def test_concurrency_safe_per_input(world: World, name: str, arguments: dict, safe: bool) -> None:
    assert tools_of(world)[name].concurrency_safe(**arguments) is safe


# ---- virtual time ------------------------------------------------------------------------
def test_tools_advance_the_clock_by_their_declared_seconds(world: World) -> None:
    assert TOOL_SECONDS == {"read_file": 1.0, "write_file": 1.0, "edit_file": 1.0, "glob": 0.5}
    call(world, "read_file", path="notes.txt")
    call(world, "write_file", path="a.txt", content="a")
    call(world, "edit_file", path="a.txt", old_text="a", new_text="b")
    call(world, "glob", pattern="*")
    assert world.clock.now == 3.5
    call(world, "bash", command="ls; sleep 10")  # bash is charged by the shell: 1 s + 10 s
    assert world.clock.now == 14.5
    with pytest.raises(ToolError):
        call(world, "read_file", path="missing.txt")
    assert world.clock.now == 15.5  # a failed call still took its time


# ---- nothing touches the host ------------------------------------------------------------
def _forbidden(*args: object, **kwargs: object) -> None:
    raise AssertionError("the simulated world touched the host")


def test_nothing_touches_the_host(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(subprocess, "Popen", _forbidden)
    monkeypatch.setattr(os, "system", _forbidden)
    monkeypatch.setattr(builtins, "open", _forbidden)
    commands = [
        "ls -la /",
        "cat /etc/passwd | grep root | wc -l",
        "echo hi > out.txt && cat out.txt >> log.txt",
        "mkdir -p a/b && touch a/b/c && ls a/b",
        "grep -rn line . 2>&1 | head -n 2",
        "head -n 1 notes.txt; tail -n 1 notes.txt",
        "cd src && pwd",
        "sleep 3",
        "python3 -c 'import os'",
        "echo 'unbalanced",
        "rm -rf ./src notes.txt",
        "rm -rf /",
    ]
    tools = tools_of(world, wall=False)
    for command in commands:
        tools["bash"].handler(command=command)
    assert world.fs.file_count == 0
    tools["write_file"].handler(path="/etc/passwd", content="root\n")
    tools["edit_file"].handler(path="/etc/passwd", old_text="root", new_text="toor")
    assert tools["read_file"].handler(path="../etc/passwd", limit=1) == "toor"
    assert tools["glob"].handler(pattern="/etc/*") == "/etc/passwd"
    assert world.clock.now > 0


FORBIDDEN_MODULES = {"subprocess", "os", "shutil", "pathlib", "io", "socket", "tempfile"}
WORLD_MODULES = sorted(Path(lab.world.__file__).parent.glob("*.py"))


def test_world_has_the_expected_modules() -> None:
    names = {module.name for module in WORLD_MODULES}
    assert {"__init__.py", "fs.py", "shell.py", "world.py", "toolbox.py"} <= names


@pytest.mark.parametrize("module", WORLD_MODULES, ids=lambda path: path.name)
def test_world_source_imports_nothing_that_reaches_the_host(module: Path) -> None:
    tree = ast.parse(module.read_text())
    imported = {
        alias.name.split(".")[0]
        for n in ast.walk(tree)
        if isinstance(n, ast.Import)
        for alias in n.names
    }
    imported |= {
        n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module
    }
    assert not imported & FORBIDDEN_MODULES
    calls = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    assert not calls & {"open", "exec", "eval", "__import__"}
