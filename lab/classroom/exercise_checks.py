"""The five exercises' hidden checks, one set per mechanism: what each runs on the student's
file, and the hint it gives (in English and Chinese) when it fails. A hint points at the idea
without giving the answer away; the exercises and their checks in words are
lab/classroom/exercise_table.py.
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from lab.classroom.reading import TERMS, term
from lab.harness.checks import order_part
from lab.harness.hooks import STOP_BLOCK_CAP
from lab.harness.permissions import Permissions
from lab.harness.tools import ContractError, Tool, ToolRegistry
from lab.kernel.observables import files_lost, tool_calls_dropped
from lab.kernel.runner import run_scenario
from lab.kernel.scenario import Run, Scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import (
    ApiRejected,
    CheckFailed,
    HumanAsked,
    ModelCalled,
    RunEnded,
    StopContinued,
    ToolExecuted,
)
from lab.languages.bilingual import Words
from lab.model import text, tool_use, turn
from lab.model.script import Turn
from lab.world import World


def executed(run: Run, name: str, **input_has: Any) -> list[ToolExecuted]:
    return [
        e
        for e in run.trace.of(ToolExecuted)
        if e.name == name and all(v in str(e.input.get(k, "")) for k, v in input_has.items())
    ]


# -- M1 · the belt: a script that makes the trusting loop lose work ---------------------------
def belt_scenario(module: ModuleType) -> Scenario:
    return Scenario(
        prompt="Summarise report.md.",
        files={"report.md": "# Q3\nrevenue up 4%\n", "notes.txt": "draft\n"},
        script=list(module.SCRIPT),
    )


def reads_report(run: Run) -> bool:
    return bool(
        executed(run, "bash", command="report.md") or executed(run, "read_file", path="report.md")
    )


def m1_is_a_script(module: ModuleType) -> str | None:
    script = module.SCRIPT
    if not isinstance(script, list | tuple) or not all(isinstance(t, Turn) for t in script):
        return Words(
            "SCRIPT must be a list of turn(...) steps.", "SCRIPT 必须是由 turn(...) 组成的列表。"
        )
    return None


def m1_reference_reads(module: ModuleType) -> str | None:
    run = run_scenario(belt_scenario(module), Switches())
    if run.ended != "done" or run.trace.of(ApiRejected):
        return Words(
            f"On the reference harness the run ended '{run.ended}': keep the conversation legal.",
            f"在参考实现上这次运行以 '{run.ended}' 结束：对话本身要合法。",
        )
    if tool_calls_dropped(run) or not reads_report(run):
        return Words(
            "The reference loop must still read report.md: keep the call that reads it.",
            "参考实现的循环仍要读到 report.md：保留读它的那次调用。",
        )
    return None


def m1_trusting_loses(module: ModuleType) -> str | None:
    run = run_scenario(belt_scenario(module), Switches(trust_stop_reason=True))
    if tool_calls_dropped(run) == 0:
        return Words(
            "The trusting loop dropped no call. What exactly does it read to decide whether to go "
            "on, and can an answer say one thing while holding another? (notebook 01; "
            "`lab notebooks` writes the notebooks out)",
            "信声明的循环一次调用都没丢。它到底读什么来决定要不要继续？一条回答能不能嘴上说一套、"
            "手里拿着另一套？（笔记本 01；`lab notebooks` 会把笔记本写出来）",
        )
    if reads_report(run):
        return Words(
            "The trusting loop lost a call, but not the one that reads report.md.",
            "信声明的循环丢了一次调用，但丢的不是读 report.md 的那次。",
        )
    return None


# -- M2 · the number book: a tool whose three places agree ------------------------------------
ESSAY = "agents need a harness and a loop\n"  # 7 words


def tool_scenario(module: ModuleType, input: dict[str, Any]) -> Scenario:
    return Scenario(
        prompt="How many words are in essay.txt?",
        files={"essay.txt": ESSAY},
        tools=lambda world: [module.make_tool(world)],
        script=[turn(tool_use("word_count", input)), turn(text("That is the count."))],
    )


def m2_registers(module: ModuleType) -> str | None:
    tool = module.make_tool(World.create())
    if not isinstance(tool, Tool) or tool.name != "word_count":
        return Words(
            "make_tool(world) must return a Tool named 'word_count'.",
            "make_tool(world) 必须返回一个名为 'word_count' 的 Tool。",
        )
    try:
        ToolRegistry().register(tool)
    except ContractError:
        return Words(
            "The dispatch table refused to register it: the third contract does not hold. "
            "The call is made as handler(**input): read your schema beside your handler.",
            "号码簿拒绝登记它：第三份契约不成立。调用方式是 handler(**input)：把你的 schema "
            "和 handler 并排读一遍。",
        )
    return None


def m2_counts(module: ModuleType) -> str | None:
    run = run_scenario(tool_scenario(module, {"path": "essay.txt"}), Switches())
    done = executed(run, "word_count")
    if not done:
        stopped = run.trace.of(CheckFailed)
        why = f" It stopped at {stopped[0].stage}: {stopped[0].reason}" if stopped else ""
        # The stage's name is code, the reason the harness's own words (quoted: data).
        why_zh = f"它停在了 {stopped[0].stage} 段：“{stopped[0].reason}”" if stopped else ""
        return Words(
            f'The model called word_count {{"path": "essay.txt"}} and it never ran.{why}',
            f'模型调用了 word_count {{"path": "essay.txt"}}，它却没有执行。{why_zh}',
        )
    if done[0].is_error or done[0].output.strip() != str(len(ESSAY.split())):
        return Words(
            f"word_count answered {done[0].output!r}: count the words of the file at path.",
            f"word_count 回答了 {done[0].output!r}：要数的是 path 所指文件里的词。",
        )
    return None


def m2_validates(module: ModuleType) -> str | None:
    run = run_scenario(tool_scenario(module, {}), Switches())
    if not any(e.stage == "validation" for e in run.trace.of(CheckFailed)):
        return Words(
            "A call with no path got past validation: what does the schema promise?",
            "一次没有 path 的调用通过了结构校验：schema 承诺了什么？",
        )
    return None


# -- M3 · the scanners: the order of the chain --------------------------------------------------
STAGES = ("hooks", "known_tool", "permission", "tool_check", "validation")


def guard_env(payload: dict[str, Any]) -> str | None:
    """A team hook: nothing may write the secrets file."""
    if payload["tool_input"].get("path") == ".env":
        return "no writes to .env"
    return None


def stages_of(module: ModuleType) -> list[str]:
    """The student's ORDER as stage names: the chapter's Chinese names (号码簿查名, 结构校验,
    工具自校验, 前置钩子, 权限判定) read as the lab's."""
    return [term(str(stage)) for stage in module.ORDER]


def chain_run(module: ModuleType) -> tuple[Run, list[str]]:
    """Six calls of every kind of wrong, and one good one, through the student's order."""
    reached: list[str] = []

    def record(payload: dict[str, Any]) -> None:
        reached.append(payload["tool_use_id"])

    scenario = Scenario(
        prompt="Save the meeting notes.",
        files={"draft.md": "old\n"},
        permissions=Permissions(default="ask"),
        human=lambda question: "y",
        hooks=[("PreToolUse", record), ("PreToolUse", guard_env)],
        script=[
            turn(
                tool_use("write_file", {"path": "notes.md"}),
                tool_use("write_file", {"path": "notes.md", "content": 42}),
                tool_use("check_disk", {}),
                tool_use("edit_file", {"path": "gone.md", "old_text": "a", "new_text": "b"}),
                tool_use("write_file", {"path": ".env", "content": "KEY=1"}),
                tool_use("write_file", {"path": "notes.md", "content": "decisions"}),
            ),
            turn(text("Saved.")),
        ],
    )

    from lab.harness.parts import Parts  # the parts name the SDK's types: imported on use

    # The student's order is a part of the harness, passed in like any other.
    parts = Parts(chain_order=order_part("YourOrder", stages_of(module)))
    return run_scenario(scenario, parts=parts), reached


COMPLETE_FIRST = Words("Make the run complete first.", "先让这次运行完整跑完。")
# Listed alphabetically, so that naming them gives no order away.
NAMES = ", ".join(f"{stage} ({TERMS[stage][0]})" for stage in sorted(STAGES))
NAMES_FIRST = Words(
    "Name the five stages first (the check above says how).", "先把五段的名字写对（见上一项）。"
)
# Stages that read the tool's schema or run its own check: they need the tool looked up first.
NEED_THE_TOOL = ("validation", "tool_check")


def later(order: list[str], stage: str, stages: tuple[str, ...]) -> list[str]:
    """Those of `stages` that come after `stage` in the order."""
    return [s for s in order[order.index(stage) + 1 :] if s in stages]


def earlier(order: list[str], stage: str, stages: tuple[str, ...]) -> list[str]:
    return [s for s in order[: order.index(stage)] if s in stages]


def in_chinese(stages: list[str]) -> str:
    """Stage names as a Chinese hint writes them: the chapter's word, the lab's in brackets."""
    return "、".join(f"{TERMS[stage][0]}（{stage}）" for stage in stages)


def m3_names_every_stage(module: ModuleType) -> str | None:
    if sorted(stages_of(module)) != sorted(STAGES):
        return Words(
            f"ORDER must name each of the five stages once, in English or Chinese "
            f"(listed alphabetically): {NAMES}.",
            f"ORDER 必须把五段各写一次，中文名或英文名都行（按字母序列出）：{NAMES}。",
        )
    return None


def m3_runs(module: ModuleType) -> str | None:
    order = stages_of(module)
    if sorted(order) != sorted(STAGES):
        return NAMES_FIRST
    if blind := earlier(order, "known_tool", NEED_THE_TOOL):
        first, first_zh = ", ".join(blind), in_chinese(blind)
        return Words(
            f"In your ORDER, {first} come(s) before known_tool: a stage that reads the tool's "
            "schema or runs its own check cannot judge a call whose tool is not looked up yet. "
            "What must be known about a call before its input can be read?",
            f"你的 ORDER 里，{first_zh} 排在号码簿查名（known_tool）前面：工具还没查到，"
            "读它的 schema、跑它的自校验都无从谈起。读一次调用的输入之前，得先知道它的什么？",
        )
    run, _ = chain_run(module)
    if run.ended != "done":
        detail = run.trace.of(RunEnded)[-1].detail
        return Words(
            f"The run ended '{run.ended}' ({detail}): some stage met a call "
            "it cannot judge yet. What must be known about a call before its input can be read?",
            f"运行以 '{run.ended}' 结束（{detail}）：某一段碰上了一个它还判断不了的调用。"
            "读一次调用的输入之前，得先知道它的什么？",
        )
    return None


def m3_hooks_see_only_sound_calls(module: ModuleType) -> str | None:
    if m3_runs(module):
        return COMPLETE_FIRST if sorted(stages_of(module)) == sorted(STAGES) else NAMES_FIRST
    run, reached = chain_run(module)
    if set(reached) - {"toolu_005", "toolu_006"}:
        n = len(set(reached) - {"toolu_005", "toolu_006"})
        behind = later(stages_of(module), "hooks", ("known_tool", *NEED_THE_TOOL))
        after, after_zh = ", ".join(behind), in_chinese(behind)
        return Words(
            f"{n} malformed or impossible call(s) reached the hooks: in your ORDER, {after} "
            "come(s) after hooks. Hooks can be slow or remote: what is cheap to rule out first?",
            f"有 {n} 个外形不对或根本办不到的调用到了钩子那里：你的 ORDER 里，{after_zh} 排在"
            "前置钩子（hooks）后面。钩子可能又慢又远：什么是可以先便宜地排除掉的？",
        )
    return None


def m3_human_last(module: ModuleType) -> str | None:
    if m3_runs(module):
        return COMPLETE_FIRST if sorted(stages_of(module)) == sorted(STAGES) else NAMES_FIRST
    run, _ = chain_run(module)
    asked = len(run.trace.of(HumanAsked))
    if asked != 1:
        behind = later(stages_of(module), "permission", STAGES)
        after, after_zh = ", ".join(behind), in_chinese(behind)
        return Words(
            f"The human answered {asked} questions; only one call deserved one: in your ORDER, "
            f"{after} come(s) after permission. Whose time is the most expensive in the chain?",
            f"用户回答了 {asked} 个问题；只有一次调用值得问：你的 ORDER 里，{after_zh} 排在"
            "权限判定（permission）后面。整条链上谁的时间最贵？",
        )
    return None


# -- M4 · the gates: a rule set ----------------------------------------------------------------
def rules_run(module: ModuleType) -> Run:
    scenario = Scenario(
        prompt="Tidy the project and update the notes.",
        files={"src/app.py": "print('hi')\n", "build/app.o": "\x7fELF\n", "notes.txt": "v1\n"},
        permissions=module.RULES,
        human=lambda question: "n",
        script=[
            turn(
                tool_use("bash", {"command": "ls"}), tool_use("bash", {"command": "cat notes.txt"})
            ),
            turn(tool_use("bash", {"command": "rm -rf build"})),
            turn(tool_use("bash", {"command": "ls && rm -rf src"})),
            turn(tool_use("write_file", {"path": "notes.txt", "content": "v2\n"})),
            turn(text("Done.")),
        ],
    )
    return run_scenario(scenario, Switches())


def m4_is_rules(module: ModuleType) -> str | None:
    if not isinstance(module.RULES, Permissions):
        return Words(
            "RULES must be a Permissions(deny=..., ask=..., allow=..., default=...).",
            "RULES 必须是一个 Permissions(deny=..., ask=..., allow=..., default=...)。",
        )
    return None


def m4_reads_freely(module: ModuleType) -> str | None:
    run = rules_run(module)
    ran = {e.input.get("command") for e in run.trace.of(ToolExecuted)}
    asked = {e.call_id for e in run.trace.of(HumanAsked)}
    if not {"ls", "cat notes.txt"} <= ran or {"toolu_001", "toolu_002"} & asked:
        return Words(
            "Listing and reading files must run without a question to the human.",
            "列目录、读文件要直接执行，不必问一下用户。",
        )
    return None


def m4_nothing_deleted(module: ModuleType) -> str | None:
    run = rules_run(module)
    if files_lost(run):
        return Words(
            f"{files_lost(run)} file(s) were deleted. Which list is evaluated first, and is a "
            "command with && judged as one string or part by part?",
            f"有 {files_lost(run)} 个文件被删了。哪张表先求值？带 && 的命令是整串判，还是逐段判？",
        )
    return None


def m4_writes_ask(module: ModuleType) -> str | None:
    run = rules_run(module)
    asked = [e for e in run.trace.of(HumanAsked) if e.call_id == "toolu_005"]
    if not asked or executed(run, "write_file"):
        return Words(
            "Changing a file must put the question to the human (who says no here).",
            "改文件之前必须问一下用户（这里用户会说不）。",
        )
    return None


# -- M5 · the sockets: a Stop hook that lets go ------------------------------------------------
def stop_run(module: ModuleType) -> Run:
    scenario = Scenario(
        prompt="Fix the typo in README.md.",
        hooks=[("Stop", module.double_check)],
        script=lambda request: turn(text("All done.")),
    )
    return run_scenario(scenario, Switches())


def m5_one_more_pass(module: ModuleType) -> str | None:
    if not stop_run(module).trace.of(StopContinued):
        return Words(
            "Your hook never kept the loop going. A blocking Stop hook returns "
            '{"decision": "block", "reason": "..."}.',
            "你的钩子一次也没有把传送带拽回去。阻断型的退出钩子返回 "
            '{"decision": "block", "reason": "..."}。',
        )
    return None


def m5_lets_go(module: ModuleType) -> str | None:
    run = stop_run(module)
    blocks = len(run.trace.of(StopContinued))
    if blocks == 1 and run.ended == "done":
        return None
    calls = len(run.trace.of(ModelCalled))
    # What the run did, told as it happened: a hook that never blocks is not told it hit a cap.
    if blocks == 0:
        return Words(
            f"Your hook never blocked: the run stopped after {calls} model call(s), with no "
            "extra pass. One more pass is one block, then letting go.",
            f"你的钩子一次也没有阻断：运行调用了 {calls} 次模型就停了，没有多走一遍。"
            "多走一遍＝阻断一次，然后放手。",
        )
    if blocks >= STOP_BLOCK_CAP or run.ended == "turn_limit":
        cap = (
            ("turn limit", "轮数上限")
            if run.ended == "turn_limit"
            else (
                f"cap of {STOP_BLOCK_CAP} blocks in a row",
                f"连续阻断上限（{STOP_BLOCK_CAP} 次）",
            )
        )
        return Words(
            f"Your hook blocked {blocks} times in a row and the run took {calls} model calls: "
            f"only the harness's {cap[0]} stopped it. "
            "Read everything the Stop payload tells your hook.",
            f"你的钩子连续阻断了 {blocks} 次，这次运行调用了 {calls} 次模型：是 harness 的"
            f"{cap[1]}才让它停下。把退出钩子收到的负载里每一项都读一读。",
        )
    return Words(
        f"Your hook blocked {blocks} times and the run ended '{run.ended}' after {calls} model "
        "calls; one more pass is one block.",
        f"你的钩子阻断了 {blocks} 次，运行调用了 {calls} 次模型后以 '{run.ended}' 结束；"
        "多走一遍只要阻断一次。",
    )
