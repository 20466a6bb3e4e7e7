"""The fake Messages API on a loopback HTTP port, for a client that speaks real HTTP.

Point any Anthropic client at it (`base_url=server.url` or ANTHROPIC_BASE_URL) and it is
answered by the scripted model over a real socket on 127.0.0.1, never beyond. Every path and
query a client may add reach the API (`/v1/messages?beta=true`, `/anthropic/v1/messages`).
A stream goes out the way the real API sends it: HTTP/1.1 chunks, each written the moment the
answer produces it; and an answer whose byte stream breaks off (a dropped-stream step) ends
with the socket closed before the terminating chunk, which is what a dropped stream is.
"""

from __future__ import annotations

import socket
import sys
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

import httpx2

Handler = Callable[[httpx2.Request], httpx2.Response]  # a FakeMessagesAPI, usually

# Headers that describe one hop's framing, not the message: each side sets its own.
HOP_BY_HOP = {"connection", "keep-alive", "transfer-encoding", "content-length", "content-encoding"}


def _streamed(response: httpx2.Response) -> bool:
    return response.headers.get("content-type", "").startswith("text/event-stream")


class LoopbackHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server that lets a client hang up without a traceback: a harness
    that drops its keep-alive connection, or is killed mid-request, is nothing to report."""

    def handle_error(
        self, request: socket.socket | tuple[bytes, socket.socket], client_address: Any
    ) -> None:
        if not isinstance(sys.exc_info()[1], ConnectionError | TimeoutError):
            super().handle_error(request, client_address)


class FakeServer:
    """`with FakeServer(api) as server:` serves `api` at `server.url` until the block ends."""

    def __init__(self, api: Handler, port: int = 0) -> None:
        """Port 0: any free port (the default, and what tests use)."""
        self.api = api
        self.lock = threading.Lock()  # the API answers one request at a time
        self.httpd = LoopbackHTTPServer(("127.0.0.1", port), self.handler_class())
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        # A short poll: `shutdown` waits for it, and a probe ends one server per trial.
        self.thread = threading.Thread(target=self.serve, daemon=True)

    def serve(self) -> None:
        self.httpd.serve_forever(poll_interval=0.05)

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class RequestHandler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"  # keep-alive and chunked bodies, like the real API
            timeout = 10  # an idle keep-alive connection is let go
            disable_nagle_algorithm = True  # a small write goes out at once, not 40 ms later

            def do_POST(self) -> None:  # noqa: N802 (the names http.server expects)
                self.answer()

            def do_GET(self) -> None:  # noqa: N802
                self.answer()

            def do_HEAD(self) -> None:  # noqa: N802
                self.answer()

            def answer(self) -> None:
                try:
                    content = self.body()
                except ValueError:  # a chunk size that is not a hex number
                    self.send_error(400, "malformed chunked request body")
                    return
                headers = {k: v for k, v in self.headers.items() if k.lower() not in HOP_BY_HOP}
                url = f"http://127.0.0.1{self.path}"
                request = httpx2.Request(self.command, url, headers=headers, content=content)
                with server.lock:
                    response = server.api(request)
                self.send_response(response.status_code)
                for name, value in response.headers.multi_items():
                    if name.lower() not in HOP_BY_HOP:
                        self.send_header(name, value)
                if _streamed(response) and self.command != "HEAD":
                    self.send_chunks(response)
                else:
                    self.send_whole(response)

            def body(self) -> bytes:
                if "chunked" in self.headers.get("transfer-encoding", "").lower():
                    parts = []
                    while size := int(self.rfile.readline().split(b";")[0], 16):
                        parts.append(self.rfile.read(size))
                        self.rfile.readline()  # the CRLF after each chunk
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass  # trailers
                    return b"".join(parts)
                return self.rfile.read(int(self.headers.get("content-length", 0)))

            def send_whole(self, response: httpx2.Response) -> None:
                content = response.read()
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                if self.command != "HEAD":
                    self.wfile.write(content)

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
                    self.close_connection = True
                    self.connection.shutdown(socket.SHUT_RDWR)
                    return
                self.wfile.write(b"0\r\n\r\n")

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
