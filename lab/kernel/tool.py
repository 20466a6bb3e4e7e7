"""A tool as the harness and the world both know it: name, schema, handler, and its own checks.

A leaf module: the world defines tools and the harness dispatches them; neither imports the other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

__all__ = ["Tool", "ToolError"]


class ToolError(Exception):
    """A tool refused or failed; its message becomes an is_error tool_result."""


def _never_safe(**_: Any) -> bool:
    return False


@dataclass(frozen=True)
class Tool:
    """One entry of the dispatch table.

    handler(**input) -> str does the work (raise ToolError to fail cleanly).
    check(**input) -> reason | None is the tool's own check, run before any gate.
    concurrency_safe(**input) -> bool decides, per call input, whether the call may share a tray.
    """

    name: str
    description: str
    input_schema: dict[str, Any]
    handler: Callable[..., str]
    check: Callable[..., str | None] | None = None
    concurrency_safe: Callable[..., bool] = _never_safe

    def to_api(self) -> dict[str, Any]:
        """The tool as the Messages API `tools` parameter expects it."""
        return {
            "name": self.name,
            "description": self.description,
            "input_schema": self.input_schema,
        }
