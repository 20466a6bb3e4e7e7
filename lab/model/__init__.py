"""A scripted fake model served through the real anthropic SDK, judged like the real API."""

from lab.model.client import make_client, scripted_client
from lab.model.fake_api import FakeMessagesAPI, Rejection
from lab.model.script import (
    ApiError,
    ModelRequest,
    Responder,
    ScriptedModel,
    ScriptExhausted,
    Turn,
    text,
    tool_use,
    turn,
)
from lab.model.sse import encode_stream
from lab.model.validation import validate_messages

__all__ = [
    "ApiError",
    "FakeMessagesAPI",
    "ModelRequest",
    "Rejection",
    "Responder",
    "ScriptExhausted",
    "ScriptedModel",
    "Turn",
    "encode_stream",
    "make_client",
    "scripted_client",
    "text",
    "tool_use",
    "turn",
    "validate_messages",
]
