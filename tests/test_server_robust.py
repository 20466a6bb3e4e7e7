"""A loopback server nothing knocks over: every request, however it is framed, gets an answer in
the API's JSON shape over a real socket, and nothing reaches stderr."""

import json
import socket
import time

import httpx2
import pytest

from lab.kernel.record import Tap, WatchedModel
from lab.model import FakeMessagesAPI, ScriptedModel, stream_dropped, turn
from lab.model.fake_api import TOO_LARGE
from lab.model.framing import MAX_REQUEST_BYTES
from lab.model.server import FakeServer
from lab.probe.recorder import Recorder

BODY = json.dumps({"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]})
TIMEOUT = 0.3  # the server's read timeout in these tests, seconds


def answering():
    return FakeMessagesAPI(ScriptedModel(lambda request: turn("ok")))


def post(body: bytes, headers: bytes = b"") -> bytes:
    head = b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n" + headers
    return head + b"Content-Length: %d\r\n\r\n" % len(body) + body


def exchange(server: FakeServer, frame: bytes, *, close: bool = True) -> bytes:
    """Send `frame` over a raw socket; everything the server sends until it closes."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(frame)
        if close:
            raw.shutdown(socket.SHUT_WR)
        received = b""
        while data := raw.recv(1 << 16):
            received += data
    return received


def first_answer(server: FakeServer, frame: bytes) -> bytes:
    """Send `frame` and keep the connection open: the one whole answer the server sends (read
    by its Content-Length), without waiting for the server to close. A server that waits for
    more bytes before answering holds this read until its read timeout."""
    port = int(server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=60) as raw:
        raw.sendall(frame)
        received = b""
        while b"\r\n\r\n" not in received or len(received) < whole_length(received):
            data = raw.recv(1 << 16)
            assert data, f"the server closed the connection after {received!r}"
            received += data
    return received


def whole_length(received: bytes) -> int:
    head, _, _ = received.partition(b"\r\n\r\n")
    lengths = [line for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")]
    return len(head) + 4 + int(lengths[0].split(b":", 1)[1])


def answer(received: bytes) -> tuple[int, dict]:
    """The status and the JSON body of one whole answer (which announces its length)."""
    head, _, body = received.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = next(
        int(line.split(b":", 1)[1])
        for line in head.split(b"\r\n")
        if line.lower().startswith(b"content-length:")
    )
    assert len(body) == length
    return status, json.loads(body)


def error(received: bytes) -> tuple[int, str, str]:
    status, body = answer(received)
    return status, body["error"]["type"], body["error"]["message"]


@pytest.fixture
def quiet(capfd):
    """Checks, after the test, that the server wrote nothing to stderr (no traceback)."""
    yield
    assert capfd.readouterr().err == ""


def test_json_nested_past_any_depth_limit_is_a_400_even_through_the_recorder(quiet):
    deep = b'{"model":"m","max_tokens":5,"messages":' + b"[" * 5000 + b"]" * 5000 + b"}"
    recorder = Recorder(Tap(FakeMessagesAPI(WatchedModel(lambda request: turn("ok")))))
    with FakeServer(recorder, read_timeout=TIMEOUT) as server:
        status, kind, message = error(exchange(server, post(deep)))
    assert (status, kind) == (400, "invalid_request_error")
    assert message.startswith("The request body is not valid JSON: recursion limit exceeded")
    assert recorder.exchanges[0].status == 400 and recorder.exchanges[0].body is None


def test_header_values_that_are_not_ascii_are_no_problem(quiet):
    headers = b"X-Name: caf\xc3\xa9\r\nX-Raw: \xff\xfe\r\n"
    with FakeServer(answering(), read_timeout=TIMEOUT) as server:
        status, body = answer(exchange(server, post(BODY.encode(), headers)))
    assert status == 200 and body["content"] == [{"type": "text", "text": "ok"}]


@pytest.mark.parametrize("method", ["PUT", "DELETE", "PATCH", "OPTIONS", "FROB"])
def test_any_method_gets_the_json_404_the_in_process_fake_gives(quiet, method):
    in_process = answering()(httpx2.Request(method, "http://127.0.0.1/v1/messages"))
    with FakeServer(answering(), read_timeout=TIMEOUT) as server:
        frame = f"{method} /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"
        status, body = answer(exchange(server, frame.encode()))
    assert status == in_process.status_code == 404
    assert body["error"] == in_process.json()["error"]
    assert body["error"] == {"type": "not_found_error", "message": "Not found"}  # the real 404


BROKEN_FRAMES = {
    "a length that is not a number": (
        b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n",
        "invalid Content-Length header: 'abc' is not a whole number",
    ),
    "a negative length": (
        b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: -5\r\n\r\n",
        "invalid Content-Length header: '-5' is not a whole number",
    ),
    "two lengths that disagree": (
        b"POST /v1/messages HTTP/1.1\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}",
        "conflicting Content-Length headers: '2', '3'",
    ),
    "a chunk size that is not hex": (
        b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        "malformed chunked request body: chunk size 'zz' is not a hex number",
    ),
    "a transfer coding other than chunked": (
        b"POST /v1/messages HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n",
        "unsupported Transfer-Encoding: 'gzip' (only chunked is accepted)",
    ),
    "a request line without a version": (b"GET /\r\n", "the request line has no HTTP version"),
    "an HTTP/2 request line": (b"GET / HTTP/2.0\r\n\r\n", "Invalid HTTP version (2.0)"),
    "a body cut short by the client": (
        b"POST /v1/messages HTTP/1.1\r\nContent-Length: 100\r\n\r\n{}",
        "request body incomplete: 2 of the 100 bytes announced arrived, then the client "
        "closed the connection",
    ),
}


@pytest.mark.parametrize("case", BROKEN_FRAMES)
def test_a_broken_frame_is_a_json_400_naming_the_problem(quiet, case):
    frame, problem = BROKEN_FRAMES[case]
    api = answering()
    with FakeServer(api, read_timeout=TIMEOUT) as server:
        assert error(exchange(server, frame)) == (400, "invalid_request_error", problem)
        after = exchange(server, post(BODY.encode()))  # and the server keeps serving
    assert answer(after)[0] == 200 and api.model.calls == 1


# Each answered at once, the client keeping its connection open: the server's read timeout in
# these tests is a minute, so a server that waited for more bytes would fail the assertion
# (it would answer 400 "incomplete" after the minute, or close with nothing).
AT_ONCE = {
    "9 empty lines before the request line": (
        b"\r\n" * 9 + b"POST /v1/messages HTTP/1.1\r\nContent-Length: 2\r\n\r\n{}",
        400,
        "invalid_request_error",
        "more than 8 empty lines before the request line",
    ),
    "40 bare newlines before the request line": (
        b"\n" * 40 + b"GET / HTTP/1.1\r\n\r\n",
        400,
        "invalid_request_error",
        "more than 8 empty lines before the request line",
    ),
    "an HTTP/0.9 request line, nothing after it": (
        b"GET /\r\n",
        400,
        "invalid_request_error",
        "the request line has no HTTP version",
    ),
    "a length of 99999999999 with a short body": (
        b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999\r\n\r\n{}",
        413,
        "request_too_large",
        "Request exceeds the maximum size",
    ),
}


@pytest.mark.parametrize("case", AT_ONCE)
def test_a_malformed_request_gets_its_json_answer_at_once(quiet, case):
    frame, status, kind, message = AT_ONCE[case]
    api = answering()
    with FakeServer(api, read_timeout=60) as server:
        assert error(first_answer(server, frame)) == (status, kind, message)
        after = first_answer(server, post(BODY.encode()))  # and the server keeps serving
    assert answer(after)[0] == 200 and api.model.calls == 1


def test_8_empty_lines_before_a_request_line_are_skipped(quiet):
    with FakeServer(answering(), read_timeout=60) as server:
        status, body = answer(first_answer(server, b"\r\n" * 8 + post(BODY.encode())))
    assert status == 200 and body["content"] == [{"type": "text", "text": "ok"}]


def test_a_body_that_stops_arriving_is_a_400_once_the_read_timeout_passes(quiet):
    with FakeServer(answering(), read_timeout=TIMEOUT) as server:
        started = time.monotonic()
        # The client keeps the connection open and sends nothing more.
        frame = b"POST /v1/messages HTTP/1.1\r\nContent-Length: 100\r\n\r\n{"
        received = exchange(server, frame, close=False)
        waited = time.monotonic() - started
    assert error(received) == (
        400,
        "invalid_request_error",
        f"request body incomplete: 1 of the 100 bytes announced arrived, then nothing more "
        f"came for {TIMEOUT:g} s",
    )
    assert waited >= TIMEOUT  # answered only once the timeout passed, not before


def test_a_body_over_32_mb_is_the_real_413_in_process_and_over_loopback(quiet):
    big = b"{" + b" " * MAX_REQUEST_BYTES + b"}"
    in_process = answering()(httpx2.Request("POST", "http://x/v1/messages", content=big))
    assert in_process.status_code == 413 and in_process.content == TOO_LARGE
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(big), big)
    with FakeServer(answering(), read_timeout=TIMEOUT) as server:
        by_length = exchange(server, post(big))
        by_chunks = exchange(
            server,
            b"POST /v1/messages HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + chunked,
        )
        just_under = exchange(server, post(BODY.encode() + b" " * (MAX_REQUEST_BYTES - 200)))
    for received in (by_length, by_chunks):
        assert answer(received) == (413, json.loads(TOO_LARGE))
    assert answer(just_under)[0] == 200
    assert json.loads(TOO_LARGE) == {
        "error": {"type": "request_too_large", "message": "Request exceeds the maximum size"}
    }


def test_a_dropped_answer_that_was_not_streamed_sends_its_head_then_closes(quiet):
    def dropping():
        return FakeMessagesAPI(ScriptedModel(lambda request: stream_dropped(turn("never seen"))))

    with httpx2.Client(transport=httpx2.MockTransport(dropping())) as in_process:
        with pytest.raises(httpx2.RemoteProtocolError) as there:
            in_process.post("http://x/v1/messages", content=BODY)
    with FakeServer(dropping(), read_timeout=TIMEOUT) as server:
        with httpx2.Client() as http, pytest.raises(httpx2.RemoteProtocolError) as here:
            http.post(f"{server.url}/v1/messages", content=BODY)
        received = exchange(server, post(BODY.encode()))
    assert str(here.value) == str(there.value)  # the same failure, in-process and over loopback
    head, _, body = received.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 200 OK\r\n")
    assert b"content-type: application/json" in head.lower() and body == b""


def test_no_fault_of_the_script_prints_anything_over_loopback(quiet):
    from lab.model import cut_off, overloaded, rate_limited, server_error, stream_error, tool_use

    said = turn("Reading.", tool_use("read_file", {"path": "/workspace/a.txt"}))
    faults = [
        rate_limited(),
        overloaded(),
        server_error(),
        stream_error(said),
        stream_dropped(said, block=1),
        cut_off(said, keep_chars=5),
    ]
    for stream in (False, True):
        api = FakeMessagesAPI(ScriptedModel([*faults, turn("done")]))
        body = json.loads(BODY) | {"stream": stream}
        with FakeServer(api, read_timeout=TIMEOUT) as server, httpx2.Client() as http:
            for _ in range(len(faults) + 1):
                try:
                    http.post(f"{server.url}/v1/messages", json=body).read()
                except httpx2.RemoteProtocolError:
                    pass  # the dropped stream, as it should be
        assert api.model.complete and len(api.faults) == 5
