"""M2 号码簿 (dispatch table): tools grow in this table, never in the loop.

Invariant: a tool's schema property names equal its handler's parameter names
(the course's implicit third contract), checked when the tool is registered.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from typing import Any

from lab.kernel.tool import Tool, ToolError

__all__ = [
    "BareDispatch",
    "ContractChecked",
    "ContractError",
    "ContractUnchecked",
    "GuardedDispatch",
    "Tool",
    "ToolError",
    "ToolRegistry",
    "contract_mismatch",
    "invoke",
    "invoke_unguarded",
]


class ContractError(ValueError):
    """A tool's schema and its handler's signature disagree."""


def contract_mismatch(tool: Tool) -> str | None:
    """Why the schema and the handler signature disagree, or None when they agree."""
    params = inspect.signature(tool.handler).parameters
    if any(p.kind is p.VAR_KEYWORD for p in params.values()):
        return None
    schema_names = set(tool.input_schema.get("properties", {}))
    param_names = {n for n, p in params.items() if p.kind is not p.VAR_POSITIONAL}
    required_params = {n for n in param_names if params[n].default is inspect.Parameter.empty}
    problems = []
    if extra := sorted(schema_names - param_names):
        problems.append(f"schema properties {extra} are not handler parameters")
    if missing := sorted(required_params - schema_names):
        problems.append(f"handler parameters {missing} are not in the schema")
    if not problems:
        return None
    return f"tool {tool.name!r}: " + "; ".join(problems)


def invoke(tool: Tool, input: dict[str, Any]) -> tuple[str, bool]:
    """Dispatch one call: handler(**input). Failures become (message, True), never exceptions."""
    try:
        return tool.handler(**input), False
    except ToolError as error:
        return f"Error: {error}", True
    except Exception as error:  # a broken tool must not crash the loop
        return f"Error: {type(error).__name__}: {error}", True


def invoke_unguarded(tool: Tool, input: dict[str, Any]) -> tuple[str, bool]:
    """The course's dispatch, `handler(**block.input)` with no try around it: a handler's own
    refusal (ToolError, the course handlers' inner try/except) is still a result, but any other
    exception, such as the TypeError of a name mismatch, propagates and ends the run."""
    try:
        return tool.handler(**input), False
    except ToolError as error:
        return f"Error: {error}", True


class GuardedDispatch:
    """The reference: every failure of a handler becomes an is_error result."""

    invoke = staticmethod(invoke)


class BareDispatch(GuardedDispatch):
    """D8, the course's s02: `handler(**block.input)` with no try around it; a TypeError
    propagates out of the loop and the run crashes (运行时直接炸)."""

    invoke = staticmethod(invoke_unguarded)


class ContractChecked:
    """The reference: a tool whose schema and handler disagree is refused at registration."""

    mismatch = staticmethod(contract_mismatch)


class ContractUnchecked(ContractChecked):
    """D8, the course: nothing checks the contract; a mismatch fails on first use."""

    @staticmethod
    def mismatch(tool: Tool) -> str | None:
        return None


class ToolRegistry:
    """name -> Tool. Registration checks the schema<->signature contract."""

    def __init__(
        self, tools: Iterable[Tool] = (), *, contract: type[ContractChecked] = ContractChecked
    ) -> None:
        self._tools: dict[str, Tool] = {}
        self.contract = contract
        for tool in tools:
            self.register(tool)

    def register(self, tool: Tool) -> Tool:
        if problem := self.contract.mismatch(tool):
            raise ContractError(problem)
        self._tools[tool.name] = tool
        return tool

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def names(self) -> list[str]:
        return list(self._tools)

    def to_api(self) -> list[dict[str, Any]]:
        return [tool.to_api() for tool in self._tools.values()]

    def __contains__(self, name: object) -> bool:
        return name in self._tools

    def __len__(self) -> int:
        return len(self._tools)
