"""The cases of how long a run lasts: a 20-turn run (P12), nothing asked after the final answer
(P21), a long run with large answers that a harness may trim (P22)."""

from __future__ import annotations

import json

from lab.kernel import promises
from lab.model.script import text, turn
from lab.probe.cases.endings import (
    end_line,
    ended_badly,
    ending,
    gave_up_reporting,
    named,
    rejection_lines,
    the_end,
    threaded,
)
from lab.probe.cases.transient import after_fault
from lab.probe.conversation import Stage
from lab.probe.grades import FAIL, INFO, NON_STRICT
from lab.probe.scripts import LONG_RUN, finish, ids, long_run, the_call
from lab.probe.trial import Exchange, Setting, Trial
from lab.probe.verdict import Case, Rule


# ---------------------------------------------------------------- P12: a long run
def stopped_early(trial: Trial) -> str | None:
    """ending() is pairing and no_crash; not continuation: a text history keeps P12 (canaries)."""
    if (problem := ending(trial)) is None:
        return None
    got = max((e.played.stage or 0 for e in trial.exchanges if e.played), default=-1) + 1
    return f"{got} of {LONG_RUN} answers asked for; {problem}"


def long_run_evidence(trial: Trial) -> list[str]:
    final = trial.reached(LONG_RUN - 1)
    ran = sum(1 for k in range(LONG_RUN - 1) if trial.ran(trial.stage_ids(k)[0]))
    return [
        f"request #{final.number} asked for the final answer" if final else "",
        f"{ran} of {LONG_RUN - 1} calls ran (canary seen)",
        *the_end(trial),
    ]


# ---------------------------------------------------------------- P21: nothing after the end
def extras(trial: Trial) -> list[Exchange]:
    return [e for e in trial.exchanges if e.played and e.played.kind == "extra"]


def asked_until_stopped(trial: Trial) -> str | None:
    if promises.termination(trial.record) and trial.exit.status is None:
        return f"kept asking after the final answer ({len(extras(trial))}x) until stopped"
    return None


def asked_after_the_end(trial: Trial) -> str | None:
    """termination, in the case's words."""
    if promises.termination(trial.record):
        return f"{len(extras(trial))} request(s) after the final answer"
    return None


def never_reached_final(trial: Trial) -> str | None:
    if gave_up_reporting(1)(trial):
        return "the run never reached its final answer"
    return None


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


def last_sent(trial: Trial) -> Exchange | None:
    """The request that asked for the final answer, else the last one to the model."""
    requests = trial.model_requests()
    return trial.reached(LARGE_TURNS) or (requests[-1] if requests else None)


def kept_ids(trial: Trial) -> list[str]:
    sent = last_sent(trial)
    history = json.dumps(sent.messages) if sent else ""
    return [i for k in range(LARGE_TURNS) if (i := trial.stage_ids(k)[0]) in history]


def large_run_evidence(trial: Trial) -> list[str]:
    sent = last_sent(trial)
    shown = (
        f"request #{sent.number} holds {len(sent.messages)} messages, "
        f"{len(kept_ids(trial))} of the {LARGE_TURNS} calls"
        if sent
        else ""
    )
    return [shown, *rejection_lines(trial), end_line(trial, LARGE_TURNS)]


def large_run_kept(trial: Trial) -> str:
    sent = last_sent(trial)
    trimmed = " (history trimmed)" if len(kept_ids(trial)) < LARGE_TURNS else ""
    if sent and threaded(sent):
        trimmed = " (history held by the server: a message thread)"
    return f"every request valid to the final answer{trimmed}"


LONG_RUN_CASES: list[Case] = [
    Case(
        "P12",
        f"a {LONG_RUN}-turn run",
        "M1: the loop runs until the content holds no tool_use, and every request is valid",
        f"all {LONG_RUN} answers are asked for, no request is rejected, the program exits 0",
        long_run,
        (Rule(stopped_early, FAIL),),
        lambda trial: f"all {LONG_RUN} answers asked for, every request valid",
        long_run_evidence,
        grade="【一】",
        outcomes="fail: stopped early (silently or with an error), a rejected request",
    ),
    Case(
        id="P21",
        title="requests after the final answer",
        checks="M1: an answer without tool_use ends the loop: nothing is asked after it",
        kept_when="no request carries the final answer, and the program exits 0",
        script=after_fault(None),
        rules=(
            Rule(asked_until_stopped, FAIL),
            Rule(asked_after_the_end, NON_STRICT),
            Rule(ended_badly(1), FAIL),
            Rule(never_reached_final, FAIL),
        ),
        kept=lambda trial: "no request after the final answer",
        evidence=lambda trial: [*[e.line() for e in extras(trial)[:3]], end_line(trial, 1)],
    ),
    Case(
        id="P22",
        title=f"a {LARGE_TURNS + 1}-turn run with large answers",
        checks="M3: a history trimmed or compacted to fit never orphans a tool_result",
        kept_when="every request is valid to the final answer, and the program exits 0",
        script=large_run,
        # run_end is pairing and no_crash; not continuation: a history as text may keep P22
        rules=(
            Rule(ended_badly(LARGE_TURNS), FAIL),
            Rule(
                named(
                    "gave_up_reporting",
                    lambda t: (
                        "gave up before the end and said so (exit not 0)"
                        if gave_up_reporting(LARGE_TURNS)(t)
                        else None
                    ),
                ),
                INFO,
            ),
        ),
        kept=large_run_kept,
        evidence=large_run_evidence,
    ),
]
