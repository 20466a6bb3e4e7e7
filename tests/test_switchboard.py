"""The switchboard is the one reader of `Switches`: proved from the import graph and the AST.

Every switch chooses between a reference part and a faulty part that sit side by side in the
module its `reader` names; no other code under lab/ reads a switch, and no mechanism module
imports `Switches` at all.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from lab.harness.parts import Parts, slots
from lab.harness.switchboard import TABLE, choices, parts_for
from lab.kernel.switches import Switches, switch_info, switch_names

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "lab"
SWITCHBOARD = "lab/harness/switchboard.py"
NAMES = set(switch_names())


def trees() -> dict[str, ast.Module]:
    return {
        path.relative_to(ROOT).as_posix(): ast.parse(path.read_text(encoding="utf-8"))
        for path in sorted(LAB.rglob("*.py"))
    }


def imported_modules(tree: ast.Module) -> set[str]:
    """Every module an `import` or `from ... import` names, at any depth (lazy ones too)."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
    return found


def switch_reads(tree: ast.Module) -> list[str]:
    """Each place that reads a switch by name: `x.<switch>`, `getattr(x, "<switch>")`, or a
    name bound to a switch's value by unpacking (`x = switches.<switch>` is the first kind)."""
    reads = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in NAMES:
            reads.append(f"line {node.lineno}: .{node.attr}")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[1], ast.Constant)
            and node.args[1].value in NAMES
        ):
            reads.append(f"line {node.lineno}: getattr {node.args[1].value!r}")
    return reads


def test_no_module_but_the_switchboard_reads_a_switch():
    readers = {
        path: reads
        for path, tree in trees().items()
        if path not in (SWITCHBOARD, "lab/kernel/switches.py") and (reads := switch_reads(tree))
    }
    assert readers == {}


def test_the_switchboard_reads_every_switch():
    assert sorted(TABLE) == sorted(NAMES)


def test_no_harness_module_but_the_switchboard_imports_switches():
    importers = {
        path
        for path, tree in trees().items()
        if path.startswith("lab/harness/") and "lab.kernel.switches" in imported_modules(tree)
    }
    assert importers == {SWITCHBOARD}


def test_no_mechanism_module_imports_the_switchboard():
    """The parts flow in: a mechanism module never asks the switchboard which part it got."""
    importers = {
        path
        for path, tree in trees().items()
        if "lab.harness.switchboard" in imported_modules(tree)
    }
    assert importers <= {
        "lab/kernel/scenario.py",
        "lab/cli/parts_command.py",
        "lab/views/parts_view.py",
    }
    assert not any(path.startswith("lab/harness/") for path in importers)


def test_the_checker_sees_a_switch_read_under_another_name():
    """The grep this replaces was fooled by a flag cached under another name."""
    tree = ast.parse("flag = s.trust_stop_reason\nok = getattr(s, 'pair_protection')\n")
    assert len(switch_reads(tree)) == 2


@pytest.mark.parametrize("name", sorted(NAMES))
def test_each_switch_s_two_parts_sit_side_by_side_in_the_module_it_documents(name):
    slot, good, bad = TABLE[name]
    module = switch_info(name)["reader"].removesuffix(".py").replace("/", ".")
    assert good.__module__ == bad.__module__ == module, (name, good, bad)
    assert good is not bad and good.__doc__ and bad.__doc__
    assert slot in slots()
    assert getattr(Parts(), slot) is good  # Parts() is the reference harness


@pytest.mark.parametrize("name", sorted(NAMES))
def test_flipping_one_switch_swaps_exactly_its_part(name):
    slot, good, bad = TABLE[name]
    flipped = Switches().flipped(**{name: not getattr(Switches(), name)})
    reference, changed = parts_for(Switches()), parts_for(flipped)
    assert getattr(changed, slot) is bad
    assert [s for s in slots() if getattr(changed, s) != getattr(reference, s)] == [slot]
    assert reference == Parts()


def test_the_course_preset_is_exactly_its_switches():
    """Issue 27: no equality test restores the course chain behind a switch's back."""
    course = parts_for(Switches.course())
    assert course.front_half is TABLE["own_front_checks"][2]  # the course chain: a switch value
    # the course with one switch flipped back keeps every other course part, and only loses
    # the one part that switch chooses
    for name in Switches.course().differences():
        back = Switches.course().flipped(**{name: getattr(Switches(), name)})
        slot, good, _bad = TABLE[name]
        changed = [s for s in slots() if getattr(parts_for(back), s) != getattr(course, s)]
        assert changed == [slot] and getattr(parts_for(back), slot) is good, name
    by_slot = {c.slot: c for c in choices(Switches.course())}
    assert by_slot["front_half"].faulty and by_slot["front_half"].switch == "own_front_checks"
