"""Peer: a pydantic-ai `Agent` on its Anthropic model, run with `run_sync`.

Mode: always streamed, whatever the probe asks. `run_sync` is pydantic-ai's plain entry point,
yet every request carries `stream: true`: its default `max_tokens` (the model's maximum, 64000)
is past the SDK's limit for a non-streamed request, so pydantic-ai streams it.
"""

from pydantic_ai import Agent
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.usage import UsageLimits

from lab.probe.peers.program import MAX_TURNS, MODEL, read_file, run


def agent(prompt: str) -> str:
    # Its provider reads ANTHROPIC_API_KEY; the SDK client under it reads ANTHROPIC_BASE_URL.
    assistant = Agent(AnthropicModel(MODEL), tools=[read_file])
    result = assistant.run_sync(prompt, usage_limits=UsageLimits(request_limit=MAX_TURNS))
    return result.output


if __name__ == "__main__":
    run(agent)
