"""How each question's answer is computed from a run: the hidden half of predict-then-run. A
function's source is shown with its answer, so each is short and reads the trace plainly."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from lab.chapter.experiment import Experiment, load_all, run_experiment, select
from lab.kernel.observables import ran_denied_by_rule
from lab.kernel.scenario import Run, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import (
    ApiRejected,
    CheckFailed,
    GateDecision,
    HookFired,
    HumanAsked,
    ModelAnswered,
    ModelCalled,
    ResultAppended,
    ResultSpilled,
    ToolCallSeen,
    ToolExecuted,
    ToolRefused,
)


@dataclass(frozen=True)
class Ran:
    """An experiment whose two runs both finished (the questions read only those)."""

    experiment: Experiment
    before: Run
    after: Run


@cache
def outcome(id: str) -> Ran:
    (experiment,) = select(load_all(), [id])
    done = run_experiment(experiment)
    if done.before is None or done.after is None:
        raise RuntimeError(f"{id} did not run: {done.error}")
    return Ran(experiment, done.before, done.after)


def lost(run: Run) -> int:
    final = run.world.snapshot()
    return sum(1 for path in run.initial_files if path not in final)


# -- the computations, one per question (their source is shown with the answer) ---------------
def disagreeing_turn() -> int:
    run = outcome("D1").before
    (turn,) = [
        e.turn
        for e in run.trace.of(ModelAnswered)
        if (e.stop_reason == "tool_use") != e.tool_use_seen
    ]
    return turn


def fate_of_the_late_call() -> str:
    """ran, stopped (by a check) or dropped (never looked at)."""
    run = outcome("D1").after
    if "toolu_002" not in {e.call_id for e in run.trace.of(ToolCallSeen)}:
        return "dropped"
    ran = {e.call_id for e in run.trace.of(ToolExecuted)}
    return "ran" if "toolu_002" in ran else "stopped"


def empty_turn_cost() -> tuple[int, int]:
    run = outcome("D1b").after
    (rejected,) = run.trace.of(ApiRejected)
    return len(run.trace.of(ModelCalled)), rejected.status


def when_the_contract_fails() -> str:
    checked = outcome("D8").before
    return "at registration" if checked.trace.of(ToolRefused) else "at the first call"


def makespans() -> tuple[float, float]:
    d19 = outcome("D19")
    return d19.before.world.clock.now, d19.after.world.clock.now


def cat_finds_the_deleted_file() -> bool:
    """Does `cat notes.txt` print the text of the file that `rm` deleted just before it?"""
    run = outcome("D18").after
    (cat,) = [e for e in run.trace.of(ToolExecuted) if e.input == {"command": "cat notes.txt"}]
    return cat.output == run.initial_files["/workspace/notes.txt"].rstrip("\n")


def where_malformed_calls_stop() -> str:
    (stage,) = {e.stage for e in outcome("D9").before.trace.of(CheckFailed)}
    return stage


def questions_about_junk() -> tuple[int, int]:
    d9 = outcome("D9")

    def count(run: Run) -> int:
        invalid = {e.call_id for e in run.trace.of(CheckFailed) if e.stage == "validation"}
        return sum(1 for e in run.trace.of(HumanAsked) if e.call_id in invalid)

    return count(d9.before), count(d9.after)


def spill_loop() -> tuple[int, int]:
    run = outcome("D17").after
    spills = len(run.trace.of(ResultSpilled))
    chased = sum(
        1
        for e in run.trace.of(ToolExecuted)
        if e.name == "read_file" and ".spill" in e.input["path"]
    )
    return spills, chased


def gate_that_stops_rm() -> str:
    run = outcome("D4").before
    return next(e.gate for e in run.trace.of(GateDecision) if e.call_id == "toolu_002")


def deny_listed_ran_inverted() -> bool:
    """With the human asked before the deny list, did the deny-listed command run?"""
    return ran_denied_by_rule(outcome("D4").after)


def where_the_wall_stands() -> str:
    (stop,) = outcome("D10").before.trace.of(CheckFailed)
    return stop.stage


def audited_calls_course() -> list[str | None]:
    run = outcome("D12").after
    return [e.call_id for e in run.trace.of(HookFired) if e.hook == "audit_log"]


def who_decides_hook_allow() -> str:
    run = outcome("D15").before
    return run.trace.of(GateDecision)[0].gate


def stop_hook_turns() -> tuple[int, int]:
    d16 = outcome("D16")
    return len(d16.before.api.requests), len(d16.after.api.requests)


def call_named_in_the_400() -> str:
    (rejection,) = outcome("D23").after.api.rejections
    return rejection.message.split("immediately after: ")[1].split(".")[0]


def denied_result_is_error() -> bool:
    run = outcome("D23").before
    return next(e.is_error for e in run.trace.of(ResultAppended) if e.call_id == "toolu_002")


def orphaned_result() -> str:
    sent = outcome("D3").after.api.requests[-1]["messages"]
    uses = {
        b["id"] for m in sent if isinstance(m["content"], list) for b in m["content"] if "id" in b
    }
    results = [
        b["tool_use_id"]
        for m in sent
        if isinstance(m["content"], list)
        for b in m["content"]
        if b["type"] == "tool_result"
    ]
    (orphan,) = [r for r in results if r not in uses]
    return orphan


def course_gaps() -> int:
    """Switches on which the course preset differs from the reference harness."""
    return len(Switches.course().differences())


def course_reads_etc() -> str:
    """Under the course's preset, what stops a read of /etc/passwd: the wall or a question?"""
    run = run_scenario(outcome("D10").experiment.scenario, Switches.course())
    if any(e.stage == "tool_check" for e in run.trace.of(CheckFailed)):
        return "wall"
    return "question" if run.trace.of(HumanAsked) else "nothing"


def calls_dropped_by_trusting() -> int:
    run = outcome("D1").after
    asked = [
        b["id"] for e in run.trace.of(ModelAnswered) for b in e.blocks if b["type"] == "tool_use"
    ]
    return len(set(asked) - {e.call_id for e in run.trace.of(ToolCallSeen)})


def places_to_add_a_tool() -> int:
    explicit = 2  # a schema entry and a handler entry: the course says so
    implicit = 1 if outcome("D8").before.trace.of(ToolRefused) else 0  # the contract, checked
    return explicit + implicit


def hook_allow_against_deny() -> int:
    return lost(outcome("D15").before)


def reference_keeps_it(finding: Any) -> bool:
    """Does the found case keep the promise on the reference harness?"""
    return finding.invariant.check(finding.case.run(Switches())) is None


def continuation_catches_d1(matrix: Any) -> bool:
    row = next(r for r in matrix.rows if r.switch == "trust_stop_reason")
    return "continuation_only_on_tool_use" in row.findings


def reference_breaks(matrix: Any) -> int:
    return len(matrix.reference.findings)


def probed(result: dict, target: str, case: str) -> dict:
    """One cell of a `lab probe --json` result (notebook 08 passes the result it ran)."""
    return next(c for c in result["cells"] if c["target"] == target and c["case"] == case)


def runner_requests(result: dict) -> int:
    return len(probed(result, "anthropic-tool-runner", "P1s")["requests"])


def switch_that_drops_the_call() -> str:
    (name,) = outcome("D1").experiment.flips
    return name


def runner_exit_status(result: dict) -> int:
    return int(probed(result, "anthropic-tool-runner", "P1s")["exit"].split()[2].rstrip(":"))
