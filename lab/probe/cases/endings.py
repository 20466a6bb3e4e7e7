"""How a probe run ended, asked the same way by every case: the rows and lines cases share.

A row's promise takes the Trial and returns None when it holds, else one line saying what broke
(lab/probe/verdict.py). The facts themselves are promises of lab/kernel/promises.py judged over the
trial's one Record (`trial.record`): pairing (through `pairing_of`, which leaves a message
thread's own history to the API), no_crash, ended_honestly.
"""

from __future__ import annotations

from collections.abc import Callable

from lab.kernel import promises
from lab.probe.trial import Exchange, Trial
from lab.probe.wire_promises import pairing_of

Promise = Callable[[Trial], str | None]


def named(name: str, promise: Promise) -> Promise:
    """A promise built by a factory, given the name its table row shows."""
    promise.__name__ = promise.__qualname__ = name
    return promise


# ---------------------------------------------------------------- the end of a run
def ending(trial: Trial) -> str | None:
    """Why the run did not end well, or None: refused, stopped, failed, or quit silently."""
    if unpaired := pairing_of(trial):
        return unpaired
    if trial.exit.status is None:
        return "the run did not end"
    if promises.no_crash(trial.record):
        return f"the program failed (exit status {trial.exit.status})"
    return promises.ended_honestly(trial.record)


def run_end(trial: Trial, final: int) -> str | None:
    """The failure every fault case shares, or None: a later request was rejected; the run
    never ended; it reached its final answer (stage `final`) and then failed; it gave up and
    exited 0 (success reported after a failure)."""
    reached = trial.reached(final) is not None
    if pairing_of(trial):
        return "a later request was rejected"
    if trial.exit.status is None:
        return "the run never ended (stopped at the time limit)"
    if reached and promises.no_crash(trial.record):
        return "the final answer came, then the program failed"
    if not reached and trial.exit.clean:
        return "the run gave up, yet exited 0: success reported after a failure"
    return None


def then(said: str) -> Promise:
    """The run then did not end well (`ending`), put into `said`."""
    return named("ended_badly", lambda t: said.format(why) if (why := ending(t)) else None)


def ended_badly(final: int, said: str = "{}") -> Promise:
    """The row of `run_end`: its line, put into `said`."""
    return named("ended_badly", lambda t: said.format(why) if (why := run_end(t, final)) else None)


def gave_up_reporting(final: int) -> Promise:
    """Gave up before stage `final` and said so (exit not 0): not the case's rule."""
    return named(
        "gave_up_reporting",
        lambda t: "gave up" if t.reached(final) is None and not t.exit.clean else None,
    )


def rejected(said: str | None = None) -> Promise:
    """A request the API refused, or a history that breaks the pairing rule (`said`: the
    case's words for it; None: the pairing promise's own line)."""
    return named("rejected", lambda t: (said or why) if (why := pairing_of(t)) else None)


def hung(trial: Trial) -> str | None:
    """Stopped at the time limit."""
    return "the run did not end" if trial.exit.status is None else None


def end_line(trial: Trial, final: int) -> str:
    """One line: did the run reach its final answer (stage `final`), and how did it end."""
    reached = trial.reached(final)
    if reached is None:
        return f"the run never reached its final answer; {trial.exit.line()}"
    return f"the run reached its final answer (request #{reached.number}); {trial.exit.line()}"


# ---------------------------------------------------------------- a stop at stage 0 (P18-P20)
def stopped_uncleanly(trial: Trial) -> str | None:
    """Stopped at stage 0's answer, with a rejection or a hang."""
    if trial.reached(1) is not None or not (trial.rejections() or trial.exit.status is None):
        return None
    return run_end(trial, 1) or "the run did not end cleanly"


def stopped_quietly(silent: str) -> Promise:
    """Stopped at stage 0's answer and exited 0: `silent` says what that hid."""
    return named(
        "stopped_quietly",
        lambda t: silent if t.reached(1) is None and t.exit.clean else None,
    )


def stopped_and_said(said: str) -> Promise:
    """Stopped at stage 0's answer, with a non-zero exit (the rows before took the rest)."""
    return named("stopped_and_said", lambda t: said if t.reached(1) is None else None)


# ---------------------------------------------------------------- evidence lines
def answered_line(trial: Trial, tool_id: str) -> str:
    found = trial.answer_of(tool_id)
    if found is None:
        return f"{tool_id}: no answer in any later request"
    exchange, how = found
    said = {"is_error": "a tool_result, is_error true", "result": "a tool_result, no is_error"}
    ran = trial.ran(tool_id)
    canary = f", canary seen {ran[1]}" if ran else ""
    return f"request #{exchange.number} answers {tool_id}: {said.get(how, 'as text')}{canary}"


def the_end(trial: Trial) -> list[str]:
    """The evidence every case ends with: the rejections, the exit status and error line."""
    return [*rejection_lines(trial), trial.exit.line()]


def rejection_lines(trial: Trial) -> list[str]:
    return [f"rejected: {e.line()}" for e in trial.rejections()]


def attempts(trial: Trial, stage: int) -> list[Exchange]:
    """The requests that stood at `stage`, in order."""
    return [e for e in trial.exchanges if e.played and e.played.stage == stage]


def stage_lines(trial: Trial, stage: int) -> list[str]:
    return [e.line() for e in attempts(trial, stage)]


def as_sent(block: dict) -> tuple:
    """What a block must keep when the turn is sent back: its kind and its content."""
    if block.get("type") in ("tool_use", "server_tool_use"):
        return (block.get("type"), block.get("id"), block.get("name"), block.get("input"))
    if block.get("type") == "web_search_tool_result":  # its hits are the API's: opaque here
        return (block.get("type"), block.get("tool_use_id"))
    return (block.get("type"), block.get("text"))


def threaded(request: Exchange) -> bool:
    """A message-thread `continue`: the server holds the history, the request only what is new
    (the SDK's tool runner does this by default), so earlier turns are not re-sent at all."""
    body = request.body if isinstance(request.body, dict) else {}
    thread = body.get("thread")
    return isinstance(thread, dict) and thread.get("type") == "continue"
