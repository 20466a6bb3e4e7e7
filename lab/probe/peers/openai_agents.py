"""Peer: the OpenAI Agents SDK on an Anthropic model through LiteLLM (`LitellmModel`).

Mode: not streamed by default (`Runner.run_sync`); `Runner.run_streamed` when the probe asks for
streams. Its target sets OPENAI_AGENTS_DISABLE_TRACING and LiteLLM's offline switches
(OFFLINE_SWITCHES in lab/probe/target.py): both libraries would otherwise reach for the network
on their own (trace export, LiteLLM's model-price table).

Approvals: its `touch` tool is a function tool with `needs_approval=True`, so the run stops with
the call among its `interruptions`; the program answers each with the deny rule, then the human
(approvals.py) — `RunState.approve`, or `RunState.reject` with the reason — and runs the state
again, until a run ends without interruptions.

Asked (program.py): thinking with a budget, and a web search (LiteLLM's `web_search_options`,
which it sends as the API's web search tool), both through `ModelSettings.extra_args`.
"""

import asyncio
import json
import os

from agents import (
    Agent,
    ModelSettings,
    Runner,
    RunResult,
    RunResultStreaming,
    RunState,
    function_tool,
)
from agents.extensions.models.litellm_model import LitellmModel

from lab.probe.peers.approvals import decide, touch
from lab.probe.peers.program import (
    MAX_TOKENS,
    MAX_TURNS,
    MODEL,
    THINKING,
    THINKING_MAX_TOKENS,
    read_file,
    run,
    server_tool,
    streamed,
    thinking,
)


def answered(result: RunResult | RunResultStreaming) -> RunState | None:
    """The run's state with every call waiting for approval answered; None: none was waiting."""
    if not result.interruptions:
        return None
    state = result.to_state()
    for item in result.interruptions:
        try:
            args = json.loads(item.arguments or "{}")
        except ValueError:
            args = item.arguments
        why = decide(item.name or "", args)
        if why is None:
            state.approve(item)
        else:
            state.reject(item, rejection_message=why)
    return state


async def run_streamed(assistant: Agent, prompt: str) -> str:
    asked: str | RunState = prompt
    while True:
        result = Runner.run_streamed(assistant, asked, max_turns=MAX_TURNS)
        async for _event in result.stream_events():
            pass  # a real harness would show these as they come
        if (state := answered(result)) is None:
            return result.final_output
        asked = state


def run_sync(assistant: Agent, prompt: str) -> str:
    asked: str | RunState = prompt
    while True:
        result = Runner.run_sync(assistant, asked, max_turns=MAX_TURNS)
        if (state := answered(result)) is None:
            return result.final_output
        asked = state


def settings() -> ModelSettings:
    """The model's settings: its output budget, and what the probe asked for."""
    extra: dict = {"thinking": THINKING} if thinking() else {}
    if server_tool():
        extra["web_search_options"] = {"search_context_size": "low"}
    budget = THINKING_MAX_TOKENS if thinking() else MAX_TOKENS
    return ModelSettings(max_tokens=budget, extra_args=extra or None)


def agent(prompt: str) -> str:
    model = LitellmModel(
        model=f"anthropic/{MODEL}",
        base_url=os.environ["ANTHROPIC_BASE_URL"],
        api_key=os.environ["ANTHROPIC_API_KEY"],
    )
    assistant = Agent(
        name="assistant",
        model=model,
        # Without it LiteLLM asks for the model's whole output budget (max_tokens: 128000).
        model_settings=settings(),
        tools=[function_tool(read_file), function_tool(touch, needs_approval=True)],
    )
    if streamed(default=False):
        return asyncio.run(run_streamed(assistant, prompt))
    return run_sync(assistant, prompt)


if __name__ == "__main__":
    run(agent)
