"""The cases of the history sent back: two calls in one answer (P5), every answer re-sent whole
(P13)."""

from __future__ import annotations

import json
import re

from lab.kernel import promises
from lab.kernel.record import blocks_in
from lab.model.script import text, turn
from lab.model.tool_pairs import leading_result_ids, turns
from lab.probe.cases.endings import (
    answered_line,
    as_sent,
    ending,
    named,
    rejection_lines,
    the_end,
    then,
    threaded,
)
from lab.probe.conversation import Stage
from lab.probe.grades import FAIL, INFO, KEPT, NON_STRICT
from lab.probe.scripts import finish, ids, the_call, two_calls
from lab.probe.trial import NOT_AS_BLOCKS, Exchange, Setting, Trial, short
from lab.probe.verdict import Case, Rule
from lab.probe.which_wire import id_on
from lab.probe.wire_promises import pairing_of


# ---------------------------------------------------------------- P5: two calls in one answer
def leading_results(exchange: Exchange) -> list[object]:
    """The tool_use ids the request's last user turn answers first (before any text)."""
    users = [t for t in turns(exchange.messages) if t.role == "user"]
    return list(leading_result_ids(users[-1].blocks)) if users else []


def sent_back(trial: Trial) -> tuple[tuple | None, Exchange | None, list[object]]:
    """(how the turn came back, the request after it, the ids its results lead with)."""
    resent = trial.resent(0)
    request = resent[0] if resent else trial.reached(1)
    return resent, request, leading_results(request) if request else []


def call_lost(trial: Trial) -> str | None:
    """A call never answered, or a request the API refused."""
    lost = [call for call in trial.stage_ids(0) if trial.answer_of(call) is None]
    if lost:
        return f"{', '.join(lost)} never answered"
    return ending(trial) if pairing_of(trial) else None


def never_came_back(trial: Trial) -> str | None:
    """The assistant turn never came back as blocks (the promise judges turns sent as blocks)."""
    resent = trial.resent(0)
    if resent is None or resent[1] == NOT_AS_BLOCKS:
        return (resent[1] if resent else None) or "the assistant turn never came back"
    return None


def resent_whole(trial: Trial) -> str | None:
    if changed := promises.resent_whole(trial.record):
        resent = trial.resent(0)
        return (resent[1] if resent else None) or changed
    return None


def results_split(trial: Trial) -> str | None:
    """Both results lead the next user turn (in any order; a result may lack its id)."""
    _, _, leading = sent_back(trial)
    if sorted(leading, key=str) != sorted(trial.stage_ids(0), key=str):
        return f"the next user message begins with {leading}"
    return None


def two_calls_evidence(trial: Trial) -> list:
    first, second = trial.stage_ids(0)
    resent, request, leading = sent_back(trial)
    # The API leaves calls in a turn unordered ("run them concurrently, sequentially, or in any
    # order"): a concurrent harness answers in completion order, so the order is shown, not judged.
    order = "call order" if leading == [first, second] else "not call order"
    return [
        *(answered_line(trial, call) for call in (first, second)),
        f"results lead with {leading} ({order})" if request else "",
        f"the assistant turn: {resent[1] or 'sent back whole'}" if resent else "",
        trial.quoted(request),
        *the_end(trial),
    ]


# ---------------------------------------------------------------- P13: the turn re-sent whole
def two_turns(setting: Setting) -> list[Stage]:
    first, second = ids(setting, 2)
    return [
        Stage(turn(text("First look: I will read the notes."), the_call(setting, first))),
        Stage(turn(text("Second look, to compare the two."), the_call(setting, second))),
        finish(setting),
    ]


# What can happen to an answer sent back, from the worst: its call rewritten or missing (the
# history lies about what ran), its text changed or the turn split, the turn written as text.
LIES, CHANGED, AS_TEXT = "rewritten", "changed", "as text"


def turn_problem(trial: Trial, request: Exchange, stage: int) -> tuple[str, str] | None:
    """How the request re-sends stage `stage`'s answer: None when whole, else (what, why)."""
    wanted = [as_sent(b) for b in trial.stages[stage].answer.blocks]
    call_id = trial.stage_ids(stage)[0]
    holders = [m for m in request.messages if any(b.get("id") == call_id for b in blocks_in(m))]
    if not holders and threaded(request):
        return None  # held by the server as the model gave it: unchanged by construction
    if not holders:  # the id as a whole word in a text block: a history written as text
        texts = " ".join(b.get("text", "") for m in request.messages for b in blocks_in(m))
        if re.search(rf"\b{re.escape(id_on(request.wire, call_id))}\b", texts):
            return AS_TEXT, f"answer {stage + 1}'s call is written as text, not as a tool_use block"
        why = f"answer {stage + 1}'s assistant turn is missing from the history (no {call_id})"
        return LIES, why
    if len(holders) > 1:
        return CHANGED, f"answer {stage + 1} was split into {len(holders)} assistant turns"
    sent = [as_sent(b) for b in blocks_in(holders[0]) if b.get("type") in ("text", "tool_use")]
    calls = [s for s in sent if s[0] == "tool_use"]
    if calls != [w for w in wanted if w[0] == "tool_use"]:
        return LIES, f"answer {stage + 1}'s tool_use was rewritten: {short(calls, 120)}"
    if sent != wanted:
        return CHANGED, f"answer {stage + 1}'s text was dropped, changed or moved"
    return None


def resending(trial: Trial) -> Exchange | None:
    """The request that sends the answers back: the last stage's, else the second's."""
    return trial.reached(2) or trial.reached(1)


def problems(trial: Trial) -> list[tuple[str, str]]:
    request = resending(trial)
    if request is None:
        return []
    stage = request.played.stage if request.played and request.played.stage else 1
    return [p for k in range(min(stage, 2)) if (p := turn_problem(trial, request, k))]


def worst_is(what: str):
    """The answers came back changed, the worst change `what`: every change said."""

    def promise(trial: Trial) -> str | None:
        found = problems(trial)
        worst = next((w for w in (LIES, CHANGED, AS_TEXT) if any(k == w for k, _ in found)), None)
        return "; ".join(why for _, why in found) if worst == what else None

    return named(f"resent_whole ({what})", promise)


def never_sent_back(trial: Trial) -> str | None:
    return "no request sent the first answer back" if resending(trial) is None else None


def whole_after_all(trial: Trial) -> str | None:
    """turn_problem grades how a turn came back (a rewritten call fails, lost text is non-strict,
    a history as text is info); the promise judges every later request, the blocks whole."""
    return promises.resent_whole(trial.record)


def server_holds_history(trial: Trial) -> str | None:
    request = resending(trial)
    if request is not None and threaded(request):
        return (
            "the history is held by the server (a message thread): every turn as the model gave it"
        )
    return None


def whole_turn_evidence(trial: Trial) -> list[str]:
    request = resending(trial)
    if request is None:
        return [*rejection_lines(trial), trial.exit.line()]
    shown = f"request #{request.number} re-sends: " + " | ".join(
        f"{m.get('role')}: " + ", ".join(block_line(b) for b in blocks_in(m))
        for m in request.messages[1:]
        if isinstance(m, dict)
    )
    return [shown, trial.exit.line()]


def block_line(block: dict) -> str:
    """A block as evidence: its kind, then what identifies it (text cut to 40 characters)."""
    kind = block.get("type")
    if kind == "tool_use":
        return f"tool_use {block.get('id')} {block.get('name')} {json.dumps(block.get('input'))}"
    if kind == "tool_result":
        flag = " is_error" if block.get("is_error") else ""
        return f"tool_result {block.get('tool_use_id')}{flag}"
    return f"{kind} {short(repr(block.get('text', '')), 40)}"


RESENDING_CASES: list[Case] = [
    Case(
        "P5",
        "two calls in one answer",
        "API: every result in the next user message, before any text; the turn sent back as is",
        "both results lead the next user message (in any order), the assistant turn sent back "
        "whole (text and tool_use: order, ids, names, inputs)",
        two_calls,
        (
            Rule(call_lost, FAIL),
            Rule(then("{}"), FAIL),
            Rule(never_came_back, NON_STRICT),
            Rule(resent_whole, NON_STRICT),
            Rule(results_split, NON_STRICT),
        ),
        lambda trial: "both answered first in the next user message, the turn sent back whole",
        two_calls_evidence,
        grade="【二】",
        outcomes="fail: a call never answered, a rejected request, a crash; non-strict: "
        "results split across turns, or the turn re-sent changed (text stripped, calls "
        "rewritten or only as text)",
    ),
    Case(
        id="P13",
        title="the assistant turn re-sent whole",
        checks="API: each answer goes back as the model gave it: text and tool_use, in order, "
        "same ids, names and inputs",
        kept_when="every answer's blocks come back unchanged in the later requests",
        script=two_turns,
        rules=(
            Rule(never_sent_back, FAIL),
            Rule(worst_is(LIES), FAIL),
            Rule(worst_is(CHANGED), NON_STRICT),
            Rule(worst_is(AS_TEXT), INFO),
            Rule(whole_after_all, NON_STRICT),
            Rule(server_holds_history, KEPT),
        ),
        kept=lambda trial: (
            "every assistant turn re-sent whole: text and tool_use, in order, same ids and inputs"
        ),
        evidence=whole_turn_evidence,
    ),
]
