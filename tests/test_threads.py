"""Message threads: the fake holds a conversation under a reply's id; the SDK's tool runner,
with its default settings (threads on), runs against it to the end."""

import json

import anthropic
import httpx2
import pytest
from anthropic import beta_tool

from lab.model import FakeMessagesAPI, ScriptedModel, tool_use, turn

THREADS_BETA = "message-threads-2026-08-12"
URL = "http://fake-anthropic.lab/v1/messages"
ASK = [{"role": "user", "content": "read a, then b and c"}]


def wired(script):
    """A real client in front of the fake, and the list of (headers, body) it put on the wire."""
    api = FakeMessagesAPI(ScriptedModel(script))
    wire = []

    def handler(request: httpx2.Request) -> httpx2.Response:
        wire.append((request.headers, json.loads(request.content)))
        return api(request)

    client = anthropic.Anthropic(
        api_key="sk-lab-fake",
        base_url="http://fake-anthropic.lab",
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
    )
    return client, api, wire


def post(api, body):
    return api(httpx2.Request("POST", URL, content=json.dumps(body).encode()))


READ_SCRIPT = [
    turn("Reading a.", tool_use("read_file", {"path": "a.txt"})),
    turn(tool_use("read_file", {"path": "b.txt"}), tool_use("read_file", {"path": "c.txt"})),
    turn("All three read."),
]


def test_the_sdk_tool_runner_with_default_settings_runs_a_tool_script_to_the_end():
    read = []

    @beta_tool
    def read_file(path: str) -> str:
        """Read a file."""
        read.append(path)
        return f"contents of {path}"

    client, api, wire = wired(READ_SCRIPT)
    runner = client.beta.messages.tool_runner(
        model="claude-lab-1", max_tokens=100, tools=[read_file], messages=ASK
    )
    answers = [message.stop_reason for message in runner]

    assert answers == ["tool_use", "tool_use", "end_turn"]
    assert read == ["a.txt", "b.txt", "c.txt"]
    assert api.rejections == [] and api.faults == [] and api.model.complete
    # On the wire: one `create` with the whole history and the tools, then `continue`s that
    # carry only the new turn (the tool results) and no tools, all under the threads beta.
    threads = [body.get("thread") for _, body in wire]
    assert threads == [
        {"type": "create"},
        {"type": "continue", "previous_message_id": "msg_001"},
        {"type": "continue", "previous_message_id": "msg_002"},
    ]
    assert [len(body["messages"]) for _, body in wire] == [1, 1, 1]
    assert ["tools" in body for _, body in wire] == [True, False, False]
    assert all(THREADS_BETA in headers["anthropic-beta"] for headers, _ in wire)
    # The model saw the whole conversation and the thread's tools every time.
    assert [len(body["messages"]) for body in api.requests] == [1, 3, 5]
    assert all([t["name"] for t in body["tools"]] == ["read_file"] for body in api.requests)
    last = api.requests[-1]["messages"]
    assert [block["type"] for block in last[-1]["content"]] == ["tool_result", "tool_result"]


def created(script=READ_SCRIPT):
    """A fake holding one thread: the answer to ASK, a call to read_file (msg_001)."""
    api = FakeMessagesAPI(ScriptedModel(script))
    body = {"model": "m", "max_tokens": 9, "messages": ASK, "thread": {"type": "create"}}
    response = post(
        api, {**body, "tools": [{"name": "read_file", "input_schema": {"type": "object"}}]}
    )
    assert response.status_code == 200 and response.json()["id"] == "msg_001"
    return api


def continued(reply_id, *messages, **fields):
    thread = {"type": "continue", "previous_message_id": reply_id}
    return {"model": "m", "max_tokens": 9, "messages": list(messages), "thread": thread, **fields}


RESULT_A = {"type": "tool_result", "tool_use_id": "toolu_001", "content": "a"}


def test_continue_judges_the_stored_history_plus_the_new_turn():
    api = created()
    response = post(api, continued("msg_001", {"role": "user", "content": "never mind"}))
    assert response.status_code == 400
    assert response.json()["error"]["message"].startswith(
        "messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: "
        "toolu_001."
    )
    good = post(api, continued("msg_001", {"role": "user", "content": [RESULT_A]}))
    assert good.status_code == 200 and good.json()["id"] == "msg_002"
    # ...and the extended history is held under the new reply's id.
    results = [
        {"type": "tool_result", "tool_use_id": i, "content": "x"}
        for i in ("toolu_002", "toolu_003")
    ]
    third = post(api, continued("msg_002", {"role": "user", "content": results}))
    assert third.status_code == 200 and third.json()["content"][0]["text"] == "All three read."
    assert len(api.requests[-1]["messages"]) == 5


def test_an_unknown_thread_gets_the_sdks_thread_not_found_404():
    api = created()
    client = anthropic.Anthropic(
        api_key="k",
        base_url="http://fake-anthropic.lab",
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(api)),
    )
    with pytest.raises(anthropic.NotFoundError) as caught:
        client.beta.messages.create(**continued("msg_404", {"role": "user", "content": "hi"}))
    assert caught.value.error_code == "thread_not_found"  # the SDK replays the full history
    assert caught.value.body["error"]["message"] == (
        "No usable Thread state was found for `previous_message_id`: msg_404"
    )
    assert api.model.calls == 1


def test_a_reply_is_continued_once_and_a_continue_keeps_the_threads_tools():
    api = created()
    again_tools = continued("msg_001", {"role": "user", "content": [RESULT_A]}, tools=[])
    refused = post(api, again_tools)
    assert refused.status_code == 400
    assert refused.json()["error"]["message"].startswith("tools: cannot be sent with `thread.type`")
    assert (
        post(api, continued("msg_001", {"role": "user", "content": [RESULT_A]})).status_code == 200
    )
    twice = post(api, continued("msg_001", {"role": "user", "content": [RESULT_A]}))
    assert twice.status_code == 400
    assert twice.json()["error"]["details"] == {"error_code": "thread_already_continued"}


def test_a_pause_turn_is_resumed_from_an_empty_continue():
    # The SDK sends `messages: []` to let the server resume an unfinished (pause_turn) turn.
    api = created([turn("Searching...", stop_reason="pause_turn"), turn("Found it.")])
    response = post(api, continued("msg_001"))
    assert response.status_code == 200 and response.json()["content"][0]["text"] == "Found it."
    assert post(api, {"model": "m", "max_tokens": 9, "messages": []}).status_code == 400


def test_the_server_holds_the_newest_threads_and_an_older_one_is_gone_as_the_api_says():
    from lab.model.history import Checked
    from lab.model.threads import HELD, Thread, ThreadError, Threads

    threads = Threads(held=2)
    for n in (1, 2, 3):
        threads.hold({"id": f"msg_{n}"}, Checked.empty(), {})
    gone = threads.resume({"thread": {"type": "continue", "previous_message_id": "msg_1"}})
    assert isinstance(gone, ThreadError) and (gone.status, gone.error_code) == (
        404,
        "thread_not_found",
    )
    for n in (2, 3):
        body = {"thread": {"type": "continue", "previous_message_id": f"msg_{n}"}}
        assert isinstance(threads.resume(body), Thread)
    assert Threads().held == HELD == 1000
