"""The two wirings of a fake API: to an HTTP client in process, or to a server on loopback.

Every run in the lab meets its fake API through one of these two functions, whatever paths
that API serves (the Messages API, or any other wire added beside it):

    in_process(api)       an httpx2 client whose every request `api` answers in this process
    on_loopback(api)      a FakeServer: `api` behind a real socket on 127.0.0.1 (`server.url`)

An SDK client is built on the first (lab/model/client.py: `make_client`); a program is pointed
at the second (its base URL is `server.url`).
"""

from __future__ import annotations

import httpx2

from lab.model.server import READ_TIMEOUT, FakeServer, Handler

FAKE_BASE_URL = "http://fake-anthropic.lab"  # never resolved: the in-process transport answers
FAKE_KEY = "sk-lab-fake"  # what a client on the fake sends as its API key


def in_process(api: Handler) -> httpx2.Client:
    """An HTTP client whose every request is answered by `api` in this process (no socket)."""
    return httpx2.Client(transport=httpx2.MockTransport(api))


def on_loopback(api: Handler, *, port: int = 0, read_timeout: float = READ_TIMEOUT) -> FakeServer:
    """`api` served on 127.0.0.1 (`port` 0: any free port); use it as `with ... as server:`,
    and point a program at `server.url`."""
    return FakeServer(api, port, read_timeout)
