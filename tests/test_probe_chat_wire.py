"""The probe on the Chat Completions wire, in process: the real `openai` SDK talks to the fake's
chat route through the probe's Recorder, and the same case tables judge what it sent.

Each test plays a probe case's script to a small loop written against `openai.OpenAI`, then
grades the recorded Trial with `verdict` (no program, no socket): the chat request is recorded
as the neutral history (tool_calls as tool_use blocks, tool messages as tool_result blocks, the
same ids), the wire is read from the request path, and the rows or cases that have no meaning on
this wire are skipped or n/a by their own data.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import openai
import pytest

from lab.kernel.record import Tap, WatchedModel
from lab.model import FakeMessagesAPI
from lab.model.chat_client import make_chat_client
from lab.model.chat_render import call_id
from lab.model.script import overloaded, rate_limited, text, turn
from lab.probe.bench import Cell
from lab.probe.cases import script_tools
from lab.probe.catalogue import BY_ID
from lab.probe.conversation import Conversation, describe
from lab.probe.grades import FAIL, KEPT, NA, NON_STRICT
from lab.probe.recorder import Recorder
from lab.probe.targets import lab_target
from lab.probe.trial import Exit, Setting, Trial
from lab.probe.verdict import verdict
from lab.probe.which_wire import CHAT, MESSAGES, wire_of
from lab.probe.wire_promises import ended
from lab.views import probe_junit

CANARY = "lab-canary-chat-wire"
TOOLS = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string"}},
                "required": ["path"],
            },
        },
    }
]
Loop = Callable[[openai.OpenAI, str], str]


def read(name: str, arguments: str) -> str:
    """The one tool, on a pretend folder whose notes.txt holds the canary."""
    if name != "read_file":
        return f"Error: unknown tool {name!r}"
    try:
        path = json.loads(arguments)["path"]
    except (ValueError, KeyError, TypeError) as error:
        return f"Error: invalid arguments: {error}"
    return f"The notes say {CANARY}." if path == "notes.txt" else f"Error: no file {path}"


def careful(client: openai.OpenAI, prompt: str) -> str:
    """Decides by the message's tool_calls; answers every call, an error as its text."""
    messages: list = [{"role": "user", "content": prompt}]
    for _ in range(30):
        asked = client.chat.completions.create(model="gpt-4.1-mini", messages=messages, tools=TOOLS)
        message = asked.choices[0].message
        if not message.tool_calls:
            return message.content or ""
        messages.append(message.model_dump(exclude_none=True))
        for call in message.tool_calls:
            text = read(call.function.name, call.function.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": text})
    raise RuntimeError("too many turns")


def trusting(client: openai.OpenAI, prompt: str) -> str:
    """This wire's D1: runs calls only when finish_reason says tool_calls."""
    messages: list = [{"role": "user", "content": prompt}]
    for _ in range(30):
        choice = client.chat.completions.create(
            model="gpt-4.1-mini", messages=messages, tools=TOOLS
        ).choices[0]
        if choice.finish_reason != "tool_calls":
            return choice.message.content or ""
        messages.append(choice.message.model_dump(exclude_none=True))
        for call in choice.message.tool_calls or []:
            text = read(call.function.name, call.function.arguments)
            messages.append({"role": "tool", "tool_call_id": call.id, "content": text})
    raise RuntimeError("too many turns")


def played(case_id: str, loop: Loop, forced: str | None = None) -> Trial:
    """The case's script played to `loop` over the fake's chat route, recorded as a Trial."""
    marker = f"[lab probe {case_id}]"
    setting = Setting(case_id, CANARY, ("read_file", {"path": "notes.txt"}), None, marker, marker)
    stages = BY_ID[case_id].script(setting)
    conversation = Conversation(stages, marker, tools=script_tools(setting))
    recorder = Recorder(Tap(FakeMessagesAPI(WatchedModel(conversation)), notes=conversation.log))
    client = make_chat_client(recorder)
    try:
        loop(client, setting.prompt)
        status = 0
    except openai.OpenAIError:
        status = 1
    exchanges = recorder.exchanges
    return ended(Trial("chat", setting, stages, exchanges, Exit(status), forced_wire=forced))


# ---------------------------------------------------------------- the record
def test_a_chat_request_is_recorded_as_blocks_with_the_script_s_ids():
    trial = played("P1", careful)
    assert [e.wire for e in trial.exchanges] == [CHAT, CHAT]
    assert trial.wire == CHAT
    second = trial.exchanges[1].messages
    assert [m["role"] for m in second] == ["user", "assistant", "user"]
    (use,) = [b for b in second[1]["content"] if b["type"] == "tool_use"]
    (result,) = second[2]["content"]
    assert use["id"] == result["tool_use_id"] == trial.stage_ids(0, fault=True)[0]
    assert use["id"].startswith("toolu_") and use["input"] == {"path": "notes.txt"}
    assert CANARY in result["content"] and "is_error" not in result
    sent = trial.exchanges[1].sent["messages"]  # the body as it came, kept beside its reading
    assert sent[1]["tool_calls"][0]["id"] == sent[2]["tool_call_id"] == call_id(use["id"])
    assert trial.exchanges[1].sent["tools"] == TOOLS


@pytest.mark.parametrize(
    ("path", "wire"),
    [
        ("/v1/messages", MESSAGES),
        ("/v1/chat/completions", CHAT),
        ("/proxy/v1/chat/completions/", CHAT),
        ("/v1/messages/count_tokens", None),
        ("/v1/models", None),
    ],
)
def test_the_wire_is_read_from_the_path(path, wire):
    assert wire_of(path) == wire


# ---------------------------------------------------------------- the same tables judge it
def test_p1_catches_this_wire_s_d1_and_keeps_the_careful_loop():
    assert verdict(BY_ID["P1"], played("P1", careful)).kind == KEPT
    caught = verdict(BY_ID["P1"], played("P1", trusting))
    assert (caught.kind, caught.because) == (
        FAIL,
        "the call was dropped: its canary never came back",
    )


def test_p1b_tool_calls_with_none_sent_is_no_empty_follow_up_here():
    # finish_reason "tool_calls" with no call: the trusting loop asks again with an assistant
    # message and nothing to answer, which this wire accepts (an empty Messages turn it would not).
    assert verdict(BY_ID["P1b"], played("P1b", trusting)).kind == KEPT


def test_p10_a_call_cut_by_length_is_not_run_by_the_careful_loop():
    trial = played("P10", careful)
    assert trial.exchanges[0].played.kind == "fault"  # finish_reason "length", arguments cut
    assert verdict(BY_ID["P10"], trial).kind == KEPT


def test_the_is_error_row_is_skipped_on_the_wire_that_has_no_such_flag():
    trial = played("P2", careful)  # the unknown tool answered by a tool message, no flag
    on_chat = verdict(BY_ID["P2"], trial)
    assert on_chat.kind == KEPT and "no error flag" in on_chat.because
    judged_as_messages = verdict(BY_ID["P2"], played("P2", careful, forced=MESSAGES))
    assert judged_as_messages.kind == NON_STRICT  # the same record, the flag's row applies


def test_a_case_with_no_meaning_on_the_wire_is_na_with_its_reason():
    setting = Setting("P18", CANARY, ("read_file", {}), None, "[m]", "[m]")
    trial = ended(Trial("chat", setting, (), (), Exit(0), forced_wire=CHAT))
    said = verdict(BY_ID["P18"], trial)
    assert said.kind == NA and "pause_turn" in said.because and "openai wire" in said.because


# ---------------------------------------------------------------- evidence in this wire's words
def test_evidence_names_what_crossed_this_wire_and_the_grade_stays():
    cut = verdict(BY_ID["P19"], played("P19", careful))  # finish_reason "length" on this wire
    assert cut.kind == NON_STRICT and "[finish_reason length]" in cut.evidence[0]
    assert "declared" not in cut.evidence[0]
    busy = verdict(BY_ID["P7"], played("P7", careful))  # the 503 this wire sends for a 529
    assert busy.kind == NON_STRICT and busy.because.startswith("not retried")
    assert busy.evidence[0].endswith(
        "→ 503 stage 0, attempt 1, json → fault: HTTP 503 server_error"
    )
    assert "529" not in "\n".join(busy.evidence)


@pytest.mark.parametrize(
    ("wire", "ending", "fault", "limited"),
    [
        (
            MESSAGES,
            "[declared max_tokens]",
            "HTTP 529 overloaded_error",
            "HTTP 429 rate_limit_error",
        ),
        (CHAT, "[finish_reason length]", "HTTP 503 server_error", "HTTP 429 rate_limit_exceeded"),
    ],
)
def test_each_wire_has_its_own_words_for_an_ending_and_a_fault(wire, ending, fault, limited):
    assert describe(turn(text("cut"), stop_reason="max_tokens"), wire) == f"text 'cut' {ending}"
    assert describe(overloaded(), wire) == fault
    assert describe(rate_limited(), wire) == limited


def test_a_cell_s_title_names_the_fault_as_its_wire_sent_it():
    for case, on_chat in (("P7", "503 overloaded"), ("P15", "a persistent 503")):
        trial = played(case, careful)
        cell = Cell("chat", case, verdict(BY_ID[case], trial), trial)
        assert cell.title == on_chat and "529" in BY_ID[case].title
        assert (
            probe_junit.testcase(cell, lab_target("reference")).get("name") == f"{case} {on_chat}"
        )
        as_messages = played(case, careful, forced=MESSAGES)
        assert Cell("chat", case, cell.verdict, as_messages).title == BY_ID[case].title
