"""Live mode over real HTTP: a model on a loopback server, tools only on the virtual world."""

from __future__ import annotations

import os
import time

import anthropic
import pytest

from lab.kernel.live import LiveError, live_client, live_run
from lab.kernel.record import Tap, WatchedModel
from lab.kernel.trace import GateDecision, ModelRetried, ToolExecuted
from lab.model import ApiError, FakeMessagesAPI, ScriptedModel, rate_limited, text, tool_use, turn
from lab.model.server import FakeServer

HOSTILE = [
    turn(
        tool_use("bash", {"command": "rm -rf / --no-preserve-root"}),
        tool_use("bash", {"command": "echo owned > /etc/passwd"}),
        tool_use("write_file", {"path": "/etc/cron.d/evil", "content": "* * * * * root sh"}),
        tool_use("bash", {"command": "ls"}),
    ),
    turn(text("Done.")),
]


def test_live_mode_reaches_a_real_http_endpoint_and_touches_only_the_virtual_world(host_guard):
    api = FakeMessagesAPI(ScriptedModel(HOSTILE))
    with FakeServer(api) as server:
        client = anthropic.Anthropic(api_key="sk-test", base_url=server.url, max_retries=0)
        harness, world = live_run("Clean everything up.", client, human=("n",))
    assert host_guard == []
    assert harness.ended == "done" and len(api.requests) == 2 and api.rejections == []
    assert api.requests[0]["stream"] is True  # a real SSE stream crossed the socket
    ran = [e.input.get("command") for e in harness.trace.of(ToolExecuted)]
    assert ran == ["ls"]  # the deny list stopped `rm -rf /`; the human said no to the rest
    assert any(e.decision == "deny" for e in harness.trace.of(GateDecision))
    assert "/workspace/src/app.py" in world.snapshot()
    assert os.path.exists("/etc/passwd") and not os.path.exists("/etc/cron.d/evil")


def test_live_mode_without_a_key_says_so_in_one_line(monkeypatch):
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    with pytest.raises(LiveError, match="ANTHROPIC_API_KEY"):
        live_client()


def test_an_unreachable_endpoint_is_a_clear_error():
    client = anthropic.Anthropic(api_key="sk-test", base_url="http://127.0.0.1:9", max_retries=0)
    with pytest.raises(LiveError, match="cannot reach the model"):
        live_run("hello", client)


def test_lab_live_command_prints_the_transcript_and_leaves_the_host_alone(
    host_guard, monkeypatch, capsys
):
    from lab.cli import main

    api = FakeMessagesAPI(ScriptedModel(HOSTILE))
    with FakeServer(api) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        assert main(["live", "Clean everything up.", "--human", "n,n"]) == 0
    out = capsys.readouterr().out
    assert "live · claude" in out and "rm -rf / --no-preserve-root" in out
    assert "the host was not touched" in out
    assert host_guard == [] and os.path.exists("/etc/passwd")


def test_lab_live_without_a_key_is_a_one_line_usage_error(monkeypatch, capsys):
    from lab.cli import main

    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert main(["live", "hello"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "ANTHROPIC_API_KEY" in err


# ---------------------------------------------------------------- the retry policy, live
RETRY_AFTER = [0.02, 0.04, 0.06, 0.08]  # seconds: one per 429, each different
FOUR_429S = [*(rate_limited(s) for s in RETRY_AFTER), turn(text("Done."))]


def served(script: list) -> tuple[FakeServer, Tap]:
    """The fake API on 127.0.0.1, a Tap noting when each request came on the real clock."""
    tap = Tap(FakeMessagesAPI(WatchedModel(script)), clock=time.monotonic)
    return FakeServer(tap), tap


def test_live_client_leaves_retries_to_the_harness(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    assert live_client().max_retries == 0


def test_four_429s_are_waited_out_on_the_real_clock_and_each_retry_is_traced(monkeypatch):
    server, tap = served(FOUR_429S)
    with server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        harness, world = live_run("hello", live_client())
    assert harness.ended == "done"
    # One request per attempt: the SDK retried nothing on its own (with its default
    # max_retries=2 the first attempt alone would have met three of the 429s).
    assert [r.status for r in tap.requests] == [429, 429, 429, 429, 200]
    retried = harness.trace.of(ModelRetried)
    assert [(e.turn, e.retry) for e in retried] == [(1, 1), (1, 2), (1, 3), (1, 4)]
    assert [e.wait_s for e in retried] == RETRY_AFTER  # what retry-after said, each time
    assert all("429" in e.reason for e in retried)
    # The waits were real: the world's virtual clock never moved (a text answer runs no
    # tool), and each request came no sooner after the one before than its 429 asked.
    assert world.clock.now == 0
    sent = [r.at for r in tap.requests]
    gaps = [later - earlier for earlier, later in zip(sent, sent[1:], strict=False)]
    assert all(gap >= wait for gap, wait in zip(gaps, RETRY_AFTER, strict=True))


def test_live_retries_wait_what_the_policy_says_when_the_api_says_nothing(monkeypatch):
    # Without retry-after the wait doubles from FIRST_WAIT_S; a recording wait stands in for
    # the real clock so the test does not sit through 1 + 2 + 4 + 8 seconds.
    no_header = ApiError(429, "rate_limit_error", "Number of requests has exceeded your rate limit")
    server, tap = served([no_header, no_header, no_header, no_header, turn(text("Done."))])
    waited: list[float] = []
    with server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        harness, _ = live_run("hello", live_client(), wait=waited.append)
    assert waited == [1.0, 2.0, 4.0, 8.0]
    assert [e.wait_s for e in harness.trace.of(ModelRetried)] == waited
    assert harness.ended == "done"
    assert [r.status for r in tap.requests] == [429, 429, 429, 429, 200]
