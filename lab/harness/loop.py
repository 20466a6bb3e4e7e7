"""M1 传送带 (conveyor belt): call the model, run the tool calls in its answer, send back.

Invariant: the loop goes on while the answer's *content* holds a tool_use block, a fact,
never the declared stop_reason. The loop names no check, gate or hook: those are layers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple

from lab.harness.model_call import Answer, ModelCall, Unanswered
from lab.harness.partial import DropPartial
from lab.harness.retry import Backoff, Wait
from lab.harness.thinking import ThinkingKept
from lab.kernel.trace import EndReason, RunEnded, RunStarted

if TYPE_CHECKING:
    import anthropic

    from lab.harness.layers import Layers


class ContentTest:
    """The reference (seed §3): go on while the answer's content holds a tool_use block."""

    def __call__(self, answer: Answer) -> bool:
        return answer.tool_use_seen


class DeclaredStopReason(ContentTest):
    """D1: trust the declared stop_reason; a tool call that arrives while the declaration
    says end_turn is dropped."""

    def __call__(self, answer: Answer) -> bool:
        return answer.message.stop_reason == "tool_use"


class LoopParts(NamedTuple):
    """The loop's own parts (M1), handed in by whoever builds the harness (lab/kernel/scenario.py
    takes them from the switchboard's Parts); the layers get theirs (M2–M5) beside them."""

    continue_test: type[ContentTest] = ContentTest
    retry: type[Backoff] = Backoff
    partial: type[DropPartial] = DropPartial
    thinking: type[ThinkingKept] = ThinkingKept


class Harness:
    def __init__(
        self,
        client: anthropic.Anthropic,
        layers: Layers,
        parts: LoopParts | None = None,  # the builder's; by default the reference parts
        *,
        model: str = "claude-lab-1",
        system: str | None = None,
        stream: bool = False,
        max_turns: int = 12,
        max_tokens: int = 8000,
        thinking: int | None = None,  # a thinking budget in tokens (below max_tokens); None: off
        server_tools: Sequence[dict[str, Any]] = (),  # the API runs them: declared, not dispatched
        wait: Wait | None = None,  # how retries wait: by default on the world's virtual clock
    ) -> None:
        self.client, self.layers, self.trace = client, layers, layers.trace
        continue_test, retry, partial, thinking_part = parts or LoopParts()
        self.holds_tool_calls = continue_test()
        self.sent_back = thinking_part()  # what of the answer's thinking goes back
        wait = wait or layers.world.clock.advance
        self.model_call = ModelCall(client, self.trace, wait, retry=retry, partial=partial)
        self.model, self.system, self.stream = model, system, stream
        self.max_turns, self.max_tokens, self.thinking = max_turns, max_tokens, thinking
        self.server_tools = list(server_tools)
        self.messages: list[dict[str, Any]] = []
        self.turn = 0
        self.ended: EndReason | None = None

    def run(self, prompt: str) -> EndReason:
        """Run until the model stops asking for tools; returns why the run ended."""
        self.start(prompt)
        while self.step():
            pass
        assert self.ended is not None
        return self.ended

    def start(self, prompt: str) -> None:
        self.trace.emit(RunStarted(0, prompt))
        self.messages.append(self.layers.prompt_message(0, prompt))

    def step(self) -> bool:
        """One turn: one model call, then its tool calls. Returns whether to go on."""
        self.turn += 1
        self.messages = self.layers.history(self.turn, self.messages)
        answer = self.call_model()
        if answer is None:
            return False
        self.messages.append(self.sent_back(self.turn, answer.param, self.trace))
        if self.holds_tool_calls(answer):
            results = self.layers.run_calls(self.turn, answer.tool_calls)
            self.messages.append({"role": "user", "content": results})
        elif answer.message.stop_reason == "pause_turn":
            pass  # the API paused a long turn: send it back as it is, and the model goes on
        elif reason := self.layers.stop_continuation(self.turn):
            self.messages.append({"role": "user", "content": reason})
        else:
            return self.end("done")
        if self.turn >= self.max_turns:
            return self.end("turn_limit")
        return True

    def call_model(self) -> Answer | None:
        request = {
            "model": self.model,
            "max_tokens": self.max_tokens,
            "messages": self.messages,  # the history itself, not a copy
            "tools": [*self.layers.tools(), *self.server_tools],
        }
        if self.system:
            request["system"] = self.system
        if self.thinking is not None:
            request["thinking"] = {"type": "enabled", "budget_tokens": self.thinking}
        try:
            return self.model_call.answer(self.turn, request, stream=self.stream)
        except Unanswered as failed:
            self.end(failed.reason, failed.detail)
            return None

    def end(self, reason: EndReason, detail: str = "") -> bool:
        self.ended = reason
        self.trace.emit(RunEnded(self.turn, reason, detail))
        return False
