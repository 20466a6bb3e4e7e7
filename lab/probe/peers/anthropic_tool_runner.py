"""Peer: the official SDK's tool runner (`client.beta.messages.tool_runner`), default settings.

Defaults include server-side message threads: the first request opens a thread, later ones carry
only the new turn. Mode: not streamed by default; `stream=True` when the probe asks for streams.
"""

from anthropic import Anthropic, beta_tool

from lab.probe.peers.program import MAX_TOKENS, MAX_TURNS, MODEL, read_file, run, streamed


def agent(prompt: str) -> str:
    client = Anthropic()  # ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY come from the environment
    runner = client.beta.messages.tool_runner(
        model=MODEL,
        max_tokens=MAX_TOKENS,
        max_iterations=MAX_TURNS,
        tools=[beta_tool(read_file)],
        messages=[{"role": "user", "content": prompt}],
        stream=streamed(default=False),
    )
    final = runner.until_done()
    return "".join(block.text for block in final.content if block.type == "text")


if __name__ == "__main__":
    run(agent)
