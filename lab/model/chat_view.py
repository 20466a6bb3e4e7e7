"""A Chat Completions request read in the Messages wire's words, so one script judges both wires.

It reads any JSON object (a body is recorded before it is judged): a part it cannot read is left
out, never an error.

A responder (a probe conversation, a student's function) and the promises over a run read a
request's messages as the Messages API has them: text and tool_use blocks in assistant turns,
tool_result blocks in user turns, tools as `{"name", "description", "input_schema"}`. This module
reads a chat request that way: an assistant message's `tool_calls` become tool_use blocks (their
`arguments` parsed; an argument text that is no JSON object is kept as `raw_json` beside an
empty input), a run of `tool` messages one user turn of tool_result blocks, and the ids go back
to the script's (`call_001` → `toolu_001`, chat_render.call_id's inverse). The system and
developer messages become the `system` text. Nothing is judged here: chat_rules.py judges.
"""

from __future__ import annotations

import json
from typing import Any

from lab.model.chat_render import CALL_PREFIX, SCRIPT_PREFIX

SYSTEM_ROLES = ("system", "developer")


def script_id(call_id: object) -> object:
    """A call id as the script wrote it: `call_001` → `toolu_001` (any other is kept)."""
    if isinstance(call_id, str) and call_id.startswith(CALL_PREFIX):
        return SCRIPT_PREFIX + call_id.removeprefix(CALL_PREFIX)
    return call_id


def text_of(content: object) -> str:
    """A chat content (a string, or a list of parts) as plain text."""
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict))
    return content if isinstance(content, str) else ""


def _blocks(content: object) -> list[dict]:
    """A chat content as content blocks: text parts as text blocks, any other part kept."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    if not isinstance(content, list):
        return []
    return [
        {"type": "text", "text": p.get("text", "")} if p.get("type") == "text" else p
        for p in content
        if isinstance(p, dict)
    ]


def _tool_use(call: dict) -> dict:
    function = call.get("function")
    function = function if isinstance(function, dict) else {}
    raw = function.get("arguments")
    block = {"type": "tool_use", "id": script_id(call.get("id")), "name": function.get("name")}
    try:
        parsed = json.loads(raw) if isinstance(raw, str) else None
    except ValueError:
        parsed = None
    if isinstance(parsed, dict):
        return {**block, "input": parsed}
    return {**block, "input": {}, "raw_json": raw}


def _result(message: dict) -> dict:
    return {
        "type": "tool_result",
        "tool_use_id": script_id(message.get("tool_call_id")),
        "content": text_of(message.get("content")),
    }


def neutral_messages(messages: object) -> list[dict]:
    """The chat `messages` as the Messages wire's (system messages left out)."""
    out: list[dict] = []
    after_tool = False  # the previous message was a tool message: a run is one user turn
    for message in messages if isinstance(messages, list) else []:
        if not isinstance(message, dict) or message.get("role") in SYSTEM_ROLES:
            continue
        role, content = message.get("role"), message.get("content")
        if role == "tool" and after_tool:
            out[-1]["content"].append(_result(message))
        elif role == "tool":
            out.append({"role": "user", "content": [_result(message)]})
        elif role == "assistant":
            listed = message.get("tool_calls")
            calls = [c for c in listed if isinstance(c, dict)] if isinstance(listed, list) else []
            out.append(
                {"role": "assistant", "content": _blocks(content) + list(map(_tool_use, calls))}
            )
        else:
            said = content if isinstance(content, str) else _blocks(content)
            out.append({"role": "user", "content": said})
        after_tool = role == "tool"
    return out


def neutral_tools(tools: object) -> list[dict]:
    """The chat `tools` as the Messages wire's (a tool with no function is left out)."""
    out = []
    for tool in tools if isinstance(tools, list) else []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict):
            schema = function.get("parameters") or {"type": "object"}
            described = (
                {"description": function["description"]} if "description" in function else {}
            )
            out.append({"name": function.get("name"), **described, "input_schema": schema})
    return out


def system_text(messages: object) -> str | None:
    """The system and developer messages' text, one per line (None: there is none)."""
    listed = messages if isinstance(messages, list) else []
    said = [
        text_of(m.get("content"))
        for m in listed
        if isinstance(m, dict) and m.get("role") in SYSTEM_ROLES
    ]
    return "\n".join(said) if said else None


def neutral_body(body: Any) -> Any:
    """A chat request body as a Messages request body (what the promises read); a body that
    is not a JSON object is returned as it is."""
    if not isinstance(body, dict):
        return body
    out: dict[str, Any] = {
        "model": body.get("model"),
        "messages": neutral_messages(body.get("messages")),
    }
    system = system_text(body.get("messages"))
    if system is not None:
        out["system"] = system
    if body.get("tools") is not None:
        out["tools"] = neutral_tools(body.get("tools"))
    limit = body.get("max_completion_tokens", body.get("max_tokens"))
    if limit is not None:
        out["max_tokens"] = limit
    if "stream" in body:
        out["stream"] = body["stream"]
    return out
