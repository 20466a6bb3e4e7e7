"""Wire invariants judge any harness from the fake API's log: a hand-written loop, broken ones."""

from __future__ import annotations

import anthropic

from lab.kernel import promises
from lab.model import overloaded, stream_error, text, tool_use, turn
from lab.probe.wire_promises import WireRun, record_of
from lab.testing.wire import (
    WIRE_INVARIANTS,
    assert_wire,
    run_wire,
    wire_problems,
    without_sdk_retries,
)

# ---- the README's example: a hand-written loop, checked in about twenty lines -------------------
TOOLS = [
    {
        "name": "read_file",
        "description": "Read a file.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        },
    }
]


def my_loop(client: anthropic.Anthropic, prompt: str) -> None:
    messages = [{"role": "user", "content": prompt}]
    while True:
        reply = client.messages.create(model="any", max_tokens=1024, messages=messages, tools=TOOLS)
        messages.append({"role": "assistant", "content": [b.to_dict() for b in reply.content]})
        calls = [b for b in reply.content if b.type == "tool_use"]  # the content, not stop_reason
        if not calls:
            return
        results = []
        for call in calls:  # every call gets exactly one result, an error one if it is bad
            ok = call.name == "read_file" and isinstance(call.input.get("path"), str)
            output = f"contents of {call.input['path']}" if ok else f"bad call: {call.name}"
            results.append({"type": "tool_result", "tool_use_id": call.id, "content": output})
            results[-1]["is_error"] = not ok
        messages.append({"role": "user", "content": results})


def test_my_loop_keeps_the_wire_invariants():
    script = [
        turn(tool_use("read_file", {"path": "a.txt"}), stop_reason="end_turn"),  # D1's distortion
        turn(tool_use("no_such_tool", {}), tool_use("read_file", {"path": 7})),
        turn("done."),
    ]
    assert_wire(run_wire(my_loop, script))


# ---- each invariant catches the loop that breaks it ------------------------------------------
def loop_with(
    *,
    trust_stop_reason=False,
    is_error=True,
    validate=True,
    raise_on_unknown=False,
    text_before_results=False,
    ask_once_more=False,
    retries=0,
):
    """my_loop with one mistake switched on."""

    def loop(client, prompt):
        messages = [{"role": "user", "content": prompt}]
        extra = ask_once_more
        while True:
            for attempt in range(retries + 1):
                try:
                    reply = client.messages.create(
                        model="any", max_tokens=1024, messages=messages, tools=TOOLS
                    )
                    break
                except anthropic.APIStatusError:
                    if attempt == retries:
                        raise
            messages.append({"role": "assistant", "content": [b.to_dict() for b in reply.content]})
            calls = [b for b in reply.content if b.type == "tool_use"]
            if trust_stop_reason:
                calls = calls if reply.stop_reason == "tool_use" else []
            if not calls:
                if extra:
                    extra = False
                    messages.append({"role": "user", "content": "go on"})
                    continue
                return
            results = [] if not text_before_results else [{"type": "text", "text": "results:"}]
            for call in calls:
                known = call.name == "read_file"
                if raise_on_unknown and not known:
                    raise KeyError(call.name)
                ok = known and (isinstance(call.input.get("path"), str) or not validate)
                block = {"type": "tool_result", "tool_use_id": call.id, "content": "..."}
                results.append({**block, "is_error": not ok} if is_error else block)
            messages.append({"role": "user", "content": results})

    return loop


READ = tool_use("read_file", {"path": "a.txt"})


def test_trusting_stop_reason_breaks_continuation():
    script = [turn(READ, stop_reason="end_turn"), turn("done.")]
    run = run_wire(loop_with(trust_stop_reason=True), script)
    assert [name for name, _ in wire_problems(run)] == ["continuation"]
    assert "declared end_turn" in dict(wire_problems(run))["continuation"]


def test_results_without_is_error_break_the_unknown_tool_invariant():
    script = [turn(tool_use("no_such_tool", {})), turn("done.")]
    problems = dict(wire_problems(run_wire(loop_with(is_error=False), script)))
    assert list(problems) == ["unknown_tool_answered"]


def test_no_validation_breaks_the_invalid_input_invariant():
    script = [turn(tool_use("read_file", {"path": 7})), turn("done.")]
    problems = dict(wire_problems(run_wire(loop_with(validate=False), script)))
    assert list(problems) == ["invalid_input_answered"]
    assert "{'path': 7}" in problems["invalid_input_answered"]


def test_raising_on_an_unknown_tool_is_a_crash_and_leaves_the_call_unanswered():
    script = [turn(tool_use("no_such_tool", {})), turn("done.")]
    problems = dict(wire_problems(run_wire(loop_with(raise_on_unknown=True), script)))
    assert set(problems) == {"continuation", "no_crash", "unknown_tool_answered"}
    assert problems["no_crash"] == "KeyError: 'no_such_tool'"


def test_text_before_the_results_breaks_pairing_with_the_fakes_exact_400():
    script = [turn(READ), turn("done.")]
    problems = dict(wire_problems(run_wire(loop_with(text_before_results=True), script)))
    assert "pairing" in problems
    assert "400 invalid_request_error: messages.1: `tool_use` ids were found" in problems["pairing"]


def test_asking_past_the_last_answer_breaks_termination():
    problems = dict(wire_problems(run_wire(loop_with(ask_once_more=True), [turn("done.")])))
    assert list(problems) == ["termination"]


def test_a_fault_is_played_once_so_a_loop_that_retries_passes():
    """With the SDK's retries off (a loop that owns its retries), the loop's own retry is
    what passes the 529."""
    script = [overloaded(), turn(READ), turn("done.")]
    own = without_sdk_retries
    assert wire_problems(run_wire(loop_with(retries=1), script, client=own)) == []
    problems = dict(wire_problems(run_wire(loop_with(retries=0), script, client=own)))
    assert "529" in problems["no_crash"] or "Overloaded" in problems["no_crash"]


def test_by_default_the_sdk_retries_a_529_as_it_does_in_a_program():
    script = [overloaded(), turn(READ), turn("done.")]
    run = run_wire(loop_with(retries=0), script)
    assert wire_problems(run) == []
    assert [e.status for e in run.exchanges][:2] == [529, 200]  # the SDK asked again


def test_a_broken_stream_is_answered_whole_on_the_second_attempt():
    script = [stream_error(turn(text("Reading."), READ), after_blocks=1), turn("done.")]
    # not streamed: the error arrives before a body, as an HTTP 529 the loop itself must retry
    run = run_wire(loop_with(retries=0), script, client=without_sdk_retries)
    assert [name for name, _ in wire_problems(run)] == ["no_crash"]


# ---- run_wire and `lab probe` agree on retries ----------------------------------------------
SDK_LOOP = """
import sys
from pathlib import Path

import anthropic

TOOLS = [{"name": "read_file", "description": "Read a file.",
          "input_schema": {"type": "object", "properties": {"path": {"type": "string"}},
                           "required": ["path"]}}]


def loop(client, prompt):
    # No retry of its own: it relies on the SDK's default retries.
    messages = [{"role": "user", "content": prompt}]
    while True:
        reply = client.messages.create(model="any", max_tokens=1024, messages=messages,
                                       tools=TOOLS)
        messages.append({"role": "assistant", "content": [b.to_dict() for b in reply.content]})
        calls = [b for b in reply.content if b.type == "tool_use"]
        if not calls:
            return
        results = []
        for call in calls:
            path = Path(str(call.input.get("path", "")))
            text = path.read_text() if path.is_file() else "no such file"
            results.append({"type": "tool_result", "tool_use_id": call.id, "content": text,
                            "is_error": not path.is_file()})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    loop(anthropic.Anthropic(), sys.argv[-1])
"""


def test_run_wire_and_the_probe_agree_on_a_529_for_a_loop_relying_on_sdk_retries(tmp_path):
    import importlib.util
    import sys

    from lab.probe.bench import run_trial
    from lab.probe.catalogue import BY_ID
    from lab.probe.grades import KEPT
    from lab.probe.targets import command_target

    program = tmp_path / "sdk_loop.py"
    program.write_text(SDK_LOOP, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("sdk_loop", program)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)

    cell = run_trial(command_target(f"{sys.executable} {program}"), BY_ID["P7"], timeout=60)
    script = [overloaded(), turn(tool_use("read_file", {"path": str(program)})), turn("done.")]
    in_process = wire_problems(run_wire(module.loop, script))
    assert cell.verdict.kind == KEPT, cell.verdict
    # the probe's trial, viewed as a Record, meets the same judges as the in-process run
    assert cell.trial is not None
    record = record_of(cell.trial)
    assert [r.reply.kind for r in record.requests][:2] == ["fault", "answer"]
    assert [r.status for r in record.requests][:2] == [529, 200]
    assert record.requests[0].body is cell.trial.exchanges[0].body  # viewed, not copied
    assert [c.id for c in record.ran or ()] == ["toolu_p7_01"]  # its canary came back
    for judge in (promises.retried, promises.continuation, promises.no_crash, promises.pairing):
        assert judge(record) is None, judge.__name__
    assert in_process == []  # the same verdict: kept
    # and the strict client (no SDK retries) is a choice the author makes, not the default
    strict = dict(wire_problems(run_wire(module.loop, script, client=without_sdk_retries)))
    assert "no_crash" in strict


def test_every_invariant_has_a_docstring_promise():
    for name, check in WIRE_INVARIANTS.items():
        assert check.__doc__, name


def test_a_turn_played_as_a_stages_fault_is_a_whole_answer_in_the_record():
    """P1's fault is a whole turn (a call declared end_turn): the record holds it as an answer,
    so the continuation promise judges it."""
    script = [turn(READ, stop_reason="end_turn"), turn("done.")]
    trusting = run_wire(loop_with(trust_stop_reason=True), script)
    assert [r.reply.kind for r in trusting.record.requests] == ["answer"]
    assert promises.continuation(trusting.record) is not None
    from lab.kernel.runner import run_function
    from lab.probe.conversation import Conversation, Stage
    from lab.probe.recorder import Recorder

    fault = turn(tool_use("read_file", {"path": "a.txt"}, id="toolu_f"), stop_reason="end_turn")
    healthy = turn(tool_use("read_file", {"path": "a.txt"}, id="toolu_h"))
    conversation = Conversation([Stage(healthy, fault=fault), Stage(turn("done."))], marker="")
    recorders: list[Recorder] = []

    def serve(tap):
        recorders.append(Recorder(tap))
        return recorders[-1]

    run_function(
        loop_with(trust_stop_reason=True), conversation, "go", serve=serve, notes=conversation.log
    )
    record = WireRun(recorders[0].exchanges, None, 2).record
    assert [(r.reply.kind, r.reply.declared) for r in record.requests] == [("answer", "end_turn")]
    assert "toolu_f" in str(promises.continuation(record))
