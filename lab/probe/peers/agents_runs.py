"""The OpenAI Agents SDK peers' run loop: run, answer each call waiting for approval, run again.

Shared by its two peers (the SDK on LiteLLM's Anthropic model, and on its own Chat Completions
model): the framework's approvals are the same whatever model is under them. Each tool declared
with `needs_approval=True` stops the run with the call among its `interruptions`; the program
answers each with the deny rule, then the human (approvals.py) — `RunState.approve`, or
`RunState.reject` with the reason — and runs the state again, until a run ends without
interruptions.
"""

import asyncio
import json

from agents import Agent, Runner, RunResult, RunResultStreaming, RunState

from lab.probe.peers.approvals import decide
from lab.probe.peers.program import MAX_TURNS, streamed


def answered(result: RunResult | RunResultStreaming) -> RunState | None:
    """The run's state with every call waiting for approval answered; None: none was waiting."""
    if not result.interruptions:
        return None
    state = result.to_state()
    for item in result.interruptions:
        try:
            args = json.loads(item.arguments or "{}")
        except ValueError:
            args = item.arguments
        why = decide(item.name or "", args)
        if why is None:
            state.approve(item)
        else:
            state.reject(item, rejection_message=why)
    return state


async def run_streamed(assistant: Agent, prompt: str) -> str:
    asked: str | RunState = prompt
    while True:
        result = Runner.run_streamed(assistant, asked, max_turns=MAX_TURNS)
        async for _event in result.stream_events():
            pass  # a real harness would show these as they come
        if (state := answered(result)) is None:
            return result.final_output
        asked = state


def run_sync(assistant: Agent, prompt: str) -> str:
    asked: str | RunState = prompt
    while True:
        result = Runner.run_sync(assistant, asked, max_turns=MAX_TURNS)
        if (state := answered(result)) is None:
            return result.final_output
        asked = state


def run_agent(assistant: Agent, prompt: str) -> str:
    """`Runner.run_sync` by default; `Runner.run_streamed` when the probe asks for streams."""
    if streamed(default=False):
        return asyncio.run(run_streamed(assistant, prompt))
    return run_sync(assistant, prompt)
