"""The public API's edges: each module's `__all__` names things that exist, and nothing private."""

from __future__ import annotations

import importlib

import pytest

PUBLIC = [
    "lab.model",
    "lab.testing",
    "lab.testing.wire",
    "lab.probe.wire",
    "lab.probe.target",
    "lab.probe.peers.program",
    "lab.tool",
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
