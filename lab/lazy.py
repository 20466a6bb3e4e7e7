"""A package's public names, imported on first use (PEP 562): `lab list` and `lab --help` import
the package without paying for the submodules (the SDK, hypothesis) behind names they never use."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable
from typing import Any


def lazy_exports(
    package: str, where: dict[str, str]
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The package's `__getattr__` and `__dir__` for `where`: exported name -> its submodule.
    A name asked for is imported once, then kept as a plain attribute of the package."""
    module = sys.modules[package]

    def __getattr__(name: str) -> Any:
        if name not in where:  # a submodule (`from lab.testing import catalog`) is imported instead
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{where[name]}"), name)
        setattr(module, name, value)
        return value

    def __dir__() -> list[str]:
        return sorted([*vars(module), *where])

    return __getattr__, __dir__
