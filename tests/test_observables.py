"""Each standard observable, measured on small hand-made runs with a known right answer."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from lab.harness.permissions import Permissions
from lab.kernel.observables import STANDARD, pairs_intact, ran
from lab.kernel.record import Reply, Sent
from lab.kernel.scenario import Run, Scenario, lab_record, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import (
    CheckFailed,
    Event,
    HookFired,
    HookSkipped,
    HumanAsked,
    ModelAnswered,
    ModelCalled,
    ModelRetried,
    ResultSpilled,
    ToolCallSeen,
    ToolExecuted,
    ToolRefused,
    Trace,
)
from lab.model import FakeMessagesAPI, Rejection, ScriptedModel, text, tool_use, turn
from lab.world import World


def hand_run(
    events: list[Event] = (),
    *,
    messages: list[dict] | None = None,
    files: dict[str, str] | None = None,
    world: World | None = None,
    ended: str = "done",
    requests: list[dict] = (),
    rejections: list[Rejection] = (),
    cut_calls: list[str] = (),
    scenario: Scenario | None = None,
    switches: Switches | None = None,
) -> Run:
    """A Run put together by hand: exactly the facts a test states, nothing else."""
    start = World.create(files or {})
    api = FakeMessagesAPI(ScriptedModel([]))
    api.requests.extend(requests)
    api.rejections.extend(rejections)
    api.cut_calls.extend(cut_calls)
    run = Run(
        scenario=scenario or Scenario([]),
        switches=switches or Switches(),
        trace=Trace(list(events)),
        messages=messages if messages is not None else [],
        world=world or start,
        initial_files=start.snapshot(),
        api=api,
        model=api.model,
        ended=ended,
    )
    # The record's replies say which calls max_tokens cut (as the tap writes them).
    cut = [
        Sent(n, None, Reply("cut", ({"type": "tool_use", "id": call},), "max_tokens"))
        for n, call in enumerate(cut_calls, 1)
    ]
    trace, world_after = run.trace, run.world
    run.record = lab_record(
        run.scenario.setup, trace, run.messages, world_after, start.snapshot(), cut
    )
    return run


def executed(call_id, name, input, output="", *, is_error=False, at=(0.0, 1.0)):
    return ToolExecuted(1, call_id, name, input, output, is_error, *at)


def answered(*blocks) -> ModelAnswered:
    return ModelAnswered(1, "msg_001", tuple(blocks), "tool_use", True)


# -- pairs_intact ------------------------------------------------------------------------------
def user(*content):
    return {"role": "user", "content": list(content)}


def assistant(*content):
    return {"role": "assistant", "content": list(content)}


def use(id):
    return {"type": "tool_use", "id": id, "name": "bash", "input": {"command": "ls"}}


def res(id):
    return {"type": "tool_result", "tool_use_id": id, "content": "ok"}


PROMPT = {"role": "user", "content": "go"}
DONE = assistant(text("done"))

PAIRINGS = {
    "intact": ([PROMPT, assistant(use("a"), use("b")), user(res("a"), res("b")), DONE], True),
    "results in another order": (
        [PROMPT, assistant(use("a"), use("b")), user(res("b"), res("a")), DONE],
        True,
    ),
    "results first then text": (
        [PROMPT, assistant(use("a")), user(res("a"), text("note")), DONE],
        True,
    ),
    "no tool calls at all": ([PROMPT, DONE], True),
    "missing result": ([PROMPT, assistant(use("a"), use("b")), user(res("a")), DONE], False),
    "orphan result": (
        [PROMPT, assistant(use("a")), user(res("a"), res("zz")), DONE],
        False,
    ),
    "orphan result after plain text": ([PROMPT, DONE, user(res("zz")), DONE], False),
    "result first in the conversation": ([user(res("a")), DONE], False),
    "duplicate result": ([PROMPT, assistant(use("a")), user(res("a"), res("a")), DONE], False),
    "result not first": ([PROMPT, assistant(use("a")), user(text("hm"), res("a")), DONE], False),
    "tool_use left unanswered at the end": ([PROMPT, assistant(use("a"))], False),
    "result one message too late": (
        [PROMPT, assistant(use("a")), user(text("wait")), user(res("a")), DONE],
        False,
    ),
}


@pytest.mark.parametrize(("messages", "intact"), PAIRINGS.values(), ids=PAIRINGS.keys())
def test_pairs_intact(messages, intact):
    assert pairs_intact(hand_run(messages=messages)) is intact


def test_pairs_intact_on_real_runs_with_and_without_pair_protection():
    script = [turn(tool_use("bash", {"command": "rm -rf /"}, id="bad")), turn(text("done"))]
    scenario = Scenario(script, permissions=Permissions(deny=["Bash(rm *)"]))
    assert pairs_intact(run_scenario(scenario)) is True
    broken = run_scenario(scenario, Switches(pair_protection=False))
    assert pairs_intact(broken) is False
    assert STANDARD["api_rejected"](broken) is True


# -- the rest of the standard observables -----------------------------------------------------
def disk_lost_one() -> Run:
    world = World.create({"a.txt": "A", "b.txt": "B"})
    run = hand_run(files={"a.txt": "A", "b.txt": "B"}, world=world)
    world.fs.remove("/workspace/b.txt")
    world.fs.write("/workspace/a.txt", "changed")  # changed, not lost
    world.fs.write("/workspace/new.txt", "N")  # new files do not make up for lost ones
    return run


def clocked(seconds: float) -> Run:
    run = hand_run()
    run.world.clock.advance(seconds)
    return run


NOT_FOUND = "cat: notes.txt: No such file or directory\n(exit status 1)"
RM = executed("rm", "bash", {"command": "rm notes.txt"}, "(no output)")
NOTES = {"notes.txt": "old notes\n"}

# observable -> list of (hand-made run factory, expected value); the first case of each is a
# run where the fault shows, the others where it must not.
CASES: dict[str, list[tuple[Callable[[], Run], object]]] = {
    "api_rejected": [
        (lambda: hand_run(rejections=[Rejection(1, 400, "invalid_request_error", "x")]), True),
        (lambda: hand_run(rejections=[Rejection(None, 404, "not_found_error", "x")]), False),
        (lambda: hand_run(), False),
    ],
    "tool_calls_dropped": [
        (
            lambda: hand_run(
                [
                    answered(text("t"), use("a"), use("b"), use("c")),
                    ToolCallSeen(1, "b", "bash", {}),
                ]
            ),
            2,
        ),
        (
            lambda: hand_run([answered(use("a")), ToolCallSeen(1, "a", "bash", {})]),
            0,
        ),
    ],
    "tool_calls_executed": [
        (lambda: hand_run([executed("a", "bash", {}), executed("b", "glob", {})]), 2),
        (lambda: hand_run([ToolCallSeen(1, "a", "bash", {})]), 0),
    ],
    "tool_calls_failed": [
        (
            lambda: hand_run([executed("a", "bash", {}, is_error=True), executed("b", "bash", {})]),
            1,
        ),
        (lambda: hand_run([CheckFailed(1, "a", "validation", "bad")]), 0),
    ],
    "turns": [
        (lambda: hand_run([ModelCalled(t, False, 1) for t in (1, 2, 3)]), 3),
        (lambda: hand_run(), 0),
    ],
    "ended_by_limit": [
        (lambda: hand_run(ended="turn_limit"), True),
        (lambda: hand_run(ended="done"), False),
    ],
    "run_completed": [
        (lambda: hand_run(ended="crash"), False),
        (lambda: hand_run(ended="api_error"), False),
        (lambda: hand_run(ended="bad_answer"), False),
        (lambda: hand_run(ended="done"), True),
        (lambda: hand_run(ended="turn_limit"), True),
    ],
    "model_retries": [
        (
            lambda: hand_run(
                [ModelRetried(1, 1, "529 overloaded_error: Overloaded", 1.0)]
                + [ModelRetried(3, 1, "connection lost: peer closed", 1.0)]
            ),
            2,
        ),
        (lambda: hand_run([ModelCalled(1, False, 1)]), 0),
    ],
    "ran_truncated_call": [
        (
            lambda: hand_run([executed("a", "bash", {}), executed("b", "x", {})], cut_calls=["b"]),
            True,
        ),
        (lambda: hand_run([executed("a", "bash", {})], cut_calls=["b"]), False),
        (lambda: hand_run([CheckFailed(1, "b", "complete_input", "cut")], cut_calls=["b"]), False),
    ],
    "files_lost": [
        (disk_lost_one, 1),
        (lambda: hand_run(files={"a.txt": "A"}), 0),
    ],
    "human_prompts": [
        (lambda: hand_run([HumanAsked(1, "a", "q?", "y"), HumanAsked(1, "b", "q?", "n")]), 2),
        (lambda: hand_run(), 0),
    ],
    "ran_denied_by_rule": [
        (
            lambda: hand_run(
                [executed("a", "bash", {"command": "ls && rm -rf /"})],
                scenario=Scenario([], permissions=Permissions(deny=["Bash(rm *)"])),
            ),
            True,
        ),
        (
            lambda: hand_run(
                [executed("a", "bash", {"command": "ls"})],
                scenario=Scenario([], permissions=Permissions(deny=["Bash(rm *)"])),
            ),
            False,
        ),
        (
            lambda: hand_run(
                [CheckFailed(1, "a", "permission", "denied")],
                scenario=Scenario([], permissions=Permissions(deny=["Bash(rm *)"])),
            ),
            False,
        ),
    ],
    "contract_errors_at_registration": [
        (lambda: hand_run([ToolRefused(0, "word_count", "schema mismatch")]), 1),
        (lambda: hand_run(), 0),
    ],
    "human_prompts_for_invalid_calls": [
        (
            lambda: hand_run(
                [  # invalid: the input does not fit the schema, validated or not (the course)
                    ToolCallSeen(1, "bad", "bash", {}),
                    ToolCallSeen(1, "good", "bash", {"command": "ls"}),
                    HumanAsked(1, "bad", "q?", "y"),
                    HumanAsked(1, "good", "q?", "y"),
                ]
            ),
            1,
        ),
        (
            lambda: hand_run(
                [
                    ToolCallSeen(1, "a", "bash", {"command": "ls"}),
                    HumanAsked(1, "a", "q?", "y"),
                    CheckFailed(1, "a", "permission", "no"),
                ]
            ),
            0,
        ),
    ],
    "outside_reads": [
        (
            lambda: hand_run(
                [
                    executed("a", "read_file", {"path": "/etc/passwd"}, "root:x"),
                    executed("b", "read_file", {"path": "../etc/hosts"}, "127.0.0.1"),
                    executed("c", "read_file", {"path": "/etc/shadow"}, "nope", is_error=True),
                    executed("d", "read_file", {"path": "notes.txt"}, "hi"),
                    executed("e", "bash", {"command": "cat /etc/passwd"}, "root:x"),
                ]
            ),
            2,
        ),
        (lambda: hand_run([executed("a", "read_file", {"path": "/workspace/x"}, "x")]), 0),
    ],
    "denied_calls_logged": [
        (
            lambda: hand_run(
                [
                    HookFired(1, "PreToolUse", "audit_log", "a", None),
                    CheckFailed(1, "a", "permission", "denied"),
                    HookFired(1, "PreToolUse", "audit_log", "b", None),
                    CheckFailed(1, "b", "hooks", "blocked"),
                    HookFired(1, "PreToolUse", "audit_log", "c", None),  # allowed: not denied
                ]
            ),
            2,
        ),
        (
            lambda: hand_run(
                [
                    HookFired(1, "PreToolUse", "permission_hook", "a", "Permission denied"),
                    CheckFailed(1, "a", "hooks", "Permission denied"),
                    HookFired(1, "PostToolUse", "audit_log", "a", None),
                ]
            ),
            0,
        ),
    ],
    "post_hooks_skipped": [
        (
            lambda: hand_run(
                [
                    HookSkipped(1, "PostToolUse", "audit", "a", "formatter"),
                    HookSkipped(1, "PreToolUse", "audit", "a", "permission_hook"),
                ]
            ),
            1,
        ),
        (lambda: hand_run([HookFired(1, "PostToolUse", "audit", "a", None)]), 0),
    ],
    "context_injected": [
        (
            lambda: hand_run(requests=[{"messages": [user(text("go"), text("today is Monday"))]}]),
            True,
        ),
        (lambda: hand_run(requests=[{"messages": [{"role": "user", "content": "go"}]}]), False),
        (lambda: hand_run(requests=[{"messages": [user(text("go"))]}]), False),
        (lambda: hand_run(), False),
    ],
    "spill_files": [
        (
            lambda: hand_run(
                [
                    ResultSpilled(1, "a", "/workspace/.spill/a.txt", 40_000),
                    ResultSpilled(2, "b", "/workspace/.spill/b.txt", 40_000),
                ]
            ),
            2,
        ),
        (lambda: hand_run(), 0),
    ],
    "wasted_turns": [
        (
            lambda: hand_run(
                [
                    executed("a", "read_file", {"path": "big.csv"}),
                    executed("b", "read_file", {"path": ".spill/a.txt"}),
                    executed("c", "read_file", {"path": "/workspace/.spill/b.txt"}),
                    executed("d", "bash", {"command": "cat .spill/c.txt"}),
                ]
            ),
            2,
        ),
        (lambda: hand_run([executed("a", "read_file", {"path": "spill.txt"})]), 0),
    ],
    "stale_reads": [
        (
            lambda: hand_run(
                [RM, executed("cat", "bash", {"command": "cat notes.txt"}, "old notes")],
                files=NOTES,
            ),
            1,
        ),
        (
            lambda: hand_run(
                [RM, executed("cat", "bash", {"command": "cat notes.txt"}, NOT_FOUND)],
                files=NOTES,
            ),
            0,
        ),
        (
            lambda: hand_run(
                [
                    executed("r", "read_file", {"path": "notes.txt"}, "old notes"),
                    executed(
                        "w",
                        "write_file",
                        {"path": "notes.txt", "content": "new"},
                        "Wrote 3 bytes to notes.txt",
                    ),
                    executed("r2", "read_file", {"path": "notes.txt"}, "old notes"),
                ],
                files=NOTES,
            ),
            1,  # the second read saw the old text after the write: no serial run gives that
        ),
    ],
    "makespan_s": [
        (lambda: clocked(8.0), 8.0),
        (lambda: clocked(1.5), 1.5),
        (lambda: hand_run(), 0.0),
    ],
}
CASES["ran_deny_listed"] = CASES["ran_denied_by_rule"]


def test_every_standard_observable_has_cases():
    assert set(CASES) | {"pairs_intact"} == set(STANDARD)
    assert STANDARD["ran_deny_listed"] is STANDARD["ran_denied_by_rule"]


@pytest.mark.parametrize(
    ("name", "make", "expected"),
    [(name, make, expected) for name, cases in CASES.items() for make, expected in cases],
    ids=[f"{name}-{i}" for name, cases in CASES.items() for i in range(len(cases))],
)
def test_standard_observable(name, make, expected):
    value = STANDARD[name](make())
    assert value == expected
    assert type(value) is type(expected)


def test_ran_matches_tool_and_input_values():
    run = hand_run([executed("a", "bash", {"command": "cat report.md"})])
    assert ran("bash", command="cat report.md")(run) is True
    assert ran("bash", command="cat other.md")(run) is False
    assert ran("read_file", path="report.md")(run) is False
    assert ran("bash")(run) is True
    assert "bash" in (ran("bash").__doc__ or "")


# -- observables agree with real runs -----------------------------------------------------------
def test_stale_reads_and_makespan_on_real_runs():
    script = [
        turn(
            tool_use("bash", {"command": "rm notes.txt"}),
            tool_use("bash", {"command": "cat notes.txt"}),
        ),
        turn(text("done")),
    ]
    scenario = Scenario(script, files=NOTES)
    good = run_scenario(scenario)
    stale = run_scenario(scenario, Switches(concurrency_from_input=False))
    assert STANDARD["stale_reads"](good) == 0
    assert STANDARD["stale_reads"](stale) == 1
    assert (STANDARD["makespan_s"](good), STANDARD["makespan_s"](stale)) == (2.0, 1.0)
    assert STANDARD["files_lost"](good) == STANDARD["files_lost"](stale) == 1


def test_denied_calls_logged_on_a_real_run():
    def audit_log(payload):
        return None

    script = [turn(tool_use("bash", {"command": "rm -rf /"}, id="bad")), turn(text("done"))]
    scenario = Scenario(
        script, permissions=Permissions(deny=["Bash(rm *)"]), hooks=[("PreToolUse", audit_log)]
    )
    assert STANDARD["denied_calls_logged"](run_scenario(scenario)) == 1
    assert STANDARD["files_lost"](run_scenario(scenario)) == 0
