"""Peer: LangChain's agent (`langchain.agents.create_agent`), run with `invoke`.

Mode: not streamed by default (`ChatAnthropic` under `invoke`: no `stream` field on the wire);
`ChatAnthropic(streaming=True)` when the probe asks for streams.
"""

from langchain.agents import create_agent
from langchain_anthropic import ChatAnthropic

from lab.probe.peers.program import MAX_TURNS, MODEL, read_file, run, streamed


def agent(prompt: str) -> str:
    # ChatAnthropic reads ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL from the environment.
    model = ChatAnthropic(model=MODEL, streaming=streamed(default=False))
    graph = create_agent(model, tools=[read_file])
    # The agent is a LangGraph graph: each turn is a model step and a tools step.
    state = graph.invoke(
        {"messages": [{"role": "user", "content": prompt}]},
        config={"recursion_limit": 2 * MAX_TURNS + 1},
    )
    return state["messages"][-1].text


if __name__ == "__main__":
    run(agent)
