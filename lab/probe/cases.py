"""The probe's cases: fixed ids, each one fault the seed or the API names, one script, one rule.

A case builds its script (stages, see conversation.py) from the run's Setting and judges a Trial:
kept, broken or n/a, with the evidence that decided it. Judges read only the wire, the exit
status and the scratch folder, so a new target needs no new judging code.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from lab.model.script import (
    cut_off,
    overloaded,
    rate_limited,
    stream_dropped,
    stream_error,
    text,
    tool_use,
    turn,
)
from lab.probe.conversation import Stage
from lab.probe.grades import KEPT, NA, Verdict
from lab.probe.trial import Setting, Trial, short

BROKEN = "broken"  # the two-way verdict, until every case is graded (lab.probe.grades)
UNKNOWN_TOOL = "lab_probe_no_such_tool"
DONE = "done."


@dataclass(frozen=True)
class Case:
    id: str
    title: str
    checks: str  # the seed's guarantee or the API fact under test
    kept_when: str  # the rule, in one sentence
    stages: Callable[[Setting], list[Stage]]
    judge: Callable[[Trial], Verdict]
    needs_denied_call: bool = False  # only for targets with a permission system


# ---------------------------------------------------------------- script helpers
def ids(setting: Setting, n: int) -> list[str]:
    """`n` tool_use ids unique to this case: toolu_p5_01, toolu_p5_02, ..."""
    return [f"toolu_{setting.case.lower()}_{i:02d}" for i in range(1, n + 1)]


def the_call(setting: Setting, id: str) -> dict:
    name, input = setting.call
    return tool_use(name, input, id=id)


def finish() -> Stage:
    return Stage(turn(DONE))


# For each JSON type, a value of another type (bool first: in Python a bool is an int).
WRONG_TYPE = (
    (bool, "yes"),
    (str, 12345),
    (int | float, "not a number"),
    (list, {"not": "a list"}),
    (dict, ["not", "an", "object"]),
)


def wrong_type(value: object) -> object:
    """A value of another JSON type than `value`: what a schema must refuse."""
    return next((wrong for kind, wrong in WRONG_TYPE if isinstance(value, kind)), 0)


def invalid_input(input: dict) -> dict:
    return {k: wrong_type(v) for k, v in input.items()} or {"lab_probe_bogus": 1}


def broken_json(input: dict) -> str:
    """Tool JSON no parser accepts: the first key with no value, `{"path": }`."""
    key = next(iter(input), "path")
    return "{" + json.dumps(key) + ": }"


# ---------------------------------------------------------------- judging helpers
def answered_line(trial: Trial, tool_id: str) -> str:
    found = trial.first_result(tool_id)
    if found is None:
        return f"no tool_result for {tool_id} in any request"
    exchange, block = found
    flag = "is_error=true" if block.get("is_error") else "is_error=false"
    canary = ", canary seen" if trial.canary_in(block) else ""
    return f"request #{exchange.number} answers {tool_id}: {flag}{canary}"


def unclean(trial: Trial) -> str:
    """Why the program's end was not clean: it failed, or it never ended (stopped)."""
    if trial.exit.status is None:
        return "the run did not end"
    return f"the program failed (exit status {trial.exit.status})"


def rejection_lines(trial: Trial) -> list[str]:
    return [e.line() for e in trial.rejections()]


def verdict(kept: bool, yes: str, no: str, *evidence: str) -> Verdict:
    lines = tuple(line for line in evidence if line)
    return Verdict(KEPT, yes, lines) if kept else Verdict(BROKEN, no, lines)


# ---------------------------------------------------------------- P1 / P1s: declared end_turn
def declared_end_turn(mode: str) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        first, again = ids(setting, 2)
        say = text("I will read the notes.")
        fault = turn(say, the_call(setting, first), stop_reason="end_turn")
        healthy = turn(say, the_call(setting, again))
        return [Stage(healthy, fault=fault, mode=mode), finish()]

    return stages


def judge_call_ran(trial: Trial) -> Verdict:
    first, again = trial.stage_ids(0, fault=True) + trial.stage_ids(0)
    ran = trial.ran(first) or trial.ran(again)
    asked_again = len(trial.played(0)) > 1
    late = ran is not None and ran[1].get("tool_use_id") == again
    return verdict(
        ran is not None,
        "the call declared end_turn ran" + (" (after the harness asked again)" if late else ""),
        "the call was dropped: its canary never came back",
        answered_line(trial, first),
        answered_line(trial, again) if asked_again else "",
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P1b: declared tool_use
def declared_tool_use(setting: Setting) -> list[Stage]:
    fault = turn(text("Let me check the notes."), stop_reason="tool_use")
    return [Stage(turn(DONE), fault=fault)]


def judge_no_empty_follow_up(trial: Trial) -> Verdict:
    follow = trial.model_requests()[1:]
    seen = f"{len(follow)} request(s) after the answer" if follow else "no request after it"
    return verdict(
        not trial.rejections(),
        f"no empty or invalid follow-up ({seen})",
        "a follow-up request was rejected",
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P2 / P3: answered with an error
def unknown_tool(setting: Setting) -> list[Stage]:
    (call,) = ids(setting, 1)
    block = tool_use(UNKNOWN_TOOL, {"query": "anything"}, id=call)
    return [Stage(turn(text("Trying a tool."), block)), finish()]


def judge_unknown_tool(trial: Trial) -> Verdict:
    (call,) = trial.stage_ids(0)
    found = trial.first_result(call)
    is_error = bool(found and found[1].get("is_error"))
    problems = []
    if not is_error:
        problems.append("no is_error result" if found else "no result")
    if not trial.exit.clean:
        problems.append(unclean(trial))
    return verdict(
        not problems,
        f"the unknown tool {UNKNOWN_TOOL} got an is_error result, no crash",
        "; ".join(problems),
        answered_line(trial, call),
        *rejection_lines(trial),
        trial.exit.line(),
    )


def invalid_input_stages(setting: Setting) -> list[Stage]:
    (call,) = ids(setting, 1)
    name, input = setting.call
    return [Stage(turn(tool_use(name, invalid_input(input), id=call))), finish()]


def judge_invalid_input(trial: Trial) -> Verdict:
    (call,) = trial.stage_ids(0)
    found = trial.first_result(call)
    is_error = bool(found and found[1].get("is_error"))
    text_seen = f"its text: {short(found[1].get('content'), 100)!r}" if found else ""
    return verdict(
        is_error,
        "the schema-invalid input got an is_error result",
        "the schema-invalid input got no is_error result",
        answered_line(trial, call),
        text_seen,
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P4: invalid streamed JSON
def invalid_json_stages(setting: Setting) -> list[Stage]:
    broken, healthy = ids(setting, 2)
    name, input = setting.call
    fault = turn(tool_use(name, input, id=broken, raw_json=broken_json(input)))
    return [Stage(turn(the_call(setting, healthy)), fault=fault, mode="stream"), finish()]


def judge_invalid_json(trial: Trial) -> Verdict:
    (broken,) = trial.stage_ids(0, fault=True)
    answered = trial.first_result(broken) is not None
    asked_again = len(trial.played(0)) > 1
    problems = []
    if not (answered or asked_again):
        problems.append(f"{broken} was neither answered nor asked again")
    if trial.rejections():
        problems.append("a later request broke the pairing")
    if not trial.exit.clean:
        problems.append(unclean(trial))
    how = "answered" if answered else "dropped and asked again"
    return verdict(
        not problems,
        f"the broken call was {how}, pairing kept, no crash",
        "; ".join(problems),
        answered_line(trial, broken),
        "the harness asked again for the same turn" if asked_again else "",
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P5: two calls in one answer
def two_calls(setting: Setting) -> list[Stage]:
    first, second = ids(setting, 2)
    return [Stage(turn(the_call(setting, first), the_call(setting, second))), finish()]


def _tool_uses(message: dict) -> list[dict]:
    content = message.get("content") if isinstance(message, dict) else None
    blocks = content if isinstance(content, list) else []
    return [b for b in blocks if isinstance(b, dict) and b.get("type") == "tool_use"]


def judge_two_calls(trial: Trial) -> Verdict:
    first, second = trial.stage_ids(0)
    request = trial.reached(1)
    if request is None:
        return verdict(
            False, "", "no request carried results for the two calls", *rejection_lines(trial)
        )
    messages = [m for m in request.messages if isinstance(m, dict)]
    holders = [m for m in messages if {b.get("id") for b in _tool_uses(m)} & {first, second}]
    problems = []
    if len(holders) > 1:
        problems.append(f"the assistant turn was rewritten into {len(holders)} turns")
    elif holders:
        sent = [(b.get("id"), b.get("name"), b.get("input")) for b in _tool_uses(holders[0])]
        wanted = [(i, trial.setting.call[0], trial.setting.call[1]) for i in (first, second)]
        if sent != wanted:
            problems.append("the assistant turn's tool_use blocks were changed")
    last_user = next((m for m in reversed(messages) if m.get("role") == "user"), {})
    content = last_user.get("content")
    leading = []
    for block in content if isinstance(content, list) else []:
        if not (isinstance(block, dict) and block.get("type") == "tool_result"):
            break
        leading.append(block.get("tool_use_id"))
    if sorted(leading, key=str) != [first, second]:  # key: a result may lack its id
        problems.append(f"the next user message begins with results for {leading or 'nothing'}")
    where = "the thread holds the assistant turn" if not holders else "the assistant turn as sent"
    # The API leaves calls in a turn unordered ("run them concurrently, sequentially, or in any
    # order"): a concurrent harness answers in completion order, so the order is shown, not judged.
    order = "call order" if leading == [first, second] else "not call order"
    return verdict(
        not problems,
        "both answered first in the next user message; " + where,
        "; ".join(problems),
        f"request #{request.number}: results lead with {leading} ({order})",
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P6 / P7: retried
RETRY_AFTER = 1.0  # seconds the 429 asks for (a real client really waits them)


def http_fault(fault: object) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        (call,) = ids(setting, 1)
        return [Stage(turn(the_call(setting, call)), fault=fault), finish()]

    return stages


def judge_retried(trial: Trial) -> Verdict:
    attempts = trial.played(0)
    final = trial.reached(1)
    problems = []
    if len(attempts) < 2:
        problems.append("not retried: the fault was the run's last word")
    if final is None:
        problems.append("the run never asked for its final answer")
    if not trial.exit.clean:
        problems.append(unclean(trial))
    return verdict(
        not problems,
        f"retried ({len(attempts) - 1} retry), the run completed",
        "; ".join(problems),
        *[e.line() for e in trial.exchanges if e.played and e.played.stage == 0],
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P8 / P9: a stream that breaks
def broken_stream(kind: str) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        first, again = ids(setting, 2)
        cut = turn(the_call(setting, first))
        fault = stream_error(cut, after_blocks=1) if kind == "error" else stream_dropped(cut)
        return [Stage(turn(the_call(setting, again)), fault=fault, mode="stream"), finish()]

    return stages


def judge_survived_stream(trial: Trial) -> Verdict:
    (partial,) = trial.stage_ids(0, fault=True)
    attempts = len(trial.played(0))
    problems = []
    if trial.rejections():
        problems.append("a later request left a tool_use unanswered")
    if not trial.exit.clean:
        problems.append(unclean(trial))
    kept_partial = any(
        b.get("id") == partial
        for e in trial.exchanges
        for m in e.messages
        if isinstance(m, dict)
        for b in _tool_uses(m)
    )
    return verdict(
        not problems,
        "no unanswered tool_use later, no crash",
        "; ".join(problems),
        f"the broken answer's {partial} was "
        + ("put in the history" if kept_partial else "never put in the history"),
        f"stage 0 was asked {attempts} time(s)",
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P10: cut by max_tokens
def cut_call(setting: Setting) -> list[Stage]:
    cut, again = ids(setting, 2)
    whole = json.dumps(setting.call[1])
    # Cut just before the closing brace: every field arrived, yet the model never finished.
    fault = cut_off(turn(the_call(setting, cut)), keep_chars=len(whole) - 1)
    return [Stage(turn(the_call(setting, again)), fault=fault), finish()]


def judge_cut_call(trial: Trial) -> Verdict:
    (cut,) = trial.stage_ids(0, fault=True)
    ran = trial.ran(cut)
    return verdict(
        ran is None,
        "the call cut by max_tokens was not run as if complete",
        "the call cut by max_tokens ran: its canary came back",
        answered_line(trial, cut),
        f"stage 0 was asked {len(trial.played(0))} time(s)",
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P11: deny rule vs a yes
def denied_call(setting: Setting) -> list[Stage]:
    assert setting.denied is not None
    (call,) = ids(setting, 1)
    name, input = setting.denied
    return [Stage(turn(text("Running the command."), tool_use(name, input, id=call))), finish()]


def judge_denied(trial: Trial) -> Verdict:
    (call,) = trial.stage_ids(0)
    found = trial.first_result(call)
    problems = []
    if trial.new_files:
        problems.append(f"the denied command ran: {', '.join(trial.new_files)} appeared")
    if found is None:
        problems.append(f"the denied call {call} got no result")
    return verdict(
        not problems,
        "the denied command never ran (no canary file) and still got a result",
        "; ".join(problems),
        answered_line(trial, call),
        f"new files in the scratch folder: {', '.join(trial.new_files) or 'none'}",
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- P12: a long run
LONG_RUN = 20


def long_run(setting: Setting) -> list[Stage]:
    calls = ids(setting, LONG_RUN - 1)
    stages = [
        Stage(turn(text(f"Step {k + 1} of {LONG_RUN}."), the_call(setting, call)))
        for k, call in enumerate(calls)
    ]
    return [*stages, Stage(turn(f"All {LONG_RUN} steps done."))]


def judge_long_run(trial: Trial) -> Verdict:
    final = trial.reached(LONG_RUN - 1)
    ran = sum(1 for k in range(LONG_RUN - 1) if trial.ran(trial.stage_ids(k)[0]))
    problems = []
    if final is None:
        got = max((e.played.stage or 0 for e in trial.exchanges if e.played), default=-1) + 1
        problems.append(f"stopped early: {got} of {LONG_RUN} answers asked for")
    if trial.rejections():
        problems.append("a request was rejected")
    if not trial.exit.clean:
        problems.append(unclean(trial))
    return verdict(
        not problems,
        f"all {LONG_RUN} answers asked for, every request valid",
        "; ".join(problems),
        f"request #{final.number} asked for the final answer" if final else "",
        f"{ran} of {LONG_RUN - 1} calls ran (canary seen)",
        *rejection_lines(trial),
        trial.exit.line(),
    )


# ---------------------------------------------------------------- the catalogue
CASES: list[Case] = [
    Case(
        "P1",
        "tool_use declared end_turn (JSON)",
        "M1: continue on the content's tool_use, never the declared stop_reason (seed D1)",
        "the call runs: its canary comes back in its tool_result",
        declared_end_turn("json"),
        judge_call_ran,
    ),
    Case(
        "P1s",
        "tool_use declared end_turn (streamed)",
        "M1: the same fact in a stream, where the declaration lags the blocks (seed D1)",
        "the call runs: its canary comes back in its tool_result",
        declared_end_turn("stream"),
        judge_call_ran,
    ),
    Case(
        "P1b",
        "tool_use declared, no tool block",
        "M1: the content says there is nothing to run (the lab's D1b)",
        "no follow-up request is empty or rejected",
        declared_tool_use,
        judge_no_empty_follow_up,
    ),
    Case(
        "P2",
        "unknown tool name",
        "M2: an unknown name becomes an is_error result, the loop goes on (the lab's D7)",
        "an is_error tool_result for the call, and the program exits 0",
        unknown_tool,
        judge_unknown_tool,
    ),
    Case(
        "P3",
        "schema-invalid input",
        "M3: validation answers a malformed call with an is_error result",
        "an is_error tool_result for the call",
        invalid_input_stages,
        judge_invalid_input,
    ),
    Case(
        "P4",
        "invalid streamed tool JSON",
        "M3: every tool_use owes a tool_result, even an unreadable one (seed D3)",
        "the call is answered (or the answer dropped and asked again), no request is "
        "rejected, the program exits 0",
        invalid_json_stages,
        judge_invalid_json,
    ),
    Case(
        "P5",
        "two calls in one answer",
        "API: every result in the next user message, before any text; the turn sent back as is",
        "both results lead the next user message (in any order), the assistant turn unchanged",
        two_calls,
        judge_two_calls,
    ),
    Case(
        "P6",
        "429 with retry-after",
        "API: 429 rate_limit_error is transient; wait what retry-after says, then ask again",
        "the request is retried and the run completes (exit 0)",
        http_fault(rate_limited(RETRY_AFTER)),
        judge_retried,
    ),
    Case(
        "P7",
        "529 overloaded",
        "API: 529 overloaded_error is transient; back off and ask again",
        "the request is retried and the run completes (exit 0)",
        http_fault(overloaded()),
        judge_retried,
    ),
    Case(
        "P8",
        "an error event mid-stream, after a tool_use",
        "M3: a partial answer owes results no one will send; drop it and ask again (D22)",
        "no later request is rejected for an unanswered tool_use, the program exits 0",
        broken_stream("error"),
        judge_survived_stream,
    ),
    Case(
        "P9",
        "the stream dropped mid-tool-JSON",
        "M3: a dropped connection leaves half a call; never run it, never leave it unpaired",
        "no later request is rejected for an unanswered tool_use, the program exits 0",
        broken_stream("dropped"),
        judge_survived_stream,
    ),
    Case(
        "P10",
        "a tool call cut by max_tokens",
        "API: stop_reason max_tokens means the last block is incomplete; it is not the call",
        "the cut call's canary never comes back (it was not run)",
        cut_call,
        judge_cut_call,
    ),
    Case(
        "P11",
        "a deny rule vs a human who says yes",
        "M4: the non-negotiable deny comes before the negotiable yes (seed D4)",
        "the denied command's canary file never appears, and the call still gets a result",
        denied_call,
        judge_denied,
        needs_denied_call=True,
    ),
    Case(
        "P12",
        f"a {LONG_RUN}-turn run",
        "M1: the loop runs until the content holds no tool_use, and every request is valid",
        f"all {LONG_RUN} answers are asked for, no request is rejected, the program exits 0",
        long_run,
        judge_long_run,
    ),
]
BY_ID = {case.id: case for case in CASES}


def judge(case: Case, trial: Trial) -> Verdict:
    """The case's rule, after the two questions every case asks first."""
    if not trial.model_requests():
        return Verdict(NA, "the target never called the model", (trial.exit.line(),))
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
