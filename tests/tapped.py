"""What the fake answers a step, as the one tap writes it down: for trials written by hand.

A hand-made probe Trial states each request's reply; this plays the step on a real fake API
behind a real Tap (lab/kernel/record.py), so a test never derives a reply a second way.
"""

from __future__ import annotations

import httpx2

from lab.kernel.record import NOTED_KINDS, Reply, Tap, WatchedModel
from lab.model import FakeMessagesAPI
from lab.model.script import StreamDropped, StreamError

ASK = {"model": "m", "max_tokens": 50, "messages": [{"role": "user", "content": "go"}]}


def reply_to(step: object, kind: str = "answer") -> Reply:
    """The tap's Reply to one request answered with `step` ("side call" and "extra": the
    conversation's own names for what it played)."""
    tap = Tap(FakeMessagesAPI(WatchedModel(lambda request: step)))  # type: ignore[arg-type, return-value]
    stream = isinstance(step, StreamError | StreamDropped)
    answer = tap(httpx2.Request("POST", "http://fake/v1/messages", json={**ASK, "stream": stream}))
    answer.read()
    assert tap.last is not None, f"the fake took no step for {step!r:.60}"
    noted = NOTED_KINDS.get(kind)
    return Reply(noted, tap.last.reply.blocks, tap.last.reply.declared) if noted else tap.last.reply


def rejected(error: str = "400 invalid_request_error: rejected") -> Reply:
    """The reply to a request the fake refused (its exact line)."""
    return Reply("rejected", error=error)
