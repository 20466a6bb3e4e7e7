"""M2: the dispatch table checks the schema<->signature contract at registration."""

from __future__ import annotations

import pytest

from lab.harness.tools import (
    ContractError,
    ContractUnchecked,
    Tool,
    ToolRegistry,
    contract_mismatch,
)

SCHEMA = {
    "type": "object",
    "properties": {"file_path": {"type": "string"}},
    "required": ["file_path"],
}


def handler_with_path(path: str) -> str:
    return path


def handler_with_file_path(file_path: str) -> str:
    return file_path


def test_mismatch_is_refused_at_registration_naming_tool_and_names():
    tool = Tool("read", "read a file", SCHEMA, handler_with_path)
    with pytest.raises(ContractError) as caught:
        ToolRegistry([tool])
    message = str(caught.value)
    assert "'read'" in message and "file_path" in message and "path" in message


def test_matching_contract_registers():
    registry = ToolRegistry([Tool("read", "read a file", SCHEMA, handler_with_file_path)])
    assert "read" in registry and registry.to_api()[0]["input_schema"] == SCHEMA


def test_optional_handler_parameters_need_not_be_in_schema_but_required_ones_must():
    def handler(file_path: str, encoding: str = "utf-8") -> str:
        return file_path

    assert contract_mismatch(Tool("read", "", SCHEMA, handler)) is None

    def needs_more(file_path: str, encoding: str) -> str:
        return file_path

    assert "encoding" in contract_mismatch(Tool("read", "", SCHEMA, needs_more))


def test_unchecked_registry_accepts_the_mismatch_silently():
    registry = ToolRegistry(
        [Tool("read", "", SCHEMA, handler_with_path)], contract=ContractUnchecked
    )
    assert "read" in registry
