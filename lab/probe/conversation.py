"""A probe conversation: each request is answered by where it stands, never by its number.

A case's script is a list of stages. A request stands at stage k when the latest scripted answer
its history holds is stage k-1; a fresh conversation stands at stage 0. Answers are recognised by
their tool_use ids and texts found *anywhere* in the request — in tool_use and tool_result blocks,
or inside a text ("Calling tools: [{'id': 'toolu_p1_01', ...}]") for a harness that writes its
history as text. The *first* request at a stage gets the stage's fault, when it has one and the
request can receive it (a stage that needs a streamed answer plays it on a streamed request
only); every later request at that stage (an HTTP retry, or a harness asking again) gets the
healthy answer, so a harness that retries can pass. A history written as text may hold nothing
of an answer whose call failed (smolagents writes back only "Error: ..."): a request of such a
history whose user text grew since the one that got the stage's answer stands past it. A side
call (a title, a summary) gets a short text answer and moves nothing: a request that offers none
of the tools the case's script calls, whatever text it quotes, or one that carries nothing of the
conversation (neither the probe's marker nor a scripted answer).

Either wire: a request on the Chat Completions wire comes in the Messages wire's words
(lab/model/chat_view.py: its calls' ids back to the script's), but a history written as text
quotes the ids the program saw there, so a call is also recognised by its chat id (`call_p1_01`
for `toolu_p1_01`: lab/model/chat_render.py).
"""

from __future__ import annotations

import itertools
import json
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace

from lab.model.chat_render import CALL_PREFIX, SCRIPT_PREFIX, call_id
from lab.model.script import (
    ApiError,
    ModelRequest,
    Step,
    Turn,
    tool_use_id,
    turn,
)
from lab.probe.which_wire import ENDING_WORDS, ERROR_WORDS, MESSAGES

SIDE_ANSWER = "ok."
# A text is looked for inside longer strings only when it is this long: a short one ("done.")
# could be quoted by chance anywhere in a request, so it counts only as a whole text.
SIGN_TEXT = 12


def turn_of(step: object) -> Turn | None:
    """The turn a step plays: the step itself, or the turn a stream fault wraps (if any)."""
    if isinstance(step, Turn):
        return step
    inner = getattr(step, "turn", None)
    return inner if isinstance(inner, Turn) else None


def describe(step: object, wire: str = MESSAGES) -> str:
    """One line for logs and reports: a turn's blocks and declared stop_reason, or the fault,
    each in the words of the wire it crossed (which_wire.py's tables)."""
    played = turn_of(step)
    if isinstance(step, ApiError):
        return ERROR_WORDS[wire](step)
    if played is None:
        status = getattr(step, "status", "?")
        kind = getattr(step, "type", type(step).__name__)
        return f"HTTP {status} {kind}"
    parts = []
    for block in played.blocks:
        if block.get("type") == "tool_use":
            shown = block.get("raw_json") or json.dumps(block.get("input"), ensure_ascii=False)
            parts.append(f"tool_use {block['name']} {block['id']} {shown}")
        elif block.get("type") == "text":
            parts.append(f"text {block.get('text', '')!r}")
        else:  # thinking, a server tool's blocks: their kind and id (their content is opaque)
            named = block.get("id") or block.get("tool_use_id")
            parts.append(" ".join(str(part) for part in (block.get("type"), named) if part))
    what = " + ".join(parts) or "(no blocks)"
    if played is not step:
        return f"{type(step).__name__}: {what}"
    return f"{what} [{ENDING_WORDS[wire](played.declared)}]"


# The prefixes of the server tools' types (the API runs them itself, and only in their loop
# does it pause a turn): a request declares one as `{"type": "web_search_20250305", ...}`.
SERVER_TOOL_TYPES = ("web_search_", "web_fetch_", "code_execution_")


def declares_server_tool(tools: object) -> bool:
    """Does the request's tool list declare a server tool?"""
    listed = tools if isinstance(tools, list) else []
    kinds = [t.get("type") for t in listed if isinstance(t, dict)]
    return any(isinstance(k, str) and k.startswith(SERVER_TOOL_TYPES) for k in kinds)


# The tool a program offers when the probe asks it for one that returns an image (P26).
IMAGE_TOOL = "read_image"

# What a stage's answer can need the request to have asked for: the real API sends thinking
# blocks only when the request turns thinking on, pause_turn only in a server tool's loop, and
# the model calls only a tool the request offers.
NEEDS: dict[str, Callable[[ModelRequest], bool]] = {
    "thinking": lambda request: request.thinking != "disabled",
    "server tool": lambda request: declares_server_tool(request.tools),
    "image tool": lambda request: IMAGE_TOOL in offered_names(request.tools),
}


@dataclass(frozen=True)
class Stage:
    """One scripted answer; `fault` (when set) is played instead on the stage's first attempt.

    `mode` is the answer mode the stage's point needs ("json" or "stream"); a request in the
    other mode still gets an answer, and the case reads it as n/a. `needs` (a key of NEEDS) is
    what a request must ask for to get `answer`: a request that did not gets `instead`, the
    answer the real API would give it, and the case reads it as n/a."""

    answer: Turn
    fault: object | None = None
    mode: str | None = None
    needs: str | None = None
    instead: Turn | None = None


class ScriptError(Exception):
    """A plain script that cannot be played as stages."""


def stages_from_script(script: Sequence[Step]) -> list[Stage]:
    """A plain script (a list of steps) as stages, each answer asked for by content.

    Tool_use blocks without an id get one (toolu_001, ...). An HTTP fault (an ApiError) is the
    first attempt of the turn after it; a fault that wraps a turn (a broken stream, a cut
    call) is the first attempt of a stage whose healthy answer is that turn, new ids given."""
    counter = itertools.count(1)

    def ids(played: Turn) -> Turn:
        blocks = tuple(
            {**b, "id": tool_use_id(next(counter))}
            if b.get("type") == "tool_use" and b.get("id") is None
            else b
            for b in played.blocks
        )
        return Turn(blocks, played.stop_reason)

    stages: list[Stage] = []
    pending: object | None = None
    for step in script:
        if isinstance(step, ApiError):
            if pending is not None:
                raise ScriptError("two HTTP faults in a row: each must precede a turn")
            pending = step
        elif isinstance(step, Turn):
            stages.append(Stage(ids(step), fault=pending))
            pending = None
        elif (wrapped := turn_of(step)) is not None and pending is None:
            healthy = Turn(tuple({**b, "id": None} for b in wrapped.blocks), wrapped.stop_reason)
            fault = replace(step, turn=ids(wrapped))
            stages.append(Stage(ids(healthy), fault=fault))
        else:
            raise ScriptError(f"not a script step: {step!r}")
    if pending is not None or not stages:
        raise ScriptError("a script ends with a turn")
    return stages


@dataclass(frozen=True)
class Played:
    """What one request got: its stage (None: a side call), attempt number and the step."""

    request: int  # 0-based among the model requests the conversation saw
    stage: int | None
    attempt: int
    kind: str  # "fault", "answer", "side call" or "extra" (past the script's end)
    step: object
    stream: bool
    same_as_previous: bool  # the request repeats the previous one exactly (an HTTP retry)

    def line(self, wire: str = MESSAGES) -> str:
        if self.stage is None:
            where = "side call"
        else:
            where = f"stage {self.stage}, attempt {self.attempt}"
            if self.same_as_previous:
                where += " (a retry: same body)"
            elif self.attempt > 1:
                where += " (asked again)"
        mode = "stream" if self.stream else "json"
        return f"{where}, {mode} → {self.kind}: {describe(self.step, wire)}"


def _text_of(block: dict) -> str:
    return block.get("text", "") if isinstance(block, dict) else ""


def strings(value: object) -> Iterator[str]:
    """Every string inside a JSON value (dict keys left out), depth first."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from strings(item)


def user_text(messages: object) -> str:
    """Every string of the user messages, one per line."""
    listed = messages if isinstance(messages, list) else []
    said = [m.get("content") for m in listed if isinstance(m, dict) and m.get("role") == "user"]
    return "\n".join(strings(said))


def blocks_in(messages: object) -> bool:
    """Does the history hold a tool_use or tool_result block (not a history written as text)?"""
    listed = messages if isinstance(messages, list) else []
    contents = [m.get("content") for m in listed if isinstance(m, dict)]
    return any(
        isinstance(b, dict) and b.get("type") in ("tool_use", "tool_result")
        for content in contents
        if isinstance(content, list)
        for b in content
    )


def offered_names(tools: object) -> set[str]:
    """The tool names a request offers."""
    listed = tools if isinstance(tools, list) else []
    return {t["name"] for t in listed if isinstance(t, dict) and isinstance(t.get("name"), str)}


def can_receive(stage: Stage, request: ModelRequest) -> bool:
    """A stage that needs one answer mode plays its fault only on a request in that mode (the
    other mode's request gets the healthy answer, and the case reads n/a)."""
    return stage.mode is None or request.stream == (stage.mode == "stream")


@dataclass
class Conversation:
    """The responder the fake API asks; its `log` says what each request got and why."""

    stages: Sequence[Stage]
    marker: str  # a string of the probe's prompt: the conversation's own requests carry it
    log: list[Played] = field(default_factory=list)
    # The tools the script calls (None: any request may be the conversation's). A request that
    # offers none of them cannot carry the script out: it is a side call, whatever it quotes.
    tools: frozenset[str] | None = None

    def __post_init__(self) -> None:
        self._lock = threading.Lock()
        self._attempts: dict[int, int] = {}
        self._previous: str | None = None
        self._signs: dict[str | None, int] = {}  # a tool_use id or a text -> its stage
        self._answered: dict[int, int] = {}  # stage -> user text length of the request answered
        for k, stage in enumerate(self.stages):
            for step in (stage.answer, stage.fault, stage.instead):
                played = turn_of(step)
                for block in played.blocks if played else ():
                    if block.get("type") == "tool_use":
                        self._signs[block["id"]] = k
                        self._signs[call_id(block["id"])] = k  # as a chat history quotes it
                    elif block.get("text") and not self._text_elsewhere(block["text"], k):
                        self._signs[block["text"]] = k

    def _inside(self, sign: str) -> bool:
        """May this sign be found inside a longer string? An id, or a text long enough."""
        return sign.startswith((SCRIPT_PREFIX, CALL_PREFIX)) or len(sign) >= SIGN_TEXT

    def _text_elsewhere(self, text: str, k: int) -> bool:
        # A text shared by two stages ("done.") recognises neither of them.
        others = (s for j, s in enumerate(self.stages) if j != k)
        return any(text == _text_of(b) for s in others for b in s.answer.blocks)

    # ---------------------------------------------------------------- the responder
    def __call__(self, request: ModelRequest) -> object:
        with self._lock:
            body = json.dumps(request.messages, sort_keys=True, default=str)
            same = body == self._previous
            self._previous = body
            stage = self.stage_of(request.messages)
            if self.tools is not None and not offered_names(request.tools) & self.tools:
                stage = None
            if stage is None:
                return self._record(request, None, "side call", turn(SIDE_ANSWER), same)
            told = len(user_text(request.messages))
            if self._answered_as_text(stage, request.messages, told):
                stage += 1
            attempt = self._attempts.get(stage, 0) + 1
            self._attempts[stage] = attempt
            if stage >= len(self.stages):
                return self._record(request, stage, "extra", self.stages[-1].answer, same, attempt)
            current = self.stages[stage]
            if current.fault is not None and attempt == 1 and can_receive(current, request):
                return self._record(request, stage, "fault", current.fault, same, attempt)
            self._answered.setdefault(stage, told)
            answer = current.answer
            if current.needs is not None and not NEEDS[current.needs](request):
                answer = current.instead or answer
            return self._record(request, stage, "answer", answer, same, attempt)

    def _answered_as_text(self, stage: int, messages: list, told: int) -> bool:
        """Did a history written as text answer stage `stage`'s calls without naming them? Its
        answer (not a fault) was given, it called a tool, and the user text grew since."""
        if stage not in self._answered or stage >= len(self.stages) or blocks_in(messages):
            return False
        calls = turn_of(self.stages[stage].answer)
        has_call = calls is not None and any(b.get("type") == "tool_use" for b in calls.blocks)
        return has_call and told > self._answered[stage]

    def _record(
        self,
        request: ModelRequest,
        stage: int | None,
        kind: str,
        step: object,
        same: bool,
        attempt: int = 1,
    ) -> object:
        self.log.append(Played(len(self.log), stage, attempt, kind, step, request.stream, same))
        return step

    def stage_of(self, messages: list) -> int | None:
        """Where a request stands; None when it carries nothing of this conversation.

        Every id and long text of the script is looked for inside every string of the messages;
        a short text ("done.") only as a whole string (a text block, or a message's text)."""
        said = list(strings(messages if isinstance(messages, list) else []))
        found = "\n".join(said)
        whole = set(said)
        seen = [
            stage
            for sign, stage in self._signs.items()
            if sign and (sign in whole or (self._inside(sign) and sign in found))
        ]
        if seen:
            return max(seen) + 1
        return 0 if self.marker in found else None

    @property
    def consumed(self) -> bool:
        """Every stage was answered at least once."""
        return {p.stage for p in self.log} >= set(range(len(self.stages)))
