"""Peer: a pydantic-ai `Agent` on its Anthropic model, run with `run_sync`.

Mode: always streamed, whatever the probe asks. `run_sync` is pydantic-ai's plain entry point,
yet every request carries `stream: true`: its default `max_tokens` (the model's maximum, 64000)
is past the SDK's limit for a non-streamed request, so pydantic-ai streams it.

Approvals: its `touch` tool is declared `requires_approval=True` (a deferred tool), and the
`HandleDeferredToolCalls` capability answers each call waiting for approval during the run: the
program's deny rule, then the human (approvals.py), a refusal as pydantic-ai's `ToolDenied`.

Asked (program.py): thinking with a budget (`anthropic_thinking`), its `WebSearch` capability
(the API's own web search, no local fallback), a `read_image` tool that returns a
`BinaryContent` image.
"""

from collections.abc import AsyncIterable, Sequence
from typing import Any

from pydantic_ai import Agent, AgentStreamEvent, BinaryContent, RunContext, Tool
from pydantic_ai.capabilities import AbstractCapability, HandleDeferredToolCalls, WebSearch
from pydantic_ai.models import Model
from pydantic_ai.models.anthropic import AnthropicModel, AnthropicModelSettings
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults, ToolDenied
from pydantic_ai.usage import UsageLimits

from lab.probe.peers.approvals import decide, touch
from lab.probe.peers.program import (
    MAX_TURNS,
    MODEL,
    THINKING,
    image_tool,
    read_bytes,
    read_file,
    run,
    server_tool,
    streamed,
    thinking,
)


def review(ctx: RunContext, requests: DeferredToolRequests) -> DeferredToolResults:
    """Each call waiting for approval: approved, or denied with the reason."""
    results = DeferredToolResults()
    for call in requests.approvals:
        why = decide(call.tool_name, call.args_as_dict())
        results.approvals[call.tool_call_id] = True if why is None else ToolDenied(why)
    return results


async def watch(ctx: RunContext, events: AsyncIterable[AgentStreamEvent]) -> None:
    async for _event in events:
        pass  # a real harness would show these as they come


def read_image(path: str) -> BinaryContent:
    """Read an image file in the working folder and return it as an image."""
    data, media_type = read_bytes(path)
    return BinaryContent(data=data, media_type=media_type)


def run_agent(
    model: Model,
    prompt: str,
    *,
    tools: Sequence[Any] = (),
    capabilities: Sequence[AbstractCapability] = (),
    settings: Any = None,
) -> str:
    """The agent on `model`, run to its end (shared with its twin on the Chat Completions wire,
    pydantic_ai_openai.py); `tools`, `capabilities` and `settings`: what the probe asked for."""
    assistant = Agent(
        model,
        tools=[read_file, Tool(touch, requires_approval=True), *tools],
        capabilities=[HandleDeferredToolCalls(handler=review), *capabilities],
        model_settings=settings,
    )
    limits = UsageLimits(request_limit=MAX_TURNS)
    # An event stream handler makes pydantic-ai stream each model request (its way to watch a
    # run as it goes); the Anthropic model streams anyway, the OpenAI model only then.
    handler = watch if streamed(default=False) else None
    result = assistant.run_sync(prompt, usage_limits=limits, event_stream_handler=handler)
    return result.output


def agent(prompt: str) -> str:
    # Its provider reads ANTHROPIC_API_KEY; the SDK client under it reads ANTHROPIC_BASE_URL.
    return run_agent(
        AnthropicModel(MODEL),
        prompt,
        tools=[read_image] if image_tool() else [],
        capabilities=[WebSearch(max_uses=1)] if server_tool() else [],
        settings=AnthropicModelSettings(anthropic_thinking=THINKING) if thinking() else None,
    )


if __name__ == "__main__":
    run(agent)
