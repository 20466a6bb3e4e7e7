"""The cases of a declared stop_reason: end_turn over a tool call (P1, P1s), tool_use with no
call (P1b), max_tokens cutting a call (P10, P10s) or a text (P19), pause_turn (P18), refusal
(P20)."""

from __future__ import annotations

from lab.kernel import promises
from lab.kernel.record import blocks_in
from lab.model.script import server_tool_use, text, turn, web_search_result
from lab.probe.cases.endings import (
    Promise,
    answered_line,
    as_sent,
    attempts,
    end_line,
    ended_badly,
    ending,
    hung,
    named,
    rejected,
    stage_lines,
    stopped_and_said,
    stopped_quietly,
    stopped_uncleanly,
    the_end,
    then,
    threaded,
)
from lab.probe.conversation import Stage, declares_server_tool
from lab.probe.grades import FAIL, INFO, KEPT, NA, NON_STRICT
from lab.probe.scripts import (
    cut_call,
    cut_call_inside,
    declared_end_turn,
    declared_tool_use,
    final_turn,
    finish,
)
from lab.probe.trial import Setting, Trial, short
from lab.probe.verdict import Case, Rule
from lab.probe.which_wire import CHAT


# ---------------------------------------------------------------- P1 / P1s: declared end_turn
def ran_call(trial: Trial) -> tuple:
    """(the call, its re-asked twin, where it shows it ran or None)."""
    first, again = trial.stage_ids(0, fault=True) + trial.stage_ids(0)
    return first, again, trial.ran(first) or trial.ran(again)


def call_dropped(trial: Trial) -> str | None:
    """The call never ran: its canary never came back."""
    return (
        "the call was dropped: its canary never came back" if ran_call(trial)[2] is None else None
    )


def result_rejected(trial: Trial) -> str | None:
    """The call ran, but the request carrying its result was rejected."""
    ran = ran_call(trial)[2]
    if ran and ran[0].rejected:
        return "the call ran, but the request carrying its result was rejected"
    return None


def call_ran_evidence(trial: Trial) -> list:
    first, _, ran = ran_call(trial)
    # P1 wants it run (its canary; a text history has no tool_result): continuation only says
    lost = promises.continuation(trial.record) or "answered, never run"
    return [
        answered_line(trial, first),
        "" if ran else f"continuation: {lost}",
        trial.quoted(ran[0] if ran else None),
        *the_end(trial),
    ]


def call_ran_kept(trial: Trial) -> str:
    first, _, _ = ran_call(trial)
    late = " (after the harness asked again)" if trial.ran(first) is None else ""
    return f"the call declared end_turn ran{late}, the run finished"


CALL_RAN = (
    Rule(call_dropped, FAIL),
    Rule(result_rejected, FAIL),
    Rule(then("the call ran, but then {}"), FAIL),
)


# ---------------------------------------------------------------- P1b: declared tool_use
def crashed(said: str) -> Promise:
    return named("crashed", lambda t: said if promises.no_crash(t.record) else None)


def follow_up_evidence(trial: Trial) -> list:
    follow = trial.conversation()[1:]
    return [trial.quoted(follow[0] if follow else None), *the_end(trial)]


def no_empty_follow_up(trial: Trial) -> str:
    follow = trial.conversation()[1:]
    seen = f"{len(follow)} request(s) after the answer" if follow else "no request after it"
    return f"no empty or invalid follow-up ({seen}), exit 0"


# ---------------------------------------------------------------- P10: cut by max_tokens
def cut_ran(trial: Trial) -> str | None:
    """The call max_tokens cut off ran (cut_calls_not_run), shown by its canary if it came back."""
    if not (why := promises.cut_calls_not_run(trial.record)):
        return None
    ran = trial.ran(trial.stage_ids(0, fault=True)[0])
    return f"the call cut by max_tokens ran: {f'its canary came back {ran[1]}' if ran else why}"


def refused_or_hung(trial: Trial) -> str | None:
    return ending(trial) if rejected()(trial) or hung(trial) else None


def cut_evidence(trial: Trial) -> list:
    (cut,) = trial.stage_ids(0, fault=True)
    ran = trial.ran(cut)
    first = next(iter(attempts(trial, 0)), None)
    return [
        answered_line(trial, cut),
        f"stage 0 was asked {len(trial.played(0))} time(s)",
        trial.quoted(ran[0] if ran else trial.next_in_conversation(first)),
        *the_end(trial),
    ]


# ---------------------------------------------------------------- P18-P20: stop reasons
PAUSED = "Searching the notes; this takes a while."
HALF = "The notes hold a test string, and what they say is that"
REFUSED = "I can't help with that."


def stopped_with(words: str, stop_reason: str):
    def stages(setting: Setting) -> list[Stage]:
        return [Stage(turn(text(words), stop_reason=stop_reason)), finish(setting)]

    return stages


# ---------------------------------------------------------------- P18: a server tool's loop paused
SERVER_TOOL_ASKED = (("LAB_PROBE_SERVER_TOOL", "1"),)
SEARCHED = "srvtoolu_p18_01"  # the API's own ids start with srvtoolu_


def paused_search(setting: Setting) -> list[Stage]:
    """A web search the API ran, paused: text, the server_tool_use and its result. A request
    that declares no server tool gets the final answer instead (the API never pauses it)."""
    search = server_tool_use("web_search", {"query": "probe notes"}, id=SEARCHED)
    found = web_search_result("https://docs.example/notes", tool_use_id=SEARCHED)
    paused = turn(text(PAUSED), search, found, stop_reason="pause_turn")
    return [Stage(paused, needs="server tool", instead=final_turn(setting)), finish(setting)]


def no_server_tool(trial: Trial) -> str | None:
    """No request of the conversation declares a server tool: the real API never pauses it."""
    if any(
        isinstance(e.body, dict) and declares_server_tool(e.body.get("tools"))
        for e in trial.conversation()
    ):
        return None
    return "no request declares a server tool (pause_turn comes only in a server tool's loop)"


def stop_evidence(trial: Trial) -> list[str]:
    return [*stage_lines(trial, 0), *stage_lines(trial, 1)[:1], end_line(trial, 1)]


def paused_turn_on_server(trial: Trial) -> str | None:
    """The paused turn left on the server as it was (a message thread)."""
    after = trial.reached(1)
    if after is not None and threaded(after) and not after.messages:
        return "the paused turn left on the server as it was (a message thread), the loop went on"
    return None


def paused_turn_changed(trial: Trial) -> str | None:
    """The request after pause_turn ends with the paused turn, unchanged."""
    after = trial.reached(1)
    last = after.messages[-1] if after and after.messages else {}
    sent = [as_sent(b) for b in blocks_in(last)]
    wanted = [as_sent(b) for b in trial.stages[0].answer.blocks]
    if last.get("role") != "assistant" or sent != wanted:
        return (
            f"went on, but not from the paused turn as is ({last.get('role')}: {short(sent, 80)})"
        )
    return None


def went_on_after_refusal(trial: Trial) -> str | None:
    if trial.reached(1) is None:
        return None
    return "went on with the refused turn still in the history (the docs: reset it first)"


STOP_REASON_CASES: list[Case] = [
    Case(
        "P1",
        "tool_use declared end_turn (JSON)",
        "M1: continue on the content's tool_use, never the declared stop_reason (seed D1)",
        "the call runs: its canary comes back in a request the API accepts, the run finishes",
        declared_end_turn("json"),
        CALL_RAN,
        call_ran_kept,
        call_ran_evidence,
        grade="【三】",
        outcomes="fail: the call silently lost, or its result rejected, or the program then "
        "failed. A MUST though the seed's claim is 【三】: real streams and gateways do send "
        "end_turn with a tool block (earendil-works/pi #9681, askui/python-sdk #278), and a "
        "dropped call is work lost without a word",
    ),
    Case(
        "P1s",
        "tool_use declared end_turn (streamed)",
        "M1: the same fact in a stream, where the declaration lags the blocks (seed D1)",
        "the call runs: its canary comes back in a request the API accepts, the run finishes",
        declared_end_turn("stream"),
        CALL_RAN,
        call_ran_kept,
        call_ran_evidence,
        grade="【三】",
        outcomes="fail: as P1 (the streams that really do it are streams)",
    ),
    Case(
        "P1b",
        "tool_use declared, no tool block",
        "M1: the content says there is nothing to run (the lab's D1b)",
        "no follow-up request is empty or rejected, the program exits 0",
        declared_tool_use,
        (
            Rule(rejected("a follow-up request was rejected"), FAIL),
            Rule(crashed("the program failed on an answer with nothing to run"), FAIL),
        ),
        no_empty_follow_up,
        follow_up_evidence,
        grade="【二】",
        outcomes="fail: a follow-up the API rejects (an empty or unpaired turn), or a crash "
        "on the model's answer",
    ),
    Case(
        "P10",
        "a tool call cut by max_tokens",
        "API: stop_reason max_tokens means the last block is incomplete; it is not the call",
        "the cut call's canary never comes back (it was not run), the run finishes",
        cut_call,
        (
            Rule(cut_ran, FAIL),
            Rule(refused_or_hung, FAIL),
            Rule(then("the cut call was not run; {}"), INFO),
        ),
        lambda trial: "the cut call was not run, the run finished",
        cut_evidence,
        grade="【二】",
        outcomes="fail: the cut call ran (its canary came back, as a result or as text), a "
        "rejected request, a hang; info: not run, and the run ended there (an error or a "
        "stop: how max_tokens is reported is the harness's choice)",
    ),
    Case(
        "P10s",
        "a tool call cut by max_tokens, its JSON unparseable (streamed)",
        "API: stop_reason max_tokens means the last block is incomplete; here the call's JSON "
        "stops inside its last value, before the string closes (the API streams a value before "
        "it is whole with fine-grained tool streaming): no JSON parser accepts it",
        "the cut call's canary never comes back (it was not run), the run finishes",
        cut_call_inside,
        (
            Rule(cut_ran, FAIL),
            Rule(refused_or_hung, FAIL),
            Rule(then("the cut call was not run; {}"), INFO),
        ),
        lambda trial: "the cut call was not run, the run finished",
        lambda trial: [*cut_evidence(trial), trial.fine_grained_streaming()],
        grade="【二】",
    ),
    Case(
        id="P18",
        title="pause_turn",
        checks="API: stop_reason pause_turn: send the paused turn back unchanged and go on",
        kept_when="the next request ends with the paused turn unchanged, and the run completes",
        script=paused_search,
        off_wire={CHAT: "pause_turn has no finish_reason on Chat Completions (a server tool's)"},
        rules=(
            Rule(no_server_tool, NA),
            Rule(stopped_uncleanly, FAIL),
            Rule(
                stopped_quietly(
                    "stopped at pause_turn: the paused text presented as final (exit 0)"
                ),
                NON_STRICT,
            ),
            Rule(stopped_and_said("stopped at pause_turn and said so"), INFO),
            Rule(ended_badly(1), FAIL),
            Rule(paused_turn_on_server, KEPT),
            Rule(paused_turn_changed, NON_STRICT),
        ),
        kept=lambda trial: "the paused turn sent back unchanged, and the loop went on",
        evidence=stop_evidence,
        asks=SERVER_TOOL_ASKED,
    ),
    Case(
        id="P19",
        title="max_tokens on a text answer",
        checks="API: stop_reason max_tokens cuts a text answer; it is not the final answer",
        kept_when="the answer is continued, or the program reports it (exit not 0)",
        script=stopped_with(HALF, "max_tokens"),
        rules=(
            Rule(stopped_uncleanly, FAIL),
            Rule(stopped_quietly("a half answer presented as final (exit 0)"), NON_STRICT),
            Rule(
                stopped_and_said(
                    "the cut answer was reported, not passed off as final (exit not 0)"
                ),
                KEPT,
            ),
            Rule(ended_badly(1), FAIL),
        ),
        kept=lambda trial: "the cut answer was continued to its end",
        evidence=stop_evidence,
    ),
    Case(
        id="P20",
        title="refusal",
        checks="API: stop_reason refusal: the model declined; never go on with the refused "
        "turn in the history (the docs: reset the context first); the loop stops and says so",
        kept_when="no request after the refusal, and the program exits non-zero",
        script=stopped_with(REFUSED, "refusal"),
        rules=(
            Rule(went_on_after_refusal, NON_STRICT),
            Rule(stopped_uncleanly, FAIL),
            Rule(
                stopped_quietly("stopped, but exited 0: the refusal is not reported"),
                NON_STRICT,
            ),
        ),
        kept=lambda trial: "stopped at the refusal and said so (exit not 0)",
        evidence=lambda trial: [
            *stage_lines(trial, 0),
            *stage_lines(trial, 1)[:1],
            trial.exit.line(),
        ],
    ),
]
