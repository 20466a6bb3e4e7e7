"""The request fuzz over loopback at the CI profile (benchmarks/fuzz_requests.py runs it past
10,000): no answer >= 500, no dropped connection, no traceback, every answer in the API's shape,
and every body judged over loopback as a fresh fake judges the same bytes."""

from lab.testing.request_fuzz import run


def test_bodies_and_frames_over_loopback_are_all_answered_and_judged_alike():
    tally = run(bodies=150, frames=150, seed=18, big=1)
    assert (tally.bodies, tally.frames) == (150, 150)
    problems = (tally.answers_5xx, tally.dropped, tally.tracebacks, tally.misshapen)
    assert problems == (0, 0, 0, 0), tally.examples
    assert tally.verdicts_differ == 0, tally.examples
    # The mix reached every kind of answer it is meant to: accepted, refused, not found, too
    # large, and http.server's own refusals (a request line or headers too long).
    assert {200, 400, 404, 413, 414, 431} <= set(tally.statuses), tally.statuses
    # Thinking and image blocks were among the bodies, and their rules were met.
    met = " ".join(tally.refusals)
    for rule in (
        "Expected `thinking`",
        "thinking blocks",
        "image.source",
        "budget_tokens",
        "must define tools",
    ):
        assert rule in met, (rule, tally.refusals)


def test_the_chat_wire_over_loopback_is_answered_and_judged_alike():
    """The same fuzz aimed at POST /v1/chat/completions (chat bodies, frames with a bearer key)."""
    tally = run(bodies=150, frames=150, seed=18, big=1, wire="chat")
    assert (tally.bodies, tally.frames) == (150, 150)
    problems = (tally.answers_5xx, tally.dropped, tally.tracebacks, tally.misshapen)
    assert problems == (0, 0, 0, 0), tally.examples
    assert tally.verdicts_differ == 0, tally.examples
    assert {200, 400, 413} <= set(tally.statuses), tally.statuses
    met = " ".join(tally.refusals)
    for rule in (
        "must be followed by tool messages",
        "must be a response to a preceeding",
        "not found in 'tool_calls'",
        "We could not parse the JSON body",
    ):
        assert rule in met, (rule, tally.refusals)
