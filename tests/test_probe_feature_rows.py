"""The rows of the feature cases (thinking P24/P25, an image from a tool P26), quick: each case's
script played in process to a small loop on the real `anthropic` SDK, over the real fake API and
tap, and graded. Every row is decided by a loop that keeps or breaks it, so a mutant of a row
(always holds, compares only part of the block, reads an image beside the result as inside) fails
here without running a program."""

from __future__ import annotations

import base64
from collections.abc import Callable
from dataclasses import replace

import anthropic
import pytest

from lab.kernel.record import Tap, WatchedModel
from lab.model import FakeMessagesAPI
from lab.model.client import make_client
from lab.probe.cases import script_tools
from lab.probe.cases.images import IMAGE, png
from lab.probe.catalogue import BY_ID
from lab.probe.conversation import IMAGE_TOOL, Conversation
from lab.probe.grades import FAIL, INFO, KEPT, NA, NON_STRICT
from lab.probe.recorder import Recorder
from lab.probe.trial import Exit, Setting, Trial
from lab.probe.verdict import verdict
from lab.probe.wire_promises import ended

CANARY = "lab-canary-feature-rows"
PATH = {"type": "object", "properties": {"path": {"type": "string"}}, "required": ["path"]}
TOOLS = [
    {"name": "read_file", "description": "Read a file.", "input_schema": PATH},
    {"name": IMAGE_TOOL, "description": "Read an image file.", "input_schema": PATH},
]
Shape = Callable[[list[dict]], list[dict]]  # the assistant turn as the loop sends it back


def as_is(blocks: list[dict]) -> list[dict]:
    return blocks


def without_thought(blocks: list[dict]) -> list[dict]:
    return [b for b in blocks if b["type"] not in ("thinking", "redacted_thinking")]


def thought_last(blocks: list[dict]) -> list[dict]:
    return without_thought(blocks) + [b for b in blocks if b not in without_thought(blocks)]


def thought_reworded(blocks: list[dict]) -> list[dict]:
    """The thinking text changed, its signature kept (a loop that 'tidies' the thought)."""
    return [
        {**b, "thinking": b["thinking"] + " "} if b["type"] == "thinking" else b for b in blocks
    ]


def image_block(picture: bytes = IMAGE) -> dict:
    data = base64.b64encode(picture).decode()
    return {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": data}}


def results(calls: list, image: str) -> list[dict]:
    """The calls' tool_results; read_image's picture inside the result, beside it, or as text."""
    content: list[dict] = []
    for call in calls:
        if call.name != IMAGE_TOOL:
            content.append({"type": "tool_result", "tool_use_id": call.id, "content": CANARY})
        elif image == "inside":
            inner = [image_block()]
            content.append({"type": "tool_result", "tool_use_id": call.id, "content": inner})
        elif image == "beside":
            content.append({"type": "tool_result", "tool_use_id": call.id, "content": "see below"})
            content.append(image_block())
        elif image == "another":  # an image, but not the file's
            inner = [image_block(png(3, 3))]
            content.append({"type": "tool_result", "tool_use_id": call.id, "content": inner})
        else:  # as text
            data = base64.b64encode(IMAGE).decode()
            content.append({"type": "tool_result", "tool_use_id": call.id, "content": data})
    return content


def loop(
    client: anthropic.Anthropic,
    prompt: str,
    thinking: dict | None,
    shape: Shape,
    image: str,
    tools: list[dict],
) -> None:
    messages: list = [{"role": "user", "content": prompt}]
    asks = {"thinking": thinking, "max_tokens": 2048} if thinking else {"max_tokens": 1024}
    for _ in range(10):
        reply = client.messages.create(model="m", messages=messages, tools=tools, **asks)  # type: ignore[call-overload]
        calls = [b for b in reply.content if b.type == "tool_use"]
        if not calls:
            return
        messages.append(
            {"role": "assistant", "content": shape([b.to_dict() for b in reply.content])}
        )
        messages.append({"role": "user", "content": results(calls, image)})


def played(
    case_id: str,
    thinking: dict | None = None,
    shape: Shape = as_is,
    image: str = "inside",
    tools: list[dict] = TOOLS,
) -> Trial:
    marker = f"[lab probe {case_id}]"
    setting = Setting(case_id, CANARY, ("read_file", {"path": "notes.txt"}), None, marker, marker)
    stages = BY_ID[case_id].script(setting)
    conversation = Conversation(stages, marker, tools=script_tools(setting))
    recorder = Recorder(Tap(FakeMessagesAPI(WatchedModel(conversation)), notes=conversation.log))
    try:
        loop(make_client(recorder), setting.prompt, thinking, shape, image, tools)
        status = 0
    except anthropic.APIError:
        status = 1
    return ended(Trial("hand", setting, stages, recorder.exchanges, Exit(status)))


ENABLED = {"type": "enabled", "budget_tokens": 1024}
ADAPTIVE = {"type": "adaptive"}  # the API lets a turn come back without its thinking

# (case, how the loop asks and sends back, the grade, a phrase of its reason)
THOUGHT_ROWS = [
    ("P24", ENABLED, as_is, KEPT, "came back first and unchanged"),
    ("P25", ENABLED, as_is, KEPT, "came back first and unchanged"),
    ("P24", None, as_is, NA, "never asked for thinking"),
    ("P25", None, as_is, NA, "never asked for thinking"),
    ("P24", ENABLED, without_thought, FAIL, "rejected"),
    ("P24", ADAPTIVE, without_thought, NON_STRICT, "the thinking block was dropped"),
    ("P25", ADAPTIVE, without_thought, NON_STRICT, "the redacted_thinking block was dropped"),
    ("P24", ADAPTIVE, thought_last, FAIL, "the first block must be thinking"),  # the API says
]


@pytest.mark.parametrize(("case", "thinking", "shape", "kind", "phrase"), THOUGHT_ROWS)
def test_each_thinking_row_decides_the_loop_that_breaks_it(case, thinking, shape, kind, phrase):
    said = verdict(BY_ID[case], played(case, thinking, shape))
    assert (said.kind, phrase in said.because or phrase in " ".join(said.evidence)) == (
        kind,
        True,
    ), said


def test_a_thought_changed_under_its_own_signature_is_not_the_block_sent():
    said = verdict(BY_ID["P24"], played("P24", ADAPTIVE, thought_reworded))
    assert said.kind in (FAIL, NON_STRICT) and said.kind != KEPT, said


IMAGE_ROWS = [
    ("inside", TOOLS, KEPT, "inside the call's tool_result"),
    ("beside", TOOLS, INFO, "beside the tool_result"),
    ("text", TOOLS, NON_STRICT, "never came back as an image"),
    ("another", TOOLS, NON_STRICT, "never came back as an image"),
    ("inside", TOOLS[:1], NA, "offers no read_image tool"),
]


@pytest.mark.parametrize(("image", "tools", "kind", "phrase"), IMAGE_ROWS)
def test_each_image_row_decides_the_loop_that_breaks_it(image, tools, kind, phrase):
    said = verdict(BY_ID["P26"], played("P26", image=image, tools=tools))
    assert said.kind == kind and phrase in said.because, said


def test_the_record_is_filled_once_when_the_trial_ends_and_says_which_requests_were_threaded():
    trial = played("P24", ENABLED)
    assert trial.record is trial.record and trial.record.threaded == frozenset()
    with pytest.raises(ValueError, match="filled when it ends"):
        _ = Trial("hand", trial.setting, trial.stages, trial.exchanges, trial.exit).record


def test_pause_turn_is_na_for_a_loop_that_declares_no_server_tool():
    said = verdict(BY_ID["P18"], played("P18"))
    assert said.kind == NA and "no request declares a server tool" in said.because, said


# A loop the API accepts sends its thought back as it came; the real API refuses one changed or
# moved (a request rejected: FAIL, before this row is read). The row itself says what changed:
# proved on the accepted trial, its resent turn rewritten by hand, its answers as the tap wrote.
def signed_otherwise(blocks: list[dict]) -> list[dict]:
    return [{**b, "signature": "c2lnbmVk"} if b["type"] == "thinking" else b for b in blocks]


def sealed_otherwise(blocks: list[dict]) -> list[dict]:
    return [{**b, "data": "c2VhbGVk"} if b["type"] == "redacted_thinking" else b for b in blocks]


def resent_as(shape: Shape, case: str = "P24") -> Trial:
    trial = played(case, ENABLED)
    after = trial.reached(1)
    assert after is not None

    def rewritten(message: dict) -> dict:
        if message.get("role") != "assistant":
            return message
        return {**message, "content": shape(list(message["content"]))}

    body = {**after.body, "messages": [rewritten(m) for m in after.messages]}
    exchanges = [replace(e, body=body) if e is after else e for e in trial.exchanges]
    return ended(Trial("hand", trial.setting, trial.stages, exchanges, trial.exit))


@pytest.mark.parametrize(
    ("shape", "phrase"),
    [
        (signed_otherwise, "the thinking block came back changed"),
        (thought_reworded, "the thinking block came back changed"),
        (thought_last, "the thinking block was moved"),
        (without_thought, "the thinking block was dropped"),
    ],
)
def test_the_thought_row_names_what_changed_in_the_turn_sent_back(shape, phrase):
    said = verdict(BY_ID["P24"], resent_as(shape))
    assert said.kind == NON_STRICT and phrase in said.because, said


def test_a_redacted_thought_sent_back_with_other_data_came_back_changed():
    said = verdict(BY_ID["P25"], resent_as(sealed_otherwise, "P25"))
    assert said.kind == NON_STRICT and "redacted_thinking block came back changed" in said.because
