"""Peer: a smolagents `ToolCallingAgent` on its Chat Completions model (`OpenAIServerModel`).

The twin of smolagents_agent.py on the Chat Completions wire, through smolagents' own `openai`
client instead of LiteLLM: its history is written as text, and its run ends through its own
`final_answer` tool, as there. Mode: not streamed by default; `stream_outputs=True` when the
probe asks for streams.
"""

import os

from smolagents import OpenAIServerModel

from lab.probe.peers.program import MAX_TOKENS, OPENAI_MODEL, run
from lab.probe.peers.smolagents_agent import run_agent


def agent(prompt: str) -> str:
    model = OpenAIServerModel(
        model_id=OPENAI_MODEL,
        api_base=os.environ["OPENAI_BASE_URL"],
        api_key=os.environ["OPENAI_API_KEY"],
        max_tokens=MAX_TOKENS,
    )
    return run_agent(model, prompt)


if __name__ == "__main__":
    run(agent)
