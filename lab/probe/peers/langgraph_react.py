"""Peer: LangGraph's prebuilt ReAct agent (`langgraph.prebuilt.create_react_agent`), `invoke`.

Mode: not streamed by default (`ChatAnthropic` under `invoke`: no `stream` field on the wire);
`ChatAnthropic(streaming=True)` when the probe asks for streams.
Asked (program.py): thinking with a budget (`ChatAnthropic(thinking=...)`), a web search
(a server tool, as a dict) among its tools, a `read_image` tool whose result is a list of content
blocks holding the image.
"""

import warnings

from langgraph.prebuilt import create_react_agent
from langgraph.warnings import LangGraphDeprecatedSinceV10

from lab.probe.peers.langchain_agent import chat_model, read_image
from lab.probe.peers.program import (
    MAX_TURNS,
    WEB_SEARCH,
    image_tool,
    read_file,
    run,
    server_tool,
)

# This is the prebuilt agent people run (its successor is the langchain-agent peer); its
# "moved to langchain.agents" warning would only add a line to every run's stderr.
warnings.filterwarnings("ignore", category=LangGraphDeprecatedSinceV10)


def agent(prompt: str) -> str:
    # ChatAnthropic reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment.
    model = chat_model()
    tools = [
        read_file,
        *([WEB_SEARCH] if server_tool() else []),
        *([read_image] if image_tool() else []),
    ]
    graph = create_react_agent(model, tools=tools)
    # A graph step is one node: each turn is a model step and a tools step.
    state = graph.invoke(
        {"messages": [("user", prompt)]}, config={"recursion_limit": 2 * MAX_TURNS + 1}
    )
    return state["messages"][-1].text


if __name__ == "__main__":
    run(agent)
