"""A scripted fake model served through the real anthropic SDK, judged like the real API.

The names below are loaded on first use (PEP 562 `__getattr__`): an experiment file that
only writes a script (`from lab.model import turn, tool_use`) never imports the SDK. The type
checker reads them from the `TYPE_CHECKING` imports instead, so each keeps its type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lab.lazy import lazy_exports

if TYPE_CHECKING:  # never run: where the type checker finds each name below
    from lab.model.client import make_client, scripted_client
    from lab.model.fake_api import FakeMessagesAPI, Rejection
    from lab.model.script import (
        ApiError,
        CutOff,
        Fault,
        ModelRequest,
        Responder,
        ScriptedModel,
        ScriptExhausted,
        Step,
        StreamDropped,
        StreamError,
        Turn,
        cut_inside,
        cut_off,
        overloaded,
        paused,
        rate_limited,
        redacted_thinking,
        server_error,
        server_tool_use,
        stream_dropped,
        stream_error,
        text,
        thinking,
        tool_use,
        turn,
        turn_of,
        web_search_result,
    )
    from lab.model.sse import encode_stream
    from lab.model.validation import validate_messages

# A list written out, not computed: type checkers and linters read `__all__` as it is written.
__all__ = [
    "ApiError",
    "CutOff",
    "FakeMessagesAPI",
    "Fault",
    "ModelRequest",
    "Rejection",
    "Responder",
    "ScriptExhausted",
    "ScriptedModel",
    "Step",
    "StreamDropped",
    "StreamError",
    "Turn",
    "cut_inside",
    "cut_off",
    "encode_stream",
    "make_client",
    "overloaded",
    "paused",
    "rate_limited",
    "redacted_thinking",
    "scripted_client",
    "server_error",
    "server_tool_use",
    "stream_dropped",
    "stream_error",
    "text",
    "thinking",
    "tool_use",
    "turn",
    "turn_of",
    "validate_messages",
    "web_search_result",
]

# submodule -> the names it defines, for the run time (tests/test_public_api.py checks that
# this table, the imports above and `__all__` name the same things)
SUBMODULES = {
    "client": ("make_client", "scripted_client"),
    "fake_api": ("FakeMessagesAPI", "Rejection"),
    "script": (
        *("ApiError", "CutOff", "Fault", "ModelRequest", "Responder", "ScriptExhausted"),
        *("ScriptedModel", "Step", "StreamDropped", "StreamError", "Turn", "cut_off"),
        *("overloaded", "rate_limited", "server_error", "stream_dropped", "stream_error"),
        *("text", "tool_use", "turn", "turn_of"),
        *("cut_inside", "paused", "redacted_thinking", "server_tool_use", "thinking"),
        "web_search_result",
    ),
    "sse": ("encode_stream",),
    "validation": ("validate_messages",),
}
EXPORTS = {name: module for module, names in SUBMODULES.items() for name in names}
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
