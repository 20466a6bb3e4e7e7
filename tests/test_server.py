"""The loopback server: any path prefix and query, polite probes, real stream headers, chunks
written as produced, and a dropped stream that really drops."""

import socket
import threading

import anthropic
import httpx2
import pytest

from lab.model import FakeMessagesAPI, ScriptedModel, tool_use, turn
from lab.model.fake_api import READ_AHEAD
from lab.model.server import FakeServer

ASK = [{"role": "user", "content": "hi"}]
SSE = {"content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache"}


def test_any_path_prefix_and_query_a_client_adds_reaches_the_api():
    api = FakeMessagesAPI(ScriptedModel([turn("one"), turn("two"), turn("three")]))
    with FakeServer(api) as server:
        plain = anthropic.Anthropic(api_key="k", base_url=server.url, max_retries=0)
        prefixed = anthropic.Anthropic(
            api_key="k", base_url=f"{server.url}/anthropic", max_retries=0
        )
        # The beta client posts to /v1/messages?beta=true.
        beta = plain.beta.messages.create(model="m", max_tokens=5, messages=ASK)
        proxied = prefixed.messages.create(model="m", max_tokens=5, messages=ASK)
        with plain.messages.stream(model="m", max_tokens=5, messages=ASK) as stream:
            streamed = stream.get_final_message()
    assert [m.content[0].text for m in (beta, proxied, streamed)] == ["one", "two", "three"]
    assert api.rejections == []


def test_get_and_head_probes_are_answered_and_the_server_keeps_serving():
    api = FakeMessagesAPI(ScriptedModel([turn("still here")]))
    with FakeServer(api) as server, httpx2.Client(base_url=server.url) as http:
        assert http.head("/").status_code == 200
        assert http.get("/").status_code == 200
        assert http.head("/v1/messages").status_code == 200
        models = http.get("/v1/models?limit=20")
        assert models.status_code == 200 and models.json()["data"][0]["id"] == "claude-lab-1"
        after = http.post("/v1/messages", json={"model": "m", "max_tokens": 5, "messages": ASK})
    assert after.status_code == 200 and after.json()["content"][0]["text"] == "still here"


def test_a_stream_has_the_real_headers_and_is_chunked():
    api = FakeMessagesAPI(ScriptedModel([turn("hello there", tool_use("bash", {"c": "ls"}))]))
    body = {"model": "m", "max_tokens": 5, "messages": ASK, "stream": True}
    with FakeServer(api) as server, httpx2.Client(base_url=server.url) as http:
        with http.stream("POST", "/v1/messages", json=body) as response:
            events = response.read()
    assert response.status_code == 200
    for name, value in SSE.items():
        assert response.headers[name] == value
    assert response.headers["transfer-encoding"] == "chunked"
    assert "content-length" not in response.headers
    assert response.headers["request-id"] == "req_001"
    assert events.startswith(b"event: message_start\n") and events.endswith(b'message_stop"}\n\n')


def gated_stream(gate: threading.Event, produced: list[str], *, drop: bool = False):
    """A handler whose streamed body waits at the gate after its first event."""

    def events():
        produced.append("first")
        yield b'event: ping\ndata: {"type":"ping"}\n\n'
        gate.wait(timeout=5)
        produced.append("second")
        yield b'event: content_block_delta\ndata: {"type":"content_blo'
        if drop:
            raise httpx2.RemoteProtocolError(
                "peer closed connection without sending complete message body "
                "(incomplete chunked read)"
            )
        yield b'ck_delta"}\n\n'

    def handler(request: httpx2.Request) -> httpx2.Response:
        return httpx2.Response(200, headers=SSE, content=events())

    return handler


def test_chunks_are_written_as_the_answer_produces_them():
    gate, produced = threading.Event(), []
    with FakeServer(gated_stream(gate, produced)) as server, httpx2.Client() as http:
        with http.stream("POST", f"{server.url}/v1/messages", content=b"{}") as response:
            chunks = response.iter_raw()
            first = next(chunks)
            # The first event reached the client while the answer was still held at the gate.
            assert produced == ["first"] and first.startswith(b"event: ping")
            gate.set()
            rest = b"".join(chunks)
    assert rest.endswith(b'ck_delta"}\n\n') and produced == ["first", "second"]


def test_a_dropped_stream_closes_the_socket_without_the_terminating_chunk():
    gate, produced = threading.Event(), []
    gate.set()
    with FakeServer(gated_stream(gate, produced, drop=True)) as server:
        port = int(server.url.rsplit(":", 1)[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5) as raw:
            raw.sendall(b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}")
            received = b""
            while data := raw.recv(65536):  # b"": the server closed the connection
                received += data
    head, _, body = received.partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower()
    assert body.endswith(b'{"type":"content_blo\r\n')  # the last chunk written, in full
    assert not body.endswith(b"0\r\n\r\n")  # and never the chunk that ends the body


def test_through_the_sdk_a_dropped_stream_is_an_incomplete_chunked_read():
    gate, produced = threading.Event(), []
    gate.set()
    with FakeServer(gated_stream(gate, produced, drop=True)) as server:
        client = anthropic.Anthropic(api_key="k", base_url=server.url, max_retries=0)
        with pytest.raises(httpx2.RemoteProtocolError, match="incomplete chunked read"):
            with client.messages.stream(model="m", max_tokens=5, messages=ASK) as stream:
                stream.get_final_message()


def test_the_scripts_dropped_stream_and_stream_error_cross_the_socket_as_they_are():
    from lab.model import stream_dropped, stream_error

    calls = turn("Cleaning up.", tool_use("clean", {"path": "/workspace", "dry_run": True}))
    api = FakeMessagesAPI(ScriptedModel([stream_dropped(calls, block=1), stream_error(calls)]))
    with FakeServer(api) as server:
        client = anthropic.Anthropic(api_key="k", base_url=server.url, max_retries=0)
        seen = []
        with pytest.raises(httpx2.RemoteProtocolError, match="incomplete chunked read"):
            with client.messages.stream(model="m", max_tokens=5, messages=ASK) as stream:
                for event in stream:
                    seen.append(event.type)
        assert "content_block_delta" in seen and "message_stop" not in seen  # cut mid-answer
        with pytest.raises(anthropic.APIStatusError, match="Overloaded"):
            with client.messages.stream(model="m", max_tokens=5, messages=ASK) as stream:
                stream.get_final_message()
    assert [f.error_type for f in api.faults] == ["connection_dropped", "overloaded_error"]


def test_a_small_request_is_answered_while_a_large_history_is_judged():
    """The large request is judged outside the server's lock: the small one, sent once the large
    one's judging began, is answered while the large one is held there (the order of the
    answers, not their times). A server that judged under its lock could not answer the small
    one: the hold would give up after a minute and say so."""
    api = FakeMessagesAPI(ScriptedModel(lambda request: turn("ok")))
    judging, small_answered = threading.Event(), threading.Event()
    answered: list[str] = []
    read: list = []

    class Held:
        """The fake, whose judging of the large request waits until the small one is answered."""

        def __call__(self, request: httpx2.Request) -> httpx2.Response:
            return api(request)

        def read_ahead(self, request: httpx2.Request) -> None:
            if len(request.content) > 10_000:
                judging.set()
                if not small_answered.wait(timeout=60):
                    answered.append("the small request was not answered within 60 s")
            api.read_ahead(request)
            read.append(request.extensions.get(READ_AHEAD))

    large = [{"role": ("user", "assistant")[i % 2], "content": f"m{i}"} for i in range(2_001)]

    def ask(name: str, messages: list) -> None:
        with httpx2.Client(base_url=server.url, timeout=600) as http:
            reply = http.post(
                "/v1/messages", json={"model": "m", "max_tokens": 5, "messages": messages}
            )
        answered.append(f"{name} {reply.status_code}")

    with FakeServer(Held(), read_timeout=600) as server:
        first = threading.Thread(target=ask, args=("large", large))
        first.start()
        assert judging.wait(timeout=600), "the large request never reached the fake"
        ask("small", ASK)
        small_answered.set()
        first.join()
    assert answered == ["small 200", "large 200"]
    assert api.model.calls == 2 and api.rejections == []
    # What read_ahead did outside the lock is the judging: the whole large history, passed.
    (large_read,) = [r for r in read if len(r.body["messages"]) == len(large)]
    assert large_read.judged.new == large and large_read.judged.problem is None


def test_read_ahead_judges_the_headers_and_the_request_rules_and_keeps_nothing():
    """Issue 28's rules are judged in read_ahead too (outside the server's lock): a header, a
    body rule and a rule that needs the history each come back as read_ahead's verdict, while
    the fake's records stay empty; the answer under the lock then gives that verdict."""
    api = FakeMessagesAPI(ScriptedModel(lambda request: turn("ok")))
    credentials = {"x-api-key": "k", "anthropic-version": "2023-06-01"}
    call = {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"cmd": "ls"}}
    loop = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [call]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_1"}]},
    ]
    cases = [  # (headers, body fields, the start of the refusal)
        ({"x-api-key": "k"}, {}, "anthropic-version: header is required"),
        (credentials, {"temperature": 0.5, "top_p": 0.9}, "`temperature` and `top_p`"),
        (credentials, {"messages": loop}, "Requests which include tool_use or tool_result"),
    ]
    for headers, fields, refusal in cases:
        body = {"model": "m", "max_tokens": 5, "messages": ASK} | fields
        request = httpx2.Request("POST", "http://lab/v1/messages", json=body, headers=headers)
        api.read_ahead(request)
        read = request.extensions[READ_AHEAD]
        problem = read.refused[2] if read.refused else read.judged.problem
        assert problem.startswith(refusal)
        assert len(api.requests) == 0 and api.rejections == [] and api.model.calls == 0
        answer = api(request)
        assert (answer.status_code, answer.json()["error"]["message"]) == (400, problem)
        api.forget()
    assert api.model.calls == 0
