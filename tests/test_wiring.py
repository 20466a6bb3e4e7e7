"""A fake API meets a harness through exactly two wirings (lab/model/wiring.py)."""

from __future__ import annotations

import ast
from pathlib import Path

import httpx2

from lab.model import FakeMessagesAPI, ScriptedModel, text, turn
from lab.model.client import make_client
from lab.model.wiring import in_process, on_loopback

LAB = Path(__file__).resolve().parents[1] / "lab"
WIRING = LAB / "model" / "wiring.py"
# What wires a fake API to a client or a server: only the two functions may call these.
WIRES = {"MockTransport", "FakeServer"}


def called_names(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call):
            func = node.func
            names.add(func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", ""))
    return names


def test_no_module_of_the_lab_wires_a_fake_api_but_the_wiring_module():
    wiring_elsewhere = {
        str(path.relative_to(LAB)): sorted(called_names(path) & WIRES)
        for path in LAB.rglob("*.py")
        if path != WIRING and called_names(path) & WIRES
    }
    assert wiring_elsewhere == {}
    assert called_names(WIRING) & WIRES == WIRES  # and the wiring module does use both


def test_the_in_process_wiring_answers_from_the_api_without_a_socket():
    api = FakeMessagesAPI(ScriptedModel([turn(text("hi"))]))
    message = make_client(api).messages.create(
        model="m", max_tokens=10, messages=[{"role": "user", "content": "hello"}]
    )
    assert message.content[0].text == "hi" and len(api.requests) == 1
    with in_process(api) as http:
        assert http.get("http://anywhere.invalid/no/such/path").status_code == 404  # the fake


def test_the_sdk_retries_are_off_unless_asked_for():
    api = FakeMessagesAPI(ScriptedModel([]))
    assert make_client(api).max_retries == 0
    assert make_client(api, sdk_retries=True).max_retries == 2


def test_the_loopback_wiring_serves_the_api_on_127_0_0_1_only():
    api = FakeMessagesAPI(ScriptedModel([turn(text("hi"))]))
    with on_loopback(api) as server:
        assert server.url.startswith("http://127.0.0.1:")
        answer = httpx2.post(
            f"{server.url}/v1/messages",
            json={"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "x"}]},
            headers={"x-api-key": "k", "anthropic-version": "2023-06-01"},
        )
    assert answer.status_code == 200 and answer.json()["content"][0]["text"] == "hi"
