"""The endpoints a harness calls beside `POST /v1/messages`, through the real SDK: count_tokens
(a deterministic count in the real shape, judged like a message request), the model list and
one model, and the real 404 for everything else."""

import anthropic
import httpx2
import pytest
from anthropic.types import MessageTokensCount, ModelInfo

from lab.model import FakeMessagesAPI, ScriptedModel, scripted_client, turn
from lab.model.server import FakeServer

TOOLS = [{"name": "bash", "input_schema": {"type": "object"}}]
QUESTION = [{"role": "user", "content": "How many tokens is this?"}]


def test_count_tokens_answers_the_real_shape_with_a_deterministic_count():
    client, api = scripted_client([])
    counted = client.messages.count_tokens(model="m", messages=QUESTION, tools=TOOLS)
    again = client.messages.count_tokens(model="m", messages=QUESTION, tools=TOOLS)
    longer = client.messages.count_tokens(model="m", messages=QUESTION * 2 + QUESTION, tools=TOOLS)
    assert isinstance(counted, MessageTokensCount)
    assert counted.input_tokens == again.input_tokens > 0
    assert longer.input_tokens > counted.input_tokens
    # A count plays no script step and leaves no request behind it.
    assert api.model.calls == 0 and len(api.requests) == 0 and api.rejections == []


def test_count_tokens_judges_the_request_like_a_message_request():
    client, api = scripted_client([])
    broken = [{"role": "user", "content": [{"type": "text", "text": ""}]}]
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.messages.count_tokens(model="m", messages=broken)
    assert (
        refused.value.body["error"]["message"] == "messages: text content blocks must be non-empty"
    )
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.messages.count_tokens(
            model="m", messages=QUESTION, thinking={"type": "enabled", "budget_tokens": 5}
        )
    assert refused.value.body["error"]["message"] == (
        "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"
    )
    with pytest.raises(anthropic.BadRequestError) as refused:
        client.messages.count_tokens(model="m", messages=QUESTION, extra_body={"max_tokens": 5})
    assert refused.value.body["error"]["message"] == "max_tokens: Extra inputs are not permitted"


def test_a_count_does_not_change_what_the_next_message_request_is_judged_against():
    client, api = scripted_client([turn("one"), turn("two")])
    first = client.messages.create(model="m", max_tokens=5, messages=QUESTION)
    client.messages.count_tokens(model="m", messages=[{"role": "user", "content": "other"}])
    history = [
        *QUESTION,
        {"role": "assistant", "content": "one"},
        {"role": "user", "content": "and?"},
    ]
    assert first.content[0].text == "one"
    assert (
        client.messages.create(model="m", max_tokens=5, messages=history).content[0].text == "two"
    )


def test_the_model_list_and_one_model_are_the_real_types():
    client, _ = scripted_client([])
    listed = client.models.list()
    assert [m.id for m in listed.data] == ["claude-lab-1"] and listed.has_more is False
    model = client.models.retrieve("claude-lab-1")
    assert isinstance(model, ModelInfo) and model.type == "model"
    with pytest.raises(anthropic.NotFoundError) as missing:
        client.models.retrieve("claude-nope")
    assert missing.value.body["error"] == {
        "type": "not_found_error",
        "message": "model: claude-nope",
    }


@pytest.mark.parametrize(
    "method, path", [("GET", "/v1/files"), ("POST", "/v1/complete"), ("DELETE", "/v1/messages")]
)
def test_any_other_path_is_the_real_404_over_loopback(method, path):
    api = FakeMessagesAPI(ScriptedModel([]))
    with FakeServer(api) as server:
        response = httpx2.request(method, f"{server.url}{path}", content=b"{}")
    body = response.json()
    assert response.status_code == 404
    assert body["type"] == "error" and body["request_id"] == response.headers["request-id"]
    assert body["error"] == {"type": "not_found_error", "message": "Not found"}


def test_count_tokens_over_loopback_under_a_prefix():
    api = FakeMessagesAPI(ScriptedModel([]))
    with FakeServer(api) as server:
        client = anthropic.Anthropic(api_key="k", base_url=f"{server.url}/anthropic", max_retries=0)
        assert client.messages.count_tokens(model="m", messages=QUESTION).input_tokens > 0
