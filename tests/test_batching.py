"""M2 trays: one answer's calls cut into consecutive batches, safety judged per call input.

Safe neighbours share a tray (at most 10) and run in parallel at one virtual instant on the
world as it was when the tray started; an unsafe call is a tray of its own; trays run in
order; results return in call order; PostToolBatch fires once per tray.
"""

from __future__ import annotations

import pytest

from lab.harness.batching import MAX_PARALLEL, Trays
from lab.harness.checks import Call
from lab.harness.switchboard import parts_for
from lab.harness.tools import Tool
from lab.kernel.observables import makespan_s, stale_reads
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import BatchRan, HookFired, ToolExecuted, Trace
from lab.model import text, tool_use, turn
from lab.world import World, course_tools

NOT_FOUND = "cat: notes.txt: No such file or directory\n(exit status 1)"


def run_calls(*blocks, files=None, switches=None, **scenario):
    """One answer holding `blocks`, then a final text turn."""
    script = [turn(*blocks), turn(text("done"))]
    run = run_scenario(Scenario(script, files=files or {}, **scenario), switches)
    assert run.ended == "done", run.trace.last  # every run here must finish cleanly
    return run


def trays_of(run) -> list[tuple[str, ...]]:
    return [e.call_ids for e in run.trace.of(BatchRan)]


def results_of(run, index: int = 2) -> dict[str, dict]:
    return {b["tool_use_id"]: b for b in run.messages[index]["content"]}


def bash(command: str, id: str) -> dict:
    return tool_use("bash", {"command": command}, id=id)


def read(path: str, id: str) -> dict:
    return tool_use("read_file", {"path": path}, id=id)


# -- safety, per call input ------------------------------------------------------------------
def trays_for(switches: Switches) -> tuple[Trays, dict]:
    world = World.create({"x": "1\n"})
    parts = parts_for(switches)
    trays = Trays(world, Trace(), trays=parts.trays, concurrency=parts.concurrency)
    return trays, {t.name: t for t in course_tools(world)}


def call(tools: dict, name: str, id: str = "c", **input) -> Call:
    return Call(id, name, input, tools.get(name), 1)


@pytest.mark.parametrize(
    ("name", "input", "safe"),
    [
        ("bash", {"command": "ls"}, True),
        ("bash", {"command": "cat x | wc -l"}, True),
        ("bash", {"command": "echo a"}, True),
        ("bash", {"command": "rm x"}, False),
        ("bash", {"command": "echo a > f"}, False),
        ("bash", {"command": "ls && rm x"}, False),
        ("read_file", {"path": "x"}, True),
        ("glob", {"pattern": "*"}, True),
        ("write_file", {"path": "x", "content": "y"}, False),
        ("edit_file", {"path": "x", "old_text": "1", "new_text": "2"}, False),
    ],
)
def test_safety_is_decided_per_call_input(name, input, safe):
    trays, tools = trays_for(Switches())
    assert trays.is_safe(call(tools, name, **input)) is safe


def test_unknown_tools_and_malformed_inputs_are_never_safe():
    trays, tools = trays_for(Switches())
    assert not trays.is_safe(call(tools, "no_such_tool"))
    assert not trays.is_safe(call(tools, "bash", cmd="ls"))  # fails validation later, alone


def test_tool_level_safety_lets_rm_join_a_parallel_tray():
    trays, tools = trays_for(Switches(concurrency_from_input=False))
    assert trays.is_safe(call(tools, "bash", command="rm x"))
    assert not trays.is_safe(call(tools, "write_file", path="x", content="y"))


def test_serial_switch_makes_every_call_unsafe():
    trays, tools = trays_for(Switches(parallel_batches=False))
    calls = [call(tools, "read_file", f"r{i}", path="x") for i in range(3)]
    assert not any(trays.is_safe(c) for c in calls)
    assert [[c.id for c in t] for t in trays.cut(calls)] == [["r0"], ["r1"], ["r2"]]


def test_cut_keeps_model_order_caps_trays_and_isolates_unsafe_calls():
    trays, tools = trays_for(Switches())
    reads = [call(tools, "read_file", f"r{i}", path="x") for i in range(23)]
    write = call(tools, "write_file", "w", path="y", content="z")
    rm = call(tools, "bash", "rm", command="rm x")
    ls = call(tools, "bash", "ls", command="ls")
    cut = trays.cut([*reads[:21], write, rm, ls, *reads[21:]])
    ids = [[c.id for c in tray] for tray in cut]
    assert ids == [
        [f"r{i}" for i in range(10)],
        [f"r{i}" for i in range(10, 20)],
        ["r20"],
        ["w"],
        ["rm"],
        ["ls", "r21", "r22"],
    ]
    assert max(len(t) for t in cut) == MAX_PARALLEL == 10


# -- whole runs ---------------------------------------------------------------------------------
def test_twelve_safe_reads_make_trays_of_ten_and_two():
    files = {f"f{i:02d}.txt": f"content {i}\n" for i in range(12)}
    run = run_calls(*(read(name, f"r{i:02d}") for i, name in enumerate(files)), files=files)
    batches = run.trace.of(BatchRan)
    assert [b.call_ids for b in batches] == [
        tuple(f"r{i:02d}" for i in range(10)),
        ("r10", "r11"),
    ]
    assert [(b.parallel, b.started, b.finished) for b in batches] == [
        (True, 0.0, 1.0),
        (True, 1.0, 2.0),
    ]
    assert makespan_s(run) == 2.0


def test_unsafe_calls_each_stand_alone_between_parallel_trays():
    files = {"a.txt": "alpha\n", "x": "doomed\n"}
    run = run_calls(
        bash("ls", "ls1"),
        bash("cat a.txt", "cat1"),
        tool_use("write_file", {"path": "w.txt", "content": "w"}, id="write"),
        read("a.txt", "read1"),
        tool_use("glob", {"pattern": "*.txt"}, id="glob1"),
        tool_use(
            "edit_file", {"path": "a.txt", "old_text": "alpha", "new_text": "beta"}, id="edit"
        ),
        bash("rm x", "rm"),
        bash("echo a > f", "redirect"),
        bash("ls", "ls2"),
        bash("wc -l a.txt", "wc"),
        files=files,
    )
    batches = run.trace.of(BatchRan)
    assert [(b.call_ids, b.parallel) for b in batches] == [
        (("ls1", "cat1"), True),
        (("write",), False),
        (("read1", "glob1"), True),
        (("edit",), False),
        (("rm",), False),
        (("redirect",), False),
        (("ls2", "wc"), True),
    ]
    # Exact virtual times: bash commands and file tools cost 1 s, glob 0.5 s; a parallel
    # tray lasts as long as its slowest call.
    assert [(b.started, b.finished) for b in batches] == [
        (0.0, 1.0),
        (1.0, 2.0),
        (2.0, 3.0),
        (3.0, 4.0),
        (4.0, 5.0),
        (5.0, 6.0),
        (6.0, 7.0),
    ]


def test_trays_run_strictly_in_order_and_later_trays_see_earlier_effects():
    run = run_calls(
        read("a.txt", "before"),
        tool_use("write_file", {"path": "a.txt", "content": "new"}, id="write"),
        read("a.txt", "after"),
        bash("rm a.txt", "rm"),
        bash("cat a.txt", "gone"),
        files={"a.txt": "old"},
    )
    results = results_of(run)
    assert results["before"]["content"] == "old"
    assert results["after"]["content"] == "new"
    assert results["gone"]["content"] == "cat: a.txt: No such file or directory\n(exit status 1)"
    executed = [e.call_id for e in run.trace.of(ToolExecuted)]
    assert executed == ["before", "write", "after", "rm", "gone"]
    batches = run.trace.of(BatchRan)
    for previous, following in zip(batches, batches[1:], strict=False):
        assert following.started == previous.finished


def test_results_return_in_call_order_whatever_the_trays():
    run = run_calls(
        tool_use("glob", {"pattern": "*.txt"}, id="g"),
        read("missing.txt", "blocked"),  # stopped at tool_check inside a parallel tray
        bash("sleep 3", "slow"),
        tool_use("no_such_tool", {}, id="unknown"),
        tool_use("write_file", {"path": "b.txt", "content": "b"}, id="w"),
        read("a.txt", "r"),
        files={"a.txt": "A"},
    )
    asked = [b["id"] for b in run.messages[1]["content"] if b["type"] == "tool_use"]
    answered = [b["tool_use_id"] for b in run.messages[2]["content"]]
    assert asked == answered == ["g", "blocked", "slow", "unknown", "w", "r"]
    results = results_of(run)
    assert results["blocked"].get("is_error") and "File not found" in results["blocked"]["content"]
    assert results["unknown"].get("is_error")
    assert results["r"]["content"] == "A" and not results["r"].get("is_error")
    assert run.api.rejections == []


def test_post_tool_batch_fires_once_per_tray_with_that_trays_calls():
    payloads: list[list[str]] = []

    def batch_logger(payload):
        payloads.append(list(payload["tool_use_ids"]))

    run = run_calls(
        read("a.txt", "r1"),
        read("b.txt", "r2"),
        tool_use("write_file", {"path": "c.txt", "content": "c"}, id="w"),
        read("a.txt", "r3"),
        bash("rm b.txt", "rm"),
        tool_use("glob", {"pattern": "*"}, id="g"),
        files={"a.txt": "A", "b.txt": "B"},
        hooks=[("PostToolBatch", batch_logger)],
    )
    fired = [e for e in run.trace.of(HookFired) if e.event == "PostToolBatch"]
    assert len(fired) == 5
    assert payloads == [["r1", "r2"], ["w"], ["r3"], ["rm"], ["g"]]


# -- virtual time: the makespan of parallel and serial trays --------------------------------------
CHAPTERS = {f"ch{i}.md": f"# Chapter {i}\n" for i in range(1, 9)}
EIGHT_READS = [read(name, f"r{i}") for i, name in enumerate(CHAPTERS, 1)]


def test_eight_independent_reads_take_one_virtual_second_in_parallel():
    run = run_calls(*EIGHT_READS, files=CHAPTERS)
    (batch,) = run.trace.of(BatchRan)
    assert (batch.parallel, batch.started, batch.finished) == (True, 0.0, 1.0)
    assert batch.call_ids == tuple(f"r{i}" for i in range(1, 9))
    assert {(e.started, e.finished) for e in run.trace.of(ToolExecuted)} == {(0.0, 1.0)}
    assert makespan_s(run) == 1.0


def test_eight_independent_reads_take_eight_virtual_seconds_serially():
    run = run_calls(*EIGHT_READS, files=CHAPTERS, switches=Switches(parallel_batches=False))
    batches = run.trace.of(BatchRan)
    assert [(b.call_ids, b.parallel, b.started, b.finished) for b in batches] == [
        ((f"r{i}",), False, float(i - 1), float(i)) for i in range(1, 9)
    ]
    assert makespan_s(run) == 8.0
    # the same answers either way
    parallel = run_calls(*EIGHT_READS, files=CHAPTERS)
    assert run.messages[2] == parallel.messages[2]


def test_parallel_calls_start_together_and_the_tray_lasts_as_long_as_the_slowest():
    run = run_calls(
        bash("sleep 3", "slow"),
        read("a.txt", "read"),
        tool_use("glob", {"pattern": "*"}, id="glob"),
        tool_use("write_file", {"path": "b.txt", "content": "b"}, id="after"),
        files={"a.txt": "A"},
    )
    executed = {e.call_id: (e.started, e.finished) for e in run.trace.of(ToolExecuted)}
    assert executed == {
        "slow": (0.0, 3.0),
        "read": (0.0, 1.0),
        "glob": (0.0, 0.5),
        "after": (3.0, 4.0),
    }
    assert makespan_s(run) == 4.0


# -- parallel calls see the tray's starting world; their changes merge in call order -------------
def note_tool(world: World) -> list[Tool]:
    """A tool that writes a file yet declares itself safe (to observe the merge)."""

    def note(path: str, content: str) -> str:
        resolved = world.resolve(path)
        before = world.fs.read(resolved) if world.fs.is_file(resolved) else "(none)"
        world.fs.write(resolved, content)
        return f"was {before}"

    schema = {
        "type": "object",
        "properties": {"path": {"type": "string"}, "content": {"type": "string"}},
        "required": ["path", "content"],
    }
    return [Tool("note", "Write a note.", schema, note, concurrency_safe=lambda **_: True)]


def test_parallel_writes_see_the_starting_world_and_merge_in_call_order():
    run = run_calls(
        tool_use("note", {"path": "a.txt", "content": "first"}, id="n1"),
        tool_use("note", {"path": "a.txt", "content": "second"}, id="n2"),
        tool_use("note", {"path": "b.txt", "content": "bee"}, id="n3"),
        files={"a.txt": "original"},
        tools=note_tool,
    )
    assert trays_of(run) == [("n1", "n2", "n3")]
    results = results_of(run)
    # every call saw the disk as it was when the tray started
    assert results["n1"]["content"] == "was original"
    assert results["n2"]["content"] == "was original"
    assert results["n3"]["content"] == "was (none)"
    final = run.world.snapshot()
    assert final["/workspace/a.txt"] == "second"  # the later call wins on a shared path
    assert final["/workspace/b.txt"] == "bee"  # the other call's change is kept


def test_tool_level_safety_merges_deletions_and_writes_of_one_tray():
    run = run_calls(
        bash("echo x > a.txt", "x"),
        bash("cat a.txt", "cat"),
        bash("echo y > a.txt", "y"),
        bash("rm keep.txt", "rm"),
        files={"keep.txt": "k"},
        switches=Switches(concurrency_from_input=False),
    )
    assert trays_of(run) == [("x", "cat", "y", "rm")]
    assert results_of(run)["cat"]["content"].startswith("cat: a.txt: No such file")
    final = run.world.snapshot()
    assert final["/workspace/a.txt"] == "y\n"
    assert "/workspace/keep.txt" not in final


RETIRE = [bash("rm notes.txt", "rm"), bash("cat notes.txt", "cat")]


def test_rm_then_cat_by_default_run_in_order_and_cat_finds_nothing():
    run = run_calls(*RETIRE, files={"notes.txt": "old notes\n"})
    assert trays_of(run) == [("rm",), ("cat",)]
    assert results_of(run)["cat"]["content"] == NOT_FOUND
    assert stale_reads(run) == 0


def test_tool_level_safety_puts_rm_and_cat_in_one_tray_and_cat_reads_a_deleted_file():
    run = run_calls(
        *RETIRE,
        files={"notes.txt": "old notes\n"},
        switches=Switches(concurrency_from_input=False),
    )
    assert [(b.call_ids, b.parallel) for b in run.trace.of(BatchRan)] == [(("rm", "cat"), True)]
    assert results_of(run)["cat"]["content"] == "old notes"  # the D18 stale read
    assert "/workspace/notes.txt" not in run.world.snapshot()
    assert stale_reads(run) == 1
