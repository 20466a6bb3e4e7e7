"""The Chat Completions request rules over loopback: each violating body sent to a real FakeServer
socket is answered with the real API's status, error.type, error.param, error.code and text; a
body that keeps the rules is answered 200; docs/api-rules.md quotes every text."""

import json
from pathlib import Path

import httpx2
import openai
import pytest

from lab.model import FakeMessagesAPI, ScriptedModel, turn
from lab.model.chat_rules import (
    JSON_TEXT,
    NO_CALL_ID_TEXT,
    NO_KEY_TEXT,
    ORPHAN_TEXT,
    UNANSWERED_TEXT,
    UNKNOWN_CALL_TEXT,
)
from lab.model.server import FakeServer

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "api-rules.md"
BEARER = {"authorization": "Bearer sk-lab-fake", "content-type": "application/json"}
USER = {"role": "user", "content": "Read a.txt"}
TOOL = {"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}


def calling(*ids: str) -> dict:
    calls = [
        {"id": i, "type": "function", "function": {"name": "read_file", "arguments": "{}"}}
        for i in ids
    ]
    return {"role": "assistant", "content": None, "tool_calls": calls}


def answer(call_id: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": "A"}


def body(**fields) -> dict:
    return {"model": "gpt-4o", "messages": [USER], **fields}


@pytest.fixture(scope="module")
def server():
    api = FakeMessagesAPI(ScriptedModel(lambda request: turn("ok")))
    with FakeServer(api) as running:
        yield running


def post(server, content: bytes, headers: dict = BEARER) -> httpx2.Response:
    with httpx2.Client() as client:
        return client.post(server.url + "/v1/chat/completions", content=content, headers=headers)


# (rule, body, status, param, code, message)
RULES = [
    ("no model", {"messages": [USER]}, 400, None, None, "you must provide a model parameter"),
    (
        "no messages",
        {"model": "m"},
        400,
        "messages",
        "missing_required_parameter",
        "Missing required parameter: 'messages'.",
    ),
    (
        "empty messages",
        body(messages=[]),
        400,
        "messages",
        "empty_array",
        "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an "
        "empty array instead.",
    ),
    (
        "unknown field",
        body(thinking={"type": "enabled"}),
        400,
        None,
        None,
        "Unrecognized request argument supplied: thinking",
    ),
    (
        "unknown role",
        body(messages=[{"role": "human", "content": "hi"}]),
        400,
        "messages[0].role",
        "invalid_value",
        "Invalid value: 'human'. Supported values are: 'system', 'assistant', 'user', "
        "'function', 'tool', and 'developer'.",
    ),
    (
        "content of the wrong type",
        body(messages=[USER, {"role": "user", "content": {"type": "text", "text": "hi"}}]),
        400,
        "messages[1].content",
        "invalid_type",
        "Invalid type for 'messages[1].content': expected one of a string or array of objects, "
        "but got an object instead.",
    ),
    (
        "a tool message with no tool_call_id",
        body(messages=[USER, calling("call_1"), {"role": "tool", "content": "A"}]),
        400,
        "messages.[2].tool_call_id",
        None,
        NO_CALL_ID_TEXT,
    ),
    (
        "calls not answered",
        body(messages=[USER, calling("call_1", "call_2"), answer("call_1"), USER]),
        400,
        "messages.[3].role",
        None,
        UNANSWERED_TEXT.format(ids="call_2"),
    ),
    (
        "a tool message that answers no call",
        body(messages=[USER, answer("call_1")]),
        400,
        "messages.[1].role",
        None,
        ORPHAN_TEXT,
    ),
    (
        "a tool message that answers an unknown call",
        body(messages=[USER, calling("call_1"), answer("call_9")]),
        400,
        "messages.[2].tool_call_id",
        None,
        UNKNOWN_CALL_TEXT.format(id="call_9"),
    ),
    (
        "a tool name outside the pattern",
        body(tools=[{"type": "function", "function": {"name": "read file"}}]),
        400,
        "tools[0].function.name",
        "invalid_value",
        "Invalid 'tools[0].function.name': string does not match pattern. Expected a string "
        "that matches the pattern '^[a-zA-Z0-9_-]+$'.",
    ),
    (
        "a tool name too long",
        body(tools=[{"type": "function", "function": {"name": "x" * 65}}]),
        400,
        "tools[0].function.name",
        "string_above_max_length",
        "Invalid 'tools[0].function.name': string too long. Expected a string with maximum "
        "length 64, but got a string with length 65 instead.",
    ),
    (
        "max_tokens too large",
        body(max_tokens=100000),
        400,
        "max_tokens",
        None,
        "max_tokens is too large: 100000. This model supports at most 16384 completion tokens, "
        "whereas you provided 100000.",
    ),
    (
        "max_completion_tokens below 1",
        body(max_completion_tokens=0),
        400,
        "max_completion_tokens",
        "integer_below_min_value",
        "Invalid 'max_completion_tokens': integer below minimum value. Expected a value >= 1, "
        "but got 0 instead.",
    ),
    (
        "max_tokens of the wrong type",
        body(max_tokens="100"),
        400,
        "max_tokens",
        "invalid_type",
        "Invalid type for 'max_tokens': expected an integer, but got a string instead.",
    ),
    (
        "max_tokens and max_completion_tokens both",
        body(max_tokens=10, max_completion_tokens=10),
        400,
        "max_tokens",
        "invalid_request_error",
        "max_tokens and max_completion_tokens cannot both be set. Please use "
        "max_completion_tokens.",
    ),
    (
        "stream of the wrong type",
        body(stream="yes"),
        400,
        "stream",
        "invalid_type",
        "Invalid type for 'stream': expected a boolean, but got a string instead.",
    ),
    (
        "a role that is no string",
        body(messages=[{"role": ["user"], "content": "hi"}]),
        400,
        "messages[0].role",
        "invalid_type",
        "Invalid type for 'messages[0].role': expected a string, but got an array instead.",
    ),
    (
        "stream_options without stream",
        body(stream_options={"include_usage": True}),
        400,
        "stream_options",
        None,
        "The 'stream_options' parameter is only allowed when 'stream' is enabled.",
    ),
]


@pytest.mark.parametrize(
    ("rule", "sent", "status", "param", "code", "message"), RULES, ids=[r[0] for r in RULES]
)
def test_each_rule_is_answered_with_the_real_fields(
    server, rule, sent, status, param, code, message
):
    response = post(server, json.dumps(sent).encode())
    assert response.status_code == status, response.text
    assert response.json() == {
        "error": {
            "message": message,
            "type": "invalid_request_error",
            "param": param,
            "code": code,
        }
    }


def test_a_body_that_is_not_json_is_the_real_parse_error(server):
    response = post(server, b'{"model": "gpt-4o", "messages": [')
    assert response.status_code == 400
    assert response.json()["error"] == {
        "message": JSON_TEXT,
        "type": "invalid_request_error",
        "param": None,
        "code": None,
    }


def test_a_request_without_a_key_is_a_401(server):
    response = post(server, json.dumps(body()).encode(), {"content-type": "application/json"})
    assert response.status_code == 401
    assert response.json()["error"]["message"] == NO_KEY_TEXT


def test_a_body_that_keeps_the_rules_is_answered(server):
    messages = [USER, calling("call_1", "call_2"), answer("call_2"), answer("call_1")]
    response = post(server, json.dumps(body(messages=messages, tools=[TOOL])).encode())
    assert response.status_code == 200, response.text
    assert response.json()["choices"][0]["message"]["content"] == "ok"


def test_the_sdk_reads_code_and_param(server):
    client = openai.OpenAI(api_key="k", base_url=server.url + "/v1", max_retries=0)
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model="m", messages=[USER, answer("call_1")])
    assert caught.value.param == "messages.[1].role" and caught.value.code is None


def test_the_rules_page_quotes_every_text():
    page = RULES_PAGE.read_text()
    section = page[page.index("## The Chat Completions wire") :]
    fixed = [JSON_TEXT, NO_CALL_ID_TEXT, ORPHAN_TEXT]
    for text in [*fixed, UNANSWERED_TEXT.split("{")[0], UNKNOWN_CALL_TEXT.split("{")[0]]:
        assert text.strip() in section, text
