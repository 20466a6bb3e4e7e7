"""The fake Messages API on a loopback HTTP port, for a client that speaks real HTTP.

Point any Anthropic client at it (`base_url=server.url` or ANTHROPIC_BASE_URL) and it is
answered by the scripted model over a real socket on 127.0.0.1, never beyond.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType

import httpx2

from lab.model.fake_api import FakeMessagesAPI

HOP_BY_HOP = {"connection", "transfer-encoding", "content-length", "content-encoding"}


class FakeServer:
    """`with FakeServer(api) as server:` serves `api` at `server.url` until the block ends."""

    def __init__(self, api: FakeMessagesAPI) -> None:
        self.api = api
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), self.handler_class())
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def handler_class(self) -> type[BaseHTTPRequestHandler]:
        api = self.api

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the name http.server expects)
                body = self.rfile.read(int(self.headers.get("content-length", 0)))
                request = httpx2.Request(
                    "POST", f"http://127.0.0.1{self.path}", headers=dict(self.headers), content=body
                )
                response = api(request)
                content = response.read()
                self.send_response(response.status_code)
                for name, value in response.headers.items():
                    if name.lower() not in HOP_BY_HOP:
                        self.send_header(name, value)
                self.send_header("content-length", str(len(content)))
                self.end_headers()
                self.wfile.write(content)

            def log_message(self, format: str, *args: object) -> None:
                pass  # keep test and CLI output clean

        return Handler

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
