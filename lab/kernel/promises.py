"""The promises a harness keeps, each written once as a judge over the record of a run.

A judge takes a Record (lab/kernel/record.py) and returns None when the promise holds, or one line
saying what broke. The lab's property invariants, its experiments' observables, `lab.testing.wire`
and the probe all call these judges wherever they mean the same promise.

An oracle never shares code with what it judges: nothing here imports the lab's harness, and of
the fake API only its reader of a history's shape (`lab/model/tool_pairs.py`), on purpose: a
judge that reads a history otherwise than the API it stands for reads calls lost that the API
saw answered (two results sent as two user messages in a row). Pairing is read from the
requests themselves, deny rules are read from their text with this module's own small matcher
(`denying_rule`), schemas with jsonschema.
"""

from __future__ import annotations

import ast
import fnmatch
import json
import posixpath
import re
import shlex
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lab.kernel.record import (
    Record,
    Request,
    blocks_in,
    messages_of,
    of_type,
    offered,
    ran_ids,
    received,
    result_for,
)
from lab.kernel.schema import jsonschema
from lab.model.tool_pairs import leading_result_ids, tool_use_ids, turns

Judge = Callable[[Record], str | None]
TRANSIENT_STATUS = (408, 409, 429)  # besides every 5xx: the API's own list of retryable errors
TRANSIENT_IN_STREAM = ("overloaded_error", "api_error", "rate_limit_error", "connection_dropped")
WAIT_TOLERANCE_S = 0.05  # how much sooner than retry-after a request may come (clock jitter)


# ---------------------------------------------------------------- the loop
def continuation(record: Record) -> str | None:
    """An answer whose content holds a tool_use block is answered: a later request the API
    takes carries a tool_result for each call, whatever stop_reason the answer declared. (The
    answer that meets the harness's turn limit is exempt: the limit ends the run.)"""
    answers = [r for r in record.requests if r.reply.kind in ("answer", "cut")]
    last = answers[-1].number if answers else None
    for request, uses in received(record):
        if record.ending.reason == "turn_limit" and request.number == last:
            continue
        for use in uses:
            if result_for(record, str(use.get("id")), request.number) is None:
                return (
                    f"request #{request.number}'s answer called {use.get('name')} "
                    f"({use.get('id')}, declared {request.reply.declared}) and no later request "
                    "the API took answers it"
                )
    return None


def history_problem(messages: Sequence[dict]) -> str | None:
    """The pairing rule read from a history as the API reads it (consecutive messages of one
    role are one turn, `tool_pairs.turns`): each assistant turn's tool_use blocks are answered,
    each exactly once, by the tool_result blocks that open the very next turn (in any order),
    and every tool_result of a turn answers a call of the turn right before it."""
    read = turns(messages)
    for i, turn in enumerate(read):
        previous = read[i - 1] if i > 0 else None
        if turn.role == "user":
            results = [b.get("tool_use_id") for b in of_type(turn.blocks, "tool_result")]
            calls = tool_use_ids(previous.blocks) if previous else []
            if results and not set(results) <= set(calls):
                before = previous.index if previous else turn.index - 1
                return (
                    f"messages.{turn.index} answers {results}, which messages.{before} did not call"
                )
        if turn.role != "assistant":
            continue
        calls = tool_use_ids(turn.blocks)
        if not calls:
            continue
        following = read[i + 1] if i + 1 < len(read) else None
        answers = leading_result_ids(following.blocks) if following else []
        if sorted(map(str, answers)) != sorted(map(str, calls)):
            said = answers or "nothing"
            return f"messages.{turn.index} calls {calls}; the next message answers {said}"
    return None


def pairing(record: Record) -> str | None:
    """Every request is one the API takes, and its history keeps the pairing rule (see
    `history_problem`): no tool_use is left unanswered, none is answered twice or out of place."""
    for request in record.requests:
        if request.reply.kind == "rejected":
            return f"request #{request.number} was rejected: {request.reply.error}"
        problem = history_problem(messages_of(request.body))
        if problem:
            return f"request #{request.number}: {problem}"
    return None


def termination(record: Record) -> str | None:
    """The run stops: nothing is asked past the script's last answer, and no more answers are
    asked for than the harness's own turn limit allows."""
    extra = [r for r in record.requests if r.reply.kind == "extra"]
    if extra:
        return f"request #{extra[0].number} asked past the script's last answer"
    answers = sum(1 for r in record.requests if r.reply.kind in ("answer", "cut"))
    if record.answer_limit is not None and answers > record.answer_limit:
        return f"{answers} answers asked for; the turn limit is {record.answer_limit}"
    return None


def no_crash(record: Record) -> str | None:
    """Whatever the model answers, the harness ends without an exception (or a failing exit)."""
    if record.ending.crashed:
        return record.ending.line or f"the run crashed ({record.ending.reason})"
    return None


def ended_honestly(record: Record) -> str | None:
    """A run that reports success (no crash, exit 0) reached the script's final answer: giving
    up and exiting 0 tells the caller that all went well."""
    if not record.ending.crashed and record.finished is False:
        return "the program exited 0 without asking for its final answer (gave up silently)"
    return None


# ---------------------------------------------------------------- the model's odd calls
def _answered_with_error(
    record: Record, want: Callable[[dict, dict[str, dict]], str]
) -> str | None:
    tools = offered(record)
    for request, uses in received(record):
        for use in uses:
            why = want(use, tools)
            if not why:
                continue
            result = result_for(record, str(use.get("id")), request.number)
            if result is None or not result.get("is_error"):
                got = "no result" if result is None else "a result without is_error"
                return f"{why} got {got}"
    return None


def unknown_tool_answered(record: Record) -> str | None:
    """A call to a tool the harness never offered gets an is_error tool_result."""

    def unknown(use: dict, tools: dict[str, dict]) -> str:
        return (
            "" if use.get("name") in tools else f"unknown tool {use.get('name')} ({use.get('id')})"
        )

    return _answered_with_error(record, unknown)


def invalid_input_answered(record: Record) -> str | None:
    """A call whose input breaks the tool's input_schema gets an is_error tool_result."""

    def invalid(use: dict, tools: dict[str, dict]) -> str:
        schema = tools.get(str(use.get("name")))
        if schema is None or _valid(use.get("input"), schema):
            return ""
        return f"{use.get('name')} ({use.get('id')}) with invalid input {use.get('input')}"

    return _answered_with_error(record, invalid)


def _valid(value: object, schema: dict) -> bool:
    checker = jsonschema()
    try:
        checker.validate(value, schema)
    except checker.ValidationError:
        return False
    except checker.SchemaError:
        return True  # a schema the validator cannot read judges nothing
    return True


# ---------------------------------------------------------------- the API's faults
def transient(request: Request) -> bool:
    """A fault that asking again may cure: a 408/409/429/5xx, a stream that broke."""
    reply = request.reply
    if reply.kind == "partial":
        return reply.error.split(":", 1)[0] in TRANSIENT_IN_STREAM
    return reply.kind == "fault" and (request.status in TRANSIENT_STATUS or request.status >= 500)


def retried(record: Record, patience: int = 1) -> str | None:
    """A transient fault is asked again: a run may end on one only after `patience` retries of
    the same request (the lab's harness promises 5; any harness at least one)."""
    streak = 0
    for request in reversed(record.requests):
        if not transient(request):
            break
        streak += 1
    if streak and streak - 1 < patience:
        last = record.requests[-1]
        what = last.reply.error or f"HTTP {last.status}"
        return f"a {what} ended the run after {streak - 1} of {patience} retries"
    return None


def waited_as_told(record: Record, tolerance: float = WAIT_TOLERANCE_S) -> str | None:
    """After a fault whose retry-after header asks for a wait, the next request comes no sooner
    (within `tolerance` seconds)."""
    requests = list(record.requests)
    for request, following in zip(requests, requests[1:], strict=False):
        asked = request.reply.retry_after
        if asked is None:
            continue
        gap = following.at - request.at
        if gap < asked - tolerance:
            return (
                f"request #{following.number} came {gap:.2f} s after request #{request.number}; "
                f"retry-after asked for {asked:g} s"
            )
    return None


def partial_dropped(record: Record) -> str | None:
    """A stream that broke part-way delivered a draft: none of its calls is sent back or run."""
    whole = {b.get("id") for _, uses in received(record) for b in uses}
    ran = ran_ids(record)
    for request in record.requests:
        if request.reply.kind != "partial":
            continue
        for use in of_type(list(request.reply.blocks), "tool_use"):
            call = use.get("id")
            if call in whole:
                continue
            if call in ran:
                return f"{use.get('name')} ({call}) from the broken answer of #{request.number} ran"
            for later in record.requests:
                if later.number > request.number and _mentions(later, call):
                    return f"request #{later.number} sends back {call} from a broken answer"
    return None


def _mentions(request: Request, call: object) -> bool:
    for message in messages_of(request.body):
        for block in blocks_in(message):
            if block.get("id") == call or block.get("tool_use_id") == call:
                return True
    return False


def cut_calls_not_run(record: Record) -> str | None:
    """A call whose input JSON max_tokens cut off never runs: what arrived is not the call."""
    ran = ran_ids(record)
    for request in record.requests:
        if request.reply.kind != "cut":
            continue
        uses = of_type(list(request.reply.blocks), "tool_use")
        if uses and uses[-1].get("id") in ran:
            cut = uses[-1]
            return f"{cut.get('name')} ({cut.get('id')}) ran, though max_tokens cut its input"
    return None


def block_key(block: dict) -> tuple:
    """What identifies a block the model sent: its text, or its call's id, name and input."""
    if block.get("type") == "text":
        return ("text", block.get("text"))
    if block.get("type") == "tool_use":
        return (
            "tool_use",
            block.get("id"),
            block.get("name"),
            json.dumps(block.get("input"), sort_keys=True),
        )
    return (block.get("type"),)


def what_changed(wanted: Sequence[dict], sent: Sequence[dict]) -> str:
    """What differs between an answer's blocks and the blocks sent back, in words: its
    thinking or text dropped, a call missing, renamed or with its input changed; else its
    blocks reordered."""
    said = []
    thinking = [b for b in wanted if b.get("type") in ("thinking", "redacted_thinking")]
    kept = [b for b in sent if b.get("type") in ("thinking", "redacted_thinking")]
    if len(kept) < len(thinking):
        said.append(f"{len(thinking) - len(kept)} of its {len(thinking)} thinking block(s) dropped")
    texts = [b.get("text") for b in of_type(list(wanted), "text")]
    back = [b.get("text") for b in of_type(list(sent), "text")]
    if missing := [t for t in texts if t not in back]:
        said.append(f"{len(missing)} of its {len(texts)} text block(s) dropped")
    calls = {b.get("id"): b for b in of_type(list(sent), "tool_use")}
    for use in of_type(list(wanted), "tool_use"):
        id, name, returned = use.get("id"), use.get("name"), calls.get(use.get("id"))
        if returned is None:
            said.append(f"{id} missing")
        elif returned.get("name") != name:
            said.append(f"{id} renamed {name} → {returned.get('name')}")
        elif returned.get("input") != use.get("input"):
            said.append(f"{id}'s input changed")
    return "; ".join(said) or "its blocks reordered"


def resent_whole(record: Record) -> str | None:
    """An answer that held tool calls is sent back whole: one assistant turn (consecutive
    assistant messages are one, as the API reads them) with its blocks, text and tool_use, in
    order, with the same ids, names and inputs. The line says what changed: a call rewritten,
    text dropped, the turn split in two (its calls in two turns, results between)."""
    for request, uses in received(record):
        if request.reply.kind != "answer" or not uses:
            continue
        ids = {u.get("id") for u in uses}
        want = [block_key(b) for b in request.reply.blocks]
        for later in record.requests:
            if later.number <= request.number:
                continue
            holders = [
                t
                for t in turns(messages_of(later.body))
                if t.role == "assistant" and ids & set(tool_use_ids(t.blocks))
            ]
            if len(holders) > 1:
                where = f"request #{later.number} splits #{request.number}'s answer"
                return f"{where} into {len(holders)} turns"
            if holders and [block_key(b) for b in holders[0].blocks] != want:
                changed = what_changed(request.reply.blocks, holders[0].blocks)
                return f"request #{later.number} sends #{request.number}'s answer back: {changed}"
    return None


# ---------------------------------------------------------------- permissions
# The rule language, read from its documentation: which tools a rule name covers.
RULE_NAMES = {
    "Bash": ("bash",),
    "Read": ("read_file", "glob"),
    "Edit": ("edit_file", "write_file"),
    "Write": ("write_file",),
}
RULE = re.compile(r"\s*(\w+)\s*(?:\((.*)\))?\s*", re.DOTALL)
DENY_LIST = re.compile(r"deny list: (.+)", re.DOTALL)  # the course's substring rules, as shown
COMMAND_BREAKS = frozenset({"&&", "||", ";", "|", "|&", "&", ";;"})


def command_parts(command: str) -> list[str]:
    """The simple commands of a command line, split on && || ; | & and newlines (quotes kept
    together by shlex); a line shlex cannot read (an open quote) stays whole."""
    parts: list[str] = []
    for line in command.splitlines():
        lexer = shlex.shlex(line, posix=True, punctuation_chars=";&|")
        lexer.whitespace_split = True
        try:
            tokens = list(lexer)
        except ValueError:
            parts += [line.strip()] if line.strip() else []
            continue
        current: list[str] = []
        for token in [*tokens, ";"]:
            if token in COMMAND_BREAKS:
                parts += [" ".join(current)] if current else []
                current = []
            else:
                current.append(token)
    return parts


def command_matches(spec: str, part: str) -> bool:
    """`rm *` covers `rm` alone and `rm` followed by anything (a word, not `rmdir`)."""
    spec = spec.strip()
    if spec.endswith(":*"):
        spec = spec[:-2] + " *"
    if spec.endswith(" *"):
        core = spec[:-2]
        return fnmatch.fnmatchcase(part, core) or fnmatch.fnmatchcase(part, core + " *")
    return fnmatch.fnmatchcase(part, spec)


def path_matches(glob: str, path: str, workspace: str) -> bool:
    def absolute(p: str) -> str:
        return posixpath.normpath(p if p.startswith("/") else posixpath.join(workspace, p))

    return fnmatch.fnmatchcase(absolute(path), absolute(glob.strip()))


def denying_rule(
    rules: Sequence[str], name: str, input: Mapping[str, Any], workspace: str = "/workspace"
) -> str | None:
    """The first deny rule (as text) that covers a call; a shell rule covers a compound command
    when it covers any of its parts."""
    command = str(input.get("command", "")) if isinstance(input, Mapping) else ""
    path = input.get("path") if isinstance(input, Mapping) else None
    for text in rules:
        listed = DENY_LIST.fullmatch(text)
        if listed:
            needle = ast.literal_eval(listed.group(1))
            if name == "bash" and str(needle) in command:
                return text
            continue
        found = RULE.fullmatch(text)
        if not found:
            continue
        tool, spec = found.groups()
        if name not in RULE_NAMES.get(tool, (tool,)):
            continue
        if spec is None:
            return text
        if tool == "Bash" and any(command_matches(spec, p) for p in command_parts(command)):
            return text
        if tool != "Bash" and isinstance(path, str) and path_matches(spec, path, workspace):
            return text
    return None


def deny_dominance(record: Record) -> str | None:
    """A call that a deny rule covers never runs, whatever the human said, the hooks decided
    or the rules' order (a compound command is covered when any part is)."""
    for call in record.ran or ():
        rule = denying_rule(record.deny, call.name, call.input, record.workspace)
        if rule:
            shown = json.dumps(dict(call.input), ensure_ascii=False)
            return f"{call.id} {call.name} {shown} ran although {rule!r} denies it"
    return None


def denied_never_ran(record: Record) -> str | None:
    """A call the harness's rules deny leaves no trace: in a run whose only writing call is
    the denied one (the probe's P11 and P23), no file appears in the working folder."""
    if record.new_files:
        return f"{', '.join(record.new_files)} appeared"
    return None


PROMISES: dict[str, Judge] = {
    "continuation": continuation,
    "pairing": pairing,
    "termination": termination,
    "no_crash": no_crash,
    "ended_honestly": ended_honestly,
    "unknown_tool_answered": unknown_tool_answered,
    "invalid_input_answered": invalid_input_answered,
    "retried": retried,
    "waited_as_told": waited_as_told,
    "partial_dropped": partial_dropped,
    "cut_calls_not_run": cut_calls_not_run,
    "resent_whole": resent_whole,
    "deny_dominance": deny_dominance,
    "denied_never_ran": denied_never_ran,
}


def broken_promises(record: Record, names: Sequence[str] | None = None) -> list[tuple[str, str]]:
    """(promise, what broke) for each promise the run breaks, in table order."""
    chosen = names or list(PROMISES)
    return [(name, why) for name in chosen if (why := PROMISES[name](record))]
