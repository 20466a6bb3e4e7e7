"""The fault steps of the script DSL, seen through the real SDK: HTTP errors with the real body
and headers, a stream's error event, a dropped connection, a tool input cut by max_tokens.
"""

from __future__ import annotations

import anthropic
import httpx2
import pytest

from lab.model import (
    ApiError,
    FakeMessagesAPI,
    ScriptedModel,
    cut_off,
    overloaded,
    rate_limited,
    scripted_client,
    server_error,
    stream_dropped,
    stream_error,
    text,
    tool_use,
    turn,
)
from lab.model.fake_api import DROPPED, complete_fields

ASK = [{"role": "user", "content": "go"}]
CLEANUP = turn(
    text("Cleaning up."),
    tool_use("clean_workspace", {"path": "/workspace", "keep": ["src", "docs"]}),
)


def create(client: anthropic.Anthropic) -> anthropic.types.Message:
    return client.messages.create(model="m", max_tokens=9, messages=ASK)


def streamed(client: anthropic.Anthropic) -> tuple[list, anthropic.lib.streaming.MessageStream]:
    """Stream one answer; returns the events seen and the stream (for its snapshot)."""
    events: list = []
    with client.messages.stream(model="m", max_tokens=9, messages=ASK) as stream:
        for event in stream:
            events.append(event)
    return events, stream


# ---- HTTP errors --------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("step", "error_class", "status", "error_type"),
    [
        (rate_limited(2.5), anthropic.RateLimitError, 429, "rate_limit_error"),
        (overloaded(), anthropic.OverloadedError, 529, "overloaded_error"),
        (server_error(), anthropic.InternalServerError, 500, "api_error"),
    ],
)
def test_http_errors_have_the_real_body_and_status(step, error_class, status, error_type):
    client, api = scripted_client([step])
    with pytest.raises(error_class) as caught:
        create(client)
    error = caught.value
    assert error.status_code == status
    assert error.body == {
        "type": "error",
        "error": {"type": error_type, "message": step.message},
        "request_id": "req_001",
    }
    assert error.response.headers["request-id"] == "req_001"
    assert error.response.headers["content-type"] == "application/json"
    assert [(f.status, f.error_type) for f in api.faults] == [(status, error_type)]


def test_only_a_rate_limit_says_when_to_come_back():
    client, _ = scripted_client([rate_limited(2.5), overloaded(), ApiError(retry_after=3)])
    headers = []
    for _ in range(3):
        with pytest.raises(anthropic.APIStatusError) as caught:
            create(client)
        headers.append(caught.value.response.headers.get("retry-after"))
    assert headers == ["2.5", None, "3"]


# ---- a stream's error event ------------------------------------------------------------------
def test_stream_error_sends_the_first_blocks_then_the_real_error_event():
    client, api = scripted_client([stream_error(CLEANUP, after_blocks=1)])
    with pytest.raises(anthropic.APIStatusError) as caught:
        streamed(client)
    error = caught.value
    assert error.status_code == 200  # the HTTP answer had begun: the status was 200
    assert error.body == {
        "type": "error",
        "error": {"type": "overloaded_error", "message": "Overloaded"},
    }


def test_the_error_event_comes_after_whole_blocks_and_nothing_follows_it():
    api = FakeMessagesAPI(ScriptedModel([stream_error(CLEANUP, after_blocks=2)]))
    request = httpx2.Request(
        "POST",
        "http://fake/v1/messages",
        json={"model": "m", "max_tokens": 9, "messages": ASK, "stream": True},
    )
    body = api(request).read().decode()
    names = [
        line.removeprefix("event: ") for line in body.splitlines() if line.startswith("event:")
    ]
    assert names[0] == "message_start" and names[-1] == "error"
    assert names.count("content_block_stop") == 2
    assert "message_delta" not in names and "message_stop" not in names
    assert body.endswith(
        'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n'
    )


def test_the_snapshot_of_a_failed_stream_holds_what_arrived():
    client, _ = scripted_client([stream_error(CLEANUP, after_blocks=1)])
    with (
        pytest.raises(anthropic.APIStatusError),
        client.messages.stream(model="m", max_tokens=9, messages=ASK) as stream,
    ):
        for _ in stream:
            pass
    snapshot = stream.current_message_snapshot
    assert [b.type for b in snapshot.content] == ["text"]
    assert snapshot.stop_reason is None


def test_a_stream_error_on_a_plain_request_is_the_same_failure_before_the_body():
    client, api = scripted_client(
        [stream_error(CLEANUP, type="api_error", message="boom"), stream_error(CLEANUP)]
    )
    with pytest.raises(anthropic.InternalServerError, match="boom"):
        create(client)
    with pytest.raises(anthropic.OverloadedError):
        create(client)
    assert [f.status for f in api.faults] == [500, 529]


# ---- a dropped connection --------------------------------------------------------------------
def test_a_dropped_stream_raises_the_transport_error_inside_the_tool_json():
    client, api = scripted_client([stream_dropped(CLEANUP, block=1, after_chars=30)])
    with (
        pytest.raises(httpx2.RemoteProtocolError, match="incomplete chunked read"),
        client.messages.stream(model="m", max_tokens=9, messages=ASK) as stream,
    ):
        for _ in stream:
            pass
    snapshot = stream.current_message_snapshot
    assert snapshot.stop_reason is None  # no message_delta ever came
    call = snapshot.content[1]
    # 30 characters of '{"path": "/workspace", "keep": ["src", "docs"]}' arrived
    assert call.type == "tool_use" and call.input == {"path": "/workspace"}
    assert [(f.status, f.error_type, f.message) for f in api.faults] == [
        (200, "connection_dropped", DROPPED)
    ]
    assert api.replies == []  # no answer was completed


def test_a_drop_on_a_plain_request_is_a_connection_error():
    client, _ = scripted_client([stream_dropped(CLEANUP)])
    with pytest.raises(anthropic.APIConnectionError):
        create(client)


def test_a_drop_inside_a_text_block_cuts_its_text():
    client, _ = scripted_client([stream_dropped(turn("Hello there, world"), after_chars=5)])
    with (
        pytest.raises(httpx2.RemoteProtocolError),
        client.messages.stream(model="m", max_tokens=9, messages=ASK) as stream,
    ):
        for _ in stream:
            pass
    assert stream.current_message_snapshot.content[0].text == "Hello"


# ---- max_tokens inside a tool_use's input ------------------------------------------------------
def test_cut_off_streams_the_cut_json_and_the_sdk_keeps_the_complete_fields():
    client, api = scripted_client([cut_off(CLEANUP, keep_chars=42)])
    events, stream = streamed(client)
    wire = "".join(
        e.delta.partial_json
        for e in events
        if e.type == "content_block_delta" and e.delta.type == "input_json_delta"
    )
    assert wire == '{"path": "/workspace", "keep": ["src", "do'
    message = stream.get_final_message()
    assert message.stop_reason == "max_tokens"
    assert message.content[1].input == {"path": "/workspace", "keep": ["src"]}
    assert api.cut_calls == ["toolu_001"]


def test_cut_off_not_streamed_sends_the_complete_fields():
    cut = cut_off(
        turn(tool_use("clean_workspace", {"path": "/workspace", "dry_run": True})), keep_chars=36
    )
    client, api = scripted_client([cut])
    message = create(client)
    assert message.stop_reason == "max_tokens"
    assert message.content[0].input == {"path": "/workspace"}  # dry_run: tr… was dropped
    assert api.replies[0]["content"][0]["input"] == {"path": "/workspace"}
    assert "raw_json" not in api.replies[0]["content"][0]


@pytest.mark.parametrize(
    ("cut", "kept"),
    [
        ('{"path": "/workspace", "dry_run": tr', {"path": "/workspace"}),
        ('{"path": "/workspace", "keep": ["src", "do', {"path": "/workspace", "keep": ["src"]}),
        ('{"path": "/tm', {}),
        ("", {}),
        ("not json", {}),
    ],
)
def test_complete_fields_is_what_the_sdk_makes_of_a_cut_stream(cut, kept):
    assert complete_fields(cut) == kept
    if cut.startswith("{"):  # the SDK's accumulator, on the same bytes
        client, _ = scripted_client([turn(tool_use("t", raw_json=cut), stop_reason="max_tokens")])
        _, stream = streamed(client)
        assert stream.get_final_message().content[0].input == kept


def test_fault_turns_get_ids_and_the_script_replays_identically():
    script = [stream_error(CLEANUP, after_blocks=2), cut_off(CLEANUP), CLEANUP]

    def play() -> list:
        model = ScriptedModel(script)
        return [model.respond(None) for _ in script]  # type: ignore[arg-type]

    first = play()
    assert first[0].turn.blocks[1]["id"] == "toolu_001"
    assert first[1].turn.blocks[1]["id"] == "toolu_002"
    assert first[2].blocks[1]["id"] == "toolu_003"
    assert play() == first
    assert script[0].turn.blocks[1]["id"] is None  # the script itself is untouched


def test_refusal_and_pause_turn_are_declared_as_written():
    client, _ = scripted_client(
        [turn("I can't help with that.", stop_reason="refusal"), turn(stop_reason="pause_turn")]
    )
    assert create(client).stop_reason == "refusal"
    _, stream = streamed(client)
    assert stream.get_final_message().stop_reason == "pause_turn"
