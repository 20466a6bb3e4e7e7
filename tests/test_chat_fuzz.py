"""Property tests of the chat wire (hypothesis): any generated turn streams as the `openai` SDK's
own accumulator rebuilds it into the very completion the fake sends whole; and any JSON value in
any field of a chat body gets a 200 or the API's error shape, never a 5xx from the fake's code."""

from __future__ import annotations

import json

import httpx2
import openai
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openai.lib.streaming.chat import ChatCompletionStreamState

from lab.model import FakeMessagesAPI, ScriptedModel, tool_use, turn
from lab.model.chat_render import FINISH_REASONS
from lab.testing.conversations import final_turns, tool_turns

USER = [{"role": "user", "content": "go"}]
TOOLS = [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]
FAST = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])  # the profile counts


def chat_client(step) -> openai.OpenAI:
    api = FakeMessagesAPI(ScriptedModel([step, step]))
    transport = httpx2.MockTransport(api)
    return openai.OpenAI(
        api_key="k",
        base_url="http://fake.lab/v1",
        max_retries=0,
        http_client=openai.DefaultHttpxClient(transport=transport),
    )


def essentials(completion) -> tuple:
    choice = completion.choices[0]
    calls = [  # the ids differ (each play numbers its own): their prefix is this wire's
        (c.id.startswith("call_"), c.function.name, c.function.arguments)
        for c in choice.message.tool_calls or []
    ]
    return choice.message.content or None, calls, choice.finish_reason


@FAST
@given(step=tool_turns() | final_turns())
def test_any_turn_streamed_rebuilds_into_the_completion_sent_whole(step):
    client = chat_client(step)
    whole = client.chat.completions.create(model="m", messages=USER, tools=TOOLS)
    state = ChatCompletionStreamState()
    for chunk in client.chat.completions.create(model="m", messages=USER, tools=TOOLS, stream=True):
        state.handle_chunk(chunk)
    try:
        rebuilt = state.get_final_completion()
    except openai.LengthFinishReasonError as cut:  # the SDK's own verdict on `length`
        assert step.declared == "max_tokens"
        rebuilt = cut.completion
    content, calls, finish = essentials(whole)
    assert essentials(rebuilt)[1:] == (calls, finish)
    assert (essentials(rebuilt)[0] or None) == content
    assert finish == FINISH_REASONS[step.declared]  # the declared reason, whatever the content
    assert len(calls) == sum(b["type"] == "tool_use" for b in step.blocks)


json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8)
)
any_json = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=6), inner, max_size=3)
    ),
    max_leaves=8,
)
FIELDS = [
    "model",
    "messages",
    "tools",
    "stream",
    "stream_options",
    "max_tokens",
    "max_completion_tokens",
    "tool_choice",
    "temperature",
    "n",
]
HISTORY = [
    *USER,
    {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}
        ],
    },
    {"role": "tool", "tool_call_id": "call_1", "content": "ok"},
]


def places(value: object, path: tuple = ()) -> list[tuple]:
    out = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            out += places(inner, (*path, key))
    elif isinstance(value, list):
        for n, inner in enumerate(value):
            out += places(inner, (*path, n))
    return out


@st.composite
def bodies(draw: st.DrawFn) -> dict:
    fresh = json.loads(json.dumps({"messages": HISTORY, "tools": TOOLS}))  # changed below
    body: dict = {"model": "m", **fresh}
    for name in draw(st.lists(st.sampled_from(FIELDS), max_size=3)):
        body[name] = draw(any_json)
    path = draw(st.sampled_from(places(body)[1:]))
    if draw(st.booleans()):  # one value anywhere made anything
        *parents, last = path
        parent: object = body
        for key in parents:
            parent = parent[key]  # type: ignore[index]
        parent[last] = draw(any_json)  # type: ignore[index]
    return body


@FAST
@given(body=bodies())
def test_any_json_anywhere_gets_a_200_or_the_apis_error_shape(body):
    api = FakeMessagesAPI(ScriptedModel(lambda request: turn("ok", tool_use("bash", {}))))
    headers = {"authorization": "Bearer k"}
    request = httpx2.Request("POST", "http://x/v1/chat/completions", json=body, headers=headers)
    response = api(request)
    response.read()
    assert response.status_code in (200, 400), response.text
    if response.status_code == 400:
        error = response.json()["error"]
        assert set(error) == {"message", "type", "param", "code"}
        assert error["type"] == "invalid_request_error" and error["message"]
