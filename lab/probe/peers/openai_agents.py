"""Peer: the OpenAI Agents SDK on an Anthropic model through LiteLLM (`LitellmModel`), `run_sync`.

Mode: not streamed (`Runner.run_sync`; streaming is the separate `Runner.run_streamed`). Its
target sets OPENAI_AGENTS_DISABLE_TRACING and LITELLM_OFFLINE_MODE: both libraries would
otherwise reach for the network on their own (trace export, LiteLLM's model-price table).
"""

import os

from agents import Agent, ModelSettings, Runner, function_tool
from agents.extensions.models.litellm_model import LitellmModel

from lab.probe.peers.program import MAX_TOKENS, MAX_TURNS, MODEL, read_file, run


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
    result = Runner.run_sync(assistant, prompt, max_turns=MAX_TURNS)
    return result.final_output


if __name__ == "__main__":
    run(agent)
