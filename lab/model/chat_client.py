"""A real `openai.OpenAI` client on the fake's Chat Completions wire: the real SDK, no network."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import httpx2
import openai

from lab.model.chat_render import check_chat_script
from lab.model.fake_api import FakeMessagesAPI
from lab.model.script import Responder, ScriptedModel, Step

FAKE_OPENAI_URL = "http://fake-openai.lab/v1"  # never resolved: the mock transport answers first
FAKE_KEY = "sk-lab-fake"


def make_chat_client(handler: Callable[[httpx2.Request], httpx2.Response]) -> openai.OpenAI:
    """A client whose every request is answered in process by `handler` (a FakeMessagesAPI),
    the SDK's retries off: an injected error reaches the harness once."""
    return chat_client_with_retries(handler).with_options(max_retries=0)


def chat_client_with_retries(
    handler: Callable[[httpx2.Request], httpx2.Response],
) -> openai.OpenAI:
    """The SDK as an application gets it: its default retries (2, with backoff, honouring
    retry-after) on, as a program on this wire has them under `lab probe`."""
    transport = httpx2.MockTransport(handler)
    return openai.OpenAI(
        api_key=FAKE_KEY,
        base_url=FAKE_OPENAI_URL,
        http_client=openai.DefaultHttpxClient(transport=transport),
    )


def scripted_chat_client(
    script: Sequence[Step] | Responder,
) -> tuple[openai.OpenAI, FakeMessagesAPI]:
    """Shortcut: an `openai.OpenAI` client (no retries) and the fake behind it, playing
    `script` on the Chat Completions wire (refused first if a step has no meaning there)."""
    if not callable(script):
        check_chat_script(script)
    api = FakeMessagesAPI(ScriptedModel(script))
    return make_chat_client(api), api
