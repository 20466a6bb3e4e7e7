"""What the fake keeps between requests: a history already judged is not judged again, the
verdicts stay exactly those of judging every request from scratch, and the request log keeps
each message once."""

import copy
import json

import httpx2
from hypothesis import given
from hypothesis import strategies as st

import lab.model.validation as validation
from lab.model import FakeMessagesAPI, ScriptedModel, tool_use, turn, validate_messages
from lab.model.history import RequestLog

URL = "http://fake-anthropic.lab/v1/messages"
TOOLS = [{"name": "bash", "input_schema": {"type": "object"}}]  # tool blocks need tools


def post(api, messages, **fields):
    body = {"model": "m", "max_tokens": 9, "messages": messages, "tools": TOOLS, **fields}
    return api(httpx2.Request("POST", URL, content=json.dumps(body).encode()))


def conversation(turns):
    """The histories a harness sends over `turns` tool-calling turns: each the last plus two."""
    messages = [{"role": "user", "content": "go"}]
    sent = [list(messages)]
    for n in range(turns):
        call = {"type": "tool_use", "id": f"toolu_{n}", "name": "bash", "input": {}}
        answer = {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": "ok"}
        messages += [
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [answer]},
        ]
        sent.append(list(messages))
    return sent


def answering():
    return FakeMessagesAPI(ScriptedModel(lambda request: turn("ok")))


def test_a_history_already_judged_is_not_judged_again(monkeypatch):
    judged = []
    real = validation.message_problem
    monkeypatch.setattr(validation, "message_problem", lambda n, m: judged.append(n) or real(n, m))
    api = answering()
    sent = conversation(50)
    for messages in sent:
        assert post(api, messages).status_code == 200
    # Each message is judged once, when it first arrives: 101, not the 2,601 of judging
    # every request from scratch.
    assert judged == list(range(len(sent[-1])))


def test_a_history_that_changed_is_judged_again_from_the_start():
    api = answering()
    first, second, third = conversation(2)
    assert post(api, second).status_code == 200
    rewritten = copy.deepcopy(third)
    rewritten[2]["content"][0]["tool_use_id"] = "toolu_9"  # an old message, changed
    response = post(api, rewritten)
    assert response.status_code == 400
    assert (
        "unexpected `tool_use_id` found in `tool_result` blocks: toolu_9"
        in (response.json()["error"]["message"])
    )
    trimmed = third[2:]  # a history trimmed at the front starts again
    assert post(api, trimmed).json()["error"]["message"].startswith("messages.0.content.0: unexp")


message = st.sampled_from(
    [
        {"role": "user", "content": "hi"},
        {"role": "user", "content": []},
        {"role": "assistant", "content": "sure"},
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t1", "name": "b", "input": {}}],
        },
        {
            "role": "assistant",
            "content": [{"type": "tool_use", "id": "t2", "name": "b", "input": {}}],
        },
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1"}]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t2"}]},
        {"role": "system", "content": "note"},
        {"role": "robot", "content": "beep"},
    ]
)


@given(st.lists(message, max_size=8), st.lists(st.integers(0, 8), min_size=1, max_size=6))
def test_verdicts_are_those_of_judging_each_request_from_scratch(history, cuts):
    # Requests that grow, shrink and grow again along one history.
    api = answering()
    for cut in cuts:
        messages = history[:cut]
        expected = validate_messages(messages)
        response = post(api, messages)
        if expected is None:
            assert response.status_code == 200, response.json()
        else:
            assert response.json()["error"]["message"] == expected[1]


def test_the_request_log_keeps_each_message_once():
    api = FakeMessagesAPI(ScriptedModel([turn(tool_use("bash"))] * 4))
    for messages in conversation(3):
        post(api, messages, tools=[{"name": "bash", "input_schema": {"type": "object"}}])
    first, *_, last = api.requests
    assert [len(r["messages"]) for r in api.requests] == [1, 3, 5, 7]
    assert last["messages"][0] is first["messages"][0]  # shared, not copied
    assert last["tools"] is first["tools"]  # an unchanged field is kept once
    assert api.requests == [
        {"model": "m", "max_tokens": 9, "messages": m, "tools": first["tools"]}
        for m in conversation(3)
    ]
    log = RequestLog()
    log.extend([{"model": "m", "messages": [{"role": "user", "content": "x"}]}, {"oops": 1}])
    assert list(log) == [
        {"model": "m", "messages": [{"role": "user", "content": "x"}]},
        {"oops": 1},
    ]
    assert log[-1] == {"oops": 1} and len(log[0:1]) == 1


# ---------------------------------------------------------------- the same bytes, the same verdict
# Values Python finds equal (`True == 1 == 1.0`, `False == 0`) and dicts that differ only in key
# order are different requests to the API: a prefix judged before must not lend its verdict.
MISSING = object()
LOOKALIKES = st.sampled_from([True, 1, 1.0, False, 0, 0.0, None, MISSING, "true"])


def history(flags, orders, inputs):
    """A tool-calling history: one call and its result per turn, each result's `is_error`
    from `flags` (MISSING: left out), each call's keys reversed per `orders`, its input from
    `inputs`."""
    messages = [{"role": "user", "content": "go"}]
    for n, (flag, reverse, value) in enumerate(zip(flags, orders, inputs, strict=True)):
        call = {"type": "tool_use", "id": f"toolu_{n}", "name": "bash", "input": {"n": value}}
        if reverse:
            call = dict(reversed(call.items()))
        result = {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": "ok"}
        if flag is not MISSING:
            result["is_error"] = flag
        messages += [
            {"role": "assistant", "content": [call]},
            {"role": "user", "content": [result]},
        ]
    return messages


@st.composite
def requests(draw):
    """Requests along one conversation: each resends the last one's history, grown or cut,
    sometimes with one value swapped for a lookalike (`true` for `1`, a key order reversed)."""
    turns = draw(st.integers(1, 4))
    valid = st.sampled_from([True, False, MISSING])  # a history that passes, to start with
    flags = draw(st.lists(valid, min_size=turns, max_size=turns))
    inputs = draw(st.lists(LOOKALIKES.filter(lambda v: v is not MISSING), min_size=turns))
    inputs = (inputs + [0] * turns)[:turns]
    orders = draw(st.lists(st.booleans(), min_size=turns, max_size=turns))
    sent = []
    for _ in range(draw(st.integers(2, 6))):
        if draw(st.booleans()):
            n = draw(st.integers(0, turns - 1))
            swap = draw(st.sampled_from(["is_error", "input", "key order"]))
            if swap == "is_error":
                flags[n] = draw(LOOKALIKES)
            elif swap == "input":
                inputs[n] = draw(LOOKALIKES.filter(lambda v: v is not MISSING))
            else:
                orders[n] = not orders[n]
        messages = history(flags, orders, inputs)
        sent.append(messages[: draw(st.integers(1, len(messages)))])
    return sent


def verdict(response):
    return response.status_code, response.json().get("error", {}).get("message")


@given(requests())
def test_the_incremental_judge_agrees_with_judging_from_scratch_request_by_request(sent):
    api = answering()
    for messages in sent:
        alone = verdict(post(answering(), messages))  # a fresh fake: judged from scratch
        assert verdict(post(api, messages)) == alone
        # And the log keeps what was sent, types and key order included.
        logged = api.requests[len(api.requests) - 1]["messages"]
        assert json.dumps(logged) == json.dumps(messages)


def test_true_judged_before_does_not_let_1_pass_after():
    api = answering()
    accepted = history([True], [False], [1])
    assert post(api, accepted).status_code == 200
    lookalike = history([1], [False], [1])
    assert verdict(post(api, lookalike)) == (
        400,
        "messages.2.content.0.tool_result.is_error: Input should be a valid boolean",
    )
