"""Fuzz: any request body, any JSON value in any field, gets a real-shaped answer from the fake
API (200, or a 4xx with the real error body), never a 5xx from the fake's own code and never a
dropped connection: in process (the SDK's MockTransport) and over the loopback server."""

import copy
import json
import string

import httpx2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.model import FakeMessagesAPI, ScriptedModel, tool_use, turn
from lab.model.request_shape import BLOCK_TYPES, KNOWN_FIELDS, TOOL_TYPES
from lab.model.server import FakeServer
from lab.model.signing import SIGNER

ERROR_TYPES = {"invalid_request_error", "not_found_error"}
# A fuzzed request may run the script: a responder always has a turn, so an exhausted script
# (the one 500 the fake gives on purpose) never hides a crash.
ANSWER = turn("ok", tool_use("bash", {"command": "ls"}))

# ---------------------------------------------------------------- strategies

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
)
any_json = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
texts = st.text(min_size=1, max_size=8)
some_blocks = st.sampled_from(BLOCK_TYPES).map(lambda tag: {"type": tag})  # not judged: any shape


@st.composite
def history(draw: st.DrawFn) -> list[dict]:
    """A valid conversation: calls answered at the head of the next user turn, other block
    types here and there, system messages after user turns."""
    said = texts.map(lambda t: {"type": "text", "text": t})
    messages: list[dict] = [{"role": "user", "content": draw(texts | st.lists(said, min_size=1))}]
    calls = 0
    for _ in range(draw(st.integers(0, 3))):
        if draw(st.booleans()):
            note = draw(st.lists(said, min_size=1, max_size=2))
            messages.append({"role": "system", "content": note})
        ids = [f"toolu_{calls + n}" for n in range(draw(st.integers(0, 2)))]
        calls += len(ids)
        uses = [{"type": "tool_use", "id": i, "name": "bash", "input": {}} for i in ids]
        words = draw(st.lists(said, min_size=0 if uses else 1, max_size=1))
        messages.append({"role": "assistant", "content": [*words, *uses]})
        results = [{"type": "tool_result", "tool_use_id": i, "content": draw(texts)} for i in ids]
        extra = draw(st.lists(said | some_blocks, min_size=0 if results else 1, max_size=2))
        messages.append({"role": "user", "content": [*results, *extra]})
    return messages


tool = st.fixed_dictionaries(
    {"name": st.sampled_from(["bash", "read_file"]), "input_schema": st.just({"type": "object"})},
    optional={"description": st.text(max_size=5)},
) | st.sampled_from(TOOL_TYPES[1:]).map(lambda tag: {"type": tag, "name": tag})
OPTIONAL = {
    "system": st.text(max_size=8) | st.lists(texts.map(lambda t: {"type": "text", "text": t})),
    "tools": st.lists(tool, max_size=2),
    "tool_choice": st.sampled_from(["auto", "any", "none"]).map(lambda t: {"type": t}),
    "stream": st.booleans(),
    "thread": st.just({"type": "create"})
    | st.sampled_from(["msg_001", "msg_002"]).map(
        lambda i: {"type": "continue", "previous_message_id": i}
    ),
    "stop_sequences": st.lists(st.text(max_size=3), max_size=2),
    "metadata": st.just({"user_id": "u"}),
    "temperature": st.floats(0, 1),
}


def _places(value: object, path: tuple = ()) -> list[tuple]:
    """Every place inside a JSON value, as a path of keys and indices."""
    places = [path]
    if isinstance(value, dict):
        for key, item in value.items():
            places += _places(item, (*path, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            places += _places(item, (*path, index))
    return places


@st.composite
def mutated(draw: st.DrawFn, body: dict) -> dict:
    """`body` with one fault in one of its fields (each field as likely as the long `messages`):
    a place in it replaced by any JSON, dropped, or given a new key."""
    body = copy.deepcopy(body)  # strategies share objects (`st.just`): never change those
    field = draw(st.sampled_from(sorted(body)))
    path = draw(st.sampled_from(_places(body[field], (field,))))
    *parent_path, last = path
    parent = body
    for key in parent_path:
        parent = parent[key]
    fault = draw(st.sampled_from(["replace", "replace", "drop", "add"]))
    if fault == "replace":
        parent[last] = draw(any_json)
    elif fault == "drop":
        del parent[last]
    elif isinstance(parent[last], dict):
        parent[last][draw(st.text(max_size=6))] = draw(any_json)
    return body


@st.composite
def bodies(draw: st.DrawFn) -> bytes:
    """Request bytes: a valid request with up to two faults anywhere in it, or now and then a
    body that is not a JSON object, or not JSON at all."""
    kind = draw(st.integers(0, 19))
    if kind == 0:
        return draw(st.binary(max_size=30))  # not JSON, or not UTF-8
    if kind == 1:
        return json.dumps(draw(any_json)).encode()  # JSON, but perhaps not an object
    body = {"model": "claude-lab-1", "max_tokens": draw(st.integers(1, 64000))}
    body["messages"] = draw(history())
    for name in draw(st.sets(st.sampled_from(sorted(OPTIONAL)))):
        body[name] = draw(OPTIONAL[name])
    if kind == 2:
        unknown = st.sampled_from(sorted(KNOWN_FIELDS)) | st.text(
            string.ascii_lowercase, max_size=8
        )
        body[draw(unknown)] = draw(any_json)
    for _ in range(draw(st.sampled_from([0, 1, 1, 1, 2]))):
        body = draw(mutated(body))
    return json.dumps(body).encode()


# A few requests in a row, so threads and the already-judged history are fuzzed too.
conversations = st.lists(bodies(), min_size=1, max_size=3)

# ---------------------------------------------------------------- the property


def assert_real_shaped(response: httpx2.Response, where: object = "") -> None:
    content = response.read()  # a streamed answer is read to its end
    assert response.status_code == 200 or 400 <= response.status_code < 500, (where, content)
    if response.status_code != 200:
        body = json.loads(content)
        assert body["type"] == "error", (where, body)
        assert body["error"]["type"] in ERROR_TYPES, (where, body)
        assert isinstance(body["error"]["message"], str) and body["error"]["message"], where


def fresh_api() -> FakeMessagesAPI:
    return FakeMessagesAPI(ScriptedModel(lambda request: ANSWER))


FUZZ = settings(
    max_examples=settings.default.max_examples * 6,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@FUZZ
@given(conversations)
def test_in_process_every_body_gets_a_real_shaped_answer(requests):
    api = fresh_api()
    with httpx2.Client(transport=httpx2.MockTransport(api)) as client:
        for content in requests:
            assert_real_shaped(client.post("http://fake/v1/messages?beta=true", content=content))


SERVED = {"api": fresh_api()}  # one server for every example; each example gets a fresh API


def test_over_the_loopback_server_every_body_gets_a_real_shaped_answer():
    with FakeServer(lambda request: SERVED["api"](request)) as server:
        with httpx2.Client(base_url=server.url) as client:

            @settings(FUZZ, max_examples=settings.default.max_examples * 3)
            @given(conversations)
            def served(requests):
                SERVED["api"] = fresh_api()
                for content in requests:
                    assert_real_shaped(client.post("/anthropic/v1/messages", content=content))

            served()


# ---------------------------------------------------------------- every single fault, exhaustively

FULL = {
    "model": "claude-lab-1",
    "max_tokens": 100,
    "stream": True,
    "system": [{"type": "text", "text": "Be careful.", "cache_control": {"type": "ephemeral"}}],
    "tools": [
        {"name": "bash", "description": "Run.", "input_schema": {"type": "object"}},
        {"type": "web_search_20250305", "name": "web_search"},
    ],
    "tool_choice": {"type": "auto", "disable_parallel_tool_use": True},
    "stop_sequences": ["END"],
    "metadata": {"user_id": "u"},
    "temperature": 0.5,
    "thread": {"type": "create"},
    "messages": [
        {"role": "user", "content": "fix it"},
        {"role": "system", "content": [{"type": "text", "text": "Reply in English."}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "hm", "signature": SIGNER.sign("hm")},
                {"type": "text", "text": "Looking."},
                {"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"c": "ls"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_1",
                    "content": "a",
                    "is_error": False,
                },
                {"type": "text", "text": "go on"},
            ],
        },
    ],
}
WRONG = [None, 0, 2.5, True, "x", "", [], {}, [{}], {"type": "text"}]
DROPPED = object()


def single_faults():
    for path in _places(FULL)[1:]:
        for wrong in [*WRONG, DROPPED]:
            body = copy.deepcopy(FULL)
            *parent_path, last = path
            parent = body
            for key in parent_path:
                parent = parent[key]
            if wrong is DROPPED:
                del parent[last]
            else:
                parent[last] = wrong
            yield path, body


def test_every_single_fault_in_a_full_request_gets_a_real_shaped_answer():
    # Each place of a request that uses every judged field, made wrong in each of a few ways
    # (or dropped): a deterministic sweep beside the random search above.
    assert (
        fresh_api()(
            httpx2.Request("POST", "http://fake/v1/messages", content=json.dumps(FULL).encode())
        ).status_code
        == 200
    )
    tried = 0
    for path, body in single_faults():
        response = fresh_api()(httpx2.Request("POST", "http://fake/v1/messages", json=body))
        assert_real_shaped(response, path)
        tried += 1
    assert tried > 500
