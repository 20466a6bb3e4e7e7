"""Peer: an Agno `Agent` on its Anthropic model (`agno.models.anthropic.Claude`), `run`.

Agno reports a failed run in the run's output (status ERROR) instead of raising; the program
turns that into exit status 1, as a harness author would. Mode: not streamed by default;
`run(stream=True)` when the probe asks for streams. Telemetry is off in the code and by its
target's AGNO_TELEMETRY=false. Asked (program.py): thinking with a budget (`Claude(thinking=...)`),
a web search (a server tool, as a dict) among its tools, a `read_image` tool that returns a
`ToolResult` with the image (Agno's way for a tool to return media).
"""

from collections.abc import Iterator

from agno.agent import Agent
from agno.media import Image
from agno.models.anthropic import Claude
from agno.run.agent import RunErrorEvent, RunOutput
from agno.run.base import RunStatus
from agno.tools.function import ToolResult

from lab.probe.peers.program import (
    MAX_TOKENS,
    MAX_TURNS,
    MODEL,
    THINKING,
    THINKING_MAX_TOKENS,
    WEB_SEARCH,
    image_tool,
    read_bytes,
    read_file,
    run,
    server_tool,
    streamed,
    thinking,
)


def last_output(events: Iterator[object]) -> RunOutput:
    """The run's output at the end of its event stream; a failed run ends in a RunErrorEvent."""
    for event in events:
        if isinstance(event, RunErrorEvent):
            raise RuntimeError(f"run failed: {event.content}")
        if isinstance(event, RunOutput):
            return event
    raise RuntimeError("the run's event stream ended without its output")


def read_image(path: str) -> ToolResult:
    """Read an image file in the working folder and return it as an image."""
    data, media_type = read_bytes(path)
    image = Image(content=data, mime_type=media_type)
    return ToolResult(content=f"the image {path}", images=[image])


def agent(prompt: str) -> str:
    # The SDK client under it reads ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY from the environment.
    model = Claude(id=MODEL, max_tokens=MAX_TOKENS)
    if thinking():
        model = Claude(id=MODEL, max_tokens=THINKING_MAX_TOKENS, thinking=THINKING)
    assistant = Agent(
        model=model,
        tools=[
            read_file,
            *([WEB_SEARCH] if server_tool() else []),
            *([read_image] if image_tool() else []),
        ],
        tool_call_limit=MAX_TURNS,
        telemetry=False,
    )
    if streamed(default=False):
        output = last_output(assistant.run(prompt, stream=True, yield_run_output=True))
    else:
        output = assistant.run(prompt)
    if output.status != RunStatus.completed:
        raise RuntimeError(f"run {output.status}: {output.content}")
    return str(output.content)


if __name__ == "__main__":
    run(agent)
