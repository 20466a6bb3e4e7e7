"""The script DSL: the turns a fake model plays back, in order or from a responder function."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

# ---------------------------------------------------------------- blocks


def text(s: str) -> dict:
    """A text content block."""
    return {"type": "text", "text": s}


def tool_use(
    name: str, input: dict | None = None, *, id: str | None = None, raw_json: str | None = None
) -> dict:
    """A tool_use content block. Leave `id` out to get `toolu_001`, `toolu_002`, ... later.

    `raw_json` streams that exact text as the input's JSON instead (it may be invalid: a
    model answer with broken tool JSON); a non-streamed answer cannot carry it."""
    block = {"type": "tool_use", "id": id, "name": name, "input": input or {}}
    return block if raw_json is None else {**block, "raw_json": raw_json}


def numbered_id(prefix: str, n: int) -> str:
    """`numbered_id("msg", 1)` -> `msg_001`: the fake's ids, readable and deterministic."""
    return f"{prefix}_{n:03d}"


def message_id(n: int) -> str:
    """The id of the n-th (1-based) message the fake API answers."""
    return numbered_id("msg", n)


def tool_use_id(n: int) -> str:
    """The id given to the n-th (1-based) tool_use block that had none."""
    return numbered_id("toolu", n)


# ---------------------------------------------------------------- steps


@dataclass(frozen=True)
class Turn:
    """One model response: its content blocks and the stop_reason it *declares*.

    The declared stop_reason may disagree with the content on purpose (a tool_use block with
    `end_turn`, or `tool_use` with no tool block): real streams do that, and a harness must cope.
    """

    blocks: tuple[dict, ...]
    stop_reason: str | None = None

    @property
    def declared(self) -> str:
        """The stop_reason the API will send: the explicit one, else what the content implies."""
        if self.stop_reason is not None:
            return self.stop_reason
        has_tool = any(block.get("type") == "tool_use" for block in self.blocks)
        return "tool_use" if has_tool else "end_turn"


def turn(*blocks: dict | str, stop_reason: str | None = None) -> Turn:
    """Build a Turn; a plain string is shorthand for a text block."""
    return Turn(tuple(text(b) if isinstance(b, str) else b for b in blocks), stop_reason)


@dataclass(frozen=True)
class ApiError:
    """A script step that makes the fake API answer with an HTTP error instead of a turn."""

    status: int = 529
    type: str = "overloaded_error"
    message: str = "Overloaded"


@dataclass(frozen=True)
class ModelRequest:
    """What a responder sees of one model call (index = 0-based number of the call)."""

    index: int
    messages: list
    tools: list
    system: str | None
    stream: bool


Step = Turn | ApiError
Responder = Callable[[ModelRequest], Step]


class ScriptExhausted(Exception):
    """The harness called the model more often than the script has turns."""


# ---------------------------------------------------------------- the model


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


class ScriptedModel:
    """Plays a script: a list of steps in order, or a responder function asked on every call."""

    def __init__(self, script: Sequence[Step] | Responder) -> None:
        if callable(script):
            self._responder: Responder | None = script
            self._steps: list[Step] = []
        else:
            self._responder = None
            self._steps = list(script)
        self._position = 0  # next list step to play
        self._ids_given = 0  # tool_use ids assigned so far, over the model's whole life
        self.calls = 0

    def respond(self, request: ModelRequest) -> Step:
        """The next step, with every missing tool_use id filled in."""
        self.calls += 1
        if self._responder is not None:
            step = self._responder(request)
        else:
            if self._position >= len(self._steps):
                raise ScriptExhausted(
                    f"scripted model: call #{self.calls} asked for turn {self._position + 1}, "
                    f"but the script has only {_plural(len(self._steps), 'turn')}"
                )
            step = self._steps[self._position]
            self._position += 1
        return self._fill_ids(step) if isinstance(step, Turn) else step

    def _fill_ids(self, step: Turn) -> Turn:
        # Copy the blocks: the script itself stays untouched, so it can be replayed.
        blocks = []
        for block in step.blocks:
            block = dict(block)
            if block.get("type") == "tool_use" and block.get("id") is None:
                self._ids_given += 1
                block["id"] = tool_use_id(self._ids_given)
            blocks.append(block)
        return Turn(tuple(blocks), step.stop_reason)

    @property
    def remaining(self) -> int:
        """List steps not yet played (always 0 for a responder)."""
        return len(self._steps) - self._position

    @property
    def complete(self) -> bool:
        """True when every list step was played; a responder is always complete."""
        return self.remaining == 0

    def assert_complete(self) -> None:
        """Fail if the harness stopped before the script ran out."""
        if not self.complete:
            raise AssertionError(
                f"scripted model: {_plural(self.remaining, 'turn')} of {len(self._steps)} "
                f"left unconsumed (the harness made {_plural(self.calls, 'model call')})"
            )

    def __repr__(self) -> str:
        kind = "responder" if self._responder else f"{len(self._steps)} steps"
        return f"ScriptedModel({kind}, calls={self.calls})"
