"""The fake Messages API on a loopback HTTP port, for a client that speaks real HTTP.

Point any Anthropic client at it (`base_url=server.url` or ANTHROPIC_BASE_URL) and it is
answered by the scripted model over a real socket on 127.0.0.1, never beyond. Every path and
query a client may add reach the API (`/v1/messages?beta=true`, `/anthropic/v1/messages`).
A stream goes out the way the real API sends it: HTTP/1.1 chunks, each written the moment the
answer produces it; and an answer whose byte stream breaks off (a dropped-stream step) ends
with the socket closed before the terminating chunk, which is what a dropped stream is.

Nothing a client sends knocks it over: every request gets an answer shaped like the API's
(JSON, `{"type": "error", "error": {...}}`), whatever its method, headers or framing, and no
traceback is printed. A broken frame is a 400 naming the problem (lab/model/framing.py; an
HTTP/0.9 line or more than 8 empty lines before the request line, at once), a body over 32 MB a
413 (at once when its Content-Length says so), a body that stops arriving a 400 once
`read_timeout` seconds pass with nothing more. Each connection has its own thread; the API
answers one request at a time, but what it can judge alone (`read_ahead`: a large history) is
judged before that lock, so a small request never waits behind a large one.
"""

from __future__ import annotations

import json
import socket
import sys
import threading
from collections.abc import Callable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import httpx2

from lab.model.fake_api import TOO_LARGE
from lab.model.framing import FrameError, TooLarge, discard, read_body

Handler = Callable[[httpx2.Request], httpx2.Response]  # a FakeMessagesAPI, usually

# Headers that describe one hop's framing, not the message: each side sets its own.
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"}
READ_TIMEOUT = 10.0  # seconds of silence before a request is answered as incomplete
BLANK_LINES = 8  # empty lines skipped before a request line; more are a 400
ERROR_TYPES = {400: "invalid_request_error", 404: "not_found_error", 413: "request_too_large"}


def _streamed(response: httpx2.Response) -> bool:
    return response.headers.get("content-type", "").startswith("text/event-stream")


def error_body(status: int, message: str) -> bytes:
    """The API's JSON error body for `status`."""
    kind = ERROR_TYPES.get(status, "invalid_request_error" if status < 500 else "api_error")
    return json.dumps({"type": "error", "error": {"type": kind, "message": message}}).encode()


def request_line_problem(line: bytes) -> str:
    """Why a request line (after the empty lines skipped) cannot start a request, or ""."""
    if line in (b"\r\n", b"\n"):
        return f"more than {BLANK_LINES} empty lines before the request line"
    words = line.split()
    if not words:
        return "empty request line"
    if len(words) == 2:  # HTTP/0.9: no version, and no headers follow
        return "the request line has no HTTP version"
    return ""


class LoopbackHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server (a thread per connection) that prints no traceback: a harness
    that drops its keep-alive connection, or is killed mid-request, is nothing to report, and
    anything else a connection meets is one line on stderr (a bug of the lab, not the client's)."""

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any
    ) -> None:
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError | TimeoutError):
            where = ":".join(map(str, client_address)) if client_address else "a client"
            print(
                f"lab: the server failed on a request from {where}: "
                f"{type(error).__name__}: {error}",
                file=sys.stderr,
            )


class FakeServer:
    """`with FakeServer(api) as server:` serves `api` at `server.url` until the block ends."""

    def __init__(self, api: Handler, port: int = 0, read_timeout: float = READ_TIMEOUT) -> None:
        """Port 0: any free port (the default, and what tests use). `read_timeout`: seconds a
        request may pause mid-body (or a keep-alive connection stay idle) before it is answered
        as incomplete (or let go)."""
        self.api = api
        self.read_timeout = read_timeout
        # The API answers one request at a time (its script, ids and histories are one
        # conversation's state); what an API can read and judge alone (`read_ahead`) is done
        # before the lock, so a small request never waits while a large one is judged.
        self.lock = threading.Lock()
        self.httpd = LoopbackHTTPServer(("127.0.0.1", port), self.handler_class())
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        # A short poll: `shutdown` waits for it, and a probe ends one server per trial.
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def serve(self) -> None:
        self.httpd.serve_forever(poll_interval=0.05)

    def call_api(self, request: httpx2.Request) -> httpx2.Response:
        """The API's answer; an API that raises is a bug of the lab, answered as a 500 that
        names it (and counted by benchmarks/fuzz_requests.py), never a dropped connection."""
        read_ahead = getattr(self.api, "read_ahead", None)  # a Recorder forwards it
        try:
            if read_ahead is not None:  # outside the lock: a large body is judged meanwhile
                read_ahead(request)
            with self.lock:
                return self.api(request)
        except Exception as error:  # noqa: BLE001 (whatever it is, the client gets a line)
            message = f"the fake API failed: {type(error).__name__}: {error}"
            return httpx2.Response(500, content=error_body(500, message))

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class RequestHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive and chunked bodies, like the real API
            default_request_version = "HTTP/1.1"  # an error before the version is read has one
            timeout = server.read_timeout
            disable_nagle_algorithm = True  # a small write goes out at once, not 40 ms later

            def __getattr__(self, name: str) -> Any:
                # Every method reaches the API, which answers an unknown one with a JSON 404,
                # as in-process (http.server would send an HTML 501).
                if name.startswith("do_"):
                    return self.answer
                raise AttributeError(name)

            def parse_request(self) -> bool:
                self.command, self.requestline = "", ""  # what an answer before them logs
                line: bytes = self.raw_requestline  # type: ignore[has-type]
                for _ in range(BLANK_LINES):  # empty lines before a request line (RFC 9112)
                    if line not in (b"\r\n", b"\n"):
                        break
                    line = self.raw_requestline = self.rfile.readline(65537)
                problem = request_line_problem(line)
                if problem:  # answered before http.server would wait for headers or hang up
                    self.send_error(400, problem)
                    return False
                return super().parse_request()

            def send_error(
                self, code: int, message: str | None = None, explain: str | None = None
            ) -> None:
                """http.server's own errors (a bad request line, headers too long), as JSON."""
                if code == HTTPStatus.HTTP_VERSION_NOT_SUPPORTED:  # the client's error, really
                    code = 400
                self.request_version = self.default_request_version
                phrase = message or HTTPStatus(code).phrase
                self.send_json(code, error_body(code, " ".join(phrase.split())))

            def send_json(self, status: int, body: bytes) -> None:
                """A whole JSON answer, after which the connection closes (what came before
                it may have left the stream mid-request)."""
                self.close_connection = True
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(body)))
                self.send_header("connection", "close")
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(body)

            def answer(self) -> None:
                try:
                    content = read_body(self.rfile, self.headers, server.read_timeout)
                except FrameError as error:
                    self.send_json(400, error_body(400, str(error)))
                    return
                except TooLarge as too_large:
                    self.send_json(413, TOO_LARGE)  # at once, then what is still coming is
                    discard(self.rfile, too_large.unread)  # dropped: the client sees its answer
                    return
                try:
                    request = httpx2.Request(
                        self.command,
                        f"http://127.0.0.1{self.path}",
                        headers=self.forwarded_headers(),
                        content=content,
                    )
                except (httpx2.InvalidURL, ValueError, TypeError) as error:
                    self.send_json(400, error_body(400, f"malformed request: {error}"))
                    return
                self.send(server.call_api(request))

            def forwarded_headers(self) -> list[tuple[bytes, bytes]]:
                # As bytes: http.server decodes header lines as Latin-1, so any byte survives.
                return [
                    (name.encode("latin-1", "replace"), str(value).encode("latin-1", "replace"))
                    for name, value in self.headers.items()
                    if name.lower() not in HOP_BY_HOP
                ]

            def send(self, response: httpx2.Response) -> None:
                if _streamed(response) and self.command != "HEAD":
                    self.send_head(response)
                    self.send_chunks(response)
                    return
                try:
                    content = response.read()
                except httpx2.RemoteProtocolError:
                    # The body broke off before its first byte (a dropped non-streamed
                    # answer): the status line and headers go out, then the connection drops.
                    self.send_head(response)
                    self.send_header("transfer-encoding", "chunked")
                    self.end_headers()
                    self.drop()
                    return
                self.send_head(response)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(content)

            def send_head(self, response: httpx2.Response) -> None:
                self.send_response(response.status_code)
                for name, value in response.headers.multi_items():
                    if name.lower() not in HOP_BY_HOP:
                        self.send_header(name, value)

            def send_chunks(self, response: httpx2.Response) -> None:
                self.send_header("transfer-encoding", "chunked")
                self.end_headers()
                try:
                    for chunk in response.iter_bytes():
                        if chunk:  # an empty chunk would end the body
                            self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                except httpx2.RemoteProtocolError:
                    # The answer itself broke off: drop the connection mid-body, as a real
                    # dropped stream does. No terminating chunk, nothing more on this socket.
                    self.drop()
                    return
                self.wfile.write(b"0\r\n\r\n")

            def drop(self) -> None:
                self.close_connection = True
                self.connection.shutdown(socket.SHUT_RDWR)

            def log_message(self, format: str, *args: object) -> None:
                pass  # keep test and CLI output clean

        return RequestHandler

    def __enter__(self) -> FakeServer:
        self.thread.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()
