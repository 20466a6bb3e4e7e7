"""The one reading of call/result pairs, and its two order rules."""

from __future__ import annotations

from lab.model import validate_messages
from lab.model.tool_pairs import (
    ANY_ORDER,
    CALL_ORDER,
    blocks_of,
    leading_result_ids,
    tool_use_ids,
    unanswered,
)


def use(id: str) -> dict:
    return {"type": "tool_use", "id": id, "name": "bash", "input": {}}


def result(id: str) -> dict:
    return {"type": "tool_result", "tool_use_id": id, "content": "ok"}


def test_only_the_leading_run_of_results_answers():
    blocks = [result("a"), {"type": "text", "text": "then"}, result("b")]
    assert leading_result_ids(blocks) == ["a"]
    assert tool_use_ids([use("x"), {"type": "text", "text": "t"}, use("y")]) == ["x", "y"]
    assert blocks_of({"role": "user", "content": "plain text"}) == []


def test_the_api_takes_any_order_the_reference_harness_promises_call_order():
    assert unanswered(["a", "b"], ["b", "a"], ANY_ORDER) == []
    assert unanswered(["a", "b"], ["b", "a"], CALL_ORDER) == ["a", "b"]
    assert unanswered(["a", "b"], ["a"], ANY_ORDER) == ["b"]
    assert unanswered(["a", "b"], ["a", "b"], CALL_ORDER) == []


def test_the_fake_api_accepts_results_out_of_call_order():
    messages = [
        {"role": "user", "content": "go"},
        {"role": "assistant", "content": [use("a"), use("b")]},
        {"role": "user", "content": [result("b"), result("a")]},
    ]
    assert validate_messages(messages) is None
    messages[2]["content"] = [result("b"), {"type": "text", "text": "x"}, result("a")]
    problem = validate_messages(messages)
    assert problem is not None and "immediately after: a." in problem[1]
