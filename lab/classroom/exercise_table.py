"""The five exercises as a table: each one's starter file, the name it defines, its title, and its
checks, each with what the student reads, what the teacher reads (`lab check --list`) and the
function that runs it (lab/classroom/exercise_checks.py).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import ModuleType

from lab.classroom.exercise_checks import (
    m1_is_a_script,
    m1_reference_reads,
    m1_trusting_loses,
    m2_counts,
    m2_registers,
    m2_validates,
    m3_hooks_see_only_sound_calls,
    m3_human_last,
    m3_names_every_stage,
    m3_runs,
    m4_is_rules,
    m4_nothing_deleted,
    m4_reads_freely,
    m4_writes_ask,
    m5_lets_go,
    m5_one_more_pass,
)
from lab.languages.bilingual import Words


@dataclass(frozen=True)
class Check:
    name: str  # what must be true, as the student reads it
    teacher: str  # how it is checked, for `lab check --list`
    run: Callable[[ModuleType], str | None]  # None: passed; else the hint


@dataclass(frozen=True)
class Exercise:
    id: str
    mechanism: str
    file: str  # the starter file's name (in exercises/, and in the wheel's lab/starters)
    defines: str  # the name the student's file must define
    title: Mapping[str, str]
    checks: tuple[Check, ...]


EXERCISES: dict[str, Exercise] = {
    e.id: e
    for e in [
        Exercise(
            "m1_lost_call",
            "M1",
            "m1_lost_call.py",
            "SCRIPT",
            {
                "en": "Write a script that makes a loop trusting stop_reason lose the read",
                "zh": "写一段脚本，让「信 stop_reason」的循环丢掉读报告的那件活",
            },
            (
                Check(
                    Words("SCRIPT is a list of turns", "SCRIPT 是由轮次组成的列表"),
                    Words("isinstance Turn", "isinstance(step, Turn)"),
                    m1_is_a_script,
                ),
                Check(
                    Words(
                        "the reference loop reads report.md, the API accepts every request",
                        "参考实现的循环读到 report.md，API 接受每一个请求",
                    ),
                    Words(
                        "reference run: ended done, no 400, nothing dropped, a call read report.md",
                        "参考实现：以 done 结束，没有 400，没有丢调用，有一次调用读了 report.md",
                    ),
                    m1_reference_reads,
                ),
                Check(
                    Words(
                        "a loop that trusts stop_reason loses that read",
                        "信 stop_reason 的循环丢掉了这次读取",
                    ),
                    Words(
                        "trust_stop_reason=True: tool_calls_dropped >= 1 and report.md never read",
                        "trust_stop_reason=True：tool_calls_dropped >= 1，且 report.md 从未被读",
                    ),
                    m1_trusting_loses,
                ),
            ),
        ),
        Exercise(
            "m2_word_count",
            "M2",
            "m2_word_count.py",
            "make_tool",
            {
                "en": "Add a word_count tool to the number book: all three places agree",
                "zh": "往号码簿里加一个 word_count 工具：三处（schema、处理函数、签名）要对齐",
            },
            (
                Check(
                    Words(
                        "the dispatch table accepts it with its contract checked",
                        "号码簿在检查契约后接受它",
                    ),
                    Words(
                        "ToolRegistry().register(make_tool(world))",
                        "ToolRegistry().register(make_tool(world))",
                    ),
                    m2_registers,
                ),
                Check(
                    Words(
                        "it counts the words of the file the model names",
                        "它数出模型所指文件里的词数",
                    ),
                    Words(
                        'model calls word_count {"path": "essay.txt"}; output == "7", not is_error',
                        '模型调用 word_count {"path": "essay.txt"}；输出 == "7"，不是 is_error',
                    ),
                    m2_counts,
                ),
                Check(
                    Words(
                        "a call without a path is stopped at validation",
                        "没有 path 的调用在结构校验处被拦下",
                    ),
                    Words(
                        "model calls word_count {}; a CheckFailed at stage validation",
                        "模型调用 word_count {}；validation 段出现一个 CheckFailed",
                    ),
                    m2_validates,
                ),
            ),
        ),
        Exercise(
            "m3_chain_order",
            "M3",
            "m3_chain_order.py",
            "ORDER",
            {
                "en": "Put the scanners of the chain of checks in order",
                "zh": "给扫码口排序：执行前的校验链",
            },
            (
                Check(
                    Words("ORDER names each stage once", "ORDER 把每一段各写一次"),
                    Words("sorted(ORDER) == the five stages", "sorted(ORDER) == 那五段"),
                    m3_names_every_stage,
                ),
                Check(
                    Words(
                        "every call gets through the chain without crashing the run",
                        "每个调用都走完校验链，运行不崩",
                    ),
                    Words(
                        "six bad calls + one good, chain reordered by ORDER: run ends done",
                        "六个坏调用加一个好调用，链按 ORDER 重排：运行以 done 结束",
                    ),
                    m3_runs,
                ),
                Check(
                    Words(
                        "only well-formed, possible calls reach the hooks",
                        "只有外形合法、办得到的调用才到钩子",
                    ),
                    Words(
                        "a recording PreToolUse hook sees only toolu_005 (.env) and toolu_006",
                        "一个记录用的 PreToolUse 钩子只看到 toolu_005（.env）和 toolu_006",
                    ),
                    m3_hooks_see_only_sound_calls,
                ),
                Check(
                    Words(
                        "the human is asked only about the call every other stage lets through",
                        "只有其余各段都放过的调用才问一下用户",
                    ),
                    Words(
                        "default ask, human says y: exactly one HumanAsked",
                        "default 为 ask，用户答 y：恰好一个 HumanAsked",
                    ),
                    m3_human_last,
                ),
            ),
        ),
        Exercise(
            "m4_rule_set",
            "M4",
            "m4_rule_set.py",
            "RULES",
            {
                "en": "Write the rule set for the gates: deny, ask, allow",
                "zh": "为门禁写规则：拒绝、询问、放行",
            },
            (
                Check(
                    Words("RULES is a Permissions", "RULES 是一个 Permissions"),
                    Words("isinstance Permissions", "isinstance(RULES, Permissions)"),
                    m4_is_rules,
                ),
                Check(
                    Words(
                        "listing and reading run without a question", "列目录和读文件直接执行，不问"
                    ),
                    Words(
                        "ls and cat notes.txt execute, no HumanAsked for them",
                        "ls 和 cat notes.txt 执行了，没有为它们出现 HumanAsked",
                    ),
                    m4_reads_freely,
                ),
                Check(
                    Words(
                        "nothing is deleted, not even inside a compound command",
                        "什么都没被删，复合命令里的也不行",
                    ),
                    Words(
                        "rm -rf build and ls && rm -rf src: files_lost == 0 (human says n)",
                        "rm -rf build 与 ls && rm -rf src：files_lost == 0（用户答 n）",
                    ),
                    m4_nothing_deleted,
                ),
                Check(
                    Words("changing a file asks the human first", "改文件前先问一下用户"),
                    Words(
                        "write_file notes.txt: HumanAsked for it, never executed (human says n)",
                        "write_file notes.txt：为它出现 HumanAsked，从未执行（用户答 n）",
                    ),
                    m4_writes_ask,
                ),
            ),
        ),
        Exercise(
            "m5_stop_hook",
            "M5",
            "m5_stop_hook.py",
            "double_check",
            {
                "en": "Plug a Stop hook into the socket that asks for one more pass, then lets go",
                "zh": "往插线口插一个退出钩子：要求再检查一遍，然后放手",
            },
            (
                Check(
                    Words("it sends the loop round once more", "它让传送带再转一圈"),
                    Words(
                        "reference harness, a model that only says 'All done.': >= 1 StopContinued",
                        "参考实现，模型只会说 'All done.'：至少一个 StopContinued",
                    ),
                    m5_one_more_pass,
                ),
                Check(
                    Words(
                        "it lets the loop stop by itself, before the harness's cap",
                        "它让循环自己停下，不等 harness 的上限",
                    ),
                    Words(
                        "exactly 1 StopContinued and the run ends done (2 model calls)",
                        "恰好 1 个 StopContinued，运行以 done 结束（2 次模型调用）",
                    ),
                    m5_lets_go,
                ),
            ),
        ),
    ]
}
