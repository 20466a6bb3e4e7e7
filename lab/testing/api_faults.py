"""The API's faults on a generated script: each turn may meet one, drawn with the turn, so
shrinking drops the two together."""

from __future__ import annotations

import json
from collections.abc import Callable

from hypothesis import strategies as st

from lab.model import (
    Step,
    Turn,
    cut_off,
    overloaded,
    rate_limited,
    server_error,
    stream_dropped,
    stream_error,
)
from lab.model.script import cut_input
from lab.testing.conversations import final_turns, tool_turns
from lab.testing.weighted import weighted

# Each turn may meet one fault. A transient one comes first and the same turn follows (what
# the model says when asked again); a cut-off replaces the turn. `n` (1, 2, ...) picks where
# the fault falls, counted back from the end: small n cuts late, so the cut JSON keeps most
# of its fields (the dangerous case: only the last value is lost).
RETRY_AFTER = [1.0, 0.5, 30.0]


def _delta_text(block: dict) -> str:
    return block["text"] if block["type"] == "text" else json.dumps(block["input"])


def _rate_limited(step: Turn, n: int) -> tuple[Step, ...]:
    return (rate_limited(RETRY_AFTER[n % len(RETRY_AFTER)]), step)


def _stream_error(step: Turn, n: int) -> tuple[Step, ...]:
    return (stream_error(step, after_blocks=max(0, len(step.blocks) - n + 1)), step)


def _stream_dropped(step: Turn, n: int) -> tuple[Step, ...]:
    last = len(step.blocks) - 1
    chars = len(_delta_text(step.blocks[last])) - n if step.blocks else 0
    return (stream_dropped(step, block=max(last, 0), after_chars=max(chars, 0)), step)


def _cut_off(step: Turn, n: int) -> tuple[Step, ...]:
    # max_tokens cuts the last block: the turn ends at its last call (none: nothing to cut).
    calls = [i for i, b in enumerate(step.blocks) if b["type"] == "tool_use"]
    if not calls:
        return (step,)
    cut = Turn(step.blocks[: calls[-1] + 1], step.stop_reason)
    chars = len(cut_input(cut.blocks[-1])) - n
    return (cut_off(cut, keep_chars=max(chars, 0)),)


FAULTS: dict[str, Callable[[Turn, int], tuple[Step, ...]]] = {
    "none": lambda step, n: (step,),
    "overloaded": lambda step, n: (overloaded(), step),
    "rate_limited": _rate_limited,
    "server_error": lambda step, n: (server_error(), step),
    "stream_error": _stream_error,
    "stream_dropped": _stream_dropped,
    "cut_off": _cut_off,
}


def fault_names(weight_of_none: int = 3) -> st.SearchStrategy[str]:
    """A fault's name: "none" `weight_of_none` times as often as any one fault."""
    faults = st.sampled_from([name for name in FAULTS if name != "none"])
    return weighted((weight_of_none, st.just("none")), (1, faults))


# Where a fault falls: mostly at the very end (a cut that loses only the last value, a drop
# one character short), which is where a lenient parse hides the damage best.
FAULT_POSITIONS = weighted((3, st.just(1)), (1, st.integers(2, 12)))


def met_by(turns: st.SearchStrategy[Turn], kinds: st.SearchStrategy[str]) -> st.SearchStrategy:
    """A turn as the API delivers it: the steps FAULTS makes of it under a drawn fault."""
    return st.builds(lambda t, kind, n: FAULTS[kind](t, n), turns, kinds, FAULT_POSITIONS)


def faulty_scripts(
    calls: st.SearchStrategy[dict] | None = None,
    *,
    kinds: st.SearchStrategy[str] | None = None,
    min_turns: int = 1,
    max_turns: int = 4,
    max_calls: int = 4,
) -> st.SearchStrategy[tuple[Step, ...]]:
    """Like `scripts`, but each turn may meet one of the API's faults (`kinds` draws its
    name, default `fault_names()`). A turn and its fault are drawn together, so shrinking
    drops them together."""
    kinds = fault_names() if kinds is None else kinds
    middle = st.lists(
        met_by(tool_turns(calls, max_calls), kinds), min_size=min_turns - 1, max_size=max_turns - 1
    )

    def flat(parts: list[tuple[Step, ...]], final: tuple[Step, ...]) -> tuple[Step, ...]:
        return tuple(step for part in (*parts, final) for step in part)

    return st.builds(flat, middle, met_by(final_turns(), kinds))
