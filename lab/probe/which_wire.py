"""The two wires a target may speak, and which one it spoke: the path of its first model request.

`anthropic` is the Messages API (`POST /v1/messages`), `openai` the Chat Completions API
(`POST /v1/chat/completions`); the fake serves both on one server. A request on the chat wire
is recorded in the neutral history's words (lab/model/chat_view.py), so every case judges
either wire with the same rows. A built-in target declares its wire; a `--cmd` program's is
detected, unless `lab probe --wire` forces one.
"""

from __future__ import annotations

from collections.abc import Callable

from lab.model.chat_render import FINISH_REASONS, call_id
from lab.model.chat_view import neutral_body
from lab.model.script import ApiError

__all__ = [
    "CHAT",
    "ENDING_WORDS",
    "ERROR_WORDS",
    "MESSAGES",
    "WIRES",
    "id_on",
    "recorded_body",
    "wire_of",
]

MESSAGES = "anthropic"
CHAT = "openai"
WIRES = (MESSAGES, CHAT)
# The path each wire's model requests end with (any prefix: a base URL may carry one).
PATHS = {MESSAGES: "/messages", CHAT: "/chat/completions"}
# How a request body of each wire is recorded: the chat wire's translated, the Messages as sent.
RECORDED = {MESSAGES: lambda body: body, CHAT: neutral_body}
# A script's call id as a program on each wire saw it: what a history written as text quotes.
SEEN_ID: dict[str, Callable[[str], str]] = {MESSAGES: lambda tool_id: tool_id, CHAT: call_id}


def wire_of(path: str) -> str | None:
    """The wire a request path belongs to (None: not a model request: models, token counts)."""
    stripped = path.partition("?")[0].rstrip("/")
    return next((wire for wire, end in PATHS.items() if stripped.endswith(end)), None)


def recorded_body(path: str, body: object) -> object:
    """A request's body in the neutral history's words."""
    wire = wire_of(path)
    return RECORDED[wire](body) if wire else body


def id_on(wire: str | None, tool_id: str) -> str:
    """The script's call id as the program saw it on `wire` (None: the Messages wire's)."""
    return SEEN_ID[wire or MESSAGES](tool_id)


# ---------------------------------------------------------------- evidence in the wire's words
# Evidence names what crossed the wire: a script's stop_reason and an HTTP fault as the program
# saw them (on the chat wire, `max_tokens` went out as finish_reason "length", a 529 as a 503).
def _chat_error(error: ApiError) -> str:
    from lab.model.chat_api import fault_error  # on first use: `lab list` never loads the server

    sent = fault_error(error.type, error.message, "", error.retry_after)
    return f"HTTP {sent.status or error.status} {sent.code or sent.type}"


ENDING_WORDS: dict[str, Callable[[str], str]] = {
    MESSAGES: lambda declared: f"declared {declared}",
    CHAT: lambda declared: f"finish_reason {FINISH_REASONS.get(declared, declared)}",
}
ERROR_WORDS: dict[str, Callable[[ApiError], str]] = {
    MESSAGES: lambda error: f"HTTP {error.status} {error.type}",
    CHAT: _chat_error,
}
