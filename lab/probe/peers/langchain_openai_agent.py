"""Peer: LangChain's agent (`langchain.agents.create_agent`) on `ChatOpenAI`, run with `invoke`.

The twin of langchain_agent.py on the Chat Completions wire: `ChatOpenAI` reads OPENAI_API_KEY,
and its `openai` client OPENAI_BASE_URL. Mode: not streamed by default; `ChatOpenAI(streaming=
True)` when the probe asks for streams.

Approvals: `HumanInTheLoopMiddleware` pauses the run before its `touch` tool runs; the program
answers each call with the deny rule, then the human (approvals.py), and resumes with the
decisions (langchain_agent.py's loop, the same here).
"""

from langchain_openai import ChatOpenAI

from lab.probe.peers.langchain_agent import run_graph
from lab.probe.peers.program import MAX_TOKENS, OPENAI_MODEL, run, streamed


def agent(prompt: str) -> str:
    model = ChatOpenAI(model=OPENAI_MODEL, max_tokens=MAX_TOKENS, streaming=streamed(False))
    return run_graph(model, prompt)


if __name__ == "__main__":
    run(agent)
