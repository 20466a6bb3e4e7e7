"""A scripted fake model served through the real anthropic SDK, judged like the real API.

The names below are loaded on first use (PEP 562 `__getattr__`): an experiment file that
only writes a script (`from lab.model import turn, tool_use`) never imports the SDK.
"""

from __future__ import annotations

from lab.lazy import lazy_exports

# name -> the submodule that defines it
EXPORTS = {
    "make_client": "client",
    "scripted_client": "client",
    "FakeMessagesAPI": "fake_api",
    "Rejection": "fake_api",
    "ApiError": "script",
    "CutOff": "script",
    "Fault": "script",
    "ModelRequest": "script",
    "Responder": "script",
    "ScriptExhausted": "script",
    "ScriptedModel": "script",
    "Step": "script",
    "StreamDropped": "script",
    "StreamError": "script",
    "Turn": "script",
    "cut_off": "script",
    "overloaded": "script",
    "rate_limited": "script",
    "server_error": "script",
    "stream_dropped": "script",
    "stream_error": "script",
    "text": "script",
    "tool_use": "script",
    "turn": "script",
    "turn_of": "script",
    "encode_stream": "sse",
    "validate_messages": "validation",
}

__all__ = sorted(EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
