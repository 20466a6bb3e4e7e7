"""The layout shows the architecture: modules in packages named for what they are, each module's
base name its own, none over 600 lines, and `lab` itself a small face over the names most readers
use, loaded lazily."""

from __future__ import annotations

import ast
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import lab

ROOT = Path(lab.__file__).parent
MAX_LINES = 600
# The modules that stay at the top of lab/: the face, `python -m lab`, the console script's entry
# (pyproject's `lab = "lab.start:main"`) and the PEP 562 helper the face uses.
TOP = {"__init__.py", "__main__.py", "start.py", "lazy.py"}


def modules() -> list[Path]:
    return sorted(ROOT.rglob("*.py"))


def test_no_module_is_over_600_lines() -> None:
    lines = {path: len(path.read_text(encoding="utf-8").splitlines()) for path in modules()}
    too_long = [
        f"{p.relative_to(ROOT.parent)}: {n} lines" for p, n in lines.items() if n > MAX_LINES
    ]
    assert too_long == []
    assert max(lines.values()) > 100  # the count sees the modules at all


def test_every_module_path_is_unique_by_its_base_name() -> None:
    where: dict[str, list[str]] = defaultdict(list)
    for path in modules():
        if path.name != "__init__.py":
            where[path.name].append(str(path.relative_to(ROOT.parent)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}
    assert len(where) > 100


def test_lab_has_no_loose_module_but_its_face_and_entry() -> None:
    loose = sorted(path.name for path in ROOT.glob("*.py"))
    assert [name for name in loose if name not in TOP] == []
    assert set(loose) == TOP  # and each one kept at the top is there


def face_imports() -> dict[str, str]:
    """name -> module, as lab/__init__.py's `if TYPE_CHECKING:` block imports it."""
    tree = ast.parse((ROOT / "__init__.py").read_text(encoding="utf-8"))
    found: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                found.update({alias.name: statement.module for alias in statement.names})
    return found


def test_the_face_declares_what_it_loads_and_each_name_is_where_it_is_defined() -> None:
    declared = face_imports()
    table = {name: module for module, names in lab.MODULES.items() for name in names}
    assert declared == table
    assert sorted(lab.__all__) == sorted(table)
    assert 6 <= len(lab.__all__) <= 12  # a handful, not the whole package
    for name, module in table.items():
        value = getattr(lab, name)
        assert getattr(value, "__module__", module) == module, f"lab.{name} is not {module}.{name}"


def test_import_lab_loads_none_of_the_names_it_exports() -> None:
    code = "import sys, lab; print(sorted(m for m in sys.modules if m.startswith('lab')))"
    loaded = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT.parent
    ).stdout
    assert loaded.strip() == "['lab', 'lab.lazy']"


def test_the_face_example_breaks_one_guarantee() -> None:
    """The docstring's example, run: the reference harness runs the ls, a trusting loop drops it."""
    from lab import Scenario, Switches, run, text, tool_use, turn
    from lab.kernel.observables import tool_calls_dropped, tool_calls_executed

    script = [turn(tool_use("bash", {"command": "ls"}), stop_reason="end_turn"), turn(text("ok"))]
    before = run(Scenario(script), Switches())
    after = run(Scenario(script), Switches(trust_stop_reason=True))
    assert (tool_calls_executed(before), tool_calls_dropped(before)) == (1, 0)
    assert (tool_calls_executed(after), tool_calls_dropped(after)) == (0, 1)
    assert "Switches(trust_stop_reason=True)" in lab.__doc__  # the test runs what the face shows
