"""A real `anthropic.Anthropic` client wired to the fake API: the real SDK, no network."""

from __future__ import annotations

from collections.abc import Sequence

import anthropic
import httpx2

from lab.model.fake_api import FakeMessagesAPI
from lab.model.script import Responder, ScriptedModel, Step

FAKE_BASE_URL = "http://fake-anthropic.lab"  # never resolved: the mock transport answers first


def make_client(api: FakeMessagesAPI) -> anthropic.Anthropic:
    """A client whose every request is answered in-process by `api`."""
    return anthropic.Anthropic(
        api_key="sk-lab-fake",
        base_url=FAKE_BASE_URL,
        # No retries: an injected error must reach the harness once, not be retried away.
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(api)),
    )


def scripted_client(
    script: Sequence[Step] | Responder,
) -> tuple[anthropic.Anthropic, FakeMessagesAPI]:
    """Shortcut: a client and the fake API behind it, playing `script`."""
    api = FakeMessagesAPI(ScriptedModel(script))
    return make_client(api), api
