"""A scripted fake model served through the real anthropic SDK, judged like the real API."""

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
    cut_off,
    overloaded,
    rate_limited,
    server_error,
    stream_dropped,
    stream_error,
    text,
    tool_use,
    turn,
    turn_of,
)
from lab.model.sse import encode_stream
from lab.model.validation import validate_messages

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
    "cut_off",
    "encode_stream",
    "make_client",
    "overloaded",
    "rate_limited",
    "scripted_client",
    "server_error",
    "stream_dropped",
    "stream_error",
    "text",
    "tool_use",
    "turn",
    "turn_of",
    "validate_messages",
]
