"""The script DSL: the turns a fake model plays back, in order or from a responder function."""

from __future__ import annotations

# The students' script steps (what `lab.model` re-exports), and a proxy's HTML page for the probe.
__all__ = [
    "ApiError",
    "CutOff",
    "Fault",
    "HtmlPage",
    "ModelRequest",
    "Responder",
    "ScriptExhausted",
    "ScriptedModel",
    "Step",
    "StreamDropped",
    "StreamError",
    "Turn",
    "cut_inside",
    "cut_off",
    "overloaded",
    "paused",
    "proxy_error",
    "rate_limited",
    "redacted_thinking",
    "server_error",
    "server_tool_use",
    "stream_dropped",
    "stream_error",
    "text",
    "thinking",
    "tool_use",
    "turn",
    "turn_of",
    "web_search_result",
]

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

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


def thinking(s: str) -> dict:
    """A thinking block. The fake signs it when it sends it (lab/model/signing.py) and refuses
    it back changed, as the real API does; `signature` is left for the fake to fill in."""
    return {"type": "thinking", "thinking": s}


def redacted_thinking(s: str = "reasoning the safety systems withheld") -> dict:
    """A redacted_thinking block: the fake seals `s` into its opaque `data` when it sends it."""
    return {"type": "redacted_thinking", "text": s}


def server_tool_use(
    name: str = "web_search", input: dict | None = None, *, id: str | None = None
) -> dict:
    """A call of a server tool the API runs itself (web search). Leave `id` out to get
    `srvtoolu_001`, ...: the API's own ids start with `srvtoolu_`."""
    return {"type": "server_tool_use", "id": id, "name": name, "input": input or {}}


def web_search_result(*urls: str, tool_use_id: str | None = None) -> dict:
    """The result block of a web search, one hit per url. Leave `tool_use_id` out to answer
    the server_tool_use right before it in the turn."""
    hits = [
        {"type": "web_search_result", "url": url, "title": url, "encrypted_content": "e"}
        | {"page_age": None}
        for url in urls
    ]
    return {"type": "web_search_tool_result", "tool_use_id": tool_use_id, "content": hits}


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


def paused(*blocks: dict | str) -> Turn:
    """A turn the API paused inside a server-tool loop (stop_reason `pause_turn`): the harness
    is to send it back as it came, for the API to go on where it stopped."""
    return turn(*blocks, stop_reason="pause_turn")


# ---------------------------------------------------------------- faults
# The real API's failure modes, each one readable call. A fault that belongs to a stream
# (an error event, a dropped connection) also has a meaning when the request was not
# streamed: the same failure, seen before the body (see each step's docstring).


@dataclass(frozen=True)
class ApiError:
    """An HTTP error answer instead of a turn: the real JSON error body and headers."""

    status: int = 529
    type: str = "overloaded_error"
    message: str = "Overloaded"
    retry_after: float | None = None  # seconds, sent as the `retry-after` header when set


def rate_limited(retry_after: float = 1.0) -> ApiError:
    """429 `rate_limit_error` with a `retry-after` header (seconds)."""
    message = "Number of requests has exceeded your per-minute rate limit"
    return ApiError(429, "rate_limit_error", message, retry_after)


def overloaded() -> ApiError:
    """529 `overloaded_error`: the API is busy for everyone."""
    return ApiError(529, "overloaded_error", "Overloaded")


def server_error() -> ApiError:
    """500 `api_error`: something broke inside the API."""
    return ApiError(500, "api_error", "Internal server error")


@dataclass(frozen=True)
class StreamError:
    """The stream sends blocks [0, after_blocks) of `turn` in full, then the real
    `event: error` and nothing more (no message_delta, no message_stop).

    Not streamed: the same failure before any body, as an HTTP error of the error type's
    status (overloaded_error 529, api_error 500, rate_limit_error 429, ...)."""

    turn: Turn
    after_blocks: int = 1
    type: str = "overloaded_error"
    message: str = "Overloaded"


@dataclass(frozen=True)
class StreamDropped:
    """The connection closes inside block `block` of `turn`, after `after_chars`
    characters of its delta text (a tool_use's input JSON, a text's text): no
    content_block_stop, no message_stop; the client sees an incomplete chunked read.

    Not streamed: the connection closes after the status line and headers, before any
    byte of the JSON body."""

    turn: Turn
    block: int = 0
    after_chars: int = 10


@dataclass(frozen=True)
class CutOff:
    """`turn` ends normally but with stop_reason "max_tokens", its last block, a tool_use,
    cut after `keep_chars` characters of its input JSON.

    Streamed: the input_json_delta events carry exactly the cut text. Not streamed: the
    API sends the tool_use with the fields that were complete when the cut came (a cut
    string or number is dropped, a cut list keeps its complete items).

    Only what the real API can send is accepted (a ValueError, one line, when the script is
    built): max_tokens cuts the last block, so nothing follows the cut call, and a cut keeps
    less than the whole input."""

    turn: Turn
    keep_chars: int = 20

    def __post_init__(self) -> None:
        blocks = self.turn.blocks
        if not any(block.get("type") == "tool_use" for block in blocks):
            raise ValueError("cut_off: the turn has no tool_use block to cut")
        if blocks[-1].get("type") != "tool_use":
            raise ValueError(
                f"cut_off: a {blocks[-1].get('type')} block follows the cut call; max_tokens "
                "cuts the last block, so the cut tool_use must end the turn"
            )
        whole = len(cut_input(blocks[-1]))
        if not 0 <= self.keep_chars < whole:
            raise ValueError(
                f"cut_off: keep_chars={self.keep_chars} cuts nothing of an input JSON of "
                f"{whole} characters (use 0 to {whole - 1})"
            )


def cut_input(block: dict) -> str:
    """The input JSON text a cut_off cuts: the block's `raw_json`, else its input as JSON."""
    raw = block.get("raw_json")
    return json.dumps(block["input"]) if raw is None else raw


def stream_error(
    turn: Turn, after_blocks: int = 1, type: str = "overloaded_error", message: str = "Overloaded"
) -> StreamError:
    """A stream that fails with an `event: error` after `after_blocks` content blocks."""
    return StreamError(turn, after_blocks, type, message)


def stream_dropped(turn: Turn, block: int = 0, after_chars: int = 10) -> StreamDropped:
    """A stream whose connection drops inside block `block`, after `after_chars` chars."""
    return StreamDropped(turn, block, after_chars)


def cut_off(turn: Turn, keep_chars: int = 20) -> CutOff:
    """A turn cut by max_tokens inside its last block, a tool_use's input JSON."""
    return CutOff(turn, keep_chars)


def cut_inside(turn: Turn) -> CutOff:
    """A turn cut by max_tokens inside the value of its last call's last parameter: streamed,
    the input JSON that arrived cannot be parsed; not streamed, that parameter is missing."""
    last = turn.blocks[-1] if turn.blocks else {}
    whole = len(cut_input(last)) if last.get("type") == "tool_use" else 0
    return CutOff(turn, max(0, whole - 2))  # CutOff says why when the turn cannot be cut


@dataclass(frozen=True)
class ModelRequest:
    """What a responder sees of one model call (index = 0-based number of the call)."""

    index: int
    messages: list
    tools: list
    system: str | None
    stream: bool
    thinking: str = "disabled"  # the request's thinking: "enabled", "adaptive" or "disabled"


Fault = ApiError | StreamError | StreamDropped | CutOff
Step = Turn | Fault


def turn_of(step: Step) -> Turn | None:
    """The turn a step carries (a stream fault's or a cut-off's too); None for an ApiError."""
    return step if isinstance(step, Turn) else getattr(step, "turn", None)


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
        self._server_ids_given = 0  # server_tool_use ids, likewise
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
        if isinstance(step, Turn):
            return self._fill_ids(step)
        if isinstance(step, StreamError | StreamDropped | CutOff):
            return replace(step, turn=self._fill_ids(step.turn))
        return step

    def _fill_ids(self, step: Turn) -> Turn:
        # Copy the blocks: the script itself stays untouched, so it can be replayed.
        blocks = []
        server_call = None  # the last server_tool_use id: what a result without one answers
        for block in step.blocks:
            block = dict(block)
            kind = block.get("type")
            if kind == "tool_use" and block.get("id") is None:
                self._ids_given += 1
                block["id"] = tool_use_id(self._ids_given)
            if kind == "server_tool_use":
                if block.get("id") is None:
                    self._server_ids_given += 1
                    block["id"] = numbered_id("srvtoolu", self._server_ids_given)
                server_call = block["id"]
            if kind == "web_search_tool_result" and block.get("tool_use_id") is None:
                block["tool_use_id"] = server_call
            blocks.append(block)
        return Turn(tuple(blocks), step.stop_reason)

    @property
    def script(self) -> tuple[Step, ...]:
        """The list steps, played or not (none for a responder)."""
        return tuple(self._steps)

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


# ---------------------------------------------------------------- faults from outside the API
# Steps the probe's later cases play (lab/probe/cases/); each answer is one of the fake's
# plays (fake_api.py), appended there beside the others.


@dataclass(frozen=True)
class HtmlPage:
    """An error page from a proxy in front of the API (a load balancer's 502): an HTTP status
    with a `text/html` body, not the API's JSON error. A client must not crash parsing it."""

    status: int = 502
    title: str = "502 Bad Gateway"
    type = "html_page"  # what logs call it (not a field: the API's error types are JSON)

    @property
    def body(self) -> str:
        return (
            f"<html>\r\n<head><title>{self.title}</title></head>\r\n<body>\r\n"
            f"<center><h1>{self.title}</h1></center>\r\n<hr><center>nginx</center>\r\n"
            "</body>\r\n</html>\r\n"
        )


def proxy_error(status: int = 502, title: str = "502 Bad Gateway") -> HtmlPage:
    """A proxy's HTML error page (default: nginx's 502 Bad Gateway)."""
    return HtmlPage(status, title)
