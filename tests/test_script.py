"""The script DSL and ScriptedModel: ids, declared stop reasons, exhaustion, responders."""

import pytest

from lab.model import (
    ApiError,
    ModelRequest,
    ScriptedModel,
    ScriptExhausted,
    Turn,
    cut_inside,
    cut_off,
    paused,
    redacted_thinking,
    scripted_client,
    server_tool_use,
    text,
    thinking,
    tool_use,
    turn,
    web_search_result,
)


def _request(index: int = 0) -> ModelRequest:
    return ModelRequest(index=index, messages=[], tools=[], system=None, stream=False)


def _ids(step: Turn) -> list[str]:
    return [b["id"] for b in step.blocks if b["type"] == "tool_use"]


def test_blocks_have_the_wire_shape():
    assert text("hi") == {"type": "text", "text": "hi"}
    assert tool_use("bash") == {"type": "tool_use", "id": None, "name": "bash", "input": {}}
    assert tool_use("bash", {"cmd": "ls"}, id="toolu_x")["id"] == "toolu_x"
    assert turn("hi").blocks == (text("hi"),)  # a string is shorthand for a text block


def test_ids_are_assigned_in_order_over_the_model_life_and_explicit_ids_are_kept():
    script = [
        turn(tool_use("a"), tool_use("b", id="toolu_mine"), tool_use("c")),
        turn(tool_use("d")),
    ]
    model = ScriptedModel(script)
    assert _ids(model.respond(_request(0))) == ["toolu_001", "toolu_mine", "toolu_002"]
    assert _ids(model.respond(_request(1))) == ["toolu_003"]  # the counter continues
    # The script itself is untouched, so a fresh model replays it identically.
    assert script[0].blocks[0]["id"] is None
    again = ScriptedModel(script)
    assert _ids(again.respond(_request(0))) == ["toolu_001", "toolu_mine", "toolu_002"]


def test_responder_turns_get_ids_too():
    model = ScriptedModel(lambda request: turn(tool_use("x")))
    assert _ids(model.respond(_request(0))) == ["toolu_001"]
    assert _ids(model.respond(_request(1))) == ["toolu_002"]


def test_declared_stop_reason_follows_content_unless_given():
    assert turn("hi").declared == "end_turn"
    assert turn("hi", tool_use("x")).declared == "tool_use"
    # Declared on purpose against the content (both directions of the D1 disagreement).
    assert turn(tool_use("x"), stop_reason="end_turn").declared == "end_turn"
    assert turn("hi", stop_reason="tool_use").declared == "tool_use"
    assert turn("cut", stop_reason="max_tokens").declared == "max_tokens"


def test_exhaustion_names_the_call_and_the_turn():
    model = ScriptedModel([turn("one"), turn("two"), turn("three")])
    for i in range(3):
        model.respond(_request(i))
    with pytest.raises(ScriptExhausted) as caught:
        model.respond(_request(3))
    assert str(caught.value) == (
        "scripted model: call #4 asked for turn 4, but the script has only 3 turns"
    )


def test_exhaustion_of_a_one_turn_script_reads_well():
    model = ScriptedModel([turn("only")])
    model.respond(_request())
    with pytest.raises(ScriptExhausted, match="call #2 asked for turn 2, .* only 1 turn$"):
        model.respond(_request(1))


def test_api_error_steps_are_played_and_count_as_turns():
    model = ScriptedModel([ApiError(), turn("ok")])
    assert model.respond(_request(0)) == ApiError(529, "overloaded_error", "Overloaded")
    assert model.respond(_request(1)).blocks == (text("ok"),)
    assert model.complete


def test_assert_complete_names_the_unconsumed_turns():
    model = ScriptedModel([turn("a"), turn("b"), turn("c")])
    model.respond(_request())
    assert model.calls == 1
    assert not model.complete
    with pytest.raises(AssertionError, match="2 turns of 3 left unconsumed"):
        model.assert_complete()
    model.respond(_request(1))
    model.respond(_request(2))
    model.assert_complete()  # now silent


def test_a_responder_is_always_complete():
    model = ScriptedModel(lambda request: turn("hi"))
    assert model.complete
    model.assert_complete()


def test_responder_sees_the_request_the_harness_sent():
    seen: list[ModelRequest] = []

    def responder(request: ModelRequest) -> Turn:
        seen.append(request)
        return turn(f"call {request.index}")

    client, api = scripted_client(responder)
    tools = [{"name": "bash", "description": "run", "input_schema": {"type": "object"}}]
    messages = [{"role": "user", "content": "hello"}]
    first = client.messages.create(
        model="m", max_tokens=50, messages=messages, tools=tools, system="be brief"
    )
    with client.messages.stream(model="m", max_tokens=50, messages=messages) as stream:
        second = stream.get_final_message()

    assert [r.index for r in seen] == [0, 1]
    assert seen[0].messages == messages
    assert seen[0].tools == tools
    assert seen[0].system == "be brief"
    assert seen[0].stream is False
    assert seen[1].tools == [] and seen[1].system is None and seen[1].stream is True
    assert first.content[0].text == "call 0"
    assert second.content[0].text == "call 1"
    assert api.model.calls == 2


# ---------------------------------------------------------------- cut_off: only real shapes

CALL = tool_use("clean", {"path": "/workspace", "dry_run": True})  # its input: 39 characters


@pytest.mark.parametrize(
    ("step", "problem"),
    [
        (
            lambda: cut_off(turn(CALL, "and then some text"), keep_chars=10),
            "cut_off: a text block follows the cut call; max_tokens cuts the last block, "
            "so the cut tool_use must end the turn",
        ),
        (lambda: cut_off(turn("no call at all")), "cut_off: the turn has no tool_use block to cut"),
        (
            lambda: cut_off(turn(CALL), keep_chars=39),
            "cut_off: keep_chars=39 cuts nothing of an input JSON of 39 characters (use 0 to 38)",
        ),
        (
            lambda: cut_off(turn(tool_use("x", raw_json='{"a": 1')), keep_chars=99),
            "cut_off: keep_chars=99 cuts nothing of an input JSON of 7 characters (use 0 to 6)",
        ),
    ],
)
def test_a_cut_off_the_real_api_cannot_send_is_refused_in_one_line(step, problem):
    with pytest.raises(ValueError) as refused:
        step()
    assert str(refused.value) == problem and "\n" not in problem


def test_a_cut_off_cuts_the_last_block_and_nothing_follows_it():
    client, api = scripted_client([cut_off(turn("Cleaning.", CALL), keep_chars=36)])
    message = client.messages.create(
        model="m", max_tokens=5, messages=[{"role": "user", "content": "go"}]
    )
    assert [b.type for b in message.content] == ["text", "tool_use"]
    assert message.stop_reason == "max_tokens"
    assert message.content[-1].input == {"path": "/workspace"}  # the cut `true` is dropped
    assert api.cut_calls == [message.content[-1].id]


def test_an_experiment_with_a_cut_off_that_cuts_nothing_is_a_load_error_in_one_line(tmp_path):
    from lab.chapter.experiment import ExperimentFileError, load_file

    path = tmp_path / "x1_bad_cut.py"
    path.write_text(
        "from lab.model import cut_off, tool_use, turn\n"
        "\n"
        "STEP = cut_off(turn(tool_use('bash', {'c': 'ls'})), keep_chars=50)\n"
    )
    with pytest.raises(ExperimentFileError) as refused:
        load_file(path)
    assert str(refused.value) == (
        f"{path}:3: ValueError: cut_off: keep_chars=50 cuts nothing of an input JSON of "
        "11 characters (use 0 to 10)"
    )


def test_server_tool_calls_get_srvtoolu_ids_and_their_results_answer_them():
    model = ScriptedModel(
        [
            paused(server_tool_use(), web_search_result("https://a.example"), tool_use("bash")),
            turn(server_tool_use(id="srvtoolu_mine"), web_search_result(), server_tool_use()),
        ]
    )
    first, second = model.respond(_request()), model.respond(_request(1))
    assert first.declared == "pause_turn"
    assert [b.get("id") or b.get("tool_use_id") for b in first.blocks] == [
        "srvtoolu_001",
        "srvtoolu_001",
        "toolu_001",
    ]
    # An id the script gives is kept; the numbering goes on over the model's whole life.
    assert [b.get("id") or b.get("tool_use_id") for b in second.blocks] == [
        "srvtoolu_mine",
        "srvtoolu_mine",
        "srvtoolu_002",
    ]


def test_thinking_blocks_are_left_for_the_fake_to_sign():
    assert thinking("hm") == {"type": "thinking", "thinking": "hm"}
    assert redacted_thinking("x") == {"type": "redacted_thinking", "text": "x"}
    step = ScriptedModel([turn(thinking("hm"), text("a"))]).respond(_request())
    assert "signature" not in step.blocks[0] and step.declared == "end_turn"


def test_cut_inside_cuts_within_the_last_value_and_refuses_what_cut_off_refuses():
    step = cut_inside(turn(tool_use("bash", {"command": "ls", "dry_run": True})))
    assert step.keep_chars == len('{"command": "ls", "dry_run": true}') - 2
    with pytest.raises(ValueError, match="follows the cut call"):
        cut_inside(turn(tool_use("bash", {"a": "bb"}), text("after")))
