"""The cases of the API's faults: a 429 with retry-after (P6, P14), a 529 once (P7) and for good
(P15), a stream that breaks after a tool_use (P8, P9), a proxy's HTML 502 (P16), a 400 (P17)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import cast

from lab.kernel import promises
from lab.kernel.record import blocks_in
from lab.model.script import ApiError, Turn, overloaded, proxy_error, rate_limited, turn
from lab.probe.cases.endings import (
    Promise,
    attempts,
    end_line,
    ended_badly,
    hung,
    named,
    rejected,
    rejection_lines,
    stage_lines,
    the_end,
    then,
)
from lab.probe.conversation import Stage
from lab.probe.grades import FAIL, INFO, KEPT, NON_STRICT
from lab.probe.scripts import RETRY_AFTER, broken_stream, finish, http_fault, ids, the_call
from lab.probe.trial import Exchange, Setting, Trial
from lab.probe.verdict import Case, Rule
from lab.probe.which_wire import CHAT

# A retry counts as waiting when it arrives no earlier than this before retry-after ends, the
# gap measured from the arrival of the refused request (so the harness's own time only adds).
RETRY_TOLERANCE = 0.1
LATER_RETRY_AFTER = 1.0  # seconds the 429 (P14) and the persistent 529 (P15) ask for
TOLERANCE = 0.1  # seconds a measured wait may fall short of retry-after (clocks, rounding)
ENDLESS = 20  # tries of one request, still going at the time limit: a loop that does not end
INVALID_REQUEST = "There was an issue with the format or content of your request."
# What a program prints when it chokes on a body that is not JSON (Python's json, jiter, Node).
PARSE_CRASH = re.compile(
    r"JSONDecodeError|Expecting value|Unexpected token|is not valid JSON|invalid json", re.I
)


def gap(trial: Trial) -> float | None:
    """Seconds between the first two requests at stage 0 (None: asked once)."""
    tries = attempts(trial, 0)
    return tries[1].at - tries[0].at if len(tries) > 1 else None


# ---------------------------------------------------------------- P6 / P7: retried
def unretried_quietly(trial: Trial) -> str | None:
    """Not asked again (retried), and exit 0: success reported after a transient fault."""
    if gap(trial) is None and promises.retried(trial.record) and trial.exit.clean:
        return "gave up after a transient fault, reporting success (exit 0)"
    return None


def unretried_said(trial: Trial) -> str | None:
    """Not asked again, and the failure reported (exit not 0)."""
    if gap(trial) is None and promises.retried(trial.record):
        return (
            "not retried: the transient fault ended the run, reported "
            f"(exit status {trial.exit.status})"
        )
    return None


def went_on(trial: Trial) -> str | None:
    return "the run went on without asking again" if gap(trial) is None else None


def waited(wait: float | None, tolerance: float, said: Callable[[Trial, float], str]) -> Promise:
    """waited_as_told, in the case's words (`said`: its line for the measured gap)."""

    def waited_as_told(trial: Trial) -> str | None:
        measured = gap(trial)
        if wait is None or measured is None:
            return None
        return said(trial, measured) if promises.waited_as_told(trial.record, tolerance) else None

    return waited_as_told


def retried_case(wait: float | None) -> dict:
    """P6 (wait: the retry-after it sent), P7 (None): asked again, and the run completed."""

    def evidence(trial: Trial) -> list:
        measured = gap(trial)
        return [
            *[e.line() for e in attempts(trial, 0)],
            f"measured wait before the retry: {measured:.1f} s" if measured is not None else "",
            f"retry-after: {wait:g} s (tolerance {RETRY_TOLERANCE:g} s)" if wait else "",
            *the_end(trial),
        ]

    def ignored(trial: Trial, measured: float) -> str:
        return f"retry-after ignored: asked again after {measured:.1f} s, told {wait:g} s"

    rules = (
        Rule(rejected(), FAIL),
        Rule(unretried_quietly, FAIL),
        Rule(unretried_said, NON_STRICT),
        Rule(went_on, FAIL),
        Rule(then("retried, but then {}"), FAIL),
        Rule(waited(wait, RETRY_TOLERANCE, ignored), NON_STRICT),
    )
    kept = lambda trial: f"retried after {gap(trial):.1f} s, the run completed"  # noqa: E731
    return dict(rules=rules, kept=kept, evidence=evidence)


# ---------------------------------------------------------------- P8 / P9: a stream that breaks
def partial(trial: Trial) -> tuple[str, tuple | None, bool]:
    """(the broken answer's call, where it ran, whether it was put in the history)."""
    (call,) = trial.stage_ids(0, fault=True)
    kept = any(
        call in [b.get("id") for b in blocks_in(m) if b.get("type") == "tool_use"]
        for e in trial.exchanges
        for m in e.messages
    )
    return call, trial.ran(call), kept


def partial_ran(trial: Trial) -> str | None:
    """The call from the failed stream ran (partial_dropped also breaks when the draft is only
    sent back unrun: the case grades that info, below)."""
    _, ran, _ = partial(trial)
    if ran is not None and promises.partial_dropped(trial.record):
        return f"the call from the failed stream ran: its canary came back {ran[1]}"
    return None


def typed_error(trial: Trial) -> str | None:
    if promises.no_crash(trial.record):
        return (
            f"a typed error reached the caller (exit status {trial.exit.status}); "
            "the history intact, nothing run"
        )
    return None


def gave_up_silently(trial: Trial) -> str | None:
    if promises.ended_honestly(trial.record):
        return "gave up silently: exit 0 without asking for the final answer"
    return None


def partial_kept(trial: Trial) -> str | None:
    if partial(trial)[2]:
        return "the partial answer was kept in the history and answered, not run"
    return None


def stream_evidence(trial: Trial) -> list:
    call, ran, kept = partial(trial)
    first = next(iter(attempts(trial, 0)), None)
    return [
        f"the broken answer's {call} was "
        + ("put in the history" if kept else "never put in the history"),
        f"stage 0 was asked {len(trial.played(0))} time(s)",
        trial.quoted(ran[0] if ran else trial.next_in_conversation(first)),
        *the_end(trial),
    ]


SURVIVED_STREAM = (
    Rule(partial_ran, FAIL),
    Rule(rejected("a later request left a tool_use unanswered"), FAIL),
    Rule(hung, FAIL),
    Rule(typed_error, INFO),
    Rule(gave_up_silently, FAIL),
    Rule(partial_kept, INFO),
)


# ---------------------------------------------------------------- P14: retry-after honoured
def after_fault(fault: object) -> Callable[[Setting], list[Stage]]:
    def stages(setting: Setting) -> list[Stage]:
        (call,) = ids(setting, 1)
        return [Stage(turn(the_call(setting, call)), fault=fault), finish(setting)]

    return stages


def waited_line(measured: float) -> str:
    return f"asked again {measured:.2f} s after the 429; retry-after said {LATER_RETRY_AFTER:g} s"


def unretried_429(trial: Trial) -> str | None:
    return "not retried: the 429 was the run's last word" if gap(trial) is None else None


def retried_then(trial: Trial) -> str | None:
    measured = gap(trial)
    why = run_end_of(trial)
    return f"{why} ({waited_line(measured)})" if why and measured is not None else None


def run_end_of(trial: Trial) -> str | None:
    return ended_badly(1)(trial)


# ---------------------------------------------------------------- P15: a persistent 529
OVERLOADED_FOR_GOOD = ApiError(529, "overloaded_error", "Overloaded", LATER_RETRY_AFTER)


def overloaded_for_good(setting: Setting) -> list[Stage]:
    # A stage's answer is played on every attempt after the first: here the answer is the
    # fault itself, so every attempt fails (the only stage whose answer is not a turn).
    return [Stage(cast(Turn, OVERLOADED_FOR_GOOD), fault=OVERLOADED_FOR_GOOD)]


def endless(trial: Trial) -> str | None:
    tries = len(trial.played(0))
    if trial.exit.status is None and tries >= ENDLESS:
        return f"still asking at the time limit: {tries} tries"
    return None


def still_waiting(trial: Trial) -> str | None:
    if trial.exit.status is None:
        return f"still waiting at the time limit after {len(trial.played(0))} tries"
    return None


def gave_up_quietly(trial: Trial) -> str | None:
    if trial.exit.clean:
        return f"gave up after {len(trial.played(0))} tries, yet exited 0 (success)"
    return None


# ---------------------------------------------------------------- P16: a proxy's HTML 502
def parse_crash(trial: Trial) -> str | None:
    said = f"{trial.exit.error} {trial.output[-2000:]}"
    if trial.exit.status not in (0, None) and PARSE_CRASH.search(said):
        return "crashed parsing the HTML page as JSON"
    return None


def retried_words(trial: Trial) -> str:
    tries = attempts(trial, 0)
    return f"retried ({len(tries) - 1} retry)" if len(tries) > 1 else "not retried"


def page_then(trial: Trial) -> str | None:
    why = run_end_of(trial)
    return f"{retried_words(trial)}; {why}" if why else None


def never_retried_502(trial: Trial) -> str | None:
    if trial.reached(1) is None:
        return "reported the 502 but never retried it (a 5xx is transient)"
    return None


def page_evidence(trial: Trial) -> list[str]:
    return [*stage_lines(trial, 0), *rejection_lines(trial), trial.exit.line()]


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


def resent_400(trial: Trial) -> str | None:
    tries = attempts(trial, 0)
    again = [e for e in tries[1:] if identical(e, tries[0])]
    if again:
        return f"the identical request was sent again after the 400 ({len(again)}x)"
    return None


def changed_request_went_on(trial: Trial) -> str | None:
    """It reached the final answer: it asked again with a changed request."""
    return "not retried as is; a changed request went on" if trial.reached(1) else None


def not_retried_evidence(trial: Trial) -> list[str]:
    tries = attempts(trial, 0)
    changed = [
        f"request #{e.number} changed: " + ", ".join(changes(tries[0], e)) for e in tries[1:]
    ]
    shown = changed if trial.reached(1) and not run_end_of(trial) else []
    return [*shown, *stage_lines(trial, 0), *rejection_lines(trial), end_line(trial, 1)]


TRANSIENT_CASES: list[Case] = [
    Case(
        "P6",
        "429 with retry-after",
        "API: 429 rate_limit_error is transient; wait what retry-after says, then ask again",
        f"retried no sooner than retry-after ({RETRY_AFTER:g} s, tolerance "
        f"{RETRY_TOLERANCE:g} s) and the run completes (exit 0)",
        http_fault(rate_limited(RETRY_AFTER)),
        **retried_case(RETRY_AFTER),
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
        **retried_case(None),
        grade="【二】",
        outcomes="fail: gave up reporting success (exit 0), or failed after the retry; "
        "non-strict: not retried but the failure reported",
        wire_titles={CHAT: "503 overloaded"},
    ),
    Case(
        "P8",
        "an error event mid-stream, after a tool_use",
        "M3: a partial answer owes results no one will send; drop it and ask again (D22)",
        "the partial answer is dropped and asked again, nothing of it runs, the run finishes",
        broken_stream("error"),
        SURVIVED_STREAM,
        lambda trial: "the partial answer was dropped and asked again, the run finished",
        stream_evidence,
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
        SURVIVED_STREAM,
        lambda trial: "the partial answer was dropped and asked again, the run finished",
        stream_evidence,
        grade="【一】",
        outcomes="as P8",
    ),
    Case(
        id="P14",
        title="retry-after honoured",
        checks="API: a 429 says how long to wait (retry-after: 1); ask again no sooner",
        kept_when=f"the retry comes at least {LATER_RETRY_AFTER - TOLERANCE:g} s after the 429 "
        "and the run completes",
        script=after_fault(rate_limited(LATER_RETRY_AFTER)),
        rules=(
            Rule(named("ended_badly", lambda t: run_end_of(t) if gap(t) is None else None), FAIL),
            Rule(unretried_429, NON_STRICT),
            Rule(
                waited(
                    LATER_RETRY_AFTER,
                    TOLERANCE,
                    lambda t, g: f"retry-after ignored: {waited_line(g)}",
                ),
                NON_STRICT,
            ),
            Rule(retried_then, FAIL),
        ),
        kept=lambda trial: f"waited as told: {waited_line(gap(trial) or 0.0)}",
        evidence=lambda trial: [*stage_lines(trial, 0), end_line(trial, 1)],
    ),
    Case(
        id="P15",
        title="a persistent 529",
        checks="API: a 529 may last; retries are bounded and the run ends saying it failed",
        kept_when="the program gives up after a bounded number of tries with a non-zero exit",
        script=overloaded_for_good,
        rules=(
            Rule(endless, FAIL),
            Rule(still_waiting, INFO),
            Rule(gave_up_quietly, FAIL),
        ),
        kept=lambda t: f"gave up after {len(t.played(0))} tries and said so (exit not 0)",
        evidence=lambda trial: [*stage_lines(trial, 0)[-3:], trial.exit.line()],
        wire_titles={CHAT: "a persistent 503"},
    ),
    Case(
        id="P16",
        title="a proxy's HTML 502 page",
        checks="HTTP: a proxy in front of the API answers 502 with an HTML page, not JSON",
        kept_when="the 502 is retried (or reported), never a crash parsing the page",
        script=after_fault(proxy_error()),
        rules=(
            Rule(parse_crash, FAIL),
            Rule(page_then, FAIL),
            Rule(never_retried_502, NON_STRICT),
        ),
        kept=lambda trial: f"{retried_words(trial)}; the run reached its final answer",
        evidence=page_evidence,
    ),
    Case(
        id="P17",
        title="a 400 invalid_request_error",
        checks="API: a 400 is the request's fault; the identical request fails again",
        kept_when="the identical request is not sent again; the run reports the failure",
        script=after_fault(ApiError(400, "invalid_request_error", INVALID_REQUEST)),
        rules=(
            Rule(resent_400, NON_STRICT),
            Rule(ended_badly(1), FAIL),
            Rule(changed_request_went_on, KEPT),
        ),
        kept=lambda trial: "not retried; the run ended and said so (exit not 0)",
        evidence=not_retried_evidence,
    ),
]
