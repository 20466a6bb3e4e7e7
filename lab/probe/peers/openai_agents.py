"""Peer: the OpenAI Agents SDK on an Anthropic model through LiteLLM (`LitellmModel`).

Mode: not streamed by default (`Runner.run_sync`); `Runner.run_streamed` when the probe asks for
streams. Its target sets OPENAI_AGENTS_DISABLE_TRACING and LITELLM_OFFLINE_MODE: both libraries
would otherwise reach for the network on their own (trace export, LiteLLM's model-price table).
"""

import asyncio
import os

from agents import Agent, ModelSettings, Runner, function_tool
from agents.extensions.models.litellm_model import LitellmModel

from lab.probe.peers.program import MAX_TOKENS, MAX_TURNS, MODEL, read_file, run, streamed


async def run_streamed(assistant: Agent, prompt: str) -> str:
    result = Runner.run_streamed(assistant, prompt, max_turns=MAX_TURNS)
    async for _event in result.stream_events():
        pass  # a real harness would show these as they come
    return result.final_output


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
        model_settings=ModelSettings(max_tokens=MAX_TOKENS),
        tools=[function_tool(read_file)],
    )
    if streamed(default=False):
        return asyncio.run(run_streamed(assistant, prompt))
    return Runner.run_sync(assistant, prompt, max_turns=MAX_TURNS).final_output


if __name__ == "__main__":
    run(agent)
