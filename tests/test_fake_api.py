"""The fake Messages API: real-API validation, wire format, and behaviour through the real SDK."""

import json

import anthropic
import httpx2
import pytest
from anthropic.types import Message, TextBlock, ToolUseBlock

from lab.model import (
    ApiError,
    FakeMessagesAPI,
    Rejection,
    ScriptedModel,
    encode_stream,
    scripted_client,
    tool_use,
    turn,
    validate_messages,
)
from lab.model.signing import SIGNER

# ---------------------------------------------------------------- history builders

# The first bytes of a PNG file, base64: what a tool returning a screenshot sends.
PNG_SOURCE = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUg=="}


def user(*content):
    return {"role": "user", "content": list(content)}


def assistant(*content):
    return {"role": "assistant", "content": list(content)}


def system(*content):
    return {"role": "system", "content": [said(c) if isinstance(c, str) else c for c in content]}


def said(s):
    return {"type": "text", "text": s}


def call(id, name="bash"):
    return {"type": "tool_use", "id": id, "name": name, "input": {}}


def result(id, content="ok"):
    return {"type": "tool_result", "tool_use_id": id, "content": content}


def missing(n, ids):
    return (
        f"messages.{n}: `tool_use` ids were found without `tool_result` blocks immediately "
        f"after: {ids}. Each `tool_use` block must have a corresponding `tool_result` block "
        "in the next message."
    )


def unexpected(n, m, id):
    return (
        f"messages.{n}.content.{m}: unexpected `tool_use_id` found in `tool_result` blocks: "
        f"{id}. Each `tool_result` block must have a corresponding `tool_use` block in the "
        "previous message."
    )


def multiple(n, m, id):
    return (
        f"messages.{n}.content.{m}: each tool_use must have a single result. "
        f"Found multiple `tool_result` blocks with id: {id}"
    )


def empty(n):
    return (
        f"messages.{n}: all messages must have non-empty content except for the optional "
        "final assistant message"
    )


# ---------------------------------------------------------------- validation rules

INVALID_HISTORIES = {
    "missing result, ids in call order": (
        [user(said("go")), assistant(call("toolu_a"), call("toolu_b")), user(said("hm"))],
        missing(1, "toolu_a, toolu_b"),
    ),
    "one of two results missing": (
        [user(said("go")), assistant(call("toolu_a"), call("toolu_b")), user(result("toolu_a"))],
        missing(1, "toolu_b"),
    ),
    "result after text in the same message": (
        [user(said("go")), assistant(call("toolu_a")), user(said("note"), result("toolu_a"))],
        missing(1, "toolu_a"),
    ),
    "same-role messages are combined, so results are not first": (
        [
            user(said("go")),
            assistant(call("toolu_a")),
            {"role": "user", "content": "interrupted"},
            user(result("toolu_a")),
        ],
        missing(1, "toolu_a"),
    ),
    "final assistant tool_use with nothing after it": (
        [user(said("go")), assistant(said("let me"), call("toolu_z"))],
        missing(1, "toolu_z"),
    ),
    "unexpected id": (
        [user(said("go")), assistant(call("toolu_a")), user(result("toolu_a"), result("toolu_x"))],
        unexpected(2, 1, "toolu_x"),
    ),
    "result with no assistant turn before it": (
        [user(result("toolu_a"))],
        unexpected(0, 0, "toolu_a"),
    ),
    "unexpected id in a combined user turn: N of the first message, M in combined content": (
        [
            user(said("go")),
            assistant(call("toolu_a")),
            user(result("toolu_a")),
            user(said("also"), result("toolu_old")),
        ],
        unexpected(2, 2, "toolu_old"),
    ),
    "two results for one call": (
        [user(said("go")), assistant(call("toolu_a")), user(result("toolu_a"), result("toolu_a"))],
        multiple(2, 1, "toolu_a"),
    ),
    "empty string content": (
        [user(said("go")), assistant(said("hi")), {"role": "user", "content": ""}],
        empty(2),
    ),
    "empty result turn after a tool_use stop_reason with no tool block": (
        [user(said("go")), assistant(said("I will")), user(), assistant(said("x"))],
        empty(2),
    ),
    "empty assistant message that is not final": (
        [user(said("go")), assistant(), user(said("again"))],
        empty(1),
    ),
    "documented order: results are judged before missing ones": (
        [user(said("go")), assistant(call("toolu_a")), user(said("x"), result("toolu_q"))],
        unexpected(2, 1, "toolu_q"),
    ),
    "a system message between a call and its result breaks the pairing": (
        [
            user(said("go")),
            assistant(call("toolu_a")),
            system("mind the tests"),
            user(result("toolu_a")),
        ],
        missing(1, "toolu_a"),
    ),
    "a result after a system message answers no call": (
        [user(said("go")), system("note"), user(result("toolu_a"))],
        unexpected(2, 0, "toolu_a"),
    ),
    "a system message with neither content nor output_config": (
        [user(said("go")), {"role": "system"}],
        empty(1),
    ),
    "a system message holds only text and tool changes": (
        [user(said("go")), system(call("toolu_a"))],
        "messages.1.content.0: Input tag 'tool_use' found using 'type' does not match any of "
        "the expected tags: 'text', 'tool_addition', 'tool_removal'",
    ),
    "clear_at belongs to system messages only": (
        [{"role": "user", "content": "go", "clear_at": "never"}],
        "messages.0.clear_at: Extra inputs are not permitted",
    ),
    "no message at all": ([], "messages: at least one message is required"),
}


@pytest.mark.parametrize("name", INVALID_HISTORIES)
def test_validation_rejects_with_the_real_message(name):
    messages, message = INVALID_HISTORIES[name]
    assert validate_messages(messages) == ("invalid_request_error", message)


VALID_HISTORIES = {
    "plain chat with string content": [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello"},
        {"role": "user", "content": "bye"},
    ],
    "multi-turn tools, parallel calls, text after the results": [
        user(said("fix it")),
        assistant(said("looking"), call("toolu_1"), call("toolu_2")),
        user(result("toolu_2"), {**result("toolu_1"), "is_error": True}, said("hurry")),
        assistant(call("toolu_3")),
        user(result("toolu_3", [said("done")])),
        assistant(said("fixed")),
    ],
    "results in a second user message right after": [
        user(said("go")),
        assistant(call("toolu_a")),
        user(result("toolu_a")),
        {"role": "user", "content": "and then?"},
    ],
    "results split over two user messages are combined into one turn": [
        user(said("go")),
        assistant(call("toolu_a"), call("toolu_b")),
        user(result("toolu_a")),
        user(result("toolu_b")),
    ],
    "empty final assistant message (prefill)": [user(said("go")), assistant()],
    "a system message after the first user turn (what Claude Code sends)": [
        user(said("<system-reminder>ctx</system-reminder>"), said("fix it")),
        system("Reply in English."),
    ],
    "a system message after the results, before the next call": [
        user(said("go")),
        assistant(call("toolu_a")),
        user(result("toolu_a")),
        system({"type": "tool_removal", "tool": {"type": "tool_reference", "name": "bash"}}),
        assistant(said("done")),
    ],
    "a system message between two user messages": [
        user(said("go")),
        {"role": "system", "content": "be brief", "clear_at": "next_user_message"},
        user(said("and quick")),
    ],
    "a system message with only an output_config": [
        user(said("go")),
        {"role": "system", "output_config": {"effort": "low"}},
    ],
}


@pytest.mark.parametrize("name", VALID_HISTORIES)
def test_valid_histories_pass(name):
    assert validate_messages(VALID_HISTORIES[name]) is None


def test_unknown_role_is_rejected_naming_the_three_roles():
    problem = validate_messages([{"role": "tool", "content": "x"}])
    assert problem == (
        "invalid_request_error",
        "messages.0.role: Input should be 'user', 'assistant' or 'system'",
    )


# ---------------------------------------------------------------- SSE encoding


def _events(body: bytes) -> list[tuple[str, dict]]:
    events = []
    for chunk in body.decode().split("\n\n"):
        if chunk:
            name_line, data_line = chunk.split("\n")
            events.append((name_line.removeprefix("event: "), json.loads(data_line[6:])))
    return events


def test_encode_stream_has_the_real_event_order_and_reassembles():
    message = {
        "id": "msg_001",
        "type": "message",
        "role": "assistant",
        "model": "m",
        "content": [
            said("Let me read that file."),
            call("toolu_1", "read") | {"input": {"p": "/x"}},
        ],
        "stop_reason": "tool_use",
        "stop_sequence": None,
        "usage": {"input_tokens": 5, "output_tokens": 9},
    }
    body = encode_stream(message)
    assert body == encode_stream(message)  # deterministic
    events = _events(body)
    names = [name for name, _ in events]
    assert names[:2] == ["message_start", "ping"]
    assert names[-2:] == ["message_delta", "message_stop"]
    assert all(name == data["type"] for name, data in events)
    start = events[0][1]["message"]
    assert start["content"] == [] and start["stop_reason"] is None
    assert events[-2][1]["delta"] == {"stop_reason": "tool_use", "stop_sequence": None}
    assert events[-2][1]["usage"] == {"output_tokens": 9}

    deltas = [d["delta"] for n, d in events if n == "content_block_delta"]
    texts = [d["text"] for d in deltas if d["type"] == "text_delta"]
    pieces = [d["partial_json"] for d in deltas if d["type"] == "input_json_delta"]
    assert len(texts) >= 2 and "".join(texts) == "Let me read that file."
    assert len(pieces) >= 2 and json.loads("".join(pieces)) == {"p": "/x"}
    starts = [d["content_block"] for n, d in events if n == "content_block_start"]
    assert starts == [said(""), call("toolu_1", "read")]  # tool input starts as {}
    assert names.count("content_block_stop") == 2


# ---------------------------------------------------------------- through the real SDK

ASK = [{"role": "user", "content": "what is in notes.txt?"}]
READ_INPUT = {"path": "/tmp/notes.txt", "limit": 200}


def test_create_returns_real_sdk_types():
    client, api = scripted_client([turn("Reading it.", tool_use("read_file", READ_INPUT))])
    message = client.messages.create(model="claude-x", max_tokens=100, messages=ASK)
    assert isinstance(message, Message)
    assert message.id == "msg_001"
    assert message.model == "claude-lab-1"
    assert isinstance(message.content[0], TextBlock)
    assert message.content[0].text == "Reading it."
    block = message.content[1]
    assert isinstance(block, ToolUseBlock)
    assert (block.id, block.name, block.input) == ("toolu_001", "read_file", READ_INPUT)
    assert message.stop_reason == "tool_use"
    assert message.usage.input_tokens > 0 and message.usage.output_tokens > 0
    assert api.requests == [{"model": "claude-x", "max_tokens": 100, "messages": ASK}]
    assert api.rejections == []


def _stream(client, messages=ASK):
    with client.messages.stream(model="m", max_tokens=100, messages=messages) as stream:
        events = list(stream)
        return events, stream.get_final_message()


def test_stream_delivers_tool_use_in_deltas_and_the_final_message():
    client, _ = scripted_client([turn("Reading it.", tool_use("read_file", READ_INPUT))])
    events, final = _stream(client)
    tool_starts = [
        e for e in events if e.type == "content_block_start" and e.content_block.type == "tool_use"
    ]
    assert len(tool_starts) == 1 and tool_starts[0].content_block.id == "toolu_001"
    json_deltas = [
        e for e in events if e.type == "content_block_delta" and e.delta.type == "input_json_delta"
    ]
    assert len(json_deltas) >= 2
    assert isinstance(final, Message)
    assert [
        b.model_dump(include={"type", "text", "id", "name", "input"}) for b in final.content
    ] == [
        {"type": "text", "text": "Reading it."},
        {"type": "tool_use", "id": "toolu_001", "name": "read_file", "input": READ_INPUT},
    ]
    assert final.stop_reason == "tool_use"


def test_stream_keeps_a_tool_use_block_declared_end_turn():
    # D1: content says "run a tool", stop_reason says "done". The API passes both through.
    client, _ = scripted_client([turn(tool_use("bash", {"cmd": "ls"}), stop_reason="end_turn")])
    _, final = _stream(client)
    assert final.stop_reason == "end_turn"
    assert [(b.type, b.name, b.input) for b in final.content] == [
        ("tool_use", "bash", {"cmd": "ls"})
    ]


def test_stream_keeps_tool_use_declared_without_a_tool_block():
    client, _ = scripted_client([turn("I'll run it now.", stop_reason="tool_use")])
    _, final = _stream(client)
    assert final.stop_reason == "tool_use"
    assert [b.type for b in final.content] == ["text"]
    assert final.content[0].text == "I'll run it now."


def test_raw_stream_true_gives_sse_events():
    client, _ = scripted_client([turn("hi there, friend")])
    events = list(client.messages.create(model="m", max_tokens=9, messages=ASK, stream=True))
    assert events[0].type == "message_start" and events[-1].type == "message_stop"
    text_deltas = [e.delta.text for e in events if e.type == "content_block_delta"]
    assert len(text_deltas) >= 2 and "".join(text_deltas) == "hi there, friend"


def test_the_model_side_is_never_judged():
    # A call to a tool that was never offered is the harness's problem, not the API's.
    client, api = scripted_client([turn(tool_use("launch_missiles"))])
    message = client.messages.create(model="m", max_tokens=9, messages=ASK, tools=[])
    assert message.content[0].name == "launch_missiles"
    assert api.rejections == []


def test_invalid_history_raises_bad_request_with_the_real_message():
    client, api = scripted_client([turn(tool_use("bash")), turn("never played")])
    first = client.messages.create(model="m", max_tokens=9, messages=ASK)
    history = [*ASK, first.to_param(), {"role": "user", "content": "sorry, I was interrupted"}]
    with pytest.raises(anthropic.BadRequestError) as caught:
        client.messages.create(model="m", max_tokens=9, messages=history)
    error = caught.value
    assert error.status_code == 400
    assert error.body["error"] == {
        "type": "invalid_request_error",
        "message": missing(1, "toolu_001"),
    }
    assert error.response.headers["request-id"] == "req_002"
    assert api.rejections == [Rejection(1, 400, "invalid_request_error", missing(1, "toolu_001"))]
    assert len(api.requests) == 2
    assert api.model.calls == 1  # the model never saw the bad request


def test_api_error_step_raises_the_sdk_error_for_its_status():
    client, api = scripted_client([ApiError(), ApiError(429, "rate_limit_error", "slow down")])
    with pytest.raises(anthropic.OverloadedError) as caught:
        client.messages.create(model="m", max_tokens=9, messages=ASK)
    assert caught.value.status_code == 529
    assert "retry-after" not in caught.value.response.headers  # only a 429 step sets one
    with pytest.raises(anthropic.RateLimitError, match="slow down"):
        client.messages.create(model="m", max_tokens=9, messages=ASK)
    assert [(f.request_index, f.status, f.error_type) for f in api.faults] == [
        (0, 529, "overloaded_error"),
        (1, 429, "rate_limit_error"),
    ]
    assert api.rejections == []


def test_exhausted_script_raises_internal_server_error_naming_the_turn():
    client, api = scripted_client([turn("only one")])
    client.messages.create(model="m", max_tokens=9, messages=ASK)
    with pytest.raises(anthropic.InternalServerError) as caught:
        client.messages.create(model="m", max_tokens=9, messages=ASK)
    assert not isinstance(caught.value, anthropic.OverloadedError)
    assert caught.value.status_code == 500
    assert caught.value.body["error"] == {
        "type": "api_error",
        "message": "scripted model: call #2 asked for turn 2, but the script has only 1 turn",
    }


def test_missing_field_and_wrong_path_are_rejected():
    api = FakeMessagesAPI(ScriptedModel([turn("x")]))
    url = "http://fake-anthropic.lab/v1/messages"
    response = api(httpx2.Request("POST", url, json={"model": "m", "messages": ASK}))
    assert response.status_code == 400
    assert response.json()["error"] == {
        "type": "invalid_request_error",
        "message": "max_tokens: Field required",
    }
    response = api(httpx2.Request("POST", "http://fake-anthropic.lab/v1/models"))
    assert response.status_code == 404
    assert response.json()["error"]["type"] == "not_found_error"
    assert [r.status for r in api.rejections] == [400, 404]
    assert [r.request_index for r in api.rejections] == [0, None]
    assert api.model.calls == 0


def test_same_script_gives_byte_identical_responses():
    def bodies():
        api = FakeMessagesAPI(ScriptedModel([turn("a", tool_use("t", {"k": "v"}))] * 2))
        url = "http://fake-anthropic.lab/v1/messages"
        request = {"model": "m", "max_tokens": 9, "messages": ASK}
        plain = api(httpx2.Request("POST", url, json=request))
        streamed = api(httpx2.Request("POST", url, json={**request, "stream": True}))
        assert streamed.headers["content-type"] == "text/event-stream; charset=utf-8"
        return plain.content, streamed.content, plain.headers["request-id"]

    assert bodies() == bodies()
    plain, streamed, request_id = bodies()
    assert json.loads(plain)["content"][1]["id"] == "toolu_001"
    assert b'"id":"toolu_002"' in streamed  # ids keep counting across calls
    assert request_id == "req_001"


# ---------------------------------------------------------------- request shapes

URL = "http://fake-anthropic.lab/v1/messages"
GOOD = {"model": "m", "max_tokens": 9, "messages": ASK}

BAD_BODIES = {
    "no messages at all": ({**GOOD, "messages": []}, "messages: at least one message is required"),
    "a message that is not an object": (
        {**GOOD, "messages": [*ASK, "and then?"]},
        "messages.1: Input should be a valid dictionary",
    ),
    "a block that is not an object": (
        {**GOOD, "messages": [user(said("a"), 7)]},
        "messages.0.content.1: Input should be a valid dictionary or object to extract fields from",
    ),
    "a block without a type": (
        {**GOOD, "messages": [user({"text": "hi"})]},
        "messages.0.content.0: Unable to extract tag using discriminator 'type'",
    ),
    "a missing content": (
        {**GOOD, "messages": [{"role": "user"}]},
        "messages.0.content: Field required",
    ),
    "content that is neither text nor blocks": (
        {**GOOD, "messages": [{"role": "user", "content": 3}]},
        "messages.0.content: Input should be a valid list",
    ),
    "a text that is not a string (the real API's own example)": (
        {**GOOD, "messages": [user(said("look"), {"type": "text", "text": None})]},
        "messages.0.content.1.text.text: Input should be a valid string",
    ),
    "an extra key in a tool_use block (seen from the real API)": (
        {**GOOD, "messages": [*ASK, assistant(call("toolu_a") | {"text": "x"})]},
        "messages.1.content.0.tool_use.text: Extra inputs are not permitted",
    ),
    "a tool_result id that is not a string": (
        {**GOOD, "messages": [user({"type": "tool_result", "tool_use_id": 1})]},
        "messages.0.content.0.tool_result.tool_use_id: Input should be a valid string",
    ),
    "no model": ({"max_tokens": 9, "messages": ASK}, "model: Field required"),
    "a model that is not a string": ({**GOOD, "model": 5}, "model: Input should be a valid string"),
    "max_tokens as text": (
        {**GOOD, "max_tokens": "9"},
        "max_tokens: Input should be a valid integer",
    ),
    "max_tokens of zero": (
        {**GOOD, "max_tokens": 0},
        "max_tokens: Input should be greater than or equal to 1",
    ),
    "a system prompt that is a number": (
        {**GOOD, "system": 1},
        "system: Input should be a valid list",
    ),
    "a custom tool without input_schema (seen from the real API)": (
        {**GOOD, "tools": [{"name": "bash"}]},
        "tools.0.custom.input_schema: Field required",
    ),
    "an input_schema without type (seen from the real API)": (
        {**GOOD, "tools": [{"name": "bash", "input_schema": {}}]},
        "tools.0.custom.input_schema.type: Field required",
    ),
    "stream as text": ({**GOOD, "stream": "yes"}, "stream: Input should be a valid boolean"),
    "tool_choice naming no tool": (
        {**GOOD, "tool_choice": {"type": "tool"}},
        "tool_choice.tool.name: Field required",
    ),
    "a field the API does not know (seen from the real API)": (
        {**GOOD, "response_format": {"type": "json"}},
        "response_format: Extra inputs are not permitted",
    ),
    "a thread to continue without its id": (
        {**GOOD, "thread": {"type": "continue"}},
        "thread.continue.previous_message_id: Field required",
    ),
}


def post(api, body, url=URL):
    return api(httpx2.Request("POST", url, content=json.dumps(body).encode()))


@pytest.mark.parametrize("name", BAD_BODIES)
def test_a_badly_shaped_request_gets_a_400_naming_the_path(name):
    body, message = BAD_BODIES[name]
    api = FakeMessagesAPI(ScriptedModel([turn("never played")]))
    response = post(api, body)
    assert response.status_code == 400
    assert response.json() == {
        "type": "error",
        "error": {"type": "invalid_request_error", "message": message},
        "request_id": "req_001",
    }
    assert api.rejections == [Rejection(0, 400, "invalid_request_error", message)]
    assert api.model.calls == 0


def test_what_peers_send_is_accepted():
    # Fields, blocks and tools Claude Code and other peers send (../shared/reference/peers.md).
    cached = {"type": "ephemeral"}
    body = {
        "model": "claude-opus-5-5",
        "max_tokens": 128000,
        "stream": True,
        "thinking": {"type": "adaptive"},
        "context_management": {"edits": []},
        "output_config": {"effort": "high"},
        "metadata": {"user_id": "u"},
        "temperature": 1,
        "system": [said("You are Claude Code."), said("Be careful.") | {"cache_control": cached}],
        "tools": [
            {"name": "Bash", "input_schema": {"type": "object"}, "defer_loading": True},
            {"type": "web_search_20250305", "name": "web_search"},
        ],
        "tool_choice": {"type": "auto", "disable_parallel_tool_use": False},
        "messages": [
            user(
                said("<system-reminder>x</system-reminder>"),
                said("fix it") | {"cache_control": cached},
            ),
            system("Reply in English."),
            assistant(  # thinking the fake itself signed: a forged one is refused
                {"type": "thinking", "thinking": "hm", "signature": SIGNER.sign("hm")},
                {"type": "redacted_thinking", "data": SIGNER.seal("xyz")},
                call("toolu_a"),
            ),
            user(
                result("toolu_a", [said("ok"), {"type": "image", "source": PNG_SOURCE}])
                | {"is_error": False},
                {"type": "document", "source": {"type": "text", "data": "d"}},
            ),
        ],
    }
    api = FakeMessagesAPI(ScriptedModel([turn("done")]))
    response = post(api, body, "http://127.0.0.1/anthropic/v1/messages?beta=true")
    assert response.status_code == 200, response.read()
    assert api.rejections == []


def test_every_block_type_the_sdk_declares_is_accepted():
    from lab.model.request_shape import BLOCK_TYPES, SYSTEM_BLOCK_TYPES, message_problem

    judged = {
        "text": said("x"),
        "tool_use": call("toolu_a"),
        "tool_result": result("toolu_a"),
        "thinking": {"type": "thinking", "thinking": "t", "signature": SIGNER.sign("t")},
        "redacted_thinking": {"type": "redacted_thinking", "data": SIGNER.seal("r")},
        "image": {"type": "image", "source": PNG_SOURCE},
        "server_tool_use": {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search"}
        | {"input": {}},
    }
    assert len(BLOCK_TYPES) > 20 and "redacted_thinking" in BLOCK_TYPES
    for tag in BLOCK_TYPES:
        block = judged.get(tag, {"type": tag})  # only the lab's blocks above are judged closely
        for role in ("user", "assistant"):
            assert message_problem(0, {"role": role, "content": [block]}) is None, (tag, role)
    for tag in SYSTEM_BLOCK_TYPES:
        assert message_problem(0, system(judged.get(tag, {"type": tag}))) is None, tag


@pytest.mark.parametrize(
    "shape, sdk_param",
    [
        ("TextBlock", "BetaTextBlockParam"),
        ("ToolUseBlock", "BetaToolUseBlockParam"),
        ("ToolResultBlock", "BetaToolResultBlockParam"),
        ("ThinkingBlock", "BetaThinkingBlockParam"),
        ("RedactedThinkingBlock", "BetaRedactedThinkingBlockParam"),
        ("ImageBlock", "BetaImageBlockParam"),
        ("ServerToolUseBlock", "BetaServerToolUseBlockParam"),
        ("CustomTool", "BetaToolParam"),
        ("SystemMessage", "BetaSystemMessageParam"),
    ],
)
def test_judged_shapes_accept_every_key_the_sdk_declares(shape, sdk_param):
    # A judged shape refuses unknown keys, like the real API: so it must know all the SDK's.
    from typing import get_type_hints

    import anthropic.types.beta as beta

    from lab.model import request_shape

    ours = set(get_type_hints(getattr(request_shape, shape)))
    assert set(get_type_hints(getattr(beta, sdk_param))) <= ours


def test_get_and_head_probes_are_answered():
    api = FakeMessagesAPI(ScriptedModel([]))
    models = api(httpx2.Request("GET", "http://fake-anthropic.lab/v1/models"))
    assert models.status_code == 200
    assert [m["id"] for m in models.json()["data"]] == ["claude-lab-1"]
    for method, path in [("HEAD", "/"), ("GET", "/"), ("HEAD", "/v1/messages")]:
        response = api(httpx2.Request(method, f"http://fake-anthropic.lab{path}"))
        assert response.status_code == 200, (method, path)
    assert api.rejections == [] and len(api.requests) == 0
