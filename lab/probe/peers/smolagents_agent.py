"""Peer: a smolagents `ToolCallingAgent` on an Anthropic model through LiteLLM (`LiteLLMModel`).

smolagents keeps its own memory and writes the history as text: each earlier call goes back as an
assistant message "Calling tools: [...]" and each result as a user message "Observation: ...";
a run ends when the model calls the agent's own `final_answer` tool (a plain text answer is an
error it answers "Error while parsing tool call ..." and asks again, up to its step limit), so
its target declares that call as the probe's final answer.
Mode: not streamed by default (`agent.run`); `stream_outputs=True` when the probe asks for streams.
Its target sets LiteLLM's offline switches (OFFLINE_SWITCHES in lab/probe/target.py): LiteLLM
would otherwise fetch its model-price table. Asked (program.py): thinking with a budget (LiteLLM's
`thinking`); it declares no server tool (its tools are smolagents `Tool`s).
"""

import os

from smolagents import LiteLLMModel, Model, ToolCallingAgent, tool

from lab.probe.peers import program
from lab.probe.peers.program import (
    MAX_TOKENS,
    MAX_TURNS,
    MODEL,
    THINKING,
    THINKING_MAX_TOKENS,
    run,
    streamed,
    thinking,
)


@tool
def read_file(path: str) -> str:
    """Read a text file in the working folder and return its text.

    Args:
        path: the file's path, relative to the working folder.
    """
    return program.read_file(path)


def run_agent(model: Model, prompt: str) -> str:
    """The agent on `model`, run to its end (shared with its twin on the Chat Completions wire,
    smolagents_openai.py)."""
    assistant = ToolCallingAgent(
        tools=[read_file],
        model=model,
        max_steps=MAX_TURNS,
        stream_outputs=streamed(default=False),
        verbosity_level=0,  # its rich step panels would only fill the probe's evidence
    )
    return str(assistant.run(prompt))


def agent(prompt: str) -> str:
    model = LiteLLMModel(
        model_id=f"anthropic/{MODEL}",
        api_base=os.environ["ANTHROPIC_BASE_URL"],
        api_key=os.environ["ANTHROPIC_API_KEY"],
        max_tokens=THINKING_MAX_TOKENS if thinking() else MAX_TOKENS,
        **({"thinking": THINKING} if thinking() else {}),
    )
    return run_agent(model, prompt)


if __name__ == "__main__":
    run(agent)
