"""The request rules of docs/api-rules.md: each one answered 400 with its exact text, a request
that keeps the rule answered 200, and the page quoting every text the fake sends."""

import json
from pathlib import Path

import httpx2
import pytest

from lab.model import FakeMessagesAPI, ScriptedModel, turn

URL = "http://fake-anthropic.lab/v1/messages"
RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "api-rules.md"
TOOL = {"name": "bash", "input_schema": {"type": "object"}}


def said(text):
    return {"type": "text", "text": text}


def call(id="toolu_1", name="bash"):
    return {"type": "tool_use", "id": id, "name": name, "input": {}}


def result(id="toolu_1", content="ok"):
    return {"type": "tool_result", "tool_use_id": id, "content": content}


def asked(*content):
    return [{"role": "user", "content": list(content)}]


def called(*content):
    """A user turn, then an assistant turn holding `content`."""
    return [{"role": "user", "content": "go"}, {"role": "assistant", "content": list(content)}]


def answer(**body):
    api = FakeMessagesAPI(ScriptedModel(lambda request: turn("ok")))
    full = {"model": "m", "max_tokens": 9, "messages": asked(said("hi")), "tools": [TOOL], **body}
    response = api(httpx2.Request("POST", URL, content=json.dumps(full).encode()))
    return response.status_code, response.json().get("error", {}).get("message")


PATTERN = "String should match pattern '^[a-zA-Z0-9_-]{1,128}$'"
BROKEN = {
    "an empty text block": (
        {"messages": asked(said(""))},
        "messages: text content blocks must be non-empty",
    ),
    "an empty text block in a tool result": (
        {"messages": [*called(call()), *asked(result(content=[said("")]))]},
        "messages: text content blocks must be non-empty",
    ),
    "a whitespace-only text block": (
        {"messages": asked(said(" \n\t"))},
        "messages: text content blocks must contain non-whitespace text",
    ),
    "whitespace-only string content": (
        {"messages": [{"role": "user", "content": "  "}]},
        "messages: text content blocks must contain non-whitespace text",
    ),
    "two calls with one id": (
        {"messages": called(said("two"), call(), call())},
        "messages.1.content.2: `tool_use` ids must be unique",
    ),
    "two tools with one name": ({"tools": [TOOL, TOOL]}, "tools: Tool names must be unique."),
    "a tool name with a space": (
        {"tools": [TOOL, {**TOOL, "name": "read file"}]},
        f"tools.1.custom.name: {PATTERN}",
    ),
    "an empty tool name": ({"tools": [{**TOOL, "name": ""}]}, f"tools.0.custom.name: {PATTERN}"),
    "a tool name of 129 characters": (
        {"tools": [{**TOOL, "name": "x" * 129}]},
        "tools.0.custom.name: String should have at most 128 characters",
    ),
    "a tool_use id with a dot": (
        {"messages": called(call("toolu.1"))},
        "messages.1.content.0.tool_use.id: String should match pattern '^[a-zA-Z0-9_-]+$'",
    ),
    "a tool_use block in a user message": (
        {"messages": asked(said("hi"), call())},
        "messages.0.content.1: `tool_use` blocks can only be in `assistant` messages",
    ),
    "a tool_result block in an assistant message": (
        {"messages": called(result())},
        "messages.1.content.0: `tool_result` blocks can only be in `user` messages",
    ),
    "cache_control that is a string": (
        {"messages": asked({**said("hi"), "cache_control": "ephemeral"})},
        "messages.0.content.0.text.cache_control: Input should be a valid dictionary",
    ),
    "metadata that is a list": ({"metadata": []}, "metadata: Input should be a valid dictionary"),
    "a prefill ending in a space": (
        {"messages": [*asked(said("hi")), {"role": "assistant", "content": "Sure "}]},
        "messages: final assistant content cannot end with trailing whitespace",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_each_broken_rule_is_a_400_with_its_exact_text(case):
    body, text = BROKEN[case]
    assert answer(**body) == (400, text)


KEPT = {
    "text with a visible character": {"messages": asked(said(" x "))},
    "an empty tool_result string": {"messages": [*called(call()), *asked(result(content=""))]},
    "two calls with two ids": {
        "messages": [*called(call("toolu_1"), call("toolu_2")), *asked(result(), result("toolu_2"))]
    },
    "a name of 128 allowed characters": {"tools": [{**TOOL, "name": "a-_Z9" * 25 + "abc"}]},
    "cache_control objects, and null": {
        "messages": asked({**said("a"), "cache_control": {"type": "ephemeral"}}),
        "tools": [{**TOOL, "cache_control": None}],
    },
    "metadata with a user id": {"metadata": {"user_id": "u-1"}},
    "a prefill without trailing space": {
        "messages": [*asked(said("hi")), {"role": "assistant", "content": " Sure"}]
    },
    "an empty final assistant message": {
        "messages": [*asked(said("hi")), {"role": "assistant", "content": ""}]
    },
}


@pytest.mark.parametrize("case", KEPT)
def test_a_request_that_keeps_the_rules_is_answered(case):
    assert answer(**KEPT[case]) == (200, None)


def test_the_rules_page_quotes_every_text_the_fake_sends():
    page = RULES_PAGE.read_text()
    for _body, text in BROKEN.values():
        rule = text.split(": ", 1)[1] if text.startswith(("messages.", "tools.")) else text
        assert rule in page, rule
