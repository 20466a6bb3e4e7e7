"""Peer: the OpenAI Agents SDK on its Chat Completions model (`OpenAIChatCompletionsModel`).

The SDK's model for any OpenAI-compatible endpoint, on an `AsyncOpenAI` client (which reads
OPENAI_BASE_URL and OPENAI_API_KEY). Mode: not streamed by default (`Runner.run_sync`);
`Runner.run_streamed` when the probe asks for streams. Its target sets
OPENAI_AGENTS_DISABLE_TRACING: the SDK would otherwise export traces to OpenAI.

Approvals: its `touch` tool is a function tool with `needs_approval=True`; agents_runs.py answers
each call the run stops on (the deny rule, then the human) and runs it again.
"""

from agents import Agent, ModelSettings, OpenAIChatCompletionsModel, function_tool
from openai import AsyncOpenAI

from lab.probe.peers.agents_runs import run_agent
from lab.probe.peers.approvals import touch
from lab.probe.peers.program import MAX_TOKENS, OPENAI_MODEL, read_file, run


def agent(prompt: str) -> str:
    assistant = Agent(
        name="assistant",
        model=OpenAIChatCompletionsModel(model=OPENAI_MODEL, openai_client=AsyncOpenAI()),
        model_settings=ModelSettings(max_tokens=MAX_TOKENS),
        tools=[function_tool(read_file), function_tool(touch, needs_approval=True)],
    )
    return run_agent(assistant, prompt)


if __name__ == "__main__":
    run(agent)
