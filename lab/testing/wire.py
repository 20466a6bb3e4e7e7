"""Wire-level invariants for a harness function: run it in process on the fake API, judge the wire.

The invariants in `invariants.py` read the lab harness's trace; the wire invariants (defined in
lab/probe/wire_promises.py, re-exported here) read only what crosses the wire — every request the
fake Messages API received, what it answered, and how the run ended — so they hold for any harness
in any language.

Plugging in a harness (the protocol): write a function `harness(client, prompt)` that runs your
agent loop to its end with the `anthropic.Anthropic` client it is given (raising is a crash).
`run_wire(harness, script)` serves `script` (a list of `turn(...)` and fault steps) through the
fake API behind that client, runs the harness, and returns a `WireRun`; `wire_problems(run)`
lists the invariants it breaks, `assert_wire(run)` fails a test with them. A harness that is a
program instead of a function: `lab probe --cmd ... --fuzz N` checks the same invariants over a
loopback socket (`WireRun.from_trial`).

The client (`client=`): by default the SDK as an application builds it, `anthropic.Anthropic()`
with its default retries on (2 retries, with backoff, honouring retry-after), because that is
the client a program has under `lab probe`: a loop that relies on the SDK's retries gets the
same verdict on a 529 from both. A loop that owns its retries can turn the SDK's off itself
(`client.with_options(max_retries=0)`), or the author passes `client=without_sdk_retries`, or
any factory that takes the fake API's handler (a `httpx2.MockTransport` handler) and returns a
client.

Each answer is played by what a request contains, not by its number (see
lab/probe/conversation.py): a fault is played once, and a harness that asks again gets the
healthy answer.

The other wire: a harness written against an `openai.OpenAI` client (Chat Completions) is run
with `client=openai_with_sdk_retries` (or `openai_without_sdk_retries`). The same script plays
there (lab/model/chat_api.py; a step with no meaning on that wire is refused before the run), and
each request is judged in the Messages wire's words (lab/model/chat_view.py), so the same
invariants hold: D1 on that wire is `finish_reason: "stop"` with tool_calls present.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from lab.kernel.runner import ClientFactory, WireHarness, with_sdk_retries, without_sdk_retries
from lab.model.script import ApiError, Step
from lab.probe import wire_promises as probe_wire
from lab.probe.conversation import Conversation, stages_from_script
from lab.probe.which_wire import CHAT
from lab.probe.wire_promises import WIRE_INVARIANTS, WireRun

if TYPE_CHECKING:
    from lab.kernel.record import Tap

__all__ = [
    "WIRE_INVARIANTS",
    "WireHarness",
    "WireRun",
    "assert_wire",
    "openai_with_sdk_retries",
    "openai_without_sdk_retries",
    "run_wire",
    "wire_problems",
    "with_sdk_retries",
    "without_sdk_retries",
]

REQUEST_LIMIT = 50  # a harness that asks more often than this is stopped with an error answer

# Invariants with no meaning on the Chat Completions wire, and why (lab/probe/wire_promises.py's
# table: they ask for a tool_result's `is_error`, and a `tool` message has no such flag).
NOT_ON_CHAT = probe_wire.OFF_WIRE[CHAT]


def wire_problems(run: WireRun) -> list[tuple[str, str]]:
    """(invariant, what broke) for every wire invariant the run breaks, in table order; on
    the Chat Completions wire, those in NOT_ON_CHAT are not judged."""
    return probe_wire.wire_problems(run)


def assert_wire(run: WireRun) -> None:
    """Fail (AssertionError) with every wire invariant the run breaks."""
    problems = wire_problems(run)
    if problems:
        raise AssertionError("; ".join(f"{name}: {why}" for name, why in problems))


# ---------------------------------------------------------------- the Chat Completions wire
def openai_with_sdk_retries(handler: Callable[..., Any]) -> Any:
    """An `openai.OpenAI` client on the fake, its default retries on (as in a program)."""
    from lab.model.chat_client import chat_client_with_retries

    return chat_client_with_retries(handler)


def openai_without_sdk_retries(handler: Callable[..., Any]) -> Any:
    """An `openai.OpenAI` client on the fake for a loop that owns its retries (max_retries=0)."""
    from lab.model.chat_client import make_chat_client

    return make_chat_client(handler)


CHAT_CLIENTS = (openai_with_sdk_retries, openai_without_sdk_retries)


# ---------------------------------------------------------------- running a harness
def run_wire(
    harness: WireHarness,
    script: Sequence[Step],
    prompt: str = "Please help.",
    *,
    client: ClientFactory = with_sdk_retries,
) -> WireRun:
    """Serve `script` through the fake API (the real SDK, in process), run `harness` on it
    with the client `client` builds (default: the SDK's own retries on, as under `lab probe`).
    An openai client (CHAT_CLIENTS) runs it on the Chat Completions wire: a script step with no
    meaning there is refused first (ValueError, one line)."""
    from lab.kernel.runner import run_function
    from lab.probe.recorder import Recorder

    if client in CHAT_CLIENTS:
        from lab.model.chat_render import check_chat_script

        check_chat_script(script)

    conversation = Conversation(stages_from_script(script), marker="")
    recorders: list[Recorder] = []

    def limited(request: Any) -> Any:
        if len(conversation.log) >= REQUEST_LIMIT:
            return ApiError(500, "api_error", f"lab: more than {REQUEST_LIMIT} requests")
        return conversation(request)

    def record(tap: Tap) -> Recorder:
        recorders.append(Recorder(tap))
        return recorders[-1]

    ran = run_function(
        harness, limited, prompt, client=client, serve=record, notes=conversation.log
    )
    crash = ran.ending.line if ran.ending.crashed else None
    # The Recorder writes a chat request in the Messages wire's words (lab/probe/which_wire.py).
    return WireRun(recorders[0].exchanges, crash, len(conversation.stages))
