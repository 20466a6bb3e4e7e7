"""lab.testing.wire on the Chat Completions wire: a loop written against `openai.OpenAI` is run on
the same scripts and judged by the same wire invariants (D1 here: `finish_reason: "stop"` with
tool_calls present)."""

from __future__ import annotations

import json

import openai
import pytest

from lab.model import rate_limited, thinking, tool_use, turn
from lab.testing.wire import (
    NOT_ON_CHAT,
    assert_wire,
    openai_with_sdk_retries,
    openai_without_sdk_retries,
    run_wire,
    wire_problems,
)

TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a file.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    }
]
READ = tool_use("read_file", {"path": "a.txt"})


def chat_loop(*, trust_finish_reason: bool = False, ask_once_more: bool = False):
    """A hand-written loop on the chat wire; each flag switches one mistake on."""

    def loop(client: openai.OpenAI, prompt: str) -> None:
        messages: list[dict] = [{"role": "user", "content": prompt}]
        extra = ask_once_more
        while True:
            reply = client.chat.completions.create(model="any", messages=messages, tools=TOOLS)
            choice = reply.choices[0]
            message = choice.message
            messages.append(message.model_dump(exclude_none=True))
            calls = message.tool_calls or []  # the content, not finish_reason
            if trust_finish_reason:
                calls = calls if choice.finish_reason == "tool_calls" else []
            if not calls:
                if extra:
                    extra = False
                    messages.append({"role": "user", "content": "go on"})
                    continue
                return
            for call in calls:  # every call gets exactly one tool message
                args = json.loads(call.function.arguments or "{}")
                ok = call.function.name == "read_file" and isinstance(args.get("path"), str)
                said = (
                    f"contents of {args['path']}" if ok else f"error: bad call {call.function.name}"
                )
                messages.append({"role": "tool", "tool_call_id": call.id, "content": said})

    return loop


def test_a_careful_loop_keeps_the_invariants_through_the_d1_distortion():
    script = [
        turn(READ, stop_reason="end_turn"),  # D1 on this wire: stop, with a tool call
        turn(tool_use("no_such_tool", {}), tool_use("read_file", {"path": 7})),
        turn("done."),
    ]
    run = run_wire(chat_loop(), script, client=openai_without_sdk_retries)
    assert_wire(run)
    assert all(e.path.endswith("/chat/completions") for e in run.exchanges)
    assert [e.status for e in run.exchanges] == [200, 200, 200]


def test_trusting_finish_reason_is_caught_by_continuation():
    script = [turn(READ, stop_reason="end_turn"), turn("done.")]
    run = run_wire(chat_loop(trust_finish_reason=True), script, client=openai_without_sdk_retries)
    problems = dict(wire_problems(run))
    assert list(problems) == ["continuation"]
    assert "(toolu_001, declared end_turn)" in problems["continuation"]


def test_asking_past_the_last_answer_breaks_termination():
    run = run_wire(
        chat_loop(ask_once_more=True), [turn("done.")], client=openai_without_sdk_retries
    )
    assert [name for name, _ in wire_problems(run)] == ["termination"]


def test_the_sdks_retries_pass_a_429_and_the_run_keeps_the_invariants():
    script = [rate_limited(0.01), turn(READ), turn("done.")]
    run = run_wire(chat_loop(), script, client=openai_with_sdk_retries)
    assert [e.status for e in run.exchanges][:2] == [429, 200]
    assert wire_problems(run) == []


def test_without_retries_the_429_reaches_the_loop_as_a_crash():
    script = [rate_limited(0.01), turn(READ), turn("done.")]
    run = run_wire(chat_loop(), script, client=openai_without_sdk_retries)
    problems = dict(wire_problems(run))
    assert problems["no_crash"].startswith("RateLimitError: Error code: 429")


def test_a_tool_message_never_answered_is_a_pairing_problem_with_the_real_400():
    def forgets_one(client: openai.OpenAI, prompt: str) -> None:
        messages: list[dict] = [{"role": "user", "content": prompt}]
        reply = client.chat.completions.create(model="any", messages=messages, tools=TOOLS)
        messages.append(reply.choices[0].message.model_dump(exclude_none=True))
        first = reply.choices[0].message.tool_calls[0]
        messages.append({"role": "tool", "tool_call_id": first.id, "content": "A"})
        client.chat.completions.create(model="any", messages=messages, tools=TOOLS)

    script = [turn(READ, tool_use("read_file", {"path": "b.txt"})), turn("done.")]
    run = run_wire(forgets_one, script, client=openai_without_sdk_retries)
    problems = dict(wire_problems(run))
    assert "did not have response messages: call_002" in problems["pairing"]


def test_the_is_error_invariants_are_not_judged_on_this_wire():
    assert set(NOT_ON_CHAT) == {"unknown_tool_answered", "invalid_input_answered"}
    script = [turn(tool_use("no_such_tool", {})), turn("done.")]
    assert wire_problems(run_wire(chat_loop(), script, client=openai_without_sdk_retries)) == []


def test_a_script_with_no_meaning_on_this_wire_is_refused_before_the_run():
    with pytest.raises(ValueError, match="script step 1: a thinking block"):
        run_wire(chat_loop(), [turn(thinking("hm"), "done.")], client=openai_with_sdk_retries)


def test_a_probe_cases_conversation_plays_on_this_wire_through_the_scripts_ids():
    """P1's script, served as `lab serve P1` serves it: its D1 answer is `stop` with the call
    `call_p1_01`, and the tool message answering that id moves the conversation on."""
    from lab.model import FakeMessagesAPI, ScriptedModel
    from lab.model.chat_client import make_chat_client
    from lab.probe.serve import resolve

    served = resolve("P1", None)
    client = make_chat_client(FakeMessagesAPI(ScriptedModel(served.responder)))
    messages: list[dict] = [{"role": "user", "content": "Read notes.txt"}]
    first = client.chat.completions.create(model="m", messages=messages, tools=TOOLS).choices[0]
    assert first.finish_reason == "stop"
    assert [c.id for c in first.message.tool_calls] == ["call_p1_01"]
    messages.append(first.message.model_dump(exclude_none=True))
    messages.append({"role": "tool", "tool_call_id": "call_p1_01", "content": "canary"})
    last = client.chat.completions.create(model="m", messages=messages, tools=TOOLS).choices[0]
    assert (last.finish_reason, last.message.content) == ("stop", "done.")
    assert served.responder.log[-1].line().startswith("stage 1, attempt 1")
