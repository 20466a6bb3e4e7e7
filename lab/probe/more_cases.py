"""The probe's later cases, P13-P23: the turn re-sent whole, the API's other faults and stop
reasons, termination, long histories, and the human never asked about a malformed call.

Each case is graded (lab/probe/grades.py): kept, fail (a MUST broken), non-strict (a SHOULD
missed) or info (a fact the API leaves open); `OUTCOMES` says which is which for each case, and
why. Every fault case also asks how the run ended: a run that gave up and still exited 0 told
its caller that all went well, and that is a fail whatever the fault.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from typing import cast

from lab import promises
from lab.model.script import ApiError, Turn, proxy_error, rate_limited, text, tool_use, turn
from lab.probe.cases import Case, answered_line, invalid_input
from lab.probe.conversation import Stage
from lab.probe.grades import FAIL, INFO, KEPT, NON_STRICT, Verdict
from lab.probe.scripts import finish, ids, the_call
from lab.probe.target import HUMAN_LOG
from lab.probe.trial import Exchange, Setting, Trial, short
from lab.probe.wire import pairing_of, record_of

RETRY_AFTER = 1.0  # seconds the 429 (P14) and the persistent 529 (P15) ask for
TOLERANCE = 0.1  # seconds a measured wait may fall short of retry-after (clocks, rounding)
ENDLESS = 20  # tries of one request, still going at the time limit: a loop that does not end
INVALID_REQUEST = "There was an issue with the format or content of your request."
# What a program prints when it chokes on a body that is not JSON (Python's json, jiter, Node).
PARSE_CRASH = re.compile(
    r"JSONDecodeError|Expecting value|Unexpected token|is not valid JSON|invalid json", re.I
)


# ---------------------------------------------------------------- helpers
def grade(kind: str, because: str, *evidence: str) -> Verdict:
    return Verdict(kind, because, tuple(line for line in evidence if line))


def stage_lines(trial: Trial, stage: int) -> list[str]:
    return [e.line() for e in trial.exchanges if e.played and e.played.stage == stage]


def rejection_lines(trial: Trial) -> list[str]:
    return [e.line() for e in trial.rejections()]


def ending(trial: Trial, final: int) -> str:
    """One line: did the run reach its final answer (stage `final`), and how did it end."""
    reached = trial.reached(final)
    if reached is None:
        return f"the run never reached its final answer; {trial.exit.line()}"
    return f"the run reached its final answer (request #{reached.number}); {trial.exit.line()}"


def run_end(trial: Trial, final: int) -> Verdict | None:
    """The verdict every fault case shares, or None when the run gave up and said so (exit
    status not 0): then the case's own rule decides.

    fail: a later request was rejected; the run gave up and exited 0 (success reported after
    a failure); it never ended; it reached its final answer and then failed. kept: it reached
    its final answer and exited 0."""
    reached = trial.reached(final) is not None
    line = ending(trial, final)
    if pairing_of(trial):
        return grade(FAIL, "a later request was rejected", *rejection_lines(trial), line)
    if trial.exit.status is None:
        return grade(FAIL, "the run never ended (stopped at the time limit)", line)
    if reached:
        if not promises.no_crash(record_of(trial)):
            return grade(KEPT, "the run reached its final answer", line)
        return grade(FAIL, "the final answer came, then the program failed", line)
    if trial.exit.clean:
        return grade(FAIL, "the run gave up, yet exited 0: success reported after a failure", line)
    return None


def threaded(request: Exchange) -> bool:
    """A message-thread `continue`: the server holds the history, the request only what is new
    (the SDK's tool runner does this by default), so earlier turns are not re-sent at all."""
    body = request.body if isinstance(request.body, dict) else {}
    thread = body.get("thread")
    return isinstance(thread, dict) and thread.get("type") == "continue"


def attempts(trial: Trial, stage: int) -> list[Exchange]:
    return [e for e in trial.exchanges if e.played and e.played.stage == stage]


# ---------------------------------------------------------------- P13: the turn re-sent whole
def two_turns(setting: Setting) -> list[Stage]:
    first, second = ids(setting, 2)
    return [
        Stage(turn(text("First look: I will read the notes."), the_call(setting, first))),
        Stage(turn(text("Second look, to compare the two."), the_call(setting, second))),
        finish(setting),
    ]


def as_sent(block: dict) -> tuple:
    """What a block must keep when the turn is sent back: its kind and its content."""
    if block.get("type") == "tool_use":
        return ("tool_use", block.get("id"), block.get("name"), block.get("input"))
    return (block.get("type"), block.get("text"))


def block_line(block: dict) -> str:
    """A block as evidence: its kind, then what identifies it (text cut to 40 characters)."""
    kind = block.get("type")
    if kind == "tool_use":
        return f"tool_use {block.get('id')} {block.get('name')} {json.dumps(block.get('input'))}"
    if kind == "tool_result":
        flag = " is_error" if block.get("is_error") else ""
        return f"tool_result {block.get('tool_use_id')}{flag}"
    return f"{kind} {short(repr(block.get('text', '')), 40)}"


def blocks_of(message: object) -> list[dict]:
    content = message.get("content") if isinstance(message, dict) else None
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    return [b for b in content if isinstance(b, dict)] if isinstance(content, list) else []


def turn_problem(trial: Trial, request: Exchange, stage: int) -> tuple[str, str] | None:
    """How the request re-sends stage `stage`'s answer: None when whole, else (grade, why)."""
    wanted = [as_sent(b) for b in trial.stages[stage].answer.blocks]
    call_id = trial.stage_ids(stage)[0]
    holders = [
        m
        for m in request.messages
        if isinstance(m, dict) and any(b.get("id") == call_id for b in blocks_of(m))
    ]
    if not holders and threaded(request):
        return None  # held by the server as the model gave it: unchanged by construction
    if not holders:  # the id as a whole word in a text block: a history written as text
        texts = " ".join(b.get("text", "") for m in request.messages for b in blocks_of(m))
        if re.search(rf"\b{re.escape(call_id)}\b", texts):
            return INFO, f"answer {stage + 1}'s call is written as text, not as a tool_use block"
        why = f"answer {stage + 1}'s assistant turn is missing from the history (no {call_id})"
        return FAIL, why
    if len(holders) > 1:
        return NON_STRICT, f"answer {stage + 1} was split into {len(holders)} assistant turns"
    sent = [as_sent(b) for b in blocks_of(holders[0]) if b.get("type") in ("text", "tool_use")]
    calls = [s for s in sent if s[0] == "tool_use"]
    if calls != [w for w in wanted if w[0] == "tool_use"]:
        return FAIL, f"answer {stage + 1}'s tool_use was rewritten: {short(calls, 120)}"
    if sent != wanted:
        return NON_STRICT, f"answer {stage + 1}'s text was dropped, changed or moved"
    return None


def judge_whole_turn(trial: Trial) -> Verdict:
    request = trial.reached(2) or trial.reached(1)
    if request is None:
        return grade(
            FAIL,
            "no request sent the first answer back",
            *rejection_lines(trial),
            trial.exit.line(),
        )
    stage = request.played.stage if request.played and request.played.stage else 1
    found = [p for k in range(min(stage, 2)) if (p := turn_problem(trial, request, k))]
    shown = f"request #{request.number} re-sends: " + " | ".join(
        f"{m.get('role')}: " + ", ".join(block_line(b) for b in blocks_of(m))
        for m in request.messages[1:]
        if isinstance(m, dict)
    )
    if found:
        worst = next(g for g in (FAIL, NON_STRICT, INFO) if any(k == g for k, _ in found))
        return grade(worst, "; ".join(why for _, why in found), shown, trial.exit.line())
    # turn_problem grades how a turn came back (a rewritten call fails, lost text is non-strict,
    # a history as text is info); the promise judges every later request, the blocks whole.
    if changed := promises.resent_whole(record_of(trial)):
        return grade(NON_STRICT, changed, shown, trial.exit.line())
    if threaded(request):
        why = (
            "the history is held by the server (a message thread): every turn as the model gave it"
        )
        return grade(KEPT, why, shown, trial.exit.line())
    return grade(
        KEPT,
        "every assistant turn re-sent whole: text and tool_use, in order, same ids and inputs",
        shown,
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P14: retry-after honoured
def after_fault(fault: object) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        (call,) = ids(setting, 1)
        return [Stage(turn(the_call(setting, call)), fault=fault), finish(setting)]

    return stages


def judge_waited(trial: Trial) -> Verdict:
    tries = attempts(trial, 0)
    lines = [*stage_lines(trial, 0), ending(trial, 1)]
    if len(tries) < 2:
        end = run_end(trial, 1)
        if end is not None and end.kind == FAIL:
            return end
        return grade(NON_STRICT, "not retried: the 429 was the run's last word", *lines)
    gap = tries[1].at - tries[0].at
    waited = f"asked again {gap:.2f} s after the 429; retry-after said {RETRY_AFTER:g} s"
    if promises.waited_as_told(record_of(trial), TOLERANCE):
        return grade(NON_STRICT, f"retry-after ignored: {waited}", *lines)
    end = run_end(trial, 1)
    if end is not None and end.kind == FAIL:
        return grade(FAIL, f"{end.because} ({waited})", *lines)
    return grade(KEPT, f"waited as told: {waited}", *lines)


# ---------------------------------------------------------------- P15: a persistent 529
OVERLOADED_FOR_GOOD = ApiError(529, "overloaded_error", "Overloaded", RETRY_AFTER)


def overloaded_for_good(setting: Setting) -> list[Stage]:
    # A stage's answer is played on every attempt after the first: here the answer is the
    # fault itself, so every attempt fails (the only stage whose answer is not a turn).
    return [Stage(cast(Turn, OVERLOADED_FOR_GOOD), fault=OVERLOADED_FOR_GOOD)]


def judge_gave_up(trial: Trial) -> Verdict:
    tries = len(trial.played(0))
    lines = [*stage_lines(trial, 0)[-3:], trial.exit.line()]
    if trial.exit.status is None:
        if tries >= ENDLESS:
            return grade(FAIL, f"still asking at the time limit: {tries} tries", *lines)
        return grade(INFO, f"still waiting at the time limit after {tries} tries", *lines)
    if trial.exit.clean:
        return grade(FAIL, f"gave up after {tries} tries, yet exited 0 (success)", *lines)
    return grade(KEPT, f"gave up after {tries} tries and said so (exit not 0)", *lines)


# ---------------------------------------------------------------- P16: a proxy's HTML 502
def judge_html_page(trial: Trial) -> Verdict:
    tries = attempts(trial, 0)
    lines = [*stage_lines(trial, 0), *rejection_lines(trial), trial.exit.line()]
    said = f"{trial.exit.error} {trial.output[-2000:]}"
    if trial.exit.status not in (0, None) and PARSE_CRASH.search(said):
        return grade(FAIL, "crashed parsing the HTML page as JSON", *lines)
    end = run_end(trial, 1)
    if end is not None:
        retried = f"retried ({len(tries) - 1} retry)" if len(tries) > 1 else "not retried"
        return grade(end.kind, f"{retried}; {end.because}", *lines)
    return grade(NON_STRICT, "reported the 502 but never retried it (a 5xx is transient)", *lines)


# ---------------------------------------------------------------- P17: a 400 is not retried
def identical(a: Exchange, b: Exchange) -> bool:
    """The same request: path, whole body and beta header (dropping a beta changes it)."""
    return (a.path, a.body, a.betas) == (b.path, b.body, b.betas)


def changes(a: Exchange, b: Exchange) -> list[str]:
    """What differs between two requests: the beta header, or the body's top-level keys."""
    found = [] if a.betas == b.betas else ["the anthropic-beta header"]
    one, two = (e.body if isinstance(e.body, dict) else {} for e in (a, b))
    return found + [
        f"body.{key}" for key in sorted(one.keys() | two.keys()) if one.get(key) != two.get(key)
    ]


def judge_not_retried(trial: Trial) -> Verdict:
    tries = attempts(trial, 0)
    again = [e for e in tries[1:] if identical(e, tries[0])]
    lines = [*stage_lines(trial, 0), *rejection_lines(trial), ending(trial, 1)]
    if again:
        return grade(
            NON_STRICT,
            f"the identical request was sent again after the 400 ({len(again)}x)",
            *lines,
        )
    end = run_end(trial, 1)
    if end is not None and end.kind == FAIL:
        return end
    if end is not None:  # it reached the final answer: it asked with a changed request
        changed = [
            f"request #{e.number} changed: " + ", ".join(changes(tries[0], e)) for e in tries[1:]
        ]
        return grade(KEPT, "not retried as is; a changed request went on", *changed, *lines)
    return grade(KEPT, "not retried; the run ended and said so (exit not 0)", *lines)


# ---------------------------------------------------------------- P18-P20: stop reasons
PAUSED = "Searching the notes; this takes a while."
HALF = "The notes hold a test string, and what they say is that"
REFUSED = "I can't help with that."


def stopped_with(words: str, stop_reason: str) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        return [Stage(turn(text(words), stop_reason=stop_reason)), finish(setting)]

    return stages


def stopped(trial: Trial, lines: list[str], silent: str, said: tuple[str, str]) -> Verdict:
    """The loop stopped at stage 0's answer: a rejection or a hang is a fail; exit 0 is
    `silent` (non-strict); a non-zero exit reads as `said` (its grade, its line)."""
    if trial.rejections() or trial.exit.status is None:
        return run_end(trial, 1) or grade(FAIL, "the run did not end cleanly", *lines)
    if trial.exit.clean:
        return grade(NON_STRICT, silent, *lines)
    return grade(said[0], said[1], *lines)


def judge_paused(trial: Trial) -> Verdict:
    after = trial.reached(1)
    lines = [*stage_lines(trial, 0), *stage_lines(trial, 1)[:1], ending(trial, 1)]
    if after is None:
        silent = "stopped at pause_turn: the paused text presented as final (exit 0)"
        return stopped(trial, lines, silent, (INFO, "stopped at pause_turn and said so"))
    end = run_end(trial, 1)
    if end is not None and end.kind == FAIL:
        return end
    if threaded(after) and not after.messages:
        why = "the paused turn left on the server as it was (a message thread), the loop went on"
        return grade(KEPT, why, *lines)
    last = after.messages[-1] if after.messages else {}
    sent = [as_sent(b) for b in blocks_of(last)]
    if last.get("role") != "assistant" or sent != [("text", PAUSED)]:
        how = f"{last.get('role')}: {short(sent, 80)}"
        return grade(NON_STRICT, f"went on, but not from the paused turn as is ({how})", *lines)
    return grade(KEPT, "the paused turn sent back unchanged, and the loop went on", *lines)


def judge_cut_text(trial: Trial) -> Verdict:
    lines = [*stage_lines(trial, 0), *stage_lines(trial, 1)[:1], ending(trial, 1)]
    if trial.reached(1) is None:
        silent = "a half answer presented as final (exit 0)"
        said = (KEPT, "the cut answer was reported, not passed off as final (exit not 0)")
        return stopped(trial, lines, silent, said)
    end = run_end(trial, 1)
    if end is not None and end.kind == FAIL:
        return end
    return grade(KEPT, "the cut answer was continued to its end", *lines)


def judge_refusal(trial: Trial) -> Verdict:
    lines = [*stage_lines(trial, 0), *stage_lines(trial, 1)[:1], trial.exit.line()]
    if trial.reached(1) is not None:
        why = "went on with the refused turn still in the history (the docs: reset it first)"
        return grade(NON_STRICT, why, *lines)
    silent = "stopped, but exited 0: the refusal is not reported"
    return stopped(trial, lines, silent, (KEPT, "stopped at the refusal and said so (exit not 0)"))


# ---------------------------------------------------------------- P21: nothing after the end
def judge_no_extra(trial: Trial) -> Verdict:
    extra = [e for e in trial.exchanges if e.played and e.played.kind == "extra"]
    lines = [*[e.line() for e in extra[:3]], ending(trial, 1)]
    past = promises.termination(record_of(trial))
    if past and trial.exit.status is None:
        why = f"kept asking after the final answer ({len(extra)}x) until stopped"
        return grade(FAIL, why, *lines)
    if past:
        return grade(NON_STRICT, f"{len(extra)} request(s) after the final answer", *lines)
    end = run_end(trial, 1)
    if end is None:
        return grade(FAIL, "the run never reached its final answer", *lines)
    if end.kind == KEPT:
        return grade(KEPT, "no request after the final answer", *lines)
    return end


# ---------------------------------------------------------------- P22: a long, large history
LARGE_TURNS = 8  # answers with a call, then the final one
LARGE_TEXT = 24_000  # characters of text in each answer: ~190,000 in all (~48k tokens)


def large_text(step: int) -> str:
    line = f"Step {step}: notes on the notes, kept long on purpose to fill the context. "
    return (line * (LARGE_TEXT // len(line) + 1))[:LARGE_TEXT]


def large_run(setting: Setting) -> list[Stage]:
    calls = ids(setting, LARGE_TURNS)
    stages = [
        Stage(turn(text(large_text(k + 1)), the_call(setting, call)))
        for k, call in enumerate(calls)
    ]
    return [*stages, finish(setting)]


def judge_large_run(trial: Trial) -> Verdict:
    final = trial.reached(LARGE_TURNS)
    requests = trial.model_requests()
    sent = final or (requests[-1] if requests else None)
    history = json.dumps(sent.messages) if sent else ""
    kept_ids = [i for k in range(LARGE_TURNS) if (i := trial.stage_ids(k)[0]) in history]
    shown = (
        f"request #{sent.number} holds {len(sent.messages)} messages, "
        f"{len(kept_ids)} of the {LARGE_TURNS} calls"
        if sent
        else ""
    )
    lines = [shown, *rejection_lines(trial), ending(trial, LARGE_TURNS)]
    # run_end is pairing and no_crash; not continuation: a history written as text may keep P22
    end = run_end(trial, LARGE_TURNS)
    if end is None:
        return grade(INFO, "gave up before the end and said so (exit not 0)", *lines)
    if end.kind == KEPT:
        trimmed = " (history trimmed)" if len(kept_ids) < LARGE_TURNS else ""
        trimmed = (
            " (history held by the server: a message thread)"
            if sent and threaded(sent)
            else trimmed
        )
        return grade(KEPT, f"every request valid to the final answer{trimmed}", *lines)
    return grade(end.kind, end.because, *lines)


# ---------------------------------------------------------------- P23: D9, the human never asked
def malformed_approval(setting: Setting) -> list[Stage]:
    assert setting.denied is not None
    (call,) = ids(setting, 1)
    name, input = setting.denied
    block = tool_use(name, invalid_input(input), id=call)
    return [Stage(turn(text("Running the command."), block)), finish(setting)]


def judge_human_not_asked(trial: Trial) -> Verdict:
    (call,) = trial.stage_ids(0)
    ran = [f for f in trial.new_files if f != HUMAN_LOG]
    lines = [
        answered_line(trial, call),
        f"the human log {HUMAN_LOG}: " + ("written" if HUMAN_LOG in trial.new_files else "absent"),
        f"new files: {', '.join(trial.new_files) or 'none'}",
        *rejection_lines(trial),
        trial.exit.line(),
    ]
    if HUMAN_LOG in trial.new_files:
        return grade(FAIL, "the human was asked about a malformed call", *lines)
    if ran:
        return grade(FAIL, f"the malformed call ran: {', '.join(ran)} appeared", *lines)
    if trial.first_result(call) is None:
        return grade(FAIL, f"the malformed call {call} got no result", *lines)
    return grade(KEPT, "the malformed call never reached the human, and got a result", *lines)


# ---------------------------------------------------------------- the catalogue
_MORE_CASES: list[Case] = [
    Case(
        id="P13",
        title="the assistant turn re-sent whole",
        checks="API: each answer goes back as the model gave it: text and tool_use, in order, "
        "same ids, names and inputs",
        kept_when="every answer's blocks come back unchanged in the later requests",
        stages=two_turns,
        judge=judge_whole_turn,
    ),
    Case(
        id="P14",
        title="retry-after honoured",
        checks="API: a 429 says how long to wait (retry-after: 1); ask again no sooner",
        kept_when=f"the retry comes at least {RETRY_AFTER - TOLERANCE:g} s after the 429 "
        "and the run completes",
        stages=after_fault(rate_limited(RETRY_AFTER)),
        judge=judge_waited,
    ),
    Case(
        id="P15",
        title="a persistent 529",
        checks="API: a 529 may last; retries are bounded and the run ends saying it failed",
        kept_when="the program gives up after a bounded number of tries with a non-zero exit",
        stages=overloaded_for_good,
        judge=judge_gave_up,
    ),
    Case(
        id="P16",
        title="a proxy's HTML 502 page",
        checks="HTTP: a proxy in front of the API answers 502 with an HTML page, not JSON",
        kept_when="the 502 is retried (or reported), never a crash parsing the page",
        stages=after_fault(proxy_error()),
        judge=judge_html_page,
    ),
    Case(
        id="P17",
        title="a 400 invalid_request_error",
        checks="API: a 400 is the request's fault; the identical request fails again",
        kept_when="the identical request is not sent again; the run reports the failure",
        stages=after_fault(ApiError(400, "invalid_request_error", INVALID_REQUEST)),
        judge=judge_not_retried,
    ),
    Case(
        id="P18",
        title="pause_turn",
        checks="API: stop_reason pause_turn: send the paused turn back unchanged and go on",
        kept_when="the next request ends with the paused turn unchanged, and the run completes",
        stages=stopped_with(PAUSED, "pause_turn"),
        judge=judge_paused,
    ),
    Case(
        id="P19",
        title="max_tokens on a text answer",
        checks="API: stop_reason max_tokens cuts a text answer; it is not the final answer",
        kept_when="the answer is continued, or the program reports it (exit not 0)",
        stages=stopped_with(HALF, "max_tokens"),
        judge=judge_cut_text,
    ),
    Case(
        id="P20",
        title="refusal",
        checks="API: stop_reason refusal: the model declined; never go on with the refused "
        "turn in the history (the docs: reset the context first); the loop stops and says so",
        kept_when="no request after the refusal, and the program exits non-zero",
        stages=stopped_with(REFUSED, "refusal"),
        judge=judge_refusal,
    ),
    Case(
        id="P21",
        title="requests after the final answer",
        checks="M1: an answer without tool_use ends the loop: nothing is asked after it",
        kept_when="no request carries the final answer, and the program exits 0",
        stages=after_fault(None),
        judge=judge_no_extra,
    ),
    Case(
        id="P22",
        title=f"a {LARGE_TURNS + 1}-turn run with large answers",
        checks="M3: a history trimmed or compacted to fit never orphans a tool_result",
        kept_when="every request is valid to the final answer, and the program exits 0",
        stages=large_run,
        judge=judge_large_run,
    ),
    Case(
        id="P23",
        title="a malformed call of a tool that asks the human",
        checks="M3/M4: validation comes before the gates: the human is never asked about a "
        "malformed call (seed D9)",
        kept_when=f"no line in the human log ({HUMAN_LOG}), nothing run, and the call gets "
        "a result",
        stages=malformed_approval,
        judge=judge_human_not_asked,
        needs_denied_call=True,
    ),
]

# Each case's graded outcomes, and why (the README's "More cases" table).
OUTCOMES: dict[str, str] = {
    "P13": "fail: a tool_use rewritten or missing (the history lies about what ran); non-strict: "
    "text dropped, changed or moved, or the turn split (the API accepts it; the model loses its "
    "own words); info: the history written as text",
    "P14": "non-strict: asked again sooner, or never (a SHOULD: the API's header is advice); "
    "fail: gave up and exited 0",
    "P15": "fail: exit 0 after giving up, or still asking at the time limit after "
    f"{ENDLESS}+ tries; info: still waiting at the limit after fewer tries",
    "P16": "fail: a crash parsing the page, or exit 0 after giving up; non-strict: reported but "
    "not retried (a 5xx is transient)",
    "P17": "non-strict: the identical request sent again (wasted, bounded here: the retry gets an "
    "answer the real API would not give); fail: exit 0 without the final answer",
    "P18": "non-strict: the paused text presented as final, or the turn not sent back as is "
    "(pause_turn comes only with server tools); info: stopped and said so; fail: a request "
    "rejected",
    "P19": "non-strict: the half answer presented as final (exit 0; a library may mark it on "
    "its result, which the probe cannot see); fail: a request rejected",
    "P20": "non-strict: went on with the refused turn in the history (the docs say continued "
    "refusals follow), or exited 0 (the refusal unreported); fail: a request rejected, or the "
    "run never ended",
    "P21": "non-strict: requests after the final answer; fail: still asking at the time limit, "
    "or the final answer never reached",
    "P22": "fail: a request rejected (an orphaned tool_result) or exit 0 short of the end; info: "
    "gave up and said so",
    "P23": "fail: the human asked (a line in the log), the call run, or no result for it",
}

# The evidence grade of each case's claim: the API's documented behaviour (【二】), or the loop's
# own rule as the course code has it (【一】).
GRADES = {case.id: "【二】" for case in _MORE_CASES} | {"P21": "【一】"}
MORE_CASES: list[Case] = [
    replace(case, grade=GRADES[case.id], outcomes=OUTCOMES[case.id]) for case in _MORE_CASES
]
MORE_BY_ID = {case.id: case for case in MORE_CASES}
