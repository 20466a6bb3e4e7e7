"""The probe's cases: fixed ids, each one fault the seed or the API names, one script, one rule.

A case builds its script (stages, see conversation.py) from the run's Setting and grades a Trial
(lab/probe/grades.py): kept, fail, non-strict, info, n/a or not reached, with the evidence that
decided it. Judges are built from named questions on Trial and read only the wire, the exit
status and the scratch folder, so a new target needs no new judging code. Where a case's rule is
a promise of lab/promises.py, the case calls that one judge over the trial's Record.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lab import promises
from lab.model.script import overloaded, rate_limited
from lab.probe.conversation import Stage
from lab.probe.grades import FAIL, INFO, KEPT, NA, NON_STRICT, NOT_REACHED, Verdict
from lab.probe.scripts import (
    LONG_RUN,
    RETRY_AFTER,
    UNKNOWN_TOOL,
    broken_stream,
    cut_call,
    declared_end_turn,
    declared_tool_use,
    denied_call,
    http_fault,
    invalid_input,
    invalid_input_stages,
    invalid_json_stages,
    long_run,
    two_calls,
    unknown_tool,
)
from lab.probe.trial import NOT_AS_BLOCKS, Exchange, Setting, Trial
from lab.probe.wire import pairing_of, record_of

__all__ = ["CORE_CASES", "UNKNOWN_TOOL", "Case", "Verdict", "invalid_input", "judge"]


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    checks: str  # the seed's guarantee or the API fact under test
    kept_when: str  # the rule, in one sentence
    stages: Callable[[Setting], list[Stage]]
    judge: Callable[[Trial], Verdict]
    needs_denied_call: bool = False  # only for targets with a permission system
    grade: str = ""  # the evidence grade of the claim: 【一】 code, 【二】 docs, 【三】 analysis
    outcomes: str = ""  # which outcome is which, and why (the README's case table)


# ---------------------------------------------------------------- grading helpers
def graded(kind: str, because: str, *evidence: str | Sequence[str]) -> Verdict:
    """A verdict; evidence lines (or lists of lines, a quoted request) in order, blanks left out."""
    lines: list[str] = []
    for item in evidence:
        lines += [item] if isinstance(item, str) else list(item)
    return Verdict(kind, because, tuple(line for line in lines if line))


def answered_line(trial: Trial, tool_id: str) -> str:
    found = trial.answer_of(tool_id)
    if found is None:
        return f"{tool_id}: no answer in any later request"
    exchange, how = found
    said = {"is_error": "a tool_result, is_error true", "result": "a tool_result, no is_error"}
    ran = trial.ran(tool_id)
    canary = f", canary seen {ran[1]}" if ran else ""
    return f"request #{exchange.number} answers {tool_id}: {said.get(how, 'as text')}{canary}"


def ending(trial: Trial) -> str | None:
    """Why the run did not end well, or None: refused, failed, stopped, or quit silently."""
    if unpaired := pairing_of(trial):
        return unpaired
    if trial.exit.status is None:
        return "the run did not end"
    if promises.no_crash(record_of(trial)):
        return f"the program failed (exit status {trial.exit.status})"
    if not trial.final_reached():
        return "the program exited 0 without asking for its final answer (gave up silently)"
    return None


def the_end(trial: Trial) -> list[str]:
    """The evidence every case ends with: the rejections, the exit status and error line."""
    lines = [f"rejected: {e.line()}" for e in trial.rejections()]
    return [*lines, trial.exit.line()]


def first_at(trial: Trial, stage: int) -> Exchange | None:
    return next((e for e in trial.exchanges if e.played and e.played.stage == stage), None)


# ---------------------------------------------------------------- P1 / P1s: declared end_turn
def judge_call_ran(trial: Trial) -> Verdict:
    first, again = trial.stage_ids(0, fault=True) + trial.stage_ids(0)
    ran = trial.ran(first) or trial.ran(again)
    evidence = (answered_line(trial, first), trial.quoted(ran[0] if ran else None), *the_end(trial))
    if ran is None:
        # P1 wants it run (its canary; a text history has no tool_result): continuation only says
        lost = promises.continuation(record_of(trial)) or "answered, never run"
        because = "the call was dropped: its canary never came back"
        return graded(FAIL, because, evidence[0], f"continuation: {lost}", *evidence[1:])
    if ran[0].rejected:
        return graded(
            FAIL, "the call ran, but the request carrying its result was rejected", *evidence
        )
    if (problem := ending(trial)) is not None:
        return graded(FAIL, f"the call ran, but then {problem}", *evidence)
    late = " (after the harness asked again)" if trial.ran(first) is None else ""
    return graded(KEPT, f"the call declared end_turn ran{late}, the run finished", *evidence)


# ---------------------------------------------------------------- P1b: declared tool_use


def judge_no_empty_follow_up(trial: Trial) -> Verdict:
    follow = trial.conversation()[1:]
    seen = f"{len(follow)} request(s) after the answer" if follow else "no request after it"
    evidence = (trial.quoted(follow[0] if follow else None), *the_end(trial))
    if pairing_of(trial):
        return graded(FAIL, "a follow-up request was rejected", *evidence)
    if promises.no_crash(record_of(trial)):
        return graded(FAIL, "the program failed on an answer with nothing to run", *evidence)
    return graded(KEPT, f"no empty or invalid follow-up ({seen}), exit 0", *evidence)


# ---------------------------------------------------------------- P2 / P3: answered with an error


def judge_error_answered(what: str, promise: str) -> Callable[[Trial], Verdict]:
    """P2, P3: the bad call is answered with is_error (the promise named) and the loop goes on (the
    turn re-sent whole: an unknown call renamed into another tool is caught here)."""

    def judge(trial: Trial) -> Verdict:
        (call,) = trial.stage_ids(0)
        answer = trial.answer_of(call)
        resent = trial.resent(0)
        evidence = (
            answered_line(trial, call),
            trial.quoted(answer[0] if answer else None),
            f"the assistant turn: {resent[1]}" if resent and resent[1] else "",
            *the_end(trial),
        )
        if pairing_of(trial):
            return graded(FAIL, ending(trial) or "", *evidence)
        if answer is None and trial.exit.clean:
            return graded(FAIL, f"{what} got no result: the call was silently lost", *evidence)
        if answer is None:
            return graded(FAIL, f"{what} got no result: {ending(trial)}", *evidence)
        if (problem := ending(trial)) is not None:
            return graded(FAIL, f"{what} was answered, but then {problem}", *evidence)
        # P3's call is invalid by the case's making, whatever schema the target offers
        if getattr(promises, promise)(record_of(trial)) or answer[1] != "is_error":
            how = {"text": "as text", "result": "with a tool_result"}.get(answer[1], "wrongly")
            return graded(NON_STRICT, f"{what} was answered {how} without is_error", *evidence)
        if resent and resent[1]:
            return graded(NON_STRICT, f"{what} got is_error, but {resent[1]}", *evidence)
        return graded(KEPT, f"{what} got an is_error result, the run finished", *evidence)

    return judge


# ---------------------------------------------------------------- P4: invalid streamed JSON


def judge_invalid_json(trial: Trial) -> Verdict:
    (broken,) = trial.stage_ids(0, fault=True)
    answer = trial.answer_of(broken)
    asked_again = len(trial.played(0)) > 1
    evidence = (
        answered_line(trial, broken),
        "the harness asked again for the same turn" if asked_again else "",
        trial.quoted(answer[0] if answer else trial.next_in_conversation(first_at(trial, 0))),
        *the_end(trial),
    )
    # "asked again" is the case's own alternative to continuation (which wants it answered)
    if pairing_of(trial):
        return graded(FAIL, "a later request broke the pairing", *evidence)
    if trial.exit.status is not None and promises.no_crash(record_of(trial)):
        return graded(FAIL, "the program crashed on unreadable tool JSON", *evidence)
    if not (answer or asked_again):
        return graded(FAIL, f"{broken} was neither answered nor asked again: lost", *evidence)
    if (problem := ending(trial)) is not None:
        return graded(FAIL, problem, *evidence)
    if answer and answer[1] != "is_error" and not asked_again:
        return graded(NON_STRICT, "the unreadable call was answered without is_error", *evidence)
    how = "answered with is_error" if answer and not asked_again else "dropped and asked again"
    return graded(KEPT, f"the unreadable call was {how}, the run finished", *evidence)


# ---------------------------------------------------------------- P5: two calls in one answer


def leading_results(exchange: Exchange) -> list[object]:
    """The tool_use ids the request's last user message answers first (before any text)."""
    users = [m for m in exchange.messages if isinstance(m, dict) and m.get("role") == "user"]
    content = users[-1].get("content") if users else None
    leading = []
    for block in content if isinstance(content, list) else []:
        if not (isinstance(block, dict) and block.get("type") == "tool_result"):
            break
        leading.append(block.get("tool_use_id"))
    return leading


def judge_two_calls(trial: Trial) -> Verdict:
    first, second = trial.stage_ids(0)
    answers = {call: trial.answer_of(call) for call in (first, second)}
    resent = trial.resent(0)
    request = resent[0] if resent else trial.reached(1)
    leading = leading_results(request) if request else []
    # The API leaves calls in a turn unordered ("run them concurrently, sequentially, or in any
    # order"): a concurrent harness answers in completion order, so the order is shown, not judged.
    order = "call order" if leading == [first, second] else "not call order"
    evidence = (
        *(answered_line(trial, call) for call in (first, second)),
        f"results lead with {leading} ({order})" if request else "",
        f"the assistant turn: {resent[1] or 'sent back whole'}" if resent else "",
        trial.quoted(request),
        *the_end(trial),
    )
    lost = [call for call, answer in answers.items() if answer is None]
    if lost or pairing_of(trial):
        because = f"{', '.join(lost)} never answered" if lost else ending(trial) or ""
        return graded(FAIL, because, *evidence)
    if (problem := ending(trial)) is not None:
        return graded(FAIL, problem, *evidence)
    if resent is None or resent[1] == NOT_AS_BLOCKS:  # the promise judges turns sent as blocks
        why = resent[1] if resent else None
        return graded(NON_STRICT, why or "the assistant turn never came back", *evidence)
    if changed := promises.resent_whole(record_of(trial)):
        return graded(NON_STRICT, resent[1] or changed, *evidence)
    if sorted(leading, key=str) != [first, second]:  # key: a result may lack its id
        return graded(NON_STRICT, f"the next user message begins with {leading}", *evidence)
    return graded(
        KEPT, "both answered first in the next user message, the turn sent back whole", *evidence
    )


# ---------------------------------------------------------------- P6 / P7: retried
# A retry counts as waiting when it arrives no earlier than this before retry-after ends, the
# gap measured from the arrival of the refused request (so the harness's own time only adds).
RETRY_TOLERANCE = 0.1


def judge_retried(wait: float | None) -> Callable[[Trial], Verdict]:
    """P6 (wait: the retry-after it sent), P7 (None): asked again, and the run completed."""

    def judge(trial: Trial) -> Verdict:
        attempts = [e for e in trial.exchanges if e.played and e.played.stage == 0]
        gap = attempts[1].at - attempts[0].at if len(attempts) > 1 else None
        evidence = (
            *[e.line() for e in attempts],
            f"measured wait before the retry: {gap:.1f} s" if gap is not None else "",
            f"retry-after: {wait:g} s (tolerance {RETRY_TOLERANCE:g} s)" if wait else "",
            *the_end(trial),
        )
        record = record_of(trial)
        if pairing_of(trial):
            return graded(FAIL, ending(trial) or "", *evidence)
        if gap is None and promises.retried(record):
            if trial.exit.clean:
                return graded(
                    FAIL, "gave up after a transient fault, reporting success (exit 0)", *evidence
                )
            return graded(
                NON_STRICT,
                "not retried: the transient fault ended the run, reported "
                f"(exit status {trial.exit.status})",
                *evidence,
            )
        if gap is None:
            return graded(FAIL, "the run went on without asking again", *evidence)
        if (problem := ending(trial)) is not None:
            return graded(FAIL, f"retried, but then {problem}", *evidence)
        if wait is not None and promises.waited_as_told(record, RETRY_TOLERANCE):
            return graded(
                NON_STRICT,
                f"retry-after ignored: asked again after {gap:.1f} s, told {wait:g} s",
                *evidence,
            )
        return graded(KEPT, f"retried after {gap:.1f} s, the run completed", *evidence)

    return judge


# ---------------------------------------------------------------- P8 / P9: a stream that breaks


def judge_survived_stream(trial: Trial) -> Verdict:
    (partial,) = trial.stage_ids(0, fault=True)
    ran = trial.ran(partial)
    kept_partial = any(
        partial in [b.get("id") for b in _tool_uses(m)] for e in trial.exchanges for m in e.messages
    )
    evidence = (
        f"the broken answer's {partial} was "
        + ("put in the history" if kept_partial else "never put in the history"),
        f"stage 0 was asked {len(trial.played(0))} time(s)",
        trial.quoted(ran[0] if ran else trial.next_in_conversation(first_at(trial, 0))),
        *the_end(trial),
    )
    record = record_of(trial)
    # partial_dropped also breaks when the draft is sent back unrun: the case grades that info.
    if ran is not None and promises.partial_dropped(record):
        return graded(
            FAIL, f"the call from the failed stream ran: its canary came back {ran[1]}", *evidence
        )
    if pairing_of(trial):
        return graded(FAIL, "a later request left a tool_use unanswered", *evidence)
    if trial.exit.status is None:
        return graded(FAIL, "the run did not end", *evidence)
    if promises.no_crash(record):
        return graded(
            INFO,
            "a typed error reached the caller (exit status "
            f"{trial.exit.status}); the history intact, nothing run",
            *evidence,
        )
    if not trial.final_reached():
        return graded(
            FAIL, "gave up silently: exit 0 without asking for the final answer", *evidence
        )
    if kept_partial:
        return graded(
            INFO, "the partial answer was kept in the history and answered, not run", *evidence
        )
    return graded(
        KEPT, "the partial answer was dropped and asked again, the run finished", *evidence
    )


def _tool_uses(message: object) -> list[dict]:
    content = message.get("content") if isinstance(message, dict) else None
    blocks = content if isinstance(content, list) else []
    return [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]


# ---------------------------------------------------------------- P10: cut by max_tokens


def judge_cut_call(trial: Trial) -> Verdict:
    (cut,) = trial.stage_ids(0, fault=True)
    ran = trial.ran(cut)
    evidence = (
        answered_line(trial, cut),
        f"stage 0 was asked {len(trial.played(0))} time(s)",
        trial.quoted(ran[0] if ran else trial.next_in_conversation(first_at(trial, 0))),
        *the_end(trial),
    )
    if cut_ran := promises.cut_calls_not_run(record_of(trial)):
        how = f"its canary came back {ran[1]}" if ran else cut_ran
        return graded(FAIL, f"the call cut by max_tokens ran: {how}", *evidence)
    if pairing_of(trial) or trial.exit.status is None:
        return graded(FAIL, ending(trial) or "", *evidence)
    if (problem := ending(trial)) is not None:
        return graded(INFO, f"the cut call was not run; {problem}", *evidence)
    return graded(KEPT, "the cut call was not run, the run finished", *evidence)


# ---------------------------------------------------------------- P11: deny rule vs a yes


def judge_denied(trial: Trial) -> Verdict:
    (call,) = trial.stage_ids(0)
    answer = trial.answer_of(call)
    evidence = (
        answered_line(trial, call),
        f"new files in the scratch folder: {', '.join(trial.new_files) or 'none'}",
        trial.quoted(answer[0] if answer else None),
        *the_end(trial),
    )
    if trial.new_files:
        return graded(
            FAIL, f"the denied command ran: {', '.join(trial.new_files)} appeared", *evidence
        )
    if answer is None:
        return graded(FAIL, f"the denied call {call} got no result", *evidence)
    if (problem := ending(trial)) is not None:
        return graded(FAIL, f"the denied call was refused, but then {problem}", *evidence)
    return graded(KEPT, "the denied command never ran (no canary file) and got a result", *evidence)


# ---------------------------------------------------------------- P12: a long run


def judge_long_run(trial: Trial) -> Verdict:
    final = trial.reached(LONG_RUN - 1)
    ran = sum(1 for k in range(LONG_RUN - 1) if trial.ran(trial.stage_ids(k)[0]))
    got = max((e.played.stage or 0 for e in trial.exchanges if e.played), default=-1) + 1
    evidence = (
        f"request #{final.number} asked for the final answer" if final else "",
        f"{ran} of {LONG_RUN - 1} calls ran (canary seen)",
        *the_end(trial),
    )
    # ending() is pairing and no_crash; not continuation: a text history keeps P12 (canaries)
    if (problem := ending(trial)) is not None:
        return graded(FAIL, f"{got} of {LONG_RUN} answers asked for; {problem}", *evidence)
    return graded(KEPT, f"all {LONG_RUN} answers asked for, every request valid", *evidence)


# ---------------------------------------------------------------- the catalogue
CORE_CASES: list[Case] = [
    Case(
        "P1",
        "tool_use declared end_turn (JSON)",
        "M1: continue on the content's tool_use, never the declared stop_reason (seed D1)",
        "the call runs: its canary comes back in a request the API accepts, the run finishes",
        declared_end_turn("json"),
        judge_call_ran,
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
        judge_call_ran,
        grade="【三】",
        outcomes="fail: as P1 (the streams that really do it are streams)",
    ),
    Case(
        "P1b",
        "tool_use declared, no tool block",
        "M1: the content says there is nothing to run (the lab's D1b)",
        "no follow-up request is empty or rejected, the program exits 0",
        declared_tool_use,
        judge_no_empty_follow_up,
        grade="【二】",
        outcomes="fail: a follow-up the API rejects (an empty or unpaired turn), or a crash "
        "on the model's answer",
    ),
    Case(
        "P2",
        "unknown tool name",
        "M2: an unknown name becomes an is_error result, the loop goes on (the lab's D7)",
        "an is_error tool_result for the call, the turn sent back whole, the run finishes",
        unknown_tool,
        judge_error_answered("the unknown tool call", "unknown_tool_answered"),
        grade="【一】",
        outcomes="fail: no answer (lost), a rejected request, a crash; non-strict: answered "
        "without is_error (an error text, or text history), or the turn sent back changed "
        "(the call renamed): the API's is_error is a SHOULD",
    ),
    Case(
        "P3",
        "schema-invalid input",
        "M3: validation answers a malformed call with an is_error result",
        "an is_error tool_result for the call, the run finishes",
        invalid_input_stages,
        judge_error_answered("the schema-invalid call", "invalid_input_answered"),
        grade="【二】",
        outcomes="fail: no answer, a rejected request, a crash; non-strict: answered without "
        "is_error",
    ),
    Case(
        "P4",
        "invalid streamed tool JSON",
        "M3: every tool_use owes a tool_result, even an unreadable one (seed D3)",
        "the call is answered with is_error (or dropped and asked again), no request is "
        "rejected, the run finishes",
        invalid_json_stages,
        judge_invalid_json,
        grade="【二】",
        outcomes="fail: a crash on the model's answer, an unpaired call, the call lost; "
        "non-strict: answered without is_error",
    ),
    Case(
        "P5",
        "two calls in one answer",
        "API: every result in the next user message, before any text; the turn sent back as is",
        "both results lead the next user message (in any order), the assistant turn sent back "
        "whole (text and tool_use: order, ids, names, inputs)",
        two_calls,
        judge_two_calls,
        grade="【二】",
        outcomes="fail: a call never answered, a rejected request, a crash; non-strict: "
        "results split across turns, or the turn re-sent changed (text stripped, calls "
        "rewritten or only as text)",
    ),
    Case(
        "P6",
        "429 with retry-after",
        "API: 429 rate_limit_error is transient; wait what retry-after says, then ask again",
        f"retried no sooner than retry-after ({RETRY_AFTER:g} s, tolerance "
        f"{RETRY_TOLERANCE:g} s) and the run completes (exit 0)",
        http_fault(rate_limited(RETRY_AFTER)),
        judge_retried(RETRY_AFTER),
        grade="【二】",
        outcomes="fail: gave up reporting success (exit 0), or failed after the retry; "
        "non-strict: retry-after ignored (the measured gap shorter), or not retried but the "
        "failure reported (the docs say SHOULD retry)",
    ),
    Case(
        "P7",
        "529 overloaded",
        "API: 529 overloaded_error is transient; back off and ask again",
        "the request is retried and the run completes (exit 0)",
        http_fault(overloaded()),
        judge_retried(None),
        grade="【二】",
        outcomes="fail: gave up reporting success (exit 0), or failed after the retry; "
        "non-strict: not retried but the failure reported",
    ),
    Case(
        "P8",
        "an error event mid-stream, after a tool_use",
        "M3: a partial answer owes results no one will send; drop it and ask again (D22)",
        "the partial answer is dropped and asked again, nothing of it runs, the run finishes",
        broken_stream("error"),
        judge_survived_stream,
        grade="【一】",
        outcomes="fail: the call from the failed stream ran, an unpaired request, a hang, or "
        "exit 0 without the final answer (silent give-up); info: a typed error to the caller "
        "with nothing run and the history intact, or the partial kept and answered unrun",
    ),
    Case(
        "P9",
        "the stream dropped mid-tool-JSON",
        "M3: a dropped connection leaves half a call; never run it, never leave it unpaired",
        "the partial answer is dropped and asked again, nothing of it runs, the run finishes",
        broken_stream("dropped"),
        judge_survived_stream,
        grade="【一】",
        outcomes="as P8",
    ),
    Case(
        "P10",
        "a tool call cut by max_tokens",
        "API: stop_reason max_tokens means the last block is incomplete; it is not the call",
        "the cut call's canary never comes back (it was not run), the run finishes",
        cut_call,
        judge_cut_call,
        grade="【二】",
        outcomes="fail: the cut call ran (its canary came back, as a result or as text), a "
        "rejected request, a hang; info: not run, and the run ended there (an error or a "
        "stop: how max_tokens is reported is the harness's choice)",
    ),
    Case(
        "P11",
        "a deny rule vs a human who says yes",
        "M4: the non-negotiable deny comes before the negotiable yes (seed D4)",
        "the denied command's canary file never appears, the call gets a result, the run finishes",
        denied_call,
        judge_denied,
        needs_denied_call=True,
        grade="【二】",
        outcomes="fail: the denied command ran, the call got no result, or the run then "
        "failed; n/a: no permission system declared",
    ),
    Case(
        "P12",
        f"a {LONG_RUN}-turn run",
        "M1: the loop runs until the content holds no tool_use, and every request is valid",
        f"all {LONG_RUN} answers are asked for, no request is rejected, the program exits 0",
        long_run,
        judge_long_run,
        grade="【一】",
        outcomes="fail: stopped early (silently or with an error), a rejected request",
    ),
]


def script_tools(setting: Setting) -> frozenset[str]:
    """The tools a request must offer to be the conversation (others are side calls)."""
    names = {setting.call[0]}
    if setting.final is not None:
        names.add(setting.final[0])
    return frozenset(names)


def judge(case: Case, trial: Trial) -> Verdict:
    """The case's rule, after the two questions every case asks first: did the target reach
    the script at all, and did it ask in the answer mode the case needs?"""
    if not trial.reached_script():
        seen = [e.line() for e in trial.exchanges[:3]] or ["no request reached the fake API"]
        return Verdict(
            NOT_REACHED, "the target never got a script answer", (*seen, trial.exit.line())
        )
    for k, stage in enumerate(trial.stages):
        first = next(iter(trial.played(k)), None)
        if stage.mode and first is not None and first.stream != (stage.mode == "stream"):
            asked, needed = ("a streamed", "a JSON") if first.stream else ("a JSON", "a streamed")
            return Verdict(
                NA,
                f"the target asked for {asked} answer; {case.id} needs {needed} one",
                (trial.exit.line(),),
            )
    return case.judge(trial)
