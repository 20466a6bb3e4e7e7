"""The fake's Chat Completions wire, through the real `openai` SDK: the same script steps render
as completions and chunks, in process and over a loopback socket, with the distortions of this
wire (D1: `stop` with tool_calls; P1b: `tool_calls` with none; P10: `length` with cut
arguments) and the API's faults."""

import json

import httpx2
import openai
import pytest

from lab.model import (
    FakeMessagesAPI,
    ScriptedModel,
    cut_off,
    overloaded,
    rate_limited,
    server_error,
    stream_dropped,
    stream_error,
    thinking,
    tool_use,
    turn,
)
from lab.model.chat_render import check_chat_script
from lab.model.server import FakeServer

USER = [{"role": "user", "content": "Read a.txt"}]
TOOLS = [{"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}]


def client_for(api: FakeMessagesAPI) -> openai.OpenAI:
    transport = httpx2.MockTransport(api)
    return openai.OpenAI(
        api_key="sk-lab-fake",
        base_url="http://fake-openai.lab/v1",
        max_retries=0,
        http_client=openai.DefaultHttpxClient(transport=transport),
    )


def scripted(*steps) -> tuple[openai.OpenAI, FakeMessagesAPI]:
    api = FakeMessagesAPI(ScriptedModel(list(steps)))
    return client_for(api), api


def test_scripted_chat_client_plays_a_script_and_refuses_one_with_no_meaning_here():
    from lab.model.chat_client import scripted_chat_client

    client, api = scripted_chat_client([turn("hi")])
    assert ask(client).choices[0].message.content == "hi" and api.model.complete
    with pytest.raises(ValueError, match="script step 1: a thinking block"):
        scripted_chat_client([turn(thinking("hm"), "hi")])


def ask(client: openai.OpenAI, **extra):
    return client.chat.completions.create(model="gpt-4o", messages=USER, tools=TOOLS, **extra)


def streamed(client: openai.OpenAI, **extra) -> list:
    return list(ask(client, stream=True, **extra))


def calls_of(chunks: list) -> dict[int, dict]:
    """The tool calls a stream assembles, by index: id, name and the arguments' text."""
    calls: dict[int, dict] = {}
    for chunk in chunks:
        for choice in chunk.choices:
            for call in choice.delta.tool_calls or []:
                slot = calls.setdefault(call.index, {"id": None, "name": None, "arguments": ""})
                slot["id"] = call.id or slot["id"]
                if call.function and call.function.name:
                    slot["name"] = call.function.name
                if call.function and call.function.arguments:
                    slot["arguments"] += call.function.arguments
    return calls


def finish_of(chunks: list) -> str | None:
    return next((c.finish_reason for ch in chunks for c in ch.choices if c.finish_reason), None)


# ---------------------------------------------------------------- healthy answers


def test_a_tool_call_renders_as_a_completion_with_tool_calls_and_deterministic_ids():
    client, api = scripted(turn("Looking.", tool_use("read_file", {"path": "a.txt"})))
    answer = ask(client)
    choice = answer.choices[0]
    assert answer.id == "chatcmpl-001" and answer.object == "chat.completion"
    assert choice.finish_reason == "tool_calls"
    assert choice.message.content == "Looking."
    call = choice.message.tool_calls[0]
    assert (call.id, call.function.name) == ("call_001", "read_file")
    assert json.loads(call.function.arguments) == {"path": "a.txt"}
    assert answer.usage.total_tokens == answer.usage.prompt_tokens + answer.usage.completion_tokens
    assert api.requests[0]["messages"] == USER


def test_a_text_turn_is_stop_with_no_tool_calls_key():
    client, _ = scripted(turn("All done."))
    raw = client.chat.completions.with_raw_response.create(model="m", messages=USER)
    body = json.loads(raw.http_response.text)
    assert body["choices"][0]["finish_reason"] == "stop"
    assert "tool_calls" not in body["choices"][0]["message"]


def test_the_stream_carries_the_call_in_argument_deltas_and_ends_with_done():
    client, _ = scripted(turn(tool_use("read_file", {"path": "a-long-file-name.txt"})))
    raw = client.chat.completions.with_raw_response.create(
        model="m", messages=USER, tools=TOOLS, stream=True
    )
    text = raw.http_response.read().decode()
    lines = [line for line in text.split("\n\n") if line]
    assert all(line.startswith("data: ") for line in lines)
    assert lines[-1] == "data: [DONE]"
    chunks = [json.loads(line[6:]) for line in lines[:-1]]
    argument_deltas = [
        c["choices"][0]["delta"]["tool_calls"][0]["function"]["arguments"]
        for c in chunks
        if c["choices"] and c["choices"][0]["delta"].get("tool_calls")
    ]
    assert argument_deltas[0] == "" and len(argument_deltas) > 2  # the head, then the pieces
    assert json.loads("".join(argument_deltas)) == {"path": "a-long-file-name.txt"}
    assert chunks[-1]["choices"][0]["finish_reason"] == "tool_calls"
    assert "usage" not in chunks[-1]  # only when stream_options asks for it


def test_include_usage_adds_a_last_chunk_with_usage_and_no_choices():
    client, _ = scripted(turn("Hello there."))
    chunks = streamed(client, stream_options={"include_usage": True})
    assert chunks[-1].choices == [] and chunks[-1].usage.completion_tokens > 0
    assert all(chunk.usage is None for chunk in chunks[:-1])


def test_the_same_script_plays_on_both_wires():
    script = [turn(tool_use("read_file", {"path": "a.txt"})), turn("done")]
    client, api = scripted(*script)
    first = ask(client).choices[0].message
    assert first.tool_calls[0].id == "call_001"
    messages = [
        *USER,
        first.model_dump(exclude_none=True),
        {"role": "tool", "tool_call_id": "call_001", "content": "A"},
    ]
    last = client.chat.completions.create(model="m", messages=messages, tools=TOOLS)
    assert last.choices[0].message.content == "done"
    assert api.model.complete


# ---------------------------------------------------------------- the distortions


def test_d1_a_tool_call_declared_end_turn_is_stop_with_tool_calls_present():
    step = turn(tool_use("read_file", {"path": "a.txt"}), stop_reason="end_turn")
    client, _ = scripted(step, step)
    choice = ask(client).choices[0]
    assert choice.finish_reason == "stop" and len(choice.message.tool_calls) == 1
    chunks = streamed(client)
    assert finish_of(chunks) == "stop" and calls_of(chunks)[0]["name"] == "read_file"


def test_p1b_tool_calls_declared_with_none_sent():
    step = turn("I will call a tool.", stop_reason="tool_use")
    client, _ = scripted(step, step)
    choice = ask(client).choices[0]
    assert choice.finish_reason == "tool_calls" and choice.message.tool_calls is None
    chunks = streamed(client)
    assert finish_of(chunks) == "tool_calls" and calls_of(chunks) == {}


def test_p10_length_with_cut_arguments_streamed_or_not():
    step = cut_off(turn(tool_use("write_file", {"path": "a.txt", "text": "abcdef"})), 20)
    client, api = scripted(step, step)
    choice = ask(client).choices[0]
    whole = json.dumps({"path": "a.txt", "text": "abcdef"})
    assert choice.finish_reason == "length"
    assert choice.message.tool_calls[0].function.arguments == whole[:20]
    chunks = streamed(client)
    assert finish_of(chunks) == "length" and calls_of(chunks)[0]["arguments"] == whole[:20]
    assert api.cut_calls == ["toolu_001", "toolu_002"]


def test_a_refusal_is_content_filter():
    client, _ = scripted(turn("I cannot help with that.", stop_reason="refusal"))
    assert ask(client).choices[0].finish_reason == "content_filter"


# ---------------------------------------------------------------- faults


def test_a_429_carries_retry_after_and_the_rate_limit_headers():
    client, api = scripted(rate_limited(2.0))
    with pytest.raises(openai.RateLimitError) as caught:
        ask(client)
    error = caught.value
    assert error.status_code == 429 and error.code == "rate_limit_exceeded"
    assert error.body["type"] == "requests" and "Please try again in 2s" in error.message
    headers = error.response.headers
    assert headers["retry-after"] == "2"
    assert headers["x-ratelimit-remaining-requests"] == "0"
    assert headers["x-ratelimit-reset-requests"] == "2s"
    assert api.faults[0].status == 429


@pytest.mark.parametrize(
    ("step", "status", "message"),
    [
        (server_error(), 500, "The server had an error while processing your request."),
        (overloaded(), 503, "That model is currently overloaded with other requests."),
    ],
)
def test_server_faults_have_this_wires_status_and_text(step, status, message):
    client, _ = scripted(step)
    with pytest.raises(openai.InternalServerError) as caught:
        ask(client)
    assert caught.value.status_code == status
    assert caught.value.body["type"] == "server_error"
    assert caught.value.body["message"].startswith(message)
    assert "{" not in caught.value.message  # a request id, when named, is filled in


def test_an_error_inside_a_stream_is_a_data_line_with_error_and_no_done():
    step = stream_error(turn("Partial answer.", tool_use("read_file", {})), after_blocks=1)
    client, api = scripted(step)
    seen = []
    with pytest.raises(openai.APIError) as caught:
        for chunk in ask(client, stream=True):
            seen.append(chunk)
    assert "".join(c.choices[0].delta.content or "" for c in seen if c.choices) == (
        "Partial answer."
    )
    assert caught.value.body["type"] == "server_error"
    assert api.faults[0].status == 200


def test_a_stream_dropped_inside_a_calls_arguments_is_an_incomplete_read():
    whole = json.dumps({"path": "a-long-name.txt"})
    step = stream_dropped(turn(tool_use("read_file", {"path": "a-long-name.txt"})), 0, 12)
    client, _ = scripted(step)
    seen = []
    with pytest.raises(openai.APIConnectionError) as caught:
        for chunk in ask(client, stream=True):
            seen.append(chunk)
    assert isinstance(caught.value.__cause__, httpx2.RemoteProtocolError)
    assert calls_of(seen)[0]["arguments"] == whole[:12]
    assert finish_of(seen) is None


def test_a_script_step_with_no_meaning_on_this_wire_is_refused_at_load_time():
    script = [turn("hi"), turn(thinking("hmm"), "answer")]
    with pytest.raises(ValueError, match="script step 2: a thinking block has no meaning"):
        check_chat_script(script)
    client, api = scripted(*script)
    for _ in range(2):  # refused each time, before anything was played
        with pytest.raises(openai.InternalServerError, match="script step 2: a thinking block"):
            ask(client)
    assert api.model.calls == 0


# ---------------------------------------------------------------- GET /v1/models


def test_models_answers_each_wire_in_its_own_shape():
    client, api = scripted()
    assert [model.id for model in client.models.list()] == ["gpt-lab-1"]
    assert client.models.retrieve("gpt-lab-1").owned_by == "lab"
    with pytest.raises(openai.NotFoundError) as caught:
        client.models.retrieve("gpt-nope")
    assert caught.value.code == "model_not_found"
    anthropic_shape = httpx2.Client(transport=httpx2.MockTransport(api)).get(
        "http://x/v1/models", headers={"x-api-key": "k", "anthropic-version": "2023-06-01"}
    )
    assert anthropic_shape.json()["data"][0]["type"] == "model"


# ---------------------------------------------------------------- over loopback


def test_over_loopback_a_stream_is_chunked_and_a_drop_closes_the_socket():
    step = stream_dropped(turn(tool_use("read_file", {"path": "a-long-name.txt"})), 0, 12)
    api = FakeMessagesAPI(ScriptedModel([turn(tool_use("read_file", {"path": "a"})), step]))
    with FakeServer(api) as server:
        client = openai.OpenAI(api_key="k", base_url=server.url + "/v1", max_retries=0)
        chunks = streamed(client)
        assert calls_of(chunks)[0]["id"] == "call_001" and finish_of(chunks) == "tool_calls"
        with pytest.raises(openai.APIConnectionError):
            streamed(client)


# ---------------------------------------------------------------- the Messages wire's words


def test_a_chat_history_reads_as_tool_use_and_tool_result_blocks_with_the_scripts_ids():
    from lab.model.chat_view import neutral_body

    call = {"id": "call_001", "type": "function"}
    chat = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "Be brief."},
            *USER,
            {
                "role": "assistant",
                "content": "Looking.",
                "tool_calls": [
                    {**call, "function": {"name": "read_file", "arguments": '{"path": "a"}'}},
                    {**call, "id": "call_002", "function": {"name": "x", "arguments": '{"pa'}},
                ],
            },
            {"role": "tool", "tool_call_id": "call_002", "content": "B"},
            {
                "role": "tool",
                "tool_call_id": "call_001",
                "content": [{"type": "text", "text": "A"}],
            },
        ],
        "tools": TOOLS,
        "max_completion_tokens": 50,
    }
    body = neutral_body(chat)
    assert body["system"] == "Be brief." and body["max_tokens"] == 50
    assert body["tools"] == [{"name": "read_file", "input_schema": {"type": "object"}}]
    user, assistant, results = body["messages"]
    assert user == USER[0]
    assert assistant["content"] == [
        {"type": "text", "text": "Looking."},
        {"type": "tool_use", "id": "toolu_001", "name": "read_file", "input": {"path": "a"}},
        {"type": "tool_use", "id": "toolu_002", "name": "x", "input": {}, "raw_json": '{"pa'},
    ]
    assert results == {  # a run of tool messages is one user turn
        "role": "user",
        "content": [
            {"type": "tool_result", "tool_use_id": "toolu_002", "content": "B"},
            {"type": "tool_result", "tool_use_id": "toolu_001", "content": "A"},
        ],
    }
