"""A Chat Completions request read as the neutral history: the Messages API's shape, the same ids.

The lab's promises and the probe's cases read one shape of history: `messages` of `user` and
`assistant` turns holding content blocks (text, tool_use, tool_result), `tools` with `name` and
`input_schema`, `system`, `max_tokens`, `stream`. A request on the Chat Completions wire says
the same things in its own words; `neutral_body` translates them, nothing added or judged:

- an assistant message's `content` is a text block, each of its `tool_calls` a tool_use block
  (its arguments parsed into `input`; arguments that do not parse are kept as `raw_json`);
- each `tool` message is a tool_result block answering its `tool_call_id`, in a user turn with
  the tool messages and user messages that follow it (the Messages API's one user turn);
- `system` and `developer` messages are the `system` text; a function tool is a tool.

Ids come back in the script's words: the fake names the script's `toolu_001` `call_001` on this
wire (lab/model/chat_render.py), and `script_id` turns it back, so a tool_result answers the
same id its tool_use carried on either wire. The chat wire has no `is_error` flag: a tool
message is a tool_result without one.
"""

from __future__ import annotations

import json
from typing import Any

__all__ = ["neutral_body", "neutral_messages", "neutral_tools", "script_id"]

SYSTEM_ROLES = ("system", "developer")


def script_id(call_id: object) -> object:
    """A tool call's id on this wire as the script wrote it: `call_001` is `toolu_001` (any
    other id, or a value that is not a string, as it came)."""
    if isinstance(call_id, str) and call_id.startswith("call_"):
        return "toolu_" + call_id.removeprefix("call_")
    return call_id


def text_of(content: object) -> str:
    """A message's content as text: a string, or its text parts joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(
            str(part.get("text", ""))
            for part in content
            if isinstance(part, dict) and part.get("type") == "text"
        )
    return ""


def content_blocks(content: object) -> list[dict]:
    """A user or assistant message's content as blocks (an empty text is no block)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    blocks = []
    for part in content if isinstance(content, list) else []:
        if not isinstance(part, dict):
            continue
        if part.get("type") == "text":
            blocks.append({"type": "text", "text": str(part.get("text", ""))})
        else:  # an image, a file, an audio part: named, its data left out
            blocks.append({"type": str(part.get("type"))})
    return blocks


def tool_use(call: object) -> dict:
    """One entry of an assistant message's `tool_calls` as a tool_use block."""
    call = call if isinstance(call, dict) else {}
    function = call.get("function")
    raw = function.get("arguments") if isinstance(function, dict) else None
    name = function.get("name") if isinstance(function, dict) else None
    block: dict[str, Any] = {"type": "tool_use", "id": script_id(call.get("id"))}
    block["name"] = name
    try:
        parsed = json.loads(raw) if isinstance(raw, str) else raw
    except (ValueError, RecursionError):
        parsed = None
    if isinstance(parsed, dict):
        block["input"] = parsed
    else:  # not a JSON object: what was sent, kept as text
        block["input"] = {}
        block["raw_json"] = raw
    return block


def tool_result(message: dict) -> dict:
    return {
        "type": "tool_result",
        "tool_use_id": script_id(message.get("tool_call_id")),
        "content": text_of(message.get("content")),
    }


def neutral_messages(messages: object) -> list[dict]:
    """The conversation's messages (system and developer messages left out) as turns."""
    turns: list[dict] = []

    def add(role: str, blocks: list[dict]) -> None:
        # A tool message and the user message after it are one user turn; so are two users.
        if turns and turns[-1]["role"] == role == "user":
            turns[-1]["content"].extend(blocks)
        else:
            turns.append({"role": role, "content": blocks})

    for message in messages if isinstance(messages, list) else []:
        if not isinstance(message, dict) or message.get("role") in SYSTEM_ROLES:
            continue
        role = message.get("role")
        if role == "tool":
            add("user", [tool_result(message)])
        elif role == "assistant":
            calls = message.get("tool_calls")
            uses = [tool_use(c) for c in calls] if isinstance(calls, list) else []
            add("assistant", [*content_blocks(message.get("content")), *uses])
        else:
            add(str(role), content_blocks(message.get("content")))
    return turns


def neutral_tools(tools: object) -> list[dict]:
    """Each function tool as a tool: its name, description and parameters' schema."""
    listed = []
    for tool in tools if isinstance(tools, list) else []:
        function = tool.get("function") if isinstance(tool, dict) else None
        if isinstance(function, dict):
            listed.append(
                {
                    "name": function.get("name"),
                    "description": function.get("description", ""),
                    "input_schema": function.get("parameters") or {},
                }
            )
    return listed


def neutral_body(body: object) -> object:
    """A Chat Completions request body as a Messages request body (anything but a JSON object
    as it came: there is nothing to translate)."""
    if not isinstance(body, dict):
        return body
    messages = body.get("messages")
    listed = messages if isinstance(messages, list) else []
    system = [
        text_of(m.get("content"))
        for m in listed
        if isinstance(m, dict) and m.get("role") in SYSTEM_ROLES
    ]
    neutral: dict[str, Any] = {"model": body.get("model"), "messages": neutral_messages(messages)}
    limit = body.get("max_completion_tokens", body.get("max_tokens"))
    if limit is not None:
        neutral["max_tokens"] = limit
    if system:
        neutral["system"] = "\n".join(system)
    if "tools" in body:
        neutral["tools"] = neutral_tools(body.get("tools"))
    if body.get("stream"):
        neutral["stream"] = True
    return neutral
