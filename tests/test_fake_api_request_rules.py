"""Issue 28's request rules over loopback: each violating body (or header) sent to a real
FakeServer socket is answered with the real API's status, error type and text; a request that
keeps the rules is answered 200; and docs/api-rules.md quotes every text."""

import base64
import json
from pathlib import Path

import httpx2
import pytest

from lab.model import FakeMessagesAPI, ScriptedModel, turn
from lab.model.request_rules import (
    BUDGET_TEXT,
    FORCED_TOOL_TEXT,
    SAMPLING_TEXT,
    SCHEMA_TEXT,
    TEMPERATURE_TEXT,
    TOOLS_TEXT,
)
from lab.model.server import FakeServer
from lab.model.signing import SIGNER
from lab.model.validation import FINAL_THINKING, INVALID_SIGNATURE, MODIFIED, THINKING_OFF

RULES_PAGE = Path(__file__).resolve().parent.parent / "docs" / "api-rules.md"
TOOL = {"name": "bash", "input_schema": {"type": "object"}}
CREDENTIALS = {"x-api-key": "sk-lab-fake", "anthropic-version": "2023-06-01"}
PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\x00" * 8).decode()
JPEG = base64.b64encode(b"\xff\xd8\xff\xe0" + b"\x00" * 8).decode()
ON = {"thinking": {"type": "enabled", "budget_tokens": 1024}, "max_tokens": 2048}
LOOP_TEXT = (
    "messages.1.content.0.type: Expected `thinking` or `redacted_thinking`, but found "
    "`tool_use`. When `thinking` is enabled, a final `assistant` message must start with a "
    "thinking block (preceeding the lastmost set of `tool_use` and `tool_result` blocks). We "
    "recommend you include thinking blocks from previous turns. To avoid this requirement, "
    "disable `thinking`. Please consult our documentation at "
    "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
)


@pytest.fixture(scope="module")
def server():
    api = FakeMessagesAPI(ScriptedModel(lambda request: turn("ok")))
    with FakeServer(api) as running:
        yield running


def said(text):
    return {"type": "text", "text": text}


def call(id="toolu_1"):
    return {"type": "tool_use", "id": id, "name": "bash", "input": {}}


def result(id="toolu_1", content="ok"):
    return {"type": "tool_result", "tool_use_id": id, "content": content}


def thought(text="Let me think.", signature=None):
    return {"type": "thinking", "thinking": text, "signature": signature or SIGNER.sign(text)}


def sealed(text="withheld"):
    return {"type": "redacted_thinking", "data": SIGNER.seal(text)}


def image(data=PNG, media_type="image/png"):
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}


def user(*content):
    return {"role": "user", "content": list(content)}


def assistant(*content):
    return {"role": "assistant", "content": list(content)}


def loop(*answer):
    """A tool loop: the question, the assistant's `answer` holding call(), its result."""
    return [user(said("go")), assistant(*answer), user(result())]


def marked(text):
    return said(text) | {"cache_control": {"type": "ephemeral"}}


def post(server, body, headers=CREDENTIALS, path="/v1/messages"):
    full = {"model": "m", "max_tokens": 64, "messages": [user(said("hi"))], "tools": [TOOL]}
    with httpx2.Client(base_url=server.url) as http:
        response = http.post(path, content=json.dumps(full | body), headers=headers)
    error = response.json().get("error") or {}
    return response.status_code, error.get("type"), error.get("message")


def no(*names):
    return {k: v for k, v in CREDENTIALS.items() if k not in names}


# name -> (body fields, headers, the real text)
BROKEN = {
    "no anthropic-version header": (
        {},
        no("anthropic-version"),
        "anthropic-version: header is required",
    ),
    "a malformed anthropic-version": (
        {},
        CREDENTIALS | {"anthropic-version": "2023-06-01, 2023-06-01"},
        'anthropic-version: "2023-06-01, 2023-06-01" is not a valid version',
    ),
    "an unknown anthropic-beta": (
        {},
        CREDENTIALS | {"anthropic-beta": "token-efficient-tools-2025-02-19,lab-no-such-beta"},
        "Unexpected value(s) `lab-no-such-beta` for the `anthropic-beta` header. Please consult "
        "our documentation at docs.anthropic.com or try again without the header.",
    ),
    "a misspelt type in a tool schema": (
        {
            "tools": [
                TOOL,
                {
                    "name": "read",
                    "input_schema": {"type": "object", "properties": {"p": {"type": "strin"}}},
                },
            ]
        },
        CREDENTIALS,
        f"tools.1.custom.input_schema: {SCHEMA_TEXT}",
    ),
    "required as a string in a tool schema": (
        {"tools": [{"name": "read", "input_schema": {"type": "object", "required": "p"}}]},
        CREDENTIALS,
        f"tools.0.custom.input_schema: {SCHEMA_TEXT}",
    ),
    "a thinking budget below 1024": (
        {"thinking": {"type": "enabled", "budget_tokens": 1000}},
        CREDENTIALS,
        "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024",
    ),
    "max_tokens not above the budget": (
        {"thinking": {"type": "enabled", "budget_tokens": 2048}, "max_tokens": 2048},
        CREDENTIALS,
        BUDGET_TEXT,
    ),
    "a temperature other than 1 with thinking": (
        {**ON, "temperature": 0.5},
        CREDENTIALS,
        TEMPERATURE_TEXT,
    ),
    "thinking with a forced tool": (
        {**ON, "tool_choice": {"type": "any"}},
        CREDENTIALS,
        FORCED_TOOL_TEXT,
    ),
    "thinking with a named tool": (
        {"thinking": {"type": "adaptive"}, "tool_choice": {"type": "tool", "name": "bash"}},
        CREDENTIALS,
        FORCED_TOOL_TEXT,
    ),
    "a temperature above 1": (
        {"temperature": 1.5},
        CREDENTIALS,
        "temperature: Input should be less than or equal to 1",
    ),
    "temperature and top_p": ({"temperature": 0.5, "top_p": 0.9}, CREDENTIALS, SAMPLING_TEXT),
    "five cache breakpoints": (
        {
            "system": [marked("a"), marked("b")],
            "tools": [TOOL | {"cache_control": {"type": "ephemeral"}}],
            "messages": [user(marked("c"), said("d")), assistant(said("e")), user(marked("f"))],
        },
        CREDENTIALS,
        "A maximum of 4 blocks with cache_control may be provided. Found 5.",
    ),
    "tool blocks without tools": ({"messages": loop(call()), "tools": []}, CREDENTIALS, TOOLS_TEXT),
    "an image of an unknown type": (
        {"messages": [user(said("see"), image(media_type="image/bmp"))]},
        CREDENTIALS,
        "messages.0.content.1.image.source.base64.media_type: Input should be 'image/jpeg', "
        "'image/png', 'image/gif' or 'image/webp'",
    ),
    "an image of an unknown type in a tool result": (
        {"messages": [*loop(call())[:2], user(result(content=[image(media_type="image/bmp")]))]},
        CREDENTIALS,
        "messages.2.content.0.tool_result.content.0.image.source.base64.media_type: Input "
        "should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    ),
    "an empty image": (
        {"messages": [user(said("see"), image(data=""))]},
        CREDENTIALS,
        "messages.0.content.1.image.source.base64: image cannot be empty",
    ),
    "png bytes declared as jpeg": (
        {"messages": [user(image(media_type="image/jpeg"))]},
        CREDENTIALS,
        "messages.0.content.0.image.source.base64.data: Image does not match the provided "
        "media type image/jpeg",
    ),
    "png bytes declared as jpeg in a tool result": (
        {"messages": [*loop(call())[:2], user(result(content=[image(media_type="image/jpeg")]))]},
        CREDENTIALS,
        "messages.2.content.0.tool_result.content.0.image.source.base64.data: Image does not "
        "match the provided media type image/jpeg",
    ),
    "a forged signature in an earlier turn": (
        {
            "messages": [
                user(said("a")),
                assistant(thought(signature="Zm9yZ2Vk"), said("b")),
                user(said("c")),
                assistant(thought(), said("d")),
                user(said("e")),
            ]
        },
        CREDENTIALS,
        f"messages.1.content.0: {INVALID_SIGNATURE}",
    ),
    "an edited thinking block sent back": (
        {**ON, "messages": loop({**thought(), "thinking": "Edited."}, call())},
        CREDENTIALS,
        f"messages.1.content.0: {MODIFIED}",
    ),
    "an edited redacted_thinking block sent back": (
        {**ON, "messages": loop({**sealed(), "data": sealed()["data"][:-4] + "AAAA"}, call())},
        CREDENTIALS,
        f"messages.1.content.0: {MODIFIED}",
    ),
    "thinking dropped from a tool loop": ({**ON, "messages": loop(call())}, CREDENTIALS, LOOP_TEXT),
    "thinking in a final assistant message with thinking off": (
        {"messages": [user(said("a")), assistant(thought(), said("b"))]},
        CREDENTIALS,
        f"messages.1.content.0: {THINKING_OFF}",
    ),
    "an assistant message ending in thinking": (
        {"messages": [user(said("a")), assistant(thought()), user(said("c"))]},
        CREDENTIALS,
        f"messages.1: {FINAL_THINKING}",
    ),
    "thinking after text": (
        {
            "messages": [
                user(said("a")),
                assistant(said("b"), thought(), said("c")),
                user(said("d")),
            ]
        },
        CREDENTIALS,
        "messages.1.content.0: If an assistant message contains any thinking blocks, the first "
        "block must be thinking or redacted_thinking. Found text.",
    ),
    "a thinking block without a signature": (
        {
            "messages": [
                user(said("a")),
                assistant({"type": "thinking", "thinking": "t"}, said("b")),
                user(said("c")),
            ]
        },
        CREDENTIALS,
        "messages.1.content.0.thinking.signature: Field required",
    ),
    "a thinking block in a user message": (
        {"messages": [user(thought(), said("a"))]},
        CREDENTIALS,
        "messages.0.content.0: `thinking` blocks can only be in `assistant` messages",
    ),
    "a server_tool_use id without srvtoolu_": (
        {
            "messages": [
                user(said("search")),
                assistant(
                    {"type": "server_tool_use", "id": "toolu_1", "name": "web_search", "input": {}}
                ),
            ]
        },
        CREDENTIALS,
        "messages.1.content.0.server_tool_use.id: String should match pattern "
        "'^srvtoolu_[a-zA-Z0-9_]+$'",
    ),
}


@pytest.mark.parametrize("case", BROKEN)
def test_each_rule_is_answered_over_loopback_with_the_real_status_type_and_text(server, case):
    body, headers, text = BROKEN[case]
    assert post(server, body, headers) == (400, "invalid_request_error", text)


KEPT = {
    "adaptive thinking, a tool loop without thinking (the model may skip it)": (
        {"thinking": {"type": "adaptive"}, "messages": loop(call())},
        CREDENTIALS,
    ),
    "a dated beta no SDK declares (Claude Code's)": (
        {},
        CREDENTIALS | {"anthropic-beta": "claude-code-20250219,advanced-tool-use-2025-11-20"},
    ),
    "no credentials and no version (not a client)": ({}, {}),
    "a version the fake has never seen (a date)": (
        {},
        CREDENTIALS | {"anthropic-version": "2026-10-21"},
    ),
    "known betas": (
        {},
        CREDENTIALS
        | {"anthropic-beta": "interleaved-thinking-2025-05-14, prompt-caching-2024-07-31"},
    ),
    "a draft 2020-12 schema": (
        {
            "tools": [
                {
                    "name": "read",
                    "input_schema": {
                        "type": "object",
                        "properties": {"p": {"type": "string"}},
                        "required": ["p"],
                    },
                }
            ]
        },
        CREDENTIALS,
    ),
    "thinking at the minimum budget, temperature 1": ({**ON, "temperature": 1}, CREDENTIALS),
    "thinking with tool_choice auto": ({**ON, "tool_choice": {"type": "auto"}}, CREDENTIALS),
    "top_p alone": ({"top_p": 0.9}, CREDENTIALS),
    "four cache breakpoints": (
        {"system": [marked("a")], "messages": [user(marked("b"), marked("c"), marked("d"))]},
        CREDENTIALS,
    ),
    "a tool loop with its thinking sent back": (
        {**ON, "messages": loop(thought(), said("x"), call())},
        CREDENTIALS,
    ),
    "a tool loop with redacted thinking sent back": (
        {**ON, "messages": loop(sealed(), thought(), call())},
        CREDENTIALS,
    ),
    "interleaved thinking": (
        {**ON, "messages": loop(thought("a"), said("x"), thought("b"), call())},
        CREDENTIALS,
    ),
    "thinking off, thinking in an earlier turn": (
        {"messages": [user(said("a")), assistant(thought(), said("b")), user(said("c"))]},
        CREDENTIALS,
    ),
    "thinking on, a new question (no tool loop)": (
        {**ON, "messages": [user(said("a")), assistant(said("b")), user(said("c"))]},
        CREDENTIALS,
    ),
    "images of every type, in a tool result too": (
        {
            "messages": [
                user(said("see"), image(), image(JPEG, "image/jpeg")),
                assistant(call()),
                user(result(content=[said("shot"), image()])),
            ]
        },
        CREDENTIALS,
    ),
    "a server tool loop paused and sent back": (
        {
            "tools": [{"type": "web_search_20250305", "name": "web_search"}],
            "messages": [
                user(said("search")),
                assistant(
                    said("Searching."),
                    {
                        "type": "server_tool_use",
                        "id": "srvtoolu_1",
                        "name": "web_search",
                        "input": {"query": "q"},
                    },
                    {"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []},
                ),
            ],
        },
        CREDENTIALS,
    ),
}


@pytest.mark.parametrize("case", KEPT)
def test_a_request_that_keeps_the_rules_is_answered_over_loopback(server, case):
    body, headers = KEPT[case]
    assert post(server, body, headers) == (200, None, None)


def test_the_rules_page_quotes_every_text_and_counts_them():
    page = RULES_PAGE.read_text()
    for _body, _headers, text in BROKEN.values():
        rule = text.split(": ", 1)[1] if text.startswith(("messages.", "tools.")) else text
        # A text with a header value or a count names it; the page shows the pattern.
        rule = rule.replace("`lab-no-such-beta`", "`NAME`").replace("Found 5.", "Found N.")
        rule = rule.replace('"2023-06-01, 2023-06-01"', '"VALUE"').replace(
            "type image/jpeg", "type TYPE"
        )
        assert rule in page, rule
