"""The built-in peers: harnesses other people wrote, each started as a program against the fake API.

Each Python peer is one small module, the minimal idiomatic program for its framework, run as
`python -m lab.probe.peers.<module> PROMPT`; each Node peer is one small program in `node/`, run as
`node node/<program>.mjs PROMPT` with its npm packages from the lab's folder; Claude Code is the
real CLI. Importing this table imports no framework: a target is only how to start the program.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path

from lab.probe.peers.approvals import DENIED_CALL
from lab.probe.peers.claude_code import CLAUDE_CODE
from lab.probe.peers.install import (
    NPM_PEERS,
    installed_version,
    npm_missing,
    peer_modules,
)
from lab.probe.target import CONTRACT_ENV, OFFLINE_SWITCHES, Call, Target
from lab.probe.which_wire import CHAT, MESSAGES


def pip_line(distributions: list[str]) -> str:
    """`pip install` of these distributions with the pins of the lab's `peers` extra, read from
    the installed lab's metadata: the same line works from a wheel and from a checkout."""
    pinned = {}
    for requirement in metadata.requires("harness-lab") or []:
        spec, _, marker = requirement.partition(";")
        name = re.match(r"[A-Za-z0-9._-]+", spec.strip())
        if name and "peers" in marker:
            pinned[name.group().lower()] = spec.strip()
    return "pip install " + " ".join(shlex.quote(pinned.get(d, d)) for d in distributions)


def python_peer(
    name: str,
    module: str,
    distributions: tuple[str, ...],
    about: str,
    env: Mapping[str, str] | None = None,
    denied_call: Call | None = None,
    final_call: Call | None = None,
    wire: str = MESSAGES,
) -> Target:
    """A peer program in this package, run by the lab's own interpreter. With `denied_call`
    its framework's approvals keep the probe's permission contract (approvals.py)."""

    def argv(prompt: str, folder: Path) -> list[str]:
        return [sys.executable, "-m", f"lab.probe.peers.{module}", prompt]

    def missing() -> str | None:
        absent = [d for d in distributions if installed_version(d) is None]
        return f"not installed: {pip_line(absent)}" if absent else None

    return Target(
        name=name,
        argv=argv,
        env={**(env or {}), **(CONTRACT_ENV if denied_call else {})},
        distributions=distributions,
        missing=missing,
        about=about,
        denied_call=denied_call,
        final_call=final_call,
        wire=wire,
    )


NODE_PROGRAMS = Path(__file__).parent / "node"


def node_peer(
    name: str,
    program: str,
    about: str,
    env: Mapping[str, str] | None = None,
    wire: str = MESSAGES,
) -> Target:
    """A peer program in `node/`, run by the machine's node on the packages `lab peers install
    NAME` put in the lab's folder (NAME's entry in install.NPM_PEERS)."""

    def argv(prompt: str, folder: Path) -> list[str]:
        return [shutil.which("node") or "node", str(NODE_PROGRAMS / program), prompt]

    return Target(
        name=name,
        argv=argv,
        env={"LAB_PEER_NODE_MODULES": str(peer_modules(name)), **(env or {})},
        distributions=tuple(f"npm:{package}" for package in NPM_PEERS[name]),
        missing=lambda: npm_missing(name),
        about=about,
        wire=wire,
    )


PEERS: dict[str, Target] = {
    target.name: target
    for target in (
        python_peer(
            "anthropic-tool-runner",
            "anthropic_tool_runner",
            ("anthropic",),
            "the anthropic SDK's beta tool runner, default settings (message threads on)",
        ),
        python_peer(
            "pydantic-ai",
            "pydantic_ai_agent",
            ("pydantic-ai-slim", "anthropic"),
            "a pydantic-ai Agent on its Anthropic model, run_sync (a tool that requires approval)",
            denied_call=DENIED_CALL,
        ),
        python_peer(
            "langgraph-react",
            "langgraph_react",
            ("langgraph", "langgraph-prebuilt", "langchain-anthropic", "langchain-core"),
            "LangGraph's prebuilt create_react_agent on ChatAnthropic, invoke",
        ),
        python_peer(
            "langchain-agent",
            "langchain_agent",
            ("langchain", "langgraph", "langchain-anthropic", "langchain-core"),
            "LangChain's create_agent on ChatAnthropic, invoke (human-in-the-loop middleware)",
            denied_call=DENIED_CALL,
        ),
        python_peer(
            "openai-agents",
            "openai_agents",
            ("openai-agents", "litellm"),
            "the OpenAI Agents SDK on an Anthropic model through LiteLLM, run_sync "
            "(a tool that needs approval)",
            # Both libraries reach for the network on their own unless told not to.
            env={"OPENAI_AGENTS_DISABLE_TRACING": "1", **OFFLINE_SWITCHES},
            denied_call=DENIED_CALL,
        ),
        python_peer(
            "smolagents",
            "smolagents_agent",
            ("smolagents", "litellm"),
            "a smolagents ToolCallingAgent on an Anthropic model through LiteLLM, run",
            env=OFFLINE_SWITCHES,
            # Its run ends through its own tool: a text answer is an error it asks again about.
            final_call=("final_answer", '{"answer": "done."}'),
        ),
        python_peer(
            "agno",
            "agno_agent",
            ("agno", "anthropic"),
            "an Agno Agent on its Claude model, run",
            env={"AGNO_TELEMETRY": "false"},
        ),
        python_peer(
            "haystack",
            "haystack_agent",
            ("haystack-ai", "anthropic-haystack", "anthropic"),
            "a Haystack Agent on its Anthropic chat generator, run",
            env={"HAYSTACK_TELEMETRY_ENABLED": "False"},
        ),
        node_peer(
            "ai-sdk",
            "ai_sdk.mjs",
            "the Vercel AI SDK on its Anthropic provider, generateText with stopWhen",
        ),
        node_peer(
            "anthropic-ts-tool-runner",
            "anthropic_ts_tool_runner.mjs",
            "the TypeScript SDK's beta tool runner, default settings (message threads on)",
        ),
        node_peer(
            "langchain-js",
            "langchain_js.mjs",
            "LangChain.js's createAgent on ChatAnthropic, invoke",
            # LangSmith tracing is off unless asked for; said here so no setting can turn it on.
            env={"LANGSMITH_TRACING": "false", "LANGCHAIN_TRACING_V2": "false"},
        ),
        CLAUDE_CODE,
        # The Chat Completions wire (OPENAI_BASE_URL, OPENAI_API_KEY): harnesses that speak it.
        python_peer(
            "openai-tool-loop",
            "openai_tool_loop",
            ("openai",),
            "the openai SDK's own tool loop, written plainly (chat.completions.create)",
            wire=CHAT,
        ),
        python_peer(
            "openai-agents-chat",
            "openai_agents_chat",
            ("openai-agents", "openai"),
            "the OpenAI Agents SDK on its OpenAIChatCompletionsModel, run_sync "
            "(a tool that needs approval)",
            env={"OPENAI_AGENTS_DISABLE_TRACING": "1"},
            denied_call=DENIED_CALL,
            wire=CHAT,
        ),
        python_peer(
            "langchain-openai",
            "langchain_openai_agent",
            ("langchain", "langgraph", "langchain-openai", "langchain-anthropic", "langchain-core"),
            "LangChain's create_agent on ChatOpenAI, invoke (human-in-the-loop middleware)",
            denied_call=DENIED_CALL,
            wire=CHAT,
        ),
        python_peer(
            "pydantic-ai-openai",
            "pydantic_ai_openai",
            ("pydantic-ai-slim", "openai", "anthropic"),
            "a pydantic-ai Agent on its OpenAIChatModel, run_sync (a tool that requires approval)",
            denied_call=DENIED_CALL,
            wire=CHAT,
        ),
        python_peer(
            "smolagents-openai",
            "smolagents_openai",
            ("smolagents", "openai"),
            "a smolagents ToolCallingAgent on its OpenAIServerModel, run",
            final_call=("final_answer", '{"answer": "done."}'),
            wire=CHAT,
        ),
        node_peer(
            "ai-sdk-openai",
            "ai_sdk_openai.mjs",
            "the Vercel AI SDK on its OpenAI provider's chat model, generateText with stopWhen",
            wire=CHAT,
        ),
    )
}

__all__ = ["PEERS"]
