"""The public API's edges: each module's `__all__` names things that exist, and nothing private;
the lazy faces declare for the type checker what they load at run time; the README lists it."""

from __future__ import annotations

import ast
import importlib
import inspect
import re
from pathlib import Path

import pytest

import lab

ROOT = Path(lab.__file__).parent
README = ROOT.parent / "README.md"

PUBLIC = [
    "lab.chapter.experiment",
    "lab.kernel.scenario",
    "lab.harness.permissions",
    "lab.kernel.switches",
    "lab.model.script",
    "lab.model",
    "lab.testing",
    "lab.testing.wire",
    "lab.probe.wire_promises",
    "lab.probe.target",
    "lab.probe.peers.program",
    "lab.kernel.tool",
    "lab.world",
    "lab.notebook",
]


@pytest.mark.parametrize("name", PUBLIC)
def test_every_exported_name_exists_and_is_public(name: str) -> None:
    module = importlib.import_module(name)
    exported = module.__all__
    assert exported and len(set(exported)) == len(exported)
    for item in exported:
        assert not item.startswith("_"), f"{name} exports private {item}"
        assert getattr(module, item) is not None, f"{name}.{item}"


def test_the_wire_api_in_the_readme_is_exported() -> None:
    wire = importlib.import_module("lab.testing.wire")
    for item in ["run_wire", "assert_wire", "wire_problems", "WireRun", "WIRE_INVARIANTS"]:
        assert item in wire.__all__


# The students' own DSL: where each name is defined.
DSL = {
    "lab.chapter.experiment": ["Experiment"],
    "lab.kernel.scenario": ["Scenario", "Setup"],
    "lab.harness.permissions": ["Permissions", "course_permissions"],
    "lab.kernel.switches": ["Switches"],
    "lab.model.script": [
        *("turn", "text", "tool_use", "rate_limited", "overloaded", "server_error"),
        *("stream_error", "stream_dropped", "cut_off", "Turn", "ApiError", "Step"),
    ],
}


@pytest.mark.parametrize("name", sorted(DSL))
def test_the_dsl_is_exported_where_it_is_defined(name: str) -> None:
    module = importlib.import_module(name)
    for item in DSL[name]:
        assert item in module.__all__, f"{name}.{item} is not in its __all__"
        value = getattr(module, item)
        if inspect.isclass(value) or inspect.isfunction(value):  # not a union like Step
            assert value.__module__ == name, f"{item} is defined elsewhere"


DSL_MODULES = [
    "lab.chapter.experiment",
    "lab.kernel.scenario",
    "lab.harness.permissions",
    "lab.kernel.switches",
]


def public_api_section() -> str:
    text = README.read_text(encoding="utf-8")
    start = text.index("### The public API")
    return text[start : text.index("\n#", start + 1)]


@pytest.mark.parametrize(
    "name",
    [
        "lab.chapter.experiment",
        "lab.kernel.scenario",
        "lab.harness.permissions",
        "lab.kernel.switches",
        "lab.model",
    ],
)
def test_the_readme_public_api_lists_every_exported_name(name: str) -> None:
    section = public_api_section()
    row = next(line for line in section.splitlines() if line.startswith(f"| `{name}` |"))
    listed = set(re.findall(r"`(\w+)`", row))
    missing = sorted(set(importlib.import_module(name).__all__) - listed)
    assert not missing, f"README's public API row for {name} misses {missing}"


def type_checking_imports(package: str) -> dict[str, str]:
    """name -> submodule, as the package's `if TYPE_CHECKING:` block imports them."""
    path = ROOT / package.removeprefix("lab.").replace(".", "/") / "__init__.py"
    found: dict[str, str] = {}
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    found[alias.asname or alias.name] = statement.module.rsplit(".", 1)[-1]
    return found


@pytest.mark.parametrize("package", ["lab.model", "lab.testing"])
def test_a_lazy_face_declares_for_the_type_checker_what_it_loads(package: str) -> None:
    module = importlib.import_module(package)
    declared = type_checking_imports(package)
    assert declared == module.EXPORTS  # same names, each from the same submodule
    assert sorted(module.__all__) == sorted(declared)
