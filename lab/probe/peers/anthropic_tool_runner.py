"""Peer: the official SDK's tool runner (`client.beta.messages.tool_runner`), default settings.

Defaults include server-side message threads: the first request opens a thread, later ones carry
only the new turn. Mode: not streamed by default; `stream=True` when the probe asks for streams.
Asked (program.py): thinking with a budget (`thinking=`), a web search among its tools, a
`read_image` tool whose result is an image block.
"""

from anthropic import Anthropic, beta_tool

from lab.probe.peers.program import (
    MAX_TOKENS,
    MAX_TURNS,
    MODEL,
    THINKING,
    THINKING_MAX_TOKENS,
    WEB_SEARCH,
    image_block,
    image_tool,
    read_file,
    run,
    server_tool,
    streamed,
    thinking,
)


def read_image(path: str) -> list[dict]:
    """Read an image file in the working folder and return it as an image."""
    return [image_block(path)]


def agent(prompt: str) -> str:
    client = Anthropic()  # ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY come from the environment
    tools: list = [beta_tool(read_file), *([WEB_SEARCH] if server_tool() else [])]
    if image_tool():
        tools.append(beta_tool(read_image))
    asked: dict = {"max_tokens": MAX_TOKENS}
    if thinking():
        asked = {"thinking": THINKING, "max_tokens": THINKING_MAX_TOKENS}
    runner = client.beta.messages.tool_runner(
        model=MODEL,
        max_iterations=MAX_TURNS,
        tools=tools,
        messages=[{"role": "user", "content": prompt}],
        stream=streamed(default=False),
        **asked,
    )
    final = runner.until_done()
    return "".join(block.text for block in final.content if block.type == "text")


if __name__ == "__main__":
    run(agent)
