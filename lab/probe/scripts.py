"""The probe cases' scripts: the stages each case plays, built from the run's Setting.

Each case's fault sits on the first attempt of one stage (see conversation.py); the ids are
unique to the case (toolu_p5_01, ...), so a request is placed by the ids it carries.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from lab.model.script import (
    Turn,
    cut_inside,
    cut_off,
    stream_dropped,
    stream_error,
    text,
    tool_use,
    turn,
)
from lab.probe.conversation import Stage
from lab.probe.trial import Setting

UNKNOWN_TOOL = "lab_probe_no_such_tool"


DONE = "done."


def ids(setting: Setting, n: int) -> list[str]:
    """`n` tool_use ids unique to this case: toolu_p5_01, toolu_p5_02, ..."""
    return [f"toolu_{setting.case.lower()}_{i:02d}" for i in range(1, n + 1)]


def the_call(setting: Setting, id: str) -> dict:
    name, input = setting.call
    return tool_use(name, input, id=id)


def final_turn(setting: Setting, words: str = DONE) -> Turn:
    """The script's last answer: a text, or the harness's own ending call (--final-call)."""
    if setting.final is None:
        return turn(words)
    name, input = setting.final
    return turn(tool_use(name, input, id=f"toolu_{setting.case.lower()}_final"))


def finish(setting: Setting) -> Stage:
    return Stage(final_turn(setting))


# For each JSON type, a value of another type (bool first: in Python a bool is an int).
WRONG_TYPE = (
    (bool, "yes"),
    (str, 12345),
    (int | float, "not a number"),
    (list, {"not": "a list"}),
    (dict, ["not", "an", "object"]),
)


def wrong_type(value: object) -> object:
    """A value of another JSON type than `value`: what a schema must refuse."""
    return next((wrong for kind, wrong in WRONG_TYPE if isinstance(value, kind)), 0)


def invalid_input(input: dict) -> dict:
    return {k: wrong_type(v) for k, v in input.items()} or {"lab_probe_bogus": 1}


def broken_json(input: dict) -> str:
    """Tool JSON no parser accepts: the first key with no value, `{"path": }`."""
    key = next(iter(input), "path")
    return "{" + json.dumps(key) + ": }"


def declared_end_turn(mode: str) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        first, again = ids(setting, 2)
        say = text("I will read the notes.")
        fault = turn(say, the_call(setting, first), stop_reason="end_turn")
        healthy = turn(say, the_call(setting, again))
        return [Stage(healthy, fault=fault, mode=mode), finish(setting)]

    return stages


def declared_tool_use(setting: Setting) -> list[Stage]:
    fault = turn(text("Let me check the notes."), stop_reason="tool_use")
    return [Stage(final_turn(setting), fault=fault)]


def unknown_tool(setting: Setting) -> list[Stage]:
    (call,) = ids(setting, 1)
    block = tool_use(UNKNOWN_TOOL, {"query": "anything"}, id=call)
    return [Stage(turn(text("Trying a tool."), block)), finish(setting)]


def invalid_input_stages(setting: Setting) -> list[Stage]:
    (call,) = ids(setting, 1)
    name, input = setting.call
    return [Stage(turn(tool_use(name, invalid_input(input), id=call))), finish(setting)]


def invalid_json_stages(setting: Setting) -> list[Stage]:
    broken, healthy = ids(setting, 2)
    name, input = setting.call
    fault = turn(tool_use(name, input, id=broken, raw_json=broken_json(input)))
    return [Stage(turn(the_call(setting, healthy)), fault=fault, mode="stream"), finish(setting)]


def two_calls(setting: Setting) -> list[Stage]:
    first, second = ids(setting, 2)
    say = text("Reading the notes twice.")
    return [Stage(turn(say, the_call(setting, first), the_call(setting, second))), finish(setting)]


RETRY_AFTER = 1.0  # seconds the 429 asks for (a real client really waits them)


def http_fault(fault: object) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        (call,) = ids(setting, 1)
        return [Stage(turn(the_call(setting, call)), fault=fault), finish(setting)]

    return stages


def broken_stream(kind: str) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        first, again = ids(setting, 2)
        cut = turn(the_call(setting, first))
        fault = stream_error(cut, after_blocks=1) if kind == "error" else stream_dropped(cut)
        return [Stage(turn(the_call(setting, again)), fault=fault, mode="stream"), finish(setting)]

    return stages


def cut_call(setting: Setting) -> list[Stage]:
    cut, again = ids(setting, 2)
    whole = json.dumps(setting.call[1])
    # Cut just before the closing brace: every field arrived, yet the model never finished.
    fault = cut_off(turn(the_call(setting, cut)), keep_chars=len(whole) - 1)
    return [Stage(turn(the_call(setting, again)), fault=fault), finish(setting)]


def cut_call_inside(setting: Setting) -> list[Stage]:
    """A call cut inside its last value, streamed: the JSON that arrived cannot be parsed (a
    JSON answer carries only the whole parameters: P10 is that case)."""
    cut, again = ids(setting, 2)
    fault = cut_inside(turn(the_call(setting, cut)))
    return [Stage(turn(the_call(setting, again)), fault=fault, mode="stream"), finish(setting)]


def denied_call(setting: Setting) -> list[Stage]:
    assert setting.denied is not None
    (call,) = ids(setting, 1)
    name, input = setting.denied
    step = turn(text("Running the command."), tool_use(name, input, id=call))
    return [Stage(step), finish(setting)]


LONG_RUN = 20


def long_run(setting: Setting) -> list[Stage]:
    calls = ids(setting, LONG_RUN - 1)
    stages = [
        Stage(turn(text(f"Step {k + 1} of {LONG_RUN}."), the_call(setting, call)))
        for k, call in enumerate(calls)
    ]
    return [*stages, Stage(final_turn(setting, f"All {LONG_RUN} steps done."))]
