"""The notebooks' questions, hidden half: how each answer is computed from a run, and why it is
so. A notebook asks in Markdown and calls `check("ID", prediction)`; nothing here is shown
before the student has predicted. The expected values are asserted in tests/test_questions.py.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from lab.experiment import Experiment, load_all, run_experiment, select
from lab.scenario import Run, run_scenario
from lab.switches import Switches
from lab.trace import (
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
class Question:
    """A question's hidden half: how to compute the answer, and why it is so."""

    id: str
    compute: Callable[[], Any]
    why: Mapping[str, str]  # {"en": ..., "zh": ...}; may use {answer}


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


def stale_cat() -> str:
    run = outcome("D18").after
    (cat,) = [e for e in run.trace.of(ToolExecuted) if e.input == {"command": "cat notes.txt"}]
    return cat.output


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


def files_lost_inverted() -> int:
    return lost(outcome("D4").after)


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
    return "continuation" in row.findings


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


def Q(id: str, compute: Any, en: str, zh: str) -> Question:
    return Question(id, compute, {"en": en, "zh": zh})


QUESTIONS: dict[str, Question] = {
    q.id: q
    for q in [
        # 01 · M1 the belt
        Q(
            "M1.1",
            disagreeing_turn,
            "Turn {answer} declares end_turn while its content already holds a tool_use: the "
            "declaration lags behind the fact.",
            "第 {answer} 轮声明 end_turn，内容块里却已经排好了一个 tool_use：声明滞后于事实。",
        ),
        Q(
            "M1.2",
            fate_of_the_late_call,
            "{answer}: the trusting loop stops on the declaration and never looks at the call; "
            "the report is never read, and the run still ends 'done'.",
            "{answer}：信声明的循环在声明上收工，根本没看这件活；报告没读，运行却照样以 done 结束。",
        ),
        Q(
            "M1.3",
            empty_turn_cost,
            "{answer}: believing tool_use, it sends an empty result message and asks again; the "
            "API refuses a history with an empty message.",
            "{answer}：信了 tool_use，就发回一条空的结果消息再问一次；API 拒绝带空消息的历史。",
        ),
        # 02 · M2 the number book and the trays
        Q(
            "M2.1",
            when_the_contract_fails,
            "{answer}: the registry compares the schema's property names with the handler's "
            "parameters and refuses the tool before the model can call it.",
            "{answer}：注册表把 schema 属性名与处理函数形参逐一对照，模型还没调用就拒绝登记。",
        ),
        Q(
            "M2.2",
            makespans,
            "{answer} virtual seconds: eight independent reads share one parallel tray; one "
            "after another they take eight.",
            "{answer} 虚拟秒：八次互不相干的读取同在一个并行托盘里；逐个执行要八秒。",
        ),
        Q(
            "M2.3",
            stale_cat,
            "{answer}: rm and cat share a parallel tray, so cat reads the disk as it was when the "
            "tray started — a file its predecessor in the same answer deletes.",
            "{answer}：rm 和 cat 同在一个并行托盘，cat 读到的是托盘开始时的磁盘——同一回答里前一件活"
            "要删掉的文件。",
        ),
        # 03 · M3 the scanners
        Q(
            "M3.1",
            where_malformed_calls_stop,
            "At {answer}: the cheapest check; the later stages never see them.",
            "在 {answer}：最便宜的一道检查；后面的扫码口根本见不到它们。",
        ),
        Q(
            "M3.2",
            questions_about_junk,
            "{answer}: with the gate first the human answers questions about calls that fail "
            "validation right after the yes.",
            "{answer}：许可排在前面，人就要为那些「同意」之后立刻在结构校验上失败的调用回答问题。",
        ),
        Q(
            "M3.3",
            spill_loop,
            "{answer} (spill files, turns spent chasing them): the cap turns the read tool into "
            "a loop that feeds on itself.",
            "{answer}（溢写文件数、追读它们的轮数）：上限落到读文件上，恰好变成自噬的递归发生器。",
        ),
        # 04 · M4 the gates
        Q(
            "M4.1",
            gate_that_stops_rm,
            "The {answer} gate: the hard deny list comes first; the human is never asked.",
            "{answer} 门：硬拒绝排在最前面，根本不问人。",
        ),
        Q(
            "M4.2",
            files_lost_inverted,
            "{answer} files, the whole workspace (the sandbox kept the system files outside it, "
            "D28): one unattended 'y' in front of the deny list voids it.",
            "{answer} 个文件，整个工作区（沙箱护住了工作区外的系统文件，见 D28）：把一句无人值守的「y」"
            "排在拒绝表前面，整张拒绝表就被架空了。",
        ),
        Q(
            "M4.3",
            where_the_wall_stands,
            "At {answer}, the tool's own check, before any gate: no gate decides, no human is "
            "asked. Without the wall only a question stands in the way.",
            "在 {answer}（工具自校验），在任何门禁之前：没有门禁裁决，也不问人。拆了墙，只剩一句问话。",
        ),
        # 05 · M5 the sockets
        Q(
            "M5.1",
            audited_calls_course,
            "{answer}: the permission hook answers first for the two denied calls and the audit "
            "hook is skipped — exactly the calls an audit exists for.",
            "{answer}：两次被拒的调用由权限钩子先回答、就地短路，审计钩子被跳过——恰恰是审计最该记下的那几次。",
        ),
        Q(
            "M5.2",
            who_decides_hook_allow,
            "The {answer} rule: a hook's allow only goes on to the gates, and deny comes first.",
            "{answer} 规则：钩子的放行只是送进门禁，拒绝排在最前面。",
        ),
        Q(
            "M5.3",
            stop_hook_turns,
            "{answer} model calls: with the guard the second Stop sees stop_hook_active and lets "
            "go; without it the loop only ends at the turn limit.",
            "{answer} 次模型调用：有防护时第二次退出事件看到 stop_hook_active 就放手；没有防护，只能撞到轮数上限才停。",
        ),
        # 06 · the pairing obligation
        Q(
            "P.1",
            call_named_in_the_400,
            "{answer}, the denied rm: the API names the call left without a result and refuses "
            "the whole request.",
            "{answer}，被拒的 rm：API 点名那个没有结果的调用，并拒绝整个请求。",
        ),
        Q(
            "P.2",
            denied_result_is_error,
            "{answer}: the denied call gets a result marked is_error, naming the stage that "
            "stopped it — 被拒也要补一条结果.",
            "{answer}：被拒的调用补一条标了 is_error 的结果，写明在哪道扫码口被挡下——被拒也要补一条结果。",
        ),
        Q(
            "P.3",
            orphaned_result,
            "{answer}: its tool_result was kept while the trim cut away the assistant message "
            "holding its tool_use — a result that answers nothing.",
            "{answer}：它的 tool_result 留下了，持有 tool_use 的那条助手消息却被裁掉——一条不回答任何调用的结果。",
        ),
        # 07 · the hunt
        Q(
            "H.1",
            reference_keeps_it,
            "{answer}: on the reference harness the same case keeps the promise — the fault is "
            "in the switch, not in the case.",
            "{answer}：同一个用例在参考实现上守住了承诺——故障在开关里，不在用例里。",
        ),
        Q(
            "H.2",
            continuation_catches_d1,
            "{answer}: continuation is M1's promise — the model is called again exactly when the "
            "content held a tool call.",
            "{answer}：continuation 就是 M1 的承诺——恰好在内容块里有工具调用时才再次调用模型。",
        ),
        Q(
            "H.3",
            reference_breaks,
            "{answer}: every ✗ in the matrix is the work of one flipped switch.",
            "{answer}：矩阵里每一个 ✗ 都是某一个被拨动的开关造成的。",
        ),
        # 08 · real harnesses on the bench
        Q(
            "R.1",
            runner_requests,
            "{answer}: the answer held a tool_use, the declaration said end_turn, and the runner "
            "believed the declaration — no second request, no tool_result, the canary never came "
            "back.",
            "{answer} 个：回答里有 tool_use，声明却是 end_turn，runner 信了声明——没有第二个请求，没有 "
            "tool_result，金丝雀再也没回来。",
        ),
        Q(
            "R.2",
            switch_that_drops_the_call,
            "{answer}, the one switch of M1: the lab's harness then drops the same call, as on "
            "the wire.",
            "{answer}，M1 唯一的开关：打开它，实验室的 harness 也丢掉同一个调用，和线上一模一样。",
        ),
        Q(
            "R.3",
            runner_exit_status,
            "{answer}: the program ended as if the work were done — nothing told its user that "
            "a call was lost.",
            "{answer}：程序像活干完了一样结束——没有任何东西告诉用户丢了一个调用。",
        ),
        # 09 · the course beside production, and the seed's acceptance questions
        Q(
            "C.1",
            course_gaps,
            "{answer} switches: each is a place where the course (as pinned) differs from the "
            "reference harness.",
            "{answer} 个开关：每一个都是教学版（固定提交）与参考实现不同的地方。",
        ),
        Q(
            "C.2",
            course_reads_etc,
            "A {answer}: s03 dropped safe_path, so leaving the workspace became a question to the "
            "user — the wall turned into an intercom.",
            "{answer}：s03 撤掉了 safe_path，越界从直接报错变成「问一下用户」——硬墙变成了对讲机。",
        ),
        Q(
            "A.1",
            calls_dropped_by_trusting,
            "{answer} call lost: the declaration lagged behind the content, and the loop that "
            "believed it stopped early.",
            "丢了 {answer} 件活：声明滞后于内容，信声明的循环提前收工。",
        ),
        Q(
            "A.2",
            places_to_add_a_tool,
            "{answer}: a schema entry, a handler entry, and the implicit contract that the "
            "schema's names equal the handler's parameters (the registry checks it).",
            "{answer} 处：schema 一条、处理函数一行，外加隐含的签名契约（注册表替你检查）。",
        ),
        Q(
            "A.3",
            course_reads_etc,
            "A {answer}: the gates came in and the workspace wall went out — judge a mechanism by "
            "its net effect.",
            "{answer}：门禁加上了，墙却拆了——评价新机制要看净效应。",
        ),
        Q(
            "A.4",
            hook_allow_against_deny,
            "{answer} files lost: the hook said allow, the deny rule still decided. Sockets can "
            "only tighten.",
            "丢了 {answer} 个文件：钩子说放行，拒绝规则照样拦下。插线口只能收紧，不能放松。",
        ),
    ]
}
