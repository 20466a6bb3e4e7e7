"""Thinking and server-tool answers through the real SDK, in JSON and as SSE: what a script's
thinking, redacted_thinking, server_tool_use and paused turns look like on the wire, that the
fake takes back what it signed and refuses it changed, and what a cut call carries."""

import json

import anthropic
import httpx2
import pytest
from anthropic.types import (
    RedactedThinkingBlock,
    ServerToolUseBlock,
    ThinkingBlock,
    WebSearchToolResultBlock,
)

from lab.model import (
    FakeMessagesAPI,
    ScriptedModel,
    cut_inside,
    cut_off,
    paused,
    redacted_thinking,
    scripted_client,
    server_tool_use,
    stream_dropped,
    text,
    thinking,
    tool_use,
    turn,
    web_search_result,
)
from lab.model.fake_api import UNSCRIPTED_THOUGHT
from lab.model.server import FakeServer
from lab.model.signing import SIGNER, Signer
from lab.model.validation import MODIFIED

TOOLS = [{"name": "bash", "input_schema": {"type": "object"}}]
ON = {"type": "enabled", "budget_tokens": 1024}
THINKING_LOOP = turn(
    thinking("I should list the files."),
    text("Listing."),
    thinking("Then read one."),
    tool_use("bash", {"command": "ls"}),
)


def ask(client, messages, stream, **fields):
    request = {"model": "m", "max_tokens": 2048, "messages": messages, "tools": TOOLS, **fields}
    if not stream:
        return client.messages.create(**request)
    with client.messages.stream(**request) as events:
        return events.get_final_message()


def sent_back(message):
    """The assistant turn as a harness sends it back: every block as it came."""
    return {
        "role": "assistant",
        "content": [b.model_dump(exclude_none=True) for b in message.content],
    }


def result_of(message):
    (call,) = [b for b in message.content if b.type == "tool_use"]
    return {
        "role": "user",
        "content": [{"type": "tool_result", "tool_use_id": call.id, "content": "a b"}],
    }


@pytest.mark.parametrize("stream", [False, True])
def test_thinking_interleaved_with_text_and_a_call_arrives_signed(stream):
    client, api = scripted_client([THINKING_LOOP, turn("done")])
    question = [{"role": "user", "content": "go"}]
    answer = ask(client, question, stream, thinking=ON)
    assert [b.type for b in answer.content] == ["thinking", "text", "thinking", "tool_use"]
    assert isinstance(answer.content[0], ThinkingBlock)
    first = answer.content[0]
    assert first.thinking == "I should list the files."
    assert SIGNER.signed(first.thinking, first.signature)
    history = [*question, sent_back(answer), result_of(answer)]
    # With a budget every answer starts with thinking: the fake adds one the script left out.
    done = ask(client, history, stream, thinking=ON)
    assert [b.type for b in done.content] == ["thinking", "text"] and done.content[1].text == "done"
    assert done.content[0].thinking == UNSCRIPTED_THOUGHT
    assert api.rejections == []


def events_of(step, **fields):
    """The data of every SSE event the fake streams for `step`."""
    body = {"model": "m", "max_tokens": 2048, "tools": TOOLS, "stream": True, **fields}
    body["messages"] = [{"role": "user", "content": "go"}]
    api = FakeMessagesAPI(ScriptedModel([step]))
    raw = api(httpx2.Request("POST", "http://x/v1/messages", content=json.dumps(body).encode()))
    got = b""
    try:
        for chunk in raw.iter_bytes():
            got += chunk
    except httpx2.RemoteProtocolError:  # a dropped stream: what came before the drop
        pass
    lines = got.decode().splitlines()
    return [json.loads(line[6:]) for line in lines if line.startswith("data: ")]


def test_a_stream_carries_thinking_and_signature_deltas_as_the_real_api_streams_them():
    events = events_of(THINKING_LOOP, thinking=ON)
    first = [e for e in events if e.get("index") == 0]
    assert first[0]["content_block"] == {"type": "thinking", "thinking": "", "signature": ""}
    deltas = [e["delta"]["type"] for e in first if e["type"] == "content_block_delta"]
    assert set(deltas[:-1]) == {"thinking_delta"} and deltas[-1] == "signature_delta"
    assert first[-1]["type"] == "content_block_stop"


@pytest.mark.parametrize("stream", [False, True])
def test_a_changed_thinking_block_sent_back_is_refused_with_the_real_text(stream):
    client, api = scripted_client([THINKING_LOOP])
    question = [{"role": "user", "content": "go"}]
    answer = ask(client, question, stream, thinking=ON)
    back = sent_back(answer)
    back["content"][2]["thinking"] = "Then read one, quickly."  # a harness that edits it
    with pytest.raises(anthropic.BadRequestError) as refused:
        ask(client, [*question, back, result_of(answer)], stream, thinking=ON)
    assert refused.value.status_code == 400
    assert api.rejections[-1].message == f"messages.1.content.2: {MODIFIED}"


@pytest.mark.parametrize("stream", [False, True])
def test_redacted_thinking_is_sealed_and_taken_back_unchanged(stream):
    client, api = scripted_client([turn(redacted_thinking(), tool_use("bash")), turn("done")])
    question = [{"role": "user", "content": "go"}]
    answer = ask(client, question, stream, thinking=ON)
    sealed = answer.content[0]
    assert isinstance(sealed, RedactedThinkingBlock) and SIGNER.sealed(sealed.data)
    assert "withheld" not in sealed.data  # opaque, as the real blob
    ask(client, [*question, sent_back(answer), result_of(answer)], stream, thinking=ON)
    assert api.rejections == []


def test_another_key_signs_differently_and_the_fake_checks_with_its_own():
    other = Signer(b"another server")
    assert other.sign("t") != SIGNER.sign("t") and not SIGNER.signed("t", other.sign("t"))
    assert not SIGNER.sealed(other.seal("t")) and not SIGNER.sealed("not base64!")


@pytest.mark.parametrize("stream", [False, True])
def test_a_server_tool_loop_pauses_and_is_taken_back(stream):
    step = paused(
        text("Searching."),
        server_tool_use("web_search", {"query": "q"}),
        web_search_result("https://a.example"),
    )
    client, api = scripted_client([step, turn("found it")])
    tools = [*TOOLS, {"type": "web_search_20250305", "name": "web_search"}]
    question = [{"role": "user", "content": "search"}]
    answer = ask(client, question, stream, tools=tools)
    assert answer.stop_reason == "pause_turn"
    assert [b.type for b in answer.content] == ["text", "server_tool_use", "web_search_tool_result"]
    assert isinstance(answer.content[1], ServerToolUseBlock)
    assert isinstance(answer.content[2], WebSearchToolResultBlock)
    assert answer.content[1].id == "srvtoolu_001" == answer.content[2].tool_use_id
    assert answer.content[1].input == {"query": "q"}
    again = ask(client, [*question, sent_back(answer)], stream, tools=tools)
    assert again.content[0].text == "found it" and api.rejections == []


WHOLE = {"command": "rm -rf build", "dry_run": True, "paths": ["a", "b"]}


def test_a_non_streamed_cut_carries_only_the_parameters_that_were_whole():
    # Cut inside the list: the API buffers each parameter until it is complete, so the cut
    # list is missing entirely (not its complete items, as a lenient parse of the text gives).
    keep = json.dumps(WHOLE).index('"b"')
    client, api = scripted_client([cut_off(turn(tool_use("bash", WHOLE)), keep_chars=keep)])
    answer = ask(client, [{"role": "user", "content": "go"}], stream=False)
    assert answer.stop_reason == "max_tokens"
    assert answer.content[0].input == {"command": "rm -rf build", "dry_run": True}


def test_a_cut_just_before_the_brace_keeps_every_parameter_in_both_modes():
    whole = json.dumps(WHOLE)
    for stream in (False, True):
        client, _ = scripted_client(
            [cut_off(turn(tool_use("bash", WHOLE)), keep_chars=len(whole) - 1)]
        )
        assert ask(client, [{"role": "user", "content": "go"}], stream).content[0].input == WHOLE


def test_cut_inside_leaves_a_streamed_input_no_parser_completes():
    step = cut_inside(turn(tool_use("bash", WHOLE)))
    client, _ = scripted_client([step])
    plain = ask(client, [{"role": "user", "content": "go"}], stream=False)
    assert plain.content[0].input == {"command": "rm -rf build", "dry_run": True}
    events = events_of(step)
    streamed = "".join(
        e["delta"]["partial_json"]
        for e in events
        if e.get("delta", {}).get("type") == "input_json_delta"
    )
    assert streamed == json.dumps(WHOLE)[:-2]
    with pytest.raises(json.JSONDecodeError):
        json.loads(streamed)


def test_thinking_steps_play_through_a_loopback_server_byte_for_byte_as_in_process():
    body = {"model": "m", "max_tokens": 2048, "stream": True, "thinking": ON, "tools": TOOLS}
    body["messages"] = [{"role": "user", "content": "go"}]
    content = json.dumps(body).encode()
    in_process = FakeMessagesAPI(ScriptedModel([THINKING_LOOP]))(
        httpx2.Request("POST", "http://x/v1/messages", content=content)
    ).read()
    with FakeServer(FakeMessagesAPI(ScriptedModel([THINKING_LOOP]))) as server:
        over_loopback = httpx2.post(f"{server.url}/v1/messages", content=content).content
    assert over_loopback == in_process


def test_with_a_budget_a_fault_step_gets_its_thinking_first_and_its_block_numbers_follow():
    step = stream_dropped(turn(text("Running."), tool_use("bash", {"command": "ls -la"})), block=1)
    events = events_of(step, thinking=ON)
    starts = [e["content_block"]["type"] for e in events if e["type"] == "content_block_start"]
    assert starts == ["thinking", "text", "tool_use"]  # the drop is still inside the call
    stops = [e["index"] for e in events if e["type"] == "content_block_stop"]
    assert stops == [0, 1] and events[-1]["type"] == "content_block_delta"
