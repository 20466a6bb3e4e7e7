"""A real `anthropic.Anthropic` client on the fake API: the real SDK, no network.

It is built on the one in-process wiring (lab/model/wiring.py: `in_process`).
"""

from __future__ import annotations

from collections.abc import Sequence

import anthropic
from anthropic import DEFAULT_MAX_RETRIES

from lab.model.fake_api import FakeMessagesAPI
from lab.model.script import Responder, ScriptedModel, Step
from lab.model.server import Handler
from lab.model.wiring import FAKE_BASE_URL, FAKE_KEY, in_process

__all__ = ["FAKE_BASE_URL", "make_client", "scripted_client"]


def make_client(api: Handler, *, sdk_retries: bool = False) -> anthropic.Anthropic:
    """The SDK on `api`. By default its own retries are off (max_retries=0): an injected error
    reaches a loop that owns its retries once, not retried away (the lab's harness is built so).
    `sdk_retries=True`: the SDK as an application gets it, its default retries (2, with backoff
    and retry-after) on, as a program under `lab probe` has them."""
    return anthropic.Anthropic(
        api_key=FAKE_KEY,
        base_url=FAKE_BASE_URL,
        max_retries=DEFAULT_MAX_RETRIES if sdk_retries else 0,
        http_client=in_process(api),
    )


def scripted_client(
    script: Sequence[Step] | Responder,
) -> tuple[anthropic.Anthropic, FakeMessagesAPI]:
    """Shortcut: a client and the fake API behind it, playing `script`."""
    api = FakeMessagesAPI(ScriptedModel(script))
    return make_client(api), api
