"""Peer: a pydantic-ai `Agent` on its Chat Completions model (`OpenAIChatModel`), `run_sync`.

The twin of pydantic_ai_agent.py on the Chat Completions wire: the model's `openai` provider
builds an `AsyncOpenAI` client, which reads OPENAI_BASE_URL and OPENAI_API_KEY. Mode: not
streamed by default (`run_sync` sends no `stream` field on this model); with an event stream
handler when the probe asks for streams. Approvals: as its twin (a deferred
tool answered during the run by the deny rule, then the human).
"""

from pydantic_ai.models.openai import OpenAIChatModel

from lab.probe.peers.program import OPENAI_MODEL, run
from lab.probe.peers.pydantic_ai_agent import run_agent


def agent(prompt: str) -> str:
    return run_agent(OpenAIChatModel(OPENAI_MODEL), prompt)


if __name__ == "__main__":
    run(agent)
