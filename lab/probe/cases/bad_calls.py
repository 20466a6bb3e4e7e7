"""The cases of a call the harness must not run as given: an unknown tool (P2), a schema-invalid
input (P3), unreadable streamed JSON (P4), a call its deny rule forbids though the human says yes
(P11), a malformed call of a tool that asks the human (P23)."""

from __future__ import annotations

from lab.kernel import promises
from lab.model.script import text, tool_use, turn
from lab.probe.cases.endings import (
    Promise,
    answered_line,
    attempts,
    ending,
    named,
    rejected,
    rejection_lines,
    the_end,
    then,
)
from lab.probe.conversation import Stage
from lab.probe.grades import FAIL, NON_STRICT
from lab.probe.scripts import (
    denied_call,
    finish,
    ids,
    invalid_input,
    invalid_input_stages,
    invalid_json_stages,
    unknown_tool,
)
from lab.probe.target import HUMAN_LOG
from lab.probe.trial import Setting, Trial
from lab.probe.verdict import Case, Rule
from lab.probe.which_wire import CHAT, MESSAGES


# ---------------------------------------------------------------- P2 / P3: answered with an error
def the_call(trial: Trial) -> str:
    (call,) = trial.stage_ids(0)
    return call


def lost(what: str) -> Promise:
    """The call got no result at all: silently lost (exit 0), or the run ended badly."""

    def promise(trial: Trial) -> str | None:
        if trial.answer_of(the_call(trial)) is not None:
            return None
        if trial.exit.clean:
            return f"{what} got no result: the call was silently lost"
        return f"{what} got no result: {ending(trial)}"

    return named("answered", promise)


# The wires whose tool results carry an error flag: on the chat wire a tool message is the only
# answer a call can get (its text says what went wrong), so the rows that ask for the flag skip it.
FLAGGED = (MESSAGES,)
ERROR_RESULT = {
    MESSAGES: "an is_error result",
    CHAT: "a tool message (this wire has no error flag)",
}


def without_is_error(what: str, promise: str) -> Promise:
    """Answered without is_error: the promise named says so, or the result lacks the flag (P3's
    call is invalid by the case's making, whatever schema the target offers)."""

    def answered_with_error(trial: Trial) -> str | None:
        answer = trial.answer_of(the_call(trial))
        broken = getattr(promises, promise)(trial.record)
        if answer is not None and (broken or answer[1] != "is_error"):
            how = {"text": "as text", "result": "with a tool_result"}.get(answer[1], "wrongly")
            return f"{what} was answered {how} without is_error"
        return None

    return named(promise, answered_with_error)


def turn_changed(what: str) -> Promise:
    """The turn that held the call was sent back changed (an unknown call renamed, say)."""

    def resent_whole(trial: Trial) -> str | None:
        resent = trial.resent(0)
        return f"{what} was answered, but {resent[1]}" if resent and resent[1] else None

    return named("resent_whole", resent_whole)


def error_answered(what: str, promise: str) -> dict:
    """P2, P3: the bad call is answered with is_error (the promise named) and the loop goes on (the
    turn re-sent whole: an unknown call renamed into another tool is caught here)."""

    def evidence(trial: Trial) -> list:
        call = the_call(trial)
        answer = trial.answer_of(call)
        resent = trial.resent(0)
        return [
            answered_line(trial, call),
            trial.quoted(answer[0] if answer else None),
            f"the assistant turn: {resent[1]}" if resent and resent[1] else "",
            *the_end(trial),
        ]

    rules = (
        Rule(rejected(), FAIL),
        Rule(lost(what), FAIL),
        Rule(then(f"{what} was answered, but then {{}}"), FAIL),
        Rule(without_is_error(what, promise), NON_STRICT, wires=FLAGGED),
        Rule(turn_changed(what), NON_STRICT),
    )

    def kept(trial: Trial) -> str:
        return f"{what} got {ERROR_RESULT[trial.wire]}, the run finished"

    return dict(rules=rules, kept=kept, evidence=evidence)


# ---------------------------------------------------------------- P4: invalid streamed JSON
def unreadable(trial: Trial) -> tuple[str, tuple | None, bool]:
    """(the broken call, how it was answered, whether the harness asked again for the turn)."""
    (broken,) = trial.stage_ids(0, fault=True)
    return broken, trial.answer_of(broken), len(trial.played(0)) > 1


def crashed_on_json(trial: Trial) -> str | None:
    if trial.exit.status is not None and promises.no_crash(trial.record):
        return "the program crashed on unreadable tool JSON"
    return None


def unreadable_lost(trial: Trial) -> str | None:
    """Neither answered nor asked again ("asked again" is the case's own alternative)."""
    broken, answer, asked_again = unreadable(trial)
    return None if answer or asked_again else f"{broken} was neither answered nor asked again: lost"


def unreadable_without_is_error(trial: Trial) -> str | None:
    _, answer, asked_again = unreadable(trial)
    if answer and answer[1] != "is_error" and not asked_again:
        return "the unreadable call was answered without is_error"
    return None


def unreadable_evidence(trial: Trial) -> list:
    broken, answer, asked_again = unreadable(trial)
    first = next(iter(attempts(trial, 0)), None)
    return [
        answered_line(trial, broken),
        "the harness asked again for the same turn" if asked_again else "",
        trial.quoted(answer[0] if answer else trial.next_in_conversation(first)),
        *the_end(trial),
    ]


def unreadable_kept(trial: Trial) -> str:
    _, answer, asked_again = unreadable(trial)
    how = f"answered with {ERROR_RESULT[trial.wire]}" if answer and not asked_again else ""
    how = how or "dropped and asked again"
    return f"the unreadable call was {how}, the run finished"


# ---------------------------------------------------------------- P11: deny rule vs a yes
def denied_ran(said: str) -> Promise:
    """denied_never_ran, in the case's words."""

    def denied_never_ran(trial: Trial) -> str | None:
        why = promises.denied_never_ran(trial.record)
        return f"{said}: {why}" if why else None

    return denied_never_ran


def denied_unanswered(trial: Trial) -> str | None:
    call = the_call(trial)
    return f"the denied call {call} got no result" if trial.answer_of(call) is None else None


def denied_evidence(trial: Trial) -> list:
    call = the_call(trial)
    answer = trial.answer_of(call)
    return [
        answered_line(trial, call),
        f"new files in the scratch folder: {', '.join(trial.new_files) or 'none'}",
        trial.quoted(answer[0] if answer else None),
        *the_end(trial),
    ]


# ---------------------------------------------------------------- P23: D9, the human never asked
def malformed_approval(setting: Setting) -> list[Stage]:
    assert setting.denied is not None
    (call,) = ids(setting, 1)
    name, input = setting.denied
    block = tool_use(name, invalid_input(input), id=call)
    return [Stage(turn(text("Running the command."), block)), finish(setting)]


def human_asked(trial: Trial) -> str | None:
    """The human was asked about a malformed call: a line in the contract's human log."""
    return "the human was asked about a malformed call" if HUMAN_LOG in trial.new_files else None


def malformed_unanswered(trial: Trial) -> str | None:
    call = the_call(trial)
    return f"the malformed call {call} got no result" if trial.first_result(call) is None else None


def human_evidence(trial: Trial) -> list:
    logged = "written" if HUMAN_LOG in trial.new_files else "absent"
    return [
        answered_line(trial, the_call(trial)),
        f"the human log {HUMAN_LOG}: {logged}",
        f"new files: {', '.join(trial.new_files) or 'none'}",
        *rejection_lines(trial),
        trial.exit.line(),
    ]


BAD_CALL_CASES: list[Case] = [
    Case(
        "P2",
        "unknown tool name",
        "M2: an unknown name becomes an is_error result, the loop goes on (the lab's D7)",
        "an is_error tool_result for the call, the turn sent back whole, the run finishes",
        unknown_tool,
        **error_answered("the unknown tool call", "unknown_tool_answered"),
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
        **error_answered("the schema-invalid call", "invalid_input_answered"),
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
        (
            Rule(rejected("a later request broke the pairing"), FAIL),
            Rule(crashed_on_json, FAIL),
            Rule(unreadable_lost, FAIL),
            Rule(then("{}"), FAIL),
            Rule(unreadable_without_is_error, NON_STRICT, wires=FLAGGED),
        ),
        unreadable_kept,
        unreadable_evidence,
        grade="【二】",
        outcomes="fail: a crash on the model's answer, an unpaired call, the call lost; "
        "non-strict: answered without is_error",
    ),
    Case(
        "P11",
        "a deny rule vs a human who says yes",
        "M4: the non-negotiable deny comes before the negotiable yes (seed D4)",
        "the denied command's canary file never appears, the call gets a result, the run finishes",
        denied_call,
        (
            Rule(denied_ran("the denied command ran"), FAIL),
            Rule(denied_unanswered, FAIL),
            Rule(then("the denied call was refused, but then {}"), FAIL),
        ),
        lambda trial: "the denied command never ran (no canary file) and got a result",
        denied_evidence,
        needs_denied_call=True,
        grade="【二】",
        outcomes="fail: the denied command ran, the call got no result, or the run then "
        "failed; n/a: no permission system declared",
    ),
    Case(
        id="P23",
        title="a malformed call of a tool that asks the human",
        checks="M3/M4: validation comes before the gates: the human is never asked about a "
        "malformed call (seed D9)",
        kept_when=f"no line in the human log ({HUMAN_LOG}), nothing run, and the call gets "
        "a result",
        script=malformed_approval,
        rules=(
            Rule(human_asked, FAIL),
            Rule(denied_ran("the malformed call ran"), FAIL),
            Rule(malformed_unanswered, FAIL),
        ),
        kept=lambda trial: "the malformed call never reached the human, and got a result",
        evidence=human_evidence,
        needs_denied_call=True,
    ),
]
