"""`lab probe --cmd` on both wires: one loop written for each (tests/agents/messages_d1.py and
chat_d1.py), each with its wire's D1 (trusting stop_reason / finish_reason), both caught by P1;
the wire read from the first request's path, or forced by --wire."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import patience
import pytest

AGENTS = Path(__file__).parent / "agents"


def probe(*args: str) -> dict:
    command = [sys.executable, "-m", "lab", "probe", *args, "--json"]
    done = patience.run(command, 300, f"lab probe {' '.join(args)}")
    assert done.stdout, done.stderr
    return json.loads(done.stdout)


def cell(result: dict, case: str) -> dict:
    return next(c for c in result["cells"] if c["case"] == case)


@pytest.mark.parametrize(
    ("program", "wire"), [("messages_d1.py", "anthropic"), ("chat_d1.py", "openai")]
)
def test_each_wire_s_d1_is_caught_by_p1_on_the_wire_it_spoke(program, wire):
    result = probe("--cmd", f"{sys.executable} {AGENTS / program}", "--case", "P1")
    p1 = cell(result, "P1")
    assert p1["verdict"] == "fail"
    assert p1["because"] == "the call was dropped: its canary never came back"
    assert p1["wire"] == wire
    path = "/v1/chat/completions" if wire == "openai" else "/v1/messages"
    assert {r["request"] for r in p1["requests"]} == {f"POST {path}"}
    assert f"{'OPENAI' if wire == 'openai' else 'ANTHROPIC'}_BASE_URL" in p1["reproduce"]


def test_wire_forces_the_wire_a_case_is_judged_on():
    chat = f"{sys.executable} {AGENTS / 'chat_d1.py'}"
    forced = probe("--cmd", chat, "--case", "P1", "P18", "--wire", "openai")
    assert forced["targets"][0]["wire"] == "openai"
    p18 = cell(forced, "P18")  # no meaning on this wire: n/a with its reason, never run
    assert p18["verdict"] == "n/a" and "pause_turn" in p18["because"]
    assert p18["requests"] == []
    detected = probe("--cmd", chat, "--case", "P18")  # not forced: run, then judged on its wire
    p18 = cell(detected, "P18")
    assert p18["verdict"] == "n/a" and p18["wire"] == "openai" and p18["requests"]


def test_the_text_view_says_a_chat_program_s_wire():
    chat = f"{sys.executable} {AGENTS / 'chat_d1.py'}"
    done = patience.run(
        [sys.executable, "-m", "lab", "probe", "--cmd", chat, "--case", "P1b"], 300, "lab probe"
    )
    assert "wire: openai (the Chat Completions API)" in done.stdout
    messages = f"{sys.executable} {AGENTS / 'messages_d1.py'}"
    done = patience.run(
        [sys.executable, "-m", "lab", "probe", "--cmd", messages, "--case", "P1b"], 300, "lab probe"
    )
    assert "wire:" not in done.stdout  # the Messages wire is the default, not said
