"""lab serve: a script on 127.0.0.1, each request logged with the fake's verdict, the run's verdict
at the end; and the script files --fuzz prints are what it serves."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import anthropic
import pytest

from lab.probe.fuzz import source, steps
from lab.probe.serve import ServeError, resolve

LAB = [sys.executable, "-m", "lab", "serve"]


def serve(*args: str, client=None) -> tuple[list[str], int]:
    """Start `lab serve ARGS --until-done`, run `client(base_url)`, return its lines and status."""
    process = subprocess.Popen(
        [*LAB, *args, "--until-done"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    first = process.stdout.readline().strip()
    assert first.startswith("ANTHROPIC_BASE_URL=http://127.0.0.1:")
    if client is not None:
        client(first.split("=", 1)[1])
    process.wait(timeout=60)
    return [first, *process.stdout.read().splitlines()], process.returncode


def read_notes_twice(url: str) -> None:
    with anthropic.Anthropic(base_url=url, api_key="sk-test", max_retries=0) as client:
        two_requests(client)


def two_requests(client: anthropic.Anthropic) -> None:
    tools = [{"name": "read_file", "input_schema": {"type": "object"}}]
    messages = [{"role": "user", "content": "hi"}]
    reply = client.messages.create(model="m", max_tokens=64, messages=messages, tools=tools)
    call = next(b for b in reply.content if b.type == "tool_use")
    messages += [
        {"role": "assistant", "content": [b.to_dict() for b in reply.content]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": call.id}]},
    ]
    client.messages.create(model="m", max_tokens=64, messages=messages, tools=tools)


def test_serving_a_probe_case_logs_each_request_and_the_verdict():
    lines, status = serve("P1", client=read_notes_twice)
    assert status == 0
    assert lines[2].startswith("#1 POST /v1/messages → 200 stage 0, attempt 1, json → fault: ")
    assert "[declared end_turn]" in lines[2]
    assert lines[3].startswith("#2 POST /v1/messages → 200 stage 1, attempt 1, json → answer")
    assert lines[4] == "verdict: 2 request(s); script consumed: yes; rejections: 0; faults: 1"


def test_a_rejected_request_is_logged_with_the_fakes_exact_400_and_fails_the_run():
    def unanswered(url: str) -> None:
        call = {"type": "tool_use", "id": "toolu_x", "name": "bash", "input": {}}
        messages = [
            {"role": "user", "content": "hi"},
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": "and?"},
        ]
        with anthropic.Anthropic(base_url=url, api_key="sk-test", max_retries=0) as client:
            with pytest.raises(anthropic.BadRequestError):
                client.messages.create(model="m", max_tokens=64, messages=messages)
            client.messages.create(model="m", max_tokens=64, messages=messages[:1])

    lines, status = serve("--json", client=unanswered)
    events = [json.loads(line) for line in lines[1:]]
    assert events[0]["status"] == 400
    assert "`tool_use` ids were found without `tool_result` blocks" in events[0]["answer"]
    assert events[-1]["verdict"]["rejections"]
    assert status == 1


def test_serving_an_experiment_plays_its_script_in_order():
    served = resolve("D1", None)
    assert "experiment D1" in served.note
    assert served.responder.model.remaining == 3


def test_a_port_that_is_taken_is_a_usage_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = subprocess.run([*LAB, "--port", str(port)], capture_output=True, text=True)
    assert done.returncode == 2
    assert done.stderr.startswith(f"lab: error: --port {port}: ")


@pytest.mark.parametrize(
    ("ident", "message"),
    [("D99", "unknown experiment id 'D99'"), ("nope.py", "nope.py: no such script file")],
)
def test_unknown_ids_are_one_line(ident, message):
    with pytest.raises(ServeError, match=message):
        resolve(ident, None)


def test_a_fuzz_found_script_is_a_file_lab_serve_plays(tmp_path: Path):
    generated = ((("call", "unknown"), "end_turn", True), (("text",), "tool_use", False))
    call = ("read_file", {"path": "notes.txt"})
    path = tmp_path / "found.py"
    path.write_text(source(generated, call, "found by a test"))
    served = resolve(str(path), None)
    stages = served.responder.stages
    assert len(stages) == len(steps(generated, call)) - 1  # the 529 rides on its turn
    assert stages[0].fault.status == 529
    assert stages[0].answer.declared == "end_turn"
    assert [b["name"] for b in stages[0].answer.blocks] == ["read_file", "lab_probe_no_such_tool"]
