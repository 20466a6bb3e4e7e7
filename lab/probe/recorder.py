"""The probe's wire log: every HTTP request the fake API answers, in order, as the one tap saw it.

`Recorder` stands in front of a Tap (lab/kernel/record.py), which stands where the fake API stood:
the tap writes the request down and says what the fake answered (the Record's `Reply`, derived
once); the Recorder adds what a reader of the probe is shown. The script's own record (which
stage a request stood at, which step it got) comes from the responder's `log`, the tap's
`notes`.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx2

from lab.kernel.record import Tap
from lab.model.script import Turn
from lab.probe.conversation import Played
from lab.probe.trial import Exchange, short
from lab.probe.which_wire import MESSAGES, recorded_body, wire_of


def parse_body(content: bytes) -> Any:
    try:
        return json.loads(content) if content else None
    except (ValueError, RecursionError):  # not JSON, or nested past what Python parses
        return None


def error_line(response: httpx2.Response) -> str:
    """`400 invalid_request_error: <the fake's exact message>` from an error answer."""
    try:
        error = response.json().get("error", {})
    except (ValueError, AttributeError):
        return f"{response.status_code}"
    return f"{response.status_code} {error.get('type', '?')}: {error.get('message', '')}"


class Recorder:
    """The probe's view of the one tap (lab/kernel/record.py): for each request the tap writes down,
    an Exchange that adds what a reader of the probe is shown (method, path, the answer's line,
    the conversation's record of the request); anything else is the tap's.

    `keep=False`: the exchanges are numbered and handed to `on_exchange`, not kept (a server
    that lasts keeps what it needs itself: lab/probe/serve.py)."""

    def __init__(
        self,
        tap: Tap,
        on_exchange: Callable[[Exchange], None] | None = None,
        keep: bool = True,
    ) -> None:
        self.tap = tap
        self.on_exchange = on_exchange
        self.keep = keep
        self.exchanges: list[Exchange] = []
        self.count = 0  # exchanges so far, kept or not
        self._lock = threading.Lock()  # one request at a time: the log's order is the truth
        self._started = time.monotonic()
        self.wire = tap.wire  # when the program last used its connection (the idle clock reads it)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.tap, name)

    def __call__(self, request: httpx2.Request) -> httpx2.Response:
        arrived = time.monotonic() - self._started  # before the lock: when the harness asked
        # Before the lock too: a large body takes a while. A chat request is recorded translated.
        sent = parse_body(request.content)
        body = recorded_body(request.url.path, sent)
        with self._lock:
            written = self.tap.count
            response = self.tap(request)
            logged = self.tap.last if self.tap.count > written else None
            played: Played | None = logged.note if logged else None
            reply = logged.reply if logged else None
            if played is not None:  # in the words of the wire it crossed
                seen = played.line(wire_of(request.url.path) or MESSAGES)
                answer = f"{response.status_code} {seen}"
            elif response.status_code >= 400:
                response.read()
                answer = error_line(response)
            else:
                answer = f"{response.status_code}"
            query = f"?{request.url.query.decode()}" if request.url.query else ""
            exchange = Exchange(
                number=self.count + 1,
                method=request.method,
                path=request.url.path + query,
                body=body,
                status=response.status_code,
                answer=answer,
                played=played,
                at=arrived,
                betas=request.headers.get("anthropic-beta", ""),
                reply=reply,
                wire=wire_of(request.url.path),
                sent=sent if body is not sent else None,
            )
            self.count += 1
            if self.keep:
                self.exchanges.append(exchange)
            if self.on_exchange is not None:
                self.on_exchange(exchange)
        return response


class InOrder:
    """An experiment's script played in order, as `lab run` plays it, keeping a `log`."""

    def __init__(self, script: Any) -> None:
        from lab.model import ScriptedModel  # the SDK, only when serving

        self.model = ScriptedModel(script)
        self.log: list[Played] = []

    def __call__(self, request: Any) -> Any:
        position = self.model.calls
        step = self.model.respond(request)  # ScriptExhausted reaches the fake: a 500
        kind = "answer" if isinstance(step, Turn) else "fault"
        self.log.append(Played(len(self.log), position, 1, kind, step, request.stream, False))
        return step

    @property
    def consumed(self) -> bool:
        return self.model.complete


def summary(exchanges: list[Exchange], consumed: bool) -> dict[str, Any]:
    """The run's verdict as `lab serve` prints it: script consumed, rejections, faults."""
    rejected = [e for e in exchanges if e.rejected]
    faults = [e for e in exchanges if e.played and e.played.kind == "fault"]
    return {
        "requests": len(exchanges),
        "script_consumed": consumed,
        "rejections": [short(e.line(), 400) for e in rejected],
        "faults": [short(e.line(), 400) for e in faults],
    }
