"""lab serve: a script on 127.0.0.1, each request logged with the fake's verdict, the run's verdict
at the end; and the script files --fuzz prints are what it serves."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import anthropic
import openai
import patience
import pytest

from lab.probe.catalogue import BY_ID
from lab.probe.fuzz import source, steps
from lab.probe.serve import ServeError, resolve
from lab.probe.target import READ_NOTES

LAB = [sys.executable, "-m", "lab", "serve"]
HAND_LOOP = Path(__file__).parent / "agents" / "hand_loop.py"


KEPT_P1 = "P1 kept: the call declared end_turn ran, the run finished"


def serve(*args: str, client=None, cwd=None) -> tuple[list[str], int]:
    """Start `lab serve ARGS --until-done`, run `client(base_url)`, return its lines and status."""
    process = subprocess.Popen(
        [*LAB, *args, "--until-done"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=cwd,
    )
    exports = [process.stdout.readline().strip() for _ in range(4)]
    first, second, third, fourth = exports
    assert first.startswith("export ANTHROPIC_BASE_URL=http://127.0.0.1:")
    assert second == "export ANTHROPIC_API_KEY=sk-lab-probe-not-a-real-key"
    assert third == first.replace("ANTHROPIC_", "OPENAI_") + "/v1"  # the same server, both wires
    assert fourth == second.replace("ANTHROPIC_", "OPENAI_")
    if client is not None:
        client(first.split("=", 1)[1])
    patience.wait(process, 60, "lab serve to end")
    return [*exports, *process.stdout.read().splitlines()], process.returncode


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


def requests(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("#") and not line.startswith("# ")]


def test_serving_a_probe_case_logs_each_request_and_the_verdict():
    lines, status = serve("P1", client=read_notes_twice)
    logged = requests(lines)
    assert logged[0].startswith("#1 POST /v1/messages → 200 stage 0, attempt 1, json → fault: ")
    assert "[declared end_turn]" in logged[0]
    assert logged[1].startswith("#2 POST /v1/messages → 200 stage 1, attempt 1, json → answer")
    assert "verdict: 2 request(s); script consumed: yes; rejections: 0; faults: 1" in lines
    # This client answers the call without reading notes.txt: the canary never came back.
    assert graded(lines, "P1") not in ("kept", "n/a")
    assert any(line.startswith("canary: never came back") for line in lines)
    assert status == 1


def graded(lines: list[str], case: str) -> str:
    """The grade on the case's verdict line (`P1 kept: ...`)."""
    (line,) = [line for line in lines if line.startswith(f"{case} ") and ": " in line]
    return line[len(case) + 1 : line.index(":")]


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
    events = [json.loads(line) for line in lines[4:]]
    assert events[0]["status"] == 400
    assert "`tool_use` ids were found without `tool_result` blocks" in events[0]["answer"]
    assert events[-1]["verdict"]["rejections"]
    assert status == 1


def test_the_printed_openai_base_url_serves_the_chat_wire():
    def chat(url: str) -> None:
        with openai.OpenAI(base_url=url + "/v1", api_key="sk-test", max_retries=0) as client:
            answer = client.chat.completions.create(
                model="m", messages=[{"role": "user", "content": "hi"}]
            )
        assert answer.object == "chat.completion" and answer.choices[0].message.content

    lines, _ = serve(client=chat)
    logged = requests(lines)
    assert logged[0].startswith("#1 POST /v1/chat/completions → 200")


def test_serving_an_experiment_plays_its_script_in_order():
    served = resolve("D1", None)
    assert "experiment D1" in served.note
    assert served.responder.current.model.remaining == 3


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
    stages = served.responder.current.stages
    assert len(stages) == len(steps(generated, call)) - 1  # the 529 rides on its turn
    assert stages[0].fault.status == 529
    assert stages[0].answer.declared == "end_turn"
    assert [b["name"] for b in stages[0].answer.blocks] == ["read_file", "lab_probe_no_such_tool"]


# ---------------------------------------------------------------- by hand, as the README says
def by_hand(exports: list[str], mode: str, cwd: Path) -> int:
    """Paste the two export lines into a shell that has no ANTHROPIC_ variable, then run a
    hand-written harness there: it must find both (the SDK refuses to start without a key)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    script = "\n".join([*exports, f'"{sys.executable}" "{HAND_LOOP}" --mode {mode} hi'])
    return patience.run(
        ["bash", "-c", script], 60, "the pasted harness", cwd=cwd, env=env
    ).returncode


def start(*args: str, cwd: Path) -> tuple[subprocess.Popen, list[str]]:
    """`lab serve ARGS` and its lines up to the first request (the exports and the notes)."""
    process = subprocess.Popen(
        [*LAB, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd
    )
    intro = [process.stdout.readline().rstrip("\n") for _ in range(4)]
    while (line := process.stdout.readline().rstrip("\n")).startswith("# "):
        intro.append(line)
        if "faults are played" in line:
            break
    return process, intro


def write_canary(intro: list[str], folder: Path) -> None:
    """Do what the printed line says: `echo CANARY > notes.txt` in the harness's folder."""
    (line,) = [line for line in intro if line.startswith("# notes.txt")]
    canary = line.split("echo ", 1)[1].split(" > ")[0]
    (folder / "notes.txt").write_text(canary + "\n")


def test_by_hand_the_exports_start_a_harness_and_its_graded_verdict_says_the_canary_came_back(
    tmp_path: Path,
):
    process, intro = start("P1", "--until-done", cwd=tmp_path)
    assert f"# rule: kept when {BY_ID['P1'].kept_when}" in intro
    write_canary(intro, tmp_path)
    assert by_hand(intro[:2], "careful", tmp_path) == 0
    out, _ = patience.communicate(process, 60, "lab serve to end")
    lines = out.splitlines()
    assert graded(lines, "P1") == "kept"
    said = "  request #2 answers toolu_p1_01: a tool_result, no is_error, canary seen in its "
    said += "tool_result"
    assert said in lines
    assert "canary: came back (request #2)" in lines
    assert process.returncode == 0


def test_a_harness_that_trusts_the_declared_stop_reason_is_graded_as_lab_probe_grades_it(
    tmp_path: Path,
):
    from lab.probe.bench import probe
    from lab.probe.catalogue import BY_ID
    from lab.probe.targets import command_target

    process, intro = start("P1", "--until-done", "--idle", "1", cwd=tmp_path)
    write_canary(intro, tmp_path)
    by_hand(intro[:2], "trusting", tmp_path)
    out, _ = patience.communicate(process, 60, "lab serve to end")
    lines = out.splitlines()
    target = command_target(f"{sys.executable} {HAND_LOOP} --mode trusting", READ_NOTES)
    (cell,) = probe([target], [BY_ID["P1"]], cold=True)
    assert graded(lines, "P1") == cell.verdict.kind != "kept"
    assert f"P1 {cell.verdict.kind}: {cell.verdict.because}" in lines
    assert any(line.startswith("canary: never came back") for line in lines)
    assert process.returncode == 1


def test_until_done_stops_after_the_idle_time_when_the_harness_stops_early(tmp_path: Path):
    process, intro = start("P12", "--until-done", "--idle", "1", cwd=tmp_path)
    write_canary(intro, tmp_path)
    by_hand(intro[:2], "short", tmp_path)  # gives up after 5 of P12's 20 answers
    out, _ = patience.communicate(
        process, 60, "lab serve to end"
    )  # without the idle time: waits forever
    lines = out.splitlines()
    assert "# no request for 1 s: stopping (--idle)" in lines
    assert "verdict: 5 request(s); script consumed: no; rejections: 0; faults: 0" in lines
    assert graded(lines, "P12") != "kept"
    assert process.returncode == 1


def first_answers(lines: list[str]) -> list[str]:
    """What each run's first request got: fault or answer."""
    return [line.split(" → ")[-1].split(":")[0] for line in requests(lines) if "stage 0" in line]


def test_replay_plays_the_fault_to_a_second_run_and_grades_each_run(tmp_path: Path):
    process, intro = start("P1", "--replay", cwd=tmp_path)
    assert "# the script's faults are played in every run (--replay)" in intro
    write_canary(intro, tmp_path)
    assert by_hand(intro[:2], "careful", tmp_path) == 0
    assert by_hand(intro[:2], "careful", tmp_path) == 0
    process.send_signal(signal.SIGINT)  # the end of the last run
    out, _ = patience.communicate(process, 60, "lab serve to end")
    lines = out.splitlines()
    assert first_answers(lines) == ["fault", "fault"]
    assert [line for line in lines if line.startswith("run ")] == ["run 1:", "run 2:"]
    assert [line for line in lines if line.startswith("P1 ")] == [
        KEPT_P1,
        KEPT_P1,
    ]
    assert "canary: came back (request #4)" in lines  # the second run's, numbered on


def test_without_replay_a_second_run_gets_the_healthy_answer_and_is_told_so(tmp_path: Path):
    process, intro = start("P1", cwd=tmp_path)
    assert "# the script's faults are played in the first run only" in " ".join(intro)
    write_canary(intro, tmp_path)
    by_hand(intro[:2], "careful", tmp_path)
    by_hand(intro[:2], "careful", tmp_path)
    process.send_signal(signal.SIGINT)
    out, _ = patience.communicate(process, 60, "lab serve to end")
    lines = out.splitlines()
    assert first_answers(lines) == ["fault", "answer"]
    assert any(line.startswith("# a new conversation after the script's end") for line in lines)


def test_ctrl_c_prints_the_graded_verdict(tmp_path: Path):
    process, intro = start("P1", cwd=tmp_path)
    write_canary(intro, tmp_path)
    by_hand(intro[:2], "careful", tmp_path)
    process.send_signal(signal.SIGINT)
    out, err = patience.communicate(process, 60, "lab serve to end")
    assert KEPT_P1 in out.splitlines()
    assert "Traceback" not in err
    assert process.returncode == 0


class Printed:
    """Where lab serve's Watch prints (lab/probe/serve.py's Log), collected."""

    def __init__(self) -> None:
        self.exchanges: list = []
        self.verdicts: list[dict] = []

    def intro(self, served, url: str) -> None: ...
    def say(self, line) -> None: ...

    def exchange(self, exchange) -> None:
        self.exchanges.append(exchange.number)

    def verdict(self, result: dict) -> None:
        self.verdicts.append(result)


def test_a_long_run_keeps_a_bounded_record_and_counts_the_rest(tmp_path: Path):
    import httpx2

    from lab.probe.serve import KEPT, Watch, answering
    from lab.views.serve_log import verdict_lines

    served = resolve(None, None)
    printed = Printed()
    watch = Watch(served, printed, folder=tmp_path)
    recorder = answering(served, watch, lambda exchange: None)
    api = recorder.api
    many = 3 * KEPT + 5
    with httpx2.Client(transport=httpx2.MockTransport(recorder)) as http:
        messages = [{"role": "user", "content": "hi"}]
        for n in range(many):
            body = {"model": "m", "max_tokens": 5, "messages": messages}
            reply = http.post("http://127.0.0.1/v1/messages", json=body).json()
            if n % 2 == 0:  # a harness's history grows; a rejected request now and then
                messages = [*messages, {"role": "assistant", "content": reply["content"]}]
                messages.append({"role": "user", "content": f"go on {n}"})
            else:
                http.post("http://127.0.0.1/v1/messages", json={**body, "max_tokens": 0})
    total = many + many // 2
    # Every request was logged, in order; what is kept is bounded by count, not by requests.
    assert printed.exchanges == list(range(1, total + 1))
    assert len(watch.record.kept) == KEPT and watch.record.later == total - KEPT
    assert recorder.exchanges == [] and len(served.responder.log) == 1
    assert len(api.requests) == len(api.replies) == len(api.rejections) == 0
    assert all(len(lines) <= KEPT for lines in watch.record.later_lines.values())
    watch.finish(served.consumed)
    (verdict,) = printed.verdicts
    assert verdict["requests"] == total
    listed = len(verdict["rejections"])
    assert listed + verdict["not_listed"]["rejections"] == many // 2 and listed < many // 2
    assert f"rejections: {many // 2}; faults: 0" in verdict_lines(verdict, False)[0]
    assert verdict["judged_on"] == f"its first {KEPT} requests (the later ones counted)"
    assert watch.status == 1  # the rejected requests fail the run, kept or counted


def test_a_run_that_goes_on_past_its_script_keeps_a_bounded_record_and_stays_consumed(
    tmp_path: Path,
):
    import httpx2

    from lab.probe.serve import KEPT, Watch, answering

    served = resolve("P1", None)
    printed = Printed()
    watch = Watch(served, printed, folder=tmp_path)
    recorder = answering(served, watch, lambda exchange: None)
    http = httpx2.Client(transport=httpx2.MockTransport(recorder))
    with anthropic.Anthropic(
        base_url="http://127.0.0.1", api_key="k", max_retries=0, http_client=http
    ) as client:
        two_requests(client)  # the script, answered to its end
        assert served.consumed
        tools = [{"name": "read_file", "input_schema": {"type": "object"}}]
        for _ in range(3 * KEPT):  # new conversations: the healthy answers, again and again
            client.messages.create(
                model="m", max_tokens=64, messages=[{"role": "user", "content": "hi"}], tools=tools
            )
    record = served.responder.current.log
    assert len(record) <= 2 * KEPT and served.consumed and served.responder.unreplayed
    watch.finish(served.consumed)
    (verdict,) = printed.verdicts
    assert verdict["requests"] == 3 * KEPT + 2 and verdict["script_consumed"] is True
    assert verdict["rejections"] == [] and len(watch.record.kept) == KEPT
