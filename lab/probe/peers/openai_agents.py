"""Peer: the OpenAI Agents SDK on Anthropic through its LiteLLM model (`LitellmModel`).

Mode: not streamed by default (`Runner.run_sync`); `Runner.run_streamed` when the probe asks for
streams. Its target sets OPENAI_AGENTS_DISABLE_TRACING and LiteLLM's offline switches
(OFFLINE_SWITCHES in lab/probe/target.py): both libraries would otherwise reach for the network
on their own (trace export, LiteLLM's model-price table).

Approvals: its `touch` tool is a function tool with `needs_approval=True`; agents_runs.py answers
each call the run stops on (the deny rule, then the human) and runs it again.

Asked (program.py): thinking with a budget, and a web search (LiteLLM's `web_search_options`,
which it sends as the API's web search tool), both through `ModelSettings.extra_args`.
"""

import os

from agents import Agent, ModelSettings, function_tool
from agents.extensions.models.litellm_model import LitellmModel

from lab.probe.peers.agents_runs import run_agent
from lab.probe.peers.approvals import touch
from lab.probe.peers.program import (
    MAX_TOKENS,
    MODEL,
    THINKING,
    THINKING_MAX_TOKENS,
    read_file,
    run,
    server_tool,
    thinking,
)


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
    return run_agent(assistant, prompt)


if __name__ == "__main__":
    run(agent)
