"""The one tap (lab/kernel/record.py) writes down every request of every run, and what the fake
said."""

from __future__ import annotations

import time
from types import SimpleNamespace

import httpx2
import pytest

from lab.kernel.record import Tap, WatchedModel
from lab.model import FakeMessagesAPI, rate_limited, text, turn

BODY = {"model": "m", "max_tokens": 50, "messages": [{"role": "user", "content": "go"}]}


def ask(tap: Tap, **extra) -> httpx2.Response:
    answer = tap(httpx2.Request("POST", "http://fake/v1/messages", json={**BODY, **extra}))
    answer.read()
    return answer


def test_a_tap_needs_a_watched_model():
    from lab.model import ScriptedModel

    with pytest.raises(TypeError, match="WatchedModel"):
        Tap(FakeMessagesAPI(ScriptedModel([])))


def test_an_exhausted_script_is_a_fault_without_the_previous_steps_retry_after():
    tap = Tap(FakeMessagesAPI(WatchedModel([rate_limited(2.0)])))
    ask(tap), ask(tap)
    first, second = (r.reply for r in tap.requests)
    assert (first.kind, first.retry_after) == ("fault", 2.0)
    assert (second.kind, second.retry_after) == ("fault", None)  # nothing played: no stale step


def test_a_refusal_is_written_with_its_status_type_and_exact_message():
    tap = Tap(FakeMessagesAPI(WatchedModel([turn(text("hi"))])))
    ask(tap, messages=[])
    (refused,) = tap.requests
    assert refused.status == 400 and refused.reply.kind == "rejected"
    assert refused.reply.error.startswith("400 invalid_request_error: ")


def test_a_get_is_no_part_of_the_conversation():
    tap = Tap(FakeMessagesAPI(WatchedModel([turn(text("hi"))])))
    tap(httpx2.Request("GET", "http://fake/v1/models")).read()
    assert tap.requests == [] and tap.count == 0 and tap.wire.last_request is not None


def test_the_responders_notes_name_a_side_call_and_an_answer_past_the_script():
    notes: list = []

    def responder(request):
        kind = ["answer", "side call", "extra"][len(notes)]
        notes.append(SimpleNamespace(kind=kind))
        return turn(text(kind))

    tap = Tap(FakeMessagesAPI(WatchedModel(responder)), notes=notes)
    for _ in range(3):
        ask(tap)
    assert [r.reply.kind for r in tap.requests] == ["answer", "side", "extra"]
    assert [r.note for r in tap.requests] == notes


def test_a_tap_that_keeps_nothing_still_counts_and_shows_the_newest():
    tap = Tap(FakeMessagesAPI(WatchedModel([turn(text("a")), turn(text("b"))])), keep=False)
    ask(tap), ask(tap)
    assert tap.requests == [] and tap.count == 2
    assert tap.last is not None and tap.last.number == 2
    assert tap.last.reply.blocks[0]["text"] == "b"


def test_the_wire_says_how_long_the_fake_told_the_client_to_wait():
    tap = Tap(FakeMessagesAPI(WatchedModel([rate_limited(30.0)])))
    asked = time.monotonic()
    ask(tap)
    assert tap.wire.after_fault
    assert tap.wire.told_until >= asked + 30.0
