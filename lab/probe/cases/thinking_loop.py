"""The cases of extended thinking in a tool loop: a thinking block (P24) and a redacted_thinking
block (P25) sent back first and unchanged when the loop sends the call's turn back.

The probe asks the program to turn thinking on through its own settings (LAB_PROBE_THINKING=1);
the script answers with thinking only a request that turned it on, as the real API does, and a
program that never asks for thinking reads n/a. Anthropic wire only: thinking blocks, their
signatures and redacted_thinking are the Messages API's.
"""

from __future__ import annotations

from lab.kernel.record import blocks_in
from lab.model.script import redacted_thinking, text, thinking, turn
from lab.model.signing import SIGNER
from lab.probe.cases.endings import answered_line, ended_badly, rejected, the_end, threaded
from lab.probe.conversation import Stage
from lab.probe.grades import FAIL, NA, NON_STRICT
from lab.probe.scripts import finish, ids, the_call
from lab.probe.trial import Exchange, Setting, Trial
from lab.probe.verdict import Case, Rule
from lab.probe.which_wire import CHAT

THINKING_ASKED = (("LAB_PROBE_THINKING", "1"),)
THOUGHT = "The question is about the notes; reading notes.txt answers it."
WITHHELD = "reasoning the safety systems withheld from the probe"
SAY = "I will read the notes."


def with_thought(block: dict):
    """A script: stage 0 answers with `block`, then text and the call; then the final answer.
    A request that did not turn thinking on gets the same turn without it."""

    def stages(setting: Setting) -> list[Stage]:
        (call,) = ids(setting, 1)
        plain = turn(text(SAY), the_call(setting, call))
        thought = turn(block, *plain.blocks)
        return [Stage(thought, needs="thinking", instead=plain), finish(setting)]

    return stages


def as_sent(block: dict) -> dict:
    """A script's thinking block as the fake sends it: signed, or sealed (lab/model/signing.py)."""
    if block["type"] == "thinking":
        return {**block, "signature": SIGNER.sign(block["thinking"])}
    return {"type": "redacted_thinking", "data": SIGNER.seal(block["text"])}


# ---------------------------------------------------------------- the rows
def thinking_of(request: Exchange | None) -> str:
    body = request.body if request is not None and isinstance(request.body, dict) else {}
    asked = body.get("thinking")
    return str(asked.get("type", "?")) if isinstance(asked, dict) else "disabled"


def never_asked_for_thinking(trial: Trial) -> str | None:
    """The program never turned thinking on: the real API then sends no thinking to send back."""
    asked = [e for e in trial.conversation() if thinking_of(e) != "disabled"]
    if asked:
        return None
    return "the program never asked for thinking (no `thinking` in its requests)"


def sent_back(trial: Trial) -> tuple[Exchange | None, list[dict] | None]:
    """(the request after stage 0, the assistant turn in it that holds the call: its blocks)."""
    after = trial.reached(1)
    calls = set(trial.stage_ids(0))
    if after is None:
        return None, None
    for message in after.messages:
        blocks = blocks_in(message)
        if message.get("role") == "assistant" and any(b.get("id") in calls for b in blocks):
            return after, blocks
    return after, None


def thought_changed(block: dict):
    """The turn sent back starts with the stage's thinking block, as the fake sent it."""

    def thought_changed(trial: Trial) -> str | None:
        after, blocks = sent_back(trial)
        if after is None or threaded(after):  # a message thread: the API holds the turn
            return None
        if blocks is None:
            return f"request #{after.number} does not send the call's turn back as blocks"
        wanted = as_sent(block)
        first = {k: blocks[0].get(k) for k in wanted} if blocks else {}
        if first == wanted:
            return None
        kinds = [b.get("type") for b in blocks]
        if block["type"] not in kinds:
            return f"the {block['type']} block was dropped: the turn came back as {kinds}"
        if kinds[0] != block["type"]:
            return f"the {block['type']} block was moved: the turn came back as {kinds}"
        return f"the {block['type']} block came back changed"

    return thought_changed


def thought_evidence(trial: Trial) -> list:
    asked = next((e for e in trial.conversation() if thinking_of(e) != "disabled"), None)
    after, _ = sent_back(trial)
    (call,) = trial.stage_ids(0)
    return [
        f"request #{asked.number} asked for thinking: {thinking_of(asked)}" if asked else "",
        answered_line(trial, call),
        trial.quoted(after),
        *the_end(trial),
    ]


def thought_case(id: str, title: str, block: dict) -> Case:
    kind = block["type"]
    return Case(
        id=id,
        title=title,
        checks=f"API: with thinking on, the turn a tool loop sends back starts with its {kind} "
        "block, unchanged",
        kept_when=f"the {kind} block comes back first and unchanged, and the run completes",
        script=with_thought(block),
        rules=(
            Rule(never_asked_for_thinking, NA),
            Rule(rejected(), FAIL),
            Rule(thought_changed(block), NON_STRICT),
            Rule(ended_badly(1), FAIL),
        ),
        kept=lambda trial: f"the {kind} block came back first and unchanged, the run finished",
        evidence=thought_evidence,
        asks=THINKING_ASKED,
        off_wire={CHAT: "Chat Completions has no thinking blocks to send back"},
    )


THINKING_CASES: list[Case] = [
    thought_case("P24", "thinking in a tool loop", thinking(THOUGHT)),
    thought_case("P25", "redacted_thinking in a tool loop", redacted_thinking(WITHHELD)),
]
