"""Peer: LangChain's agent (`langchain.agents.create_agent`), run with `invoke`.

Mode: not streamed by default (`ChatAnthropic` under `invoke`: no `stream` field on the wire);
`ChatAnthropic(streaming=True)` when the probe asks for streams.
Asked (program.py): thinking with a budget (`ChatAnthropic(thinking=...)`), a web search
(a server tool, as a dict) among its tools, a `read_image` tool whose result is a list of content
blocks holding the image.

Approvals: `HumanInTheLoopMiddleware` pauses the run before its `touch` tool runs (a LangGraph
interrupt, so the graph has a checkpointer); the program answers each call the interrupt lists
with the deny rule, then the human (approvals.py), and resumes with the decisions:
`approve`, or `reject` with the reason.
"""

from collections.abc import Sequence
from typing import Any

from langchain.agents import create_agent
from langchain.agents.middleware import HumanInTheLoopMiddleware
from langchain_anthropic import ChatAnthropic
from langchain_core.language_models import BaseChatModel
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command

from lab.probe.peers.approvals import APPROVAL_TOOL, decide, touch
from lab.probe.peers.program import (
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


def decision(request: dict) -> dict:
    """The program's decision on one call the middleware holds for review."""
    why = decide(request["name"], request["args"])
    return {"type": "approve"} if why is None else {"type": "reject", "message": why}


def read_image(path: str) -> list[dict]:
    """Read an image file in the working folder and return it as an image."""
    return [image_block(path)]


def chat_model() -> ChatAnthropic:
    """ChatAnthropic in the answer mode asked for, with thinking when asked for."""
    if thinking():
        return ChatAnthropic(
            model=MODEL,
            streaming=streamed(default=False),
            max_tokens=THINKING_MAX_TOKENS,
            thinking=THINKING,
        )
    return ChatAnthropic(model=MODEL, streaming=streamed(default=False))


def run_graph(model: BaseChatModel, prompt: str, asked_tools: Sequence[Any] = ()) -> str:
    """The agent on `model`, invoked and resumed until no call waits for review (shared with
    its twin on the Chat Completions wire, langchain_openai_agent.py); `asked_tools`: the tools
    the probe asked for (a server tool, read_image)."""
    review = {APPROVAL_TOOL: {"allowed_decisions": ["approve", "reject"]}}
    graph = create_agent(
        model,
        tools=[read_file, touch, *asked_tools],
        middleware=[HumanInTheLoopMiddleware(interrupt_on=review)],
        checkpointer=InMemorySaver(),  # an interrupted run resumes from its checkpoint
    )
    # The agent is a LangGraph graph: each turn is a model step, the middleware's review step
    # and a tools step.
    config = {"configurable": {"thread_id": "probe"}, "recursion_limit": 3 * MAX_TURNS + 1}
    asked: dict | Command = {"messages": [{"role": "user", "content": prompt}]}
    while True:
        result = graph.invoke(asked, config=config, version="v2")
        if not result.interrupts:
            return result.value["messages"][-1].text
        asked = Command(
            resume={
                pause.id: {"decisions": [decision(r) for r in pause.value["action_requests"]]}
                for pause in result.interrupts
            }
        )


def agent(prompt: str) -> str:
    # ChatAnthropic reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment.
    asked = [*([WEB_SEARCH] if server_tool() else []), *([read_image] if image_tool() else [])]
    return run_graph(chat_model(), prompt, asked)


if __name__ == "__main__":
    run(agent)
