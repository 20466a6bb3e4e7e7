"""Peer: a Haystack `Agent` on its Anthropic chat generator (anthropic-haystack), `run`.

Mode: not streamed by default; with a `streaming_callback` (the generator then streams) when the
probe asks for streams. Its target sets HAYSTACK_TELEMETRY_ENABLED=False: Haystack otherwise
sends usage events. Asked (program.py): thinking with a budget (its `generation_kwargs`); it
declares no server tool (its tools are Haystack `Tool`s, run by the program); a `read_image`
tool whose raw result, an `ImageContent`, is the tool's result (`outputs_to_string` with
`raw_result`).
"""

import base64

from haystack.components.agents import Agent
from haystack.dataclasses import ChatMessage, ImageContent, StreamingChunk
from haystack.tools import create_tool_from_function
from haystack_integrations.components.generators.anthropic import AnthropicChatGenerator

from lab.probe.peers.program import (
    MAX_TOKENS,
    MAX_TURNS,
    MODEL,
    THINKING,
    THINKING_MAX_TOKENS,
    image_tool,
    read_bytes,
    read_file,
    run,
    streamed,
    thinking,
)


def show(chunk: StreamingChunk) -> None:
    pass  # a real harness would print the text as it comes


def read_image(path: str) -> list[ImageContent]:
    """Read an image file in the working folder and return it as an image."""
    data, media_type = read_bytes(path)
    return [ImageContent(base64_image=base64.b64encode(data).decode(), mime_type=media_type)]


def image_tools() -> list:
    if not image_tool():
        return []
    return [create_tool_from_function(read_image, outputs_to_string={"raw_result": True})]


def agent(prompt: str) -> str:
    # The SDK client under it reads ANTHROPIC_BASE_URL (and the key) from the environment.
    asked: dict = {"max_tokens": MAX_TOKENS}
    if thinking():
        asked = {"max_tokens": THINKING_MAX_TOKENS, "thinking": THINKING}
    generator = AnthropicChatGenerator(model=MODEL, generation_kwargs=asked)
    assistant = Agent(
        chat_generator=generator,
        tools=[create_tool_from_function(read_file), *image_tools()],
        max_agent_steps=MAX_TURNS,
        streaming_callback=show if streamed(default=False) else None,
    )
    result = assistant.run(messages=[ChatMessage.from_user(prompt)])
    return result["last_message"].text or ""


if __name__ == "__main__":
    run(agent)
