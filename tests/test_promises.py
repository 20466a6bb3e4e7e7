"""Every promise's judge is mutation-tested: hand mutants of each judge (weakened or inverted
copies), each killed by a test below; none survives. Mutated harnesses (a Switch) are in
tests/test_promises_on_runs.py.

Each judge has a battery (`BATTERY[name]`): records written by hand where the promise holds or
breaks. The real judge passes its battery; every mutant in `MUTANTS` fails it.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Callable

import pytest
from hypothesis import find
from hypothesis import strategies as st
from hypothesis.errors import NoSuchExample

from lab.kernel import promises
from lab.kernel.promises import PROMISES, Judge
from lab.kernel.record import Ending, Kind, Ran, Record, Reply, Sent, received, result_for

TOOLS = [
    {
        "name": "read_file",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        },
    }
]
USE = {"type": "tool_use", "id": "t1", "name": "read_file", "input": {"path": "a"}}
SAY = {"type": "text", "text": "Reading."}
DONE = ({"type": "text", "text": "done."},)
PROMPT = {"role": "user", "content": "go"}


def result(id: str = "t1", is_error: bool = False) -> dict:
    return {"type": "tool_result", "tool_use_id": id, "content": "x", "is_error": is_error}


def req(n: int, messages=(), kind: Kind = "answer", blocks=DONE, declared="end_turn", **more):
    status = more.pop("status", 200)
    at = more.pop("at", float(n))
    body = {"messages": [PROMPT, *messages], "tools": TOOLS}
    return Sent(n, body, Reply(kind, tuple(blocks), declared, **more), status, at)


def rec(*requests, reason="done", crashed=False, ran=None, deny=(), limit=None) -> Record:
    return Record(list(requests), Ending(reason, crashed), ran=ran, deny=deny, answer_limit=limit)


def called(*blocks, declared="tool_use", n=1) -> Sent:
    return req(n, blocks=blocks, declared=declared)


def answered(blocks=(SAY, USE), results=None, n=2, kind: Kind = "answer") -> Sent:
    return req(
        n,
        [
            {"role": "assistant", "content": list(blocks)},
            {"role": "user", "content": list(results or (result(),))},
        ],
        kind,
    )


# ---------------------------------------------------------------- the batteries: (record, broken?)
BATTERY: dict[str, list[tuple[str, Record, bool]]] = {
    "continuation": [
        (
            "a call declared end_turn, answered",
            rec(called(SAY, USE, declared="end_turn"), answered()),
            False,
        ),
        ("a call declared end_turn, dropped", rec(called(SAY, USE, declared="end_turn")), True),
        ("a call declared tool_use, dropped", rec(called(SAY, USE)), True),
        ("answered only in a rejected request", rec(called(USE), answered(kind="rejected")), True),
        ("the turn limit ends the run", rec(called(USE), reason="turn_limit"), False),
        (  # P4: an unreadable call is still owed its result
            "an unreadable call dropped",
            rec(called({**USE, "input": '{"path": }'}), req(2, [])),
            True,
        ),
        (
            "an unreadable call answered",
            rec(called({**USE, "input": '{"path": }'}), answered()),
            False,
        ),
    ],
    "pairing": [
        ("results lead the next message", rec(called(USE), answered((USE,))), False),
        ("a rejected request", rec(called(USE), answered((USE,), kind="rejected")), True),
        (
            "text before the results (the API's rule, read here)",
            rec(called(USE), answered((USE,), ({"type": "text", "text": "r:"}, result()))),
            True,
        ),
        (
            "two results in another order than the calls",
            rec(
                called(USE, {**USE, "id": "t2"}),
                answered((USE, {**USE, "id": "t2"}), (result("t2"), result("t1"))),
            ),
            False,
        ),
        (  # issue 27, item 8: consecutive user messages are one turn, as the API reads them
            "two results as two user messages in a row",
            rec(
                called(USE, {**USE, "id": "t2"}),
                req(
                    2,
                    [
                        {"role": "assistant", "content": [USE, {**USE, "id": "t2"}]},
                        {"role": "user", "content": [result()]},
                        {"role": "user", "content": [result("t2")]},
                    ],
                ),
            ),
            False,
        ),
        ("a call answered twice", rec(called(USE), answered((USE,), (result(), result()))), True),
        (
            "a result answering nothing",
            rec(req(1, [{"role": "user", "content": [result("t9")]}])),
            True,
        ),
    ],
    "ended_honestly": [
        ("exit 0 at the final answer", Record([], Ending("exit 0"), finished=True), False),
        ("exit 0 short of the final answer", Record([], Ending("exit 0"), finished=False), True),
        ("a failure said so", Record([], Ending("exit 1", True), finished=False), False),
        ("nothing known of the end", Record([], Ending("returned")), False),
    ],
    "denied_never_ran": [
        ("nothing appeared", Record([], Ending("exit 0")), False),
        ("the denied command's file", Record([], Ending("exit 0"), new_files=("x",)), True),
    ],
    "termination": [
        ("stops at the last answer", rec(called(USE), answered()), False),
        ("asks past the script", rec(called(USE), answered(), req(3, kind="extra")), True),
        ("more answers than its limit", rec(called(USE), answered(), limit=1), True),
        ("a side call is no answer", rec(req(1, kind="side"), called(USE, n=2), limit=1), False),
    ],
    "no_crash": [
        ("ended on its own terms", rec(called(USE), answered()), False),
        ("raised", rec(called(USE), crashed=True, reason="crash"), True),
    ],
    "unknown_tool_answered": [
        (
            "is_error for an unknown tool",
            rec(called({**USE, "name": "nope"}), answered(results=(result(is_error=True),))),
            False,
        ),
        ("no is_error for an unknown tool", rec(called({**USE, "name": "nope"}), answered()), True),
        ("no result for an unknown tool", rec(called({**USE, "name": "nope"}), req(2, [])), True),
        ("a known tool needs no error", rec(called(USE), answered()), False),
    ],
    "invalid_input_answered": [
        (
            "is_error for a bad input",
            rec(called({**USE, "input": {"path": 7}}), answered(results=(result(is_error=True),))),
            False,
        ),
        (
            "no is_error for a bad input",
            rec(called({**USE, "input": {"path": 7}}), answered()),
            True,
        ),
        ("a valid input needs no error", rec(called(USE), answered()), False),
    ],
    "retried": [
        (
            "a 529, then asked again",
            rec(req(1, kind="fault", status=529, error="overloaded_error"), called(USE, n=2)),
            False,
        ),
        (
            "a 529 was the last word",
            rec(called(USE), req(2, kind="fault", status=529, error="overloaded_error")),
            True,
        ),
        (
            "a broken stream was the last word",
            rec(req(1, kind="partial", error="overloaded_error: x")),
            True,
        ),
        (
            "a 400 is not retried",
            rec(req(1, kind="fault", status=400, error="invalid_request_error")),
            False,
        ),
    ],
    "waited_as_told": [
        (
            "waited the second asked for",
            rec(req(1, kind="fault", status=429, retry_after=1.0, at=0.0), req(2, at=1.0)),
            False,
        ),
        (
            "within the tolerance",
            rec(req(1, kind="fault", status=429, retry_after=1.0, at=0.0), req(2, at=0.98)),
            False,
        ),
        (
            "asked again at once",
            rec(req(1, kind="fault", status=429, retry_after=1.0, at=0.0), req(2, at=0.04)),
            True,
        ),
    ],
    "partial_dropped": [
        (
            "the draft dropped",
            rec(
                req(1, kind="partial", blocks=({**USE, "id": "t9"},)),
                called(USE, n=2),
                answered(n=3),
            ),
            False,
        ),
        (
            "the draft's call sent back",
            rec(
                req(1, kind="partial", blocks=({**USE, "id": "t9"},)),
                answered(({**USE, "id": "t9"},), (result("t9"),)),
            ),
            True,
        ),
        (
            "the draft's call ran",
            rec(req(1, kind="partial", blocks=({**USE, "id": "t9"},)), ran=[Ran("t9")]),
            True,
        ),
    ],
    "cut_calls_not_run": [
        (
            "the whole call ran, the cut one did not",
            rec(req(1, kind="cut", blocks=(USE, {**USE, "id": "t5"})), ran=[Ran("t1")]),
            False,
        ),
        (
            "the cut call ran",
            rec(req(1, kind="cut", blocks=(USE, {**USE, "id": "t5"})), ran=[Ran("t5")]),
            True,
        ),
    ],
    "resent_whole": [
        ("sent back whole", rec(called(SAY, USE), answered((SAY, USE))), False),
        ("its text stripped", rec(called(SAY, USE), answered((USE,))), True),
        ("its call renamed", rec(called(SAY, USE), answered((SAY, {**USE, "name": "cat"}))), True),
        (
            "split into two turns",
            rec(
                called(USE, {**USE, "id": "t2"}),
                req(
                    2,
                    [
                        {"role": "assistant", "content": [USE]},
                        {"role": "user", "content": [result()]},
                        {"role": "assistant", "content": [{**USE, "id": "t2"}]},
                        {"role": "user", "content": [result("t2")]},
                    ],
                ),
            ),
            True,
        ),
    ],
    "deny_dominance": [
        (  # paths are compared absolute: a relative rule covers the absolute path, and back
            "a relative rule, an absolute path",
            rec(ran=[Ran("a", "read_file", {"path": "/workspace/.env"})], deny=["Read(.env)"]),
            True,
        ),
        (
            "an absolute rule, a relative path",
            rec(ran=[Ran("a", "read_file", {"path": "./.env"})], deny=["Read(/workspace/.env)"]),
            True,
        ),
        (
            "a removal hidden in a compound ran",
            rec(ran=[Ran("a", "bash", {"command": "ls && rm -rf src"})], deny=["Bash(rm *)"]),
            True,
        ),
        (
            "a removal alone ran",
            rec(ran=[Ran("a", "bash", {"command": "rm x"})], deny=["Bash(rm *)"]),
            True,
        ),
        (
            "rmdir is another word",
            rec(ran=[Ran("a", "bash", {"command": "rmdir x"})], deny=["Bash(rm *)"]),
            False,
        ),
        (
            "a harmless command ran",
            rec(ran=[Ran("a", "bash", {"command": "ls | wc -l"})], deny=["Bash(rm *)"]),
            False,
        ),
        (
            "the course's deny list",
            rec(ran=[Ran("a", "bash", {"command": "sudo ls"})], deny=["deny list: 'sudo'"]),
            True,
        ),
        (
            "a path rule",
            rec(ran=[Ran("a", "read_file", {"path": "/etc/passwd"})], deny=["Read(/etc/**)"]),
            True,
        ),
        (
            "a path rule elsewhere",
            rec(ran=[Ran("a", "read_file", {"path": "notes.txt"})], deny=["Read(/etc/**)"]),
            False,
        ),
        (
            "quotes keep a part whole",
            rec(ran=[Ran("a", "bash", {"command": "echo 'a; rm x'"})], deny=["Bash(rm *)"]),
            False,
        ),
    ],
}


def passes(name: str, judge: Judge) -> None:
    """The judge says broken exactly where the battery says so."""
    for title, record, broken in BATTERY[name]:
        assert (judge(record) is not None) is broken, f"{name}: {title}"


@pytest.mark.parametrize("name", list(PROMISES))
def test_each_judge_passes_its_battery(name):
    passes(name, PROMISES[name])


# ---------------------------------------------------------------- the hand mutants
def always_holds(record: Record) -> str | None:
    return None


def trusts_declared(record: Record) -> str | None:  # continuation: the declaration, not content
    for request, uses in received(record):
        if request.reply.declared == "tool_use" and uses:
            if not any(u for u in record.requests if u.number > request.number):
                return "dropped"
    return None


def counts_rejected(record: Record) -> str | None:  # continuation: a rejected request answers
    for request, uses in received(record):
        for use in uses:
            later = [r for r in record.requests if r.number > request.number]
            if not any(use["id"] in str(r.body) for r in later):
                return "dropped"
    return None


def no_limit_exemption(record: Record) -> str | None:
    return promises.continuation(Record(record.requests, Ending("done"), ran=record.ran))


def skips_unreadable(record: Record) -> str | None:  # P4: an unreadable call is owed nothing
    for request, uses in received(record):
        for use in uses:
            if (
                isinstance(use.get("input"), dict)
                and result_for(record, use["id"], request.number) is None
            ):
                return "dropped"
    return None


def only_rejections(record: Record) -> str | None:
    return next((f"#{r.number}" for r in record.requests if r.reply.kind == "rejected"), None)


def only_history(record: Record) -> str | None:
    return next(
        (
            p
            for r in record.requests
            if (p := promises.history_problem(promises.messages_of(r.body)))
        ),
        None,
    )


def call_order(record: Record) -> str | None:  # pairing, stricter than the API
    for r in record.requests:
        messages = promises.messages_of(r.body)
        for i, m in enumerate(messages[:-1]):
            calls = [b["id"] for b in promises.of_type(promises.blocks_in(m), "tool_use")]
            got = [b.get("tool_use_id") for b in promises.blocks_in(messages[i + 1])][: len(calls)]
            if calls and got != calls:
                return "order"
    return promises.pairing(record)


def per_message(record: Record) -> str | None:  # pairing: each message alone, none combined
    for r in record.requests:
        messages = promises.messages_of(r.body)
        for i, m in enumerate(messages[:-1]):
            calls = [b["id"] for b in promises.of_type(promises.blocks_in(m), "tool_use")]
            results = promises.of_type(promises.blocks_in(messages[i + 1]), "tool_result")
            if calls and sorted(b.get("tool_use_id") for b in results) != sorted(calls):
                return "unanswered"
    return promises.pairing(record)


def once_is_enough(record: Record) -> str | None:  # pairing: a call answered twice passes
    for r in record.requests:
        messages = promises.messages_of(r.body)
        for i, m in enumerate(messages[:-1]):
            calls = {b["id"] for b in promises.of_type(promises.blocks_in(m), "tool_use")}
            results = promises.of_type(promises.blocks_in(messages[i + 1]), "tool_result")
            if calls and {b.get("tool_use_id") for b in results} != calls:
                return "unanswered"
    return next((f"#{r.number}" for r in record.requests if r.reply.kind == "rejected"), None)


def finished_only(record: Record) -> str | None:  # ended_honestly: a failing exit counts too
    return "short" if record.finished is False else None


def no_limit(record: Record) -> str | None:
    return promises.termination(Record(record.requests, record.ending))


def counts_side_calls(record: Record) -> str | None:
    answers = sum(1 for r in record.requests if r.reply.complete)
    limit = record.answer_limit
    return "over" if limit is not None and answers > limit else promises.termination(record)


def inverted(judge: Judge) -> Judge:
    return lambda record: None if judge(record) else "inverted"


def any_result(record: Record) -> str | None:  # unknown tool: any result will do
    for request, uses in received(record):
        for use in uses:
            if (
                use.get("name") not in promises.offered(record)
                and result_for(record, use["id"], request.number) is None
            ):
                return "no result"
    return None


def every_call_needs_error(record: Record) -> str | None:
    for request, uses in received(record):
        for use in uses:
            found = result_for(record, use["id"], request.number)
            if found is None or not found.get("is_error"):
                return "no error"
    return None


def any_fault_counts(record: Record) -> str | None:  # retried: a 400 is retryable too
    last = record.requests[-1] if record.requests else None
    return "ended on a fault" if last and last.reply.kind in ("fault", "partial") else None


def no_tolerance(record: Record) -> str | None:
    return promises.waited_as_told(record, tolerance=0.0)


def only_sent_back(record: Record) -> str | None:
    return promises.partial_dropped(Record(record.requests, record.ending))


def only_ran(record: Record) -> str | None:
    ran = promises.ran_ids(record)
    for r in record.requests:
        if r.reply.kind == "partial" and any(b.get("id") in ran for b in r.reply.blocks):
            return "ran"
    return None


def first_call_cut(record: Record) -> str | None:
    ran = promises.ran_ids(record)
    for r in record.requests:
        uses = promises.of_type(list(r.reply.blocks), "tool_use")
        if r.reply.kind == "cut" and uses and uses[0].get("id") in ran:
            return "ran"
    return None


def only_tool_uses(record: Record) -> str | None:  # the old P5: text blocks are not compared
    for _, uses in received(record):
        want = [promises.block_key(b) for b in uses]
        for later in record.requests:
            for m in promises.messages_of(later.body):
                held = promises.of_type(promises.blocks_in(m), "tool_use")
                if m.get("role") == "assistant" and {b.get("id") for b in held} & {
                    u["id"] for u in uses
                }:
                    if [promises.block_key(b) for b in held] != want:
                        return "changed"
    return None


def ignores_splits(record: Record) -> str | None:  # only a message holding every call counts
    for r, uses in received(record):
        if not uses:
            continue
        want = [promises.block_key(b) for b in r.reply.blocks]
        ids = {u["id"] for u in uses}
        for later in record.requests:
            for m in promises.messages_of(later.body):
                held = {b.get("id") for b in promises.blocks_in(m)}
                if (
                    m.get("role") == "assistant"
                    and ids <= held
                    and [promises.block_key(b) for b in promises.blocks_in(m)] != want
                ):
                    return "changed"
    return None


def whole_line(record: Record) -> str | None:  # deny: the rule matched against the whole line
    for call in record.ran or ():
        command = str(call.input.get("command", ""))
        for rule in record.deny:
            spec = rule.removeprefix("Bash(").removesuffix(")")
            if rule.startswith("Bash(") and fnmatch.fnmatchcase(command, spec):
                return rule
    return None


def no_word_boundary(record: Record) -> str | None:  # deny: `rm *` read as the prefix `rm`
    for call in record.ran or ():
        for part in promises.command_parts(str(call.input.get("command", ""))):
            for rule in record.deny:
                spec = rule.removeprefix("Bash(").removesuffix(")").removesuffix(" *")
                if rule.startswith("Bash(") and part.startswith(spec):
                    return rule
    return promises.deny_dominance(record)


MUTANTS: dict[str, list[tuple[str, Callable[[Record], str | None]]]] = {
    "continuation": [
        ("always holds", always_holds),
        ("trusts the declared stop_reason (P1)", trusts_declared),
        ("a rejected request counts as answering", counts_rejected),
        ("no turn-limit exemption", no_limit_exemption),
        ("an unreadable call is owed nothing (P4)", skips_unreadable),
        ("inverted", inverted(promises.continuation)),
    ],
    "pairing": [
        ("always holds", always_holds),
        ("reads only the API's rejections", only_rejections),
        ("reads only the histories", only_history),
        ("demands call order", call_order),
        ("reads each message alone (a false P5 fail)", per_message),
        ("a call answered twice passes", once_is_enough),
    ],
    "ended_honestly": [
        ("always holds", always_holds),
        ("a failure that said so breaks it too", finished_only),
        ("inverted", inverted(promises.ended_honestly)),
    ],
    "denied_never_ran": [
        ("always holds", always_holds),
        ("inverted", inverted(promises.denied_never_ran)),
    ],
    "termination": [
        ("always holds", always_holds),
        ("ignores the turn limit", no_limit),
        ("counts side calls as answers", counts_side_calls),
    ],
    "no_crash": [("always holds", always_holds), ("inverted", inverted(promises.no_crash))],
    "unknown_tool_answered": [
        ("always holds", always_holds),
        ("any result will do", any_result),
        ("every call needs an error", every_call_needs_error),
    ],
    "invalid_input_answered": [
        ("always holds", always_holds),
        ("every call needs an error", every_call_needs_error),
        ("inverted", inverted(promises.invalid_input_answered)),
    ],
    "retried": [
        ("always holds", always_holds),
        ("any fault counts, a 400 too", any_fault_counts),
        ("inverted", inverted(promises.retried)),
    ],
    "waited_as_told": [
        ("always holds", always_holds),
        ("no tolerance", no_tolerance),
        ("inverted", inverted(promises.waited_as_told)),
    ],
    "partial_dropped": [
        ("always holds", always_holds),
        ("reads only what was sent back", only_sent_back),
        ("reads only what ran", only_ran),
    ],
    "cut_calls_not_run": [
        ("always holds", always_holds),
        ("judges the first call, not the cut last one", first_call_cut),
    ],
    "resent_whole": [
        ("always holds", always_holds),
        ("compares only the tool_use blocks (the old P5)", only_tool_uses),
        ("ignores a turn split in two", ignores_splits),
    ],
    "deny_dominance": [
        ("always holds", always_holds),
        ("matches the whole line, not each part", whole_line),
        ("no word boundary after the command", no_word_boundary),
        ("inverted", inverted(promises.deny_dominance)),
    ],
}


@pytest.mark.parametrize(
    ("name", "mutant"),
    [(name, m) for name, ms in MUTANTS.items() for m in ms],
    ids=[f"{name}: {title}" for name, ms in MUTANTS.items() for title, _ in ms],
)
def test_each_mutant_is_killed(name, mutant):
    _, judge = mutant
    with pytest.raises(AssertionError):
        passes(name, judge)


def test_every_promise_has_mutants():
    assert set(MUTANTS) == set(PROMISES) == set(BATTERY)


REMOVALS = ["rm notes.txt", "rm -rf src", "rm -rf /"]
OTHERS = ["ls", "cat notes.txt", "echo ok", "wc -l notes.txt"]
SEPARATORS = [" && ", "; ", " || ", " | ", "\n"]


COMPOUNDS = st.tuples(
    st.sampled_from(REMOVALS), st.sampled_from(OTHERS), st.sampled_from(SEPARATORS), st.booleans()
)


def compound_missed(oracle: Judge) -> tuple[str, str, str, bool]:
    """The property "a removal anywhere in a compound is denied", searched for a counterexample
    (hypothesis raises NoSuchExample when the oracle keeps it)."""

    def misses(drawn: tuple[str, str, str, bool]) -> bool:
        removal, other, separator, first = drawn
        command = removal + separator + other if first else other + separator + removal
        record = rec(ran=[Ran("a", "bash", {"command": command})], deny=["Bash(rm *)"])
        return oracle(record) is None

    return find(COMPOUNDS, misses)


def test_the_deny_oracle_sees_a_removal_anywhere_in_a_compound():
    with pytest.raises(NoSuchExample):
        compound_missed(promises.deny_dominance)


def test_the_whole_line_mutant_fails_the_compound_property():
    removal, other, separator, first = compound_missed(whole_line)
    assert not first  # a removal after another command: the whole line does not start with rm


# ---------------------------------------------------------------- resent_whole says what changed
@pytest.mark.parametrize(
    ("title", "said"),
    [
        ("its text stripped", "1 of its 1 text block(s) dropped"),
        ("its call renamed", "t1 renamed read_file → cat"),
        ("split into two turns", "splits #1's answer into 2 turns"),
    ],
)
def test_resent_whole_says_what_changed(title, said):
    (record,) = [r for t, r, _ in BATTERY["resent_whole"] if t == title]
    assert said in str(promises.resent_whole(record))


def test_consecutive_assistant_messages_are_one_turn_sent_back_whole():
    parts = [{"role": "assistant", "content": [SAY]}, {"role": "assistant", "content": [USE]}]
    record = rec(called(SAY, USE), req(2, [*parts, {"role": "user", "content": [result()]}]))
    assert promises.resent_whole(record) is None and promises.pairing(record) is None
