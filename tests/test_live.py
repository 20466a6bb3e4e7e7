"""Live mode over real HTTP: a model on a loopback server, tools only on the virtual world."""

from __future__ import annotations

import os

import anthropic
import pytest

from lab.live import LiveError, live_client, live_run
from lab.model import FakeMessagesAPI, ScriptedModel, text, tool_use, turn
from lab.model.server import FakeServer
from lab.trace import GateDecision, ToolExecuted

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
