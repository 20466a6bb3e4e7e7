"""The reference harness's promises and what their checks say when one breaks, in Chinese.

PROMISES: each invariant's promise (the English is its check's docstring; tests/test_zh.py fails
on a missing one). SHAPES: each failure message of lab/testing/invariants.py and of the judges in
lab/kernel/promises.py, read by its stable structure, its data kept as written (ids, JSON, paths,
numbers, reprs, the API's own words); tests/test_invariant_words.py fails on one no shape reads.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from lab.views import output_words
from lab.views.harness_words import contract, stage

PROMISES = {
    "no_crash": "任何模型回答都不会让 harness 抛异常：未知工具、不合格的输入、失败的工具或钩子"
    "都变成 is_error 结果，运行按自己的规矩结束。",
    "pairing_in_call_order": "harness 发出的每个请求都能通过假 API 的校验："
    "每个 tool_use 恰好被回答一次，回答它的 tool_result 位于紧接着的那条 user 消息开头，"
    "结果按调用顺序排列。",
    "continuation_only_on_tool_use": "当且仅当上一条回答的内容里有 tool_use 块，"
    "或有退出钩子阻断了停止时，harness 才再次调用模型；"
    "一个退出钩子最多阻断 STOP_BLOCK_CAP（8）次：不管声明的 "
    "stop_reason 怎么说。（执行调用时崩溃的运行也违反它：该来的下一次调用没有来。）",
    "ends_once_within_limit": "每次运行恰好结束一次，在轮数上限之内"
    "（模型调用不超过 max_turns 次），结束之后什么也不再发生。",
    "retried": "瞬时故障（429、529、5xx、流里的错误事件或断开的连接）要等同一次模型调用重试 "
    "MAX_RETRIES（5）次之后才会结束运行：在那之前 harness 等一等再问。",
    "whole_answers": "只有 API 完整送达的回答才进入历史：harness 发出的每条 assistant "
    "消息都是其中之一，它执行的每个调用也都属于其中之一（中途断开的流只送来了草稿："
    "草稿里的块一个也不回传，草稿里的调用一个也不执行）。",
    "cut_calls_refused": "输入 JSON 被 max_tokens 截断的调用绝不执行："
    "到达的并不是模型发出的那个调用。它得到一条说明原因的 is_error tool_result。",
    "deny_dominance": "命中拒绝规则或拒绝清单的调用绝不执行，"
    "不管规则的顺序、用户的回答还是钩子的决定（复合命令逐段判断，参考实现的做法）。",
    "tighten": "钩子只收紧：没有钩子时权限规则拒绝的调用，即使用户什么都批准，有了钩子也绝不"
    "执行，不管用户说什么。（在门禁处逐个调用判断：阻断 `rm x` 的钩子完全可能让后面一个"
    "本会失败的 `cat x` 执行，所以不比较执行过的调用集合。）",
    "every_hook": "为某个事件注册的每个钩子都看到到达它的每个调用：每个 UserPromptSubmit "
    "钩子看到提示词，每个 PreToolUse 钩子看到到达钩子段的每个调用，每个 PostToolUse / "
    "PostToolUseFailure 钩子看到每个执行过的调用；一个钩子的结果绝不让排在它后面的钩子噤声。",
    "context": "UserPromptSubmit 钩子返回的上下文送到了模型：它在第一个请求的第一条消息里。",
    "human_last": "用户的时间排最后：便宜的检查反正会拦下的调用（未知工具、schema "
    "不接受的输入、没通过的工具自校验），不去问一下用户。",
    "containment": "工作区围墙守得住：文件工具（read_file、write_file、edit_file、glob）"
    "绝不读、写或列出工作区外的任何东西。围墙只管文件工具：shell 是模拟的、没有沙箱，"
    "所以工作区外的文件只可能经由一条会写的 bash 命令（不是只读的那种）改变。",
    "contract": "schema 与处理函数签名不一致的工具在注册时就被拒绝（在 trace 里记为 "
    "ToolRefused），永远不会提供给模型。",
    "order": "一次运行之后的世界，等于把同样执行过的调用按模型的顺序逐个执行之后的世界："
    "并行托盘绝不改变结果。（结果上限写在 /workspace/.spill/ 下的溢写文件按 trace "
    "记录的位置重放。）",
    "fresh": "每个调用的结果，就是按模型的顺序单独执行它得到的结果：没有调用会读到同一条回答里"
    "排在它前面的调用已经改过的世界（读到过期内容）。",
    "makespan": "工具的重叠方式和生产版切法完全一致：每轮调用的虚拟秒数，是各托盘里最长调用之和；"
    "相邻的、按其输入判定可以并发的调用同托盘（最多 10 个），不安全的调用单独一个托盘。",
    "reads_page": "读文件工具不受结果上限约束：大文件的读取以第一页加一条提示送到模型，"
    "绝不变成溢写文件（读溢写文件又会溢写）。",
    "sandbox": "shell 在沙箱里：不管怎么写（`/bin/rm`、`bash -c`、变量、`find -delete`）、"
    "规则放过了什么，bash 命令都改变不了工作区外的任何东西。（文件工具有围墙；"
    "它们写到外面是 containment 的情形。）",
    "hook_block": "被 PreToolUse 钩子阻断的调用绝不执行，不管权限规则放行了什么："
    "钩子在规则之前被问到，所以阻断压得过放行规则。",
    "silence": "一言不发的钩子什么也没批准：所有 PreToolUse 钩子都沉默的调用，遇到规则时就像"
    "没有钩子一样，所以规则本身会问一下用户时，用户就会被问到。",
}


def promise(name: str, english: str, lang: str) -> str:
    """What an invariant promises, in `lang`."""
    return PROMISES.get(name, english) if lang == "zh" else english


# The data inside a message, as the checks write it.
N = r"(\d+)"  # a request number, a turn, a count
ID = r"(\S+)"  # a call id, a tool or hook name, a path, a number printed with :g
CALL = r"(\S+ \S+ \{.*\})"  # invariants.show_call: id, tool name, input as JSON
LIST = r"(\[.*?\])"  # a list of call ids, as Python prints it
REPR = r"('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|None)"  # a repr'd string (or None)


def _crashed(m: re.Match[str]) -> str:
    # The inner part is the crash's own line (`KeyError: ...`, Python's words) or no_crash's
    # fallback (the lab's).
    if m[1].startswith("the run crashed ("):
        return f"harness 崩溃了：{chinese(m[1])}"
    return f"harness 崩溃了：{output_words.line_said(m[1].splitlines()[0]) or m[1]}"


def _request(m: re.Match[str]) -> str | None:
    said = chinese(m[2])  # `request #n: {problem}`: the inner problem is said in Chinese too
    return f"请求 #{m[1]}：{said}" if said else None


def _changed(m: re.Match[str]) -> str | None:
    # what_changed joins its parts with "; ": each part is said on its own.
    parts = [chinese(part) or "" for part in m[3].split("; ")]
    return f"请求 #{m[1]} 回传 #{m[2]} 的回答时改了它：{'；'.join(parts)}" if all(parts) else None


GOT = {"no result": "却没有得到结果", "a result without is_error": "得到的结果却没有标 is_error"}


def _got(m: re.Match[str]) -> str | None:
    said = chinese(m[1])  # `{why} got {got}`: why is a message of its own
    return f"{said}，{GOT[m[2]]}" if said else None


# Each message's structure -> its Chinese, the data kept. Order matters where one shape holds
# another: a composite (`request #n: ...`) comes after the shapes that start the same way.
SHAPES: list[tuple[str, Callable[[re.Match[str]], str | None]]] = [  # None: inner part unknown
    # the loop: pairing, continuation, termination, crashes
    (rf"calls {LIST} are answered as {LIST}", lambda m: f"调用 {m[1]} 的结果依次是 {m[2]}"),
    (
        rf"messages\.{N} calls {LIST}; the next message answers (nothing|{LIST})",
        lambda m: (
            f"messages.{m[1]} 调用了 {m[2]}；下一条消息"
            + ("什么也没回答" if m[3] == "nothing" else f"回答的是 {m[3]}")
        ),
    ),
    (
        rf"messages\.{N} answers {LIST}, which messages\.{N} did not call",
        lambda m: f"messages.{m[1]} 回答了 {m[2]}，可 messages.{m[3]} 并没有调用它们",
    ),
    (
        rf"messages\.{N} is no answer the API finished",
        lambda m: f"messages.{m[1]} 不是 API 完整送达的任何一条回答",
    ),
    (  # the API's own words (status, type, message) are long and stand quoted right before
        rf"request #{N} was rejected: (?:(\d{{3}} \S+): )?(.+)",
        lambda m: (
            f"请求 #{m[1]} 被 API 拒收：" + (f"{m[2]}（API 的原话见引号里）" if m[2] else m[3])
        ),
    ),
    (
        rf"request #{N}'s answer called {ID} \({ID}, declared {ID}\) and no later request "
        "the API took answers it",
        lambda m: (
            f"请求 #{m[1]} 的回答调用了 {m[2]}（{m[3]}，声明的是 {m[4]}），"
            "之后 API 收下的请求里没有一个回答它"
        ),
    ),
    (
        rf"turn {N} held no tool_use block \(declared {REPR}\), yet the model was called again",
        lambda m: f"第 {m[1]} 轮的回答里没有 tool_use 块（声明的是 {m[2]}），模型却又被调用了",
    ),
    (
        rf"a Stop hook blocked {N} times; the cap is {N}",
        lambda m: f"退出钩子（Stop）阻断了 {m[1]} 次；上限是 {m[2]} 次",
    ),
    (
        rf"request #{N} asked past the script's last answer",
        lambda m: f"请求 #{m[1]} 在剧本的最后一个回答之后还在要回答",
    ),
    (
        rf"{N} answers asked for; the turn limit is {N}",
        lambda m: f"向 API 要了 {m[1]} 个回答；轮数上限是 {m[2]}",
    ),
    (rf"{N} model calls, the limit is {N}", lambda m: f"模型调用了 {m[1]} 次；轮数上限是 {m[2]}"),
    (
        rf"the run ended {N} times, or events followed its end",
        lambda m: f"运行结束了 {m[1]} 次，或者结束之后还有事件",
    ),
    (r"the harness crashed: (.+)", _crashed),
    (r"the run crashed \((.+)\)", lambda m: f"运行崩溃了（{m[1]}）"),
    (
        r"the program exited 0 without asking for its final answer \(gave up silently\)",
        lambda m: "程序没要最后一个回答就以 0 退出了（悄悄放弃了）",
    ),
    # the model's odd calls (the probe's judges): `{why} got {got}`
    (r"(.+) got (no result|a result without is_error)", _got),
    (rf"unknown tool {ID} \({ID}\)", lambda m: f"未知工具 {m[1]}（{m[2]}）"),
    (rf"{ID} \({ID}\) with invalid input (.+)", lambda m: f"{m[1]}（{m[2]}）的输入 {m[3]} 不合格"),
    # the API's faults
    (
        rf"a (.+) ended the run after {N} of {N} retries",
        lambda m: f"{m[1]} 只重试了 {m[2]} 次（应重试 {m[3]} 次）就结束了运行",
    ),
    (
        rf"request #{N} came {ID} s after request #{N}; retry-after asked for {ID} s",
        lambda m: f"请求 #{m[1]} 在请求 #{m[3]} 之后 {m[2]} 秒就来了；retry-after 要求等 {m[4]} 秒",
    ),
    (
        rf"{ID} \({ID}\) from the broken answer of #{N} ran",
        lambda m: f"#{m[3]} 中途断开的回答里的 {m[1]}（{m[2]}）执行了",
    ),
    (
        rf"request #{N} sends back {ID} from a broken answer",
        lambda m: f"请求 #{m[1]} 回传了中途断开的回答里的 {m[2]}",
    ),
    (
        rf"{CALL} ran, but no finished answer holds it",
        lambda m: f"{m[1]} 执行了，可是没有哪条完整送达的回答里有它",
    ),
    (
        rf"{ID} \({ID}\) ran, though max_tokens cut its input",
        lambda m: f"{m[1]}（{m[2]}）执行了，尽管它的输入被 max_tokens 截断了",
    ),
    (
        rf"the cut call {ID} was answered as if it had run",
        lambda m: f"被截断的调用 {m[1]} 得到的回答就像它执行过一样",
    ),
    (
        rf"request #{N} splits #{N}'s answer into {N} turns",
        lambda m: f"请求 #{m[1]} 把 #{m[2]} 的回答拆成了 {m[3]} 个 assistant 轮次",
    ),
    (rf"request #{N} sends #{N}'s answer back: (.+)", _changed),
    # what_changed's parts
    (
        rf"{N} of its {N} (thinking|text) block\(s\) dropped",
        lambda m: f"它的 {m[2]} 个 {m[3]} 块丢了 {m[1]} 个",
    ),
    (rf"{ID} missing", lambda m: f"{m[1]} 不见了"),
    (rf"{ID} renamed {ID} → {ID}", lambda m: f"{m[1]} 被改了名：{m[2]} → {m[3]}"),
    (rf"{ID}'s input changed", lambda m: f"{m[1]} 的输入被改了"),
    (r"its blocks reordered", lambda m: "它的块被重新排了序"),
    (rf"request #{N}: (.+)", _request),
    # permissions and hooks
    (
        rf"{CALL} ran although {REPR} denies it",
        lambda m: f"{m[1]} 执行了，尽管拒绝规则 {m[2]} 不许它执行",
    ),
    (r"(.+) appeared", lambda m: f"工作目录里出现了 {m[1]}"),
    (
        rf"{CALL} executed with hooks; without hooks the gates refuse it",
        lambda m: f"{m[1]} 在有钩子时执行了；没有钩子时门禁会拒绝它",
    ),
    (
        rf"{CALL} executed although the hook {ID} blocks it",
        lambda m: f"{m[1]} 执行了，尽管钩子 {m[2]} 阻断了它",
    ),
    (
        rf"the {ID} hook {ID} never ran(?: for {ID})?",
        lambda m: f"{m[1]} 钩子 {m[2]} " + (f"没有为 {m[3]} 运行" if m[3] else "没有运行"),
    ),
    (
        rf"the context from {ID} \((.+)\) never reached the model",
        lambda m: f"{m[1]} 给的上下文（{m[2]}）没有送到模型",
    ),
    (
        rf"the human was asked about {ID}, which {ID} stops",
        lambda m: f"为 {m[1]} 问了用户，可「{stage(m[2], 'zh')}」这一关本来就会拦下它",
    ),
    (
        rf"the human was asked about {ID}, whose input is invalid",
        lambda m: f"为 {m[1]} 问了用户，可它的输入不合格",
    ),
    (
        rf"the hooks said nothing about {CALL}, yet nobody was asked",
        lambda m: f"钩子对 {m[1]} 一言不发，却没有问用户",
    ),
    # the workspace wall, the sandbox, the contract
    (rf"{CALL} reached outside the workspace", lambda m: f"文件工具调用 {m[1]} 越出了工作区"),
    (
        rf"{CALL} listed (.+), outside the workspace",
        lambda m: f"文件工具调用 {m[1]} 列出了工作区外的 {m[2]}",
    ),
    (
        r"files outside the workspace changed, and no bash command wrote",
        lambda m: "工作区外的文件变了，却没有哪条会写的 bash 命令执行过",
    ),
    (
        r"(.+), outside the workspace, changed through the shell",
        lambda m: f"工作区外的 {m[1]} 经由 shell 被改变了",
    ),
    (
        r"tool '(.+?)': (.+), yet it was registered and offered to the model",
        lambda m: f"工具 '{m[1]}'：{contract(m[2])}，它却照样注册并提供给了模型",
    ),
    # execution, results, order
    (
        rf"(.+) differs from a serial replay: {REPR} vs {REPR}",
        lambda m: f"{m[1]} 与按模型的顺序逐个重放的结果不同：这次是 {m[2]}，重放是 {m[3]}",
    ),
    (
        rf"{CALL} returned {REPR}, alone it gives {REPR}",
        lambda m: f"{m[1]} 返回了 {m[2]}，单独执行时返回 {m[3]}",
    ),
    (
        rf"turn {N}: the tools took {ID} s; production's trays take {ID} s",
        lambda m: f"第 {m[1]} 轮：工具用了 {m[2]} 秒；按生产版的托盘切法应是 {m[3]} 秒",
    ),
    (rf"the read {ID} was spilled to {ID}", lambda m: f"读文件调用 {m[1]} 被溢写到了 {m[2]}"),
]
COMPILED = [(re.compile(pattern, re.S), make) for pattern, make in SHAPES]


def chinese(reason: str) -> str | None:
    """A check's message in Chinese, or None when no shape reads it."""
    for pattern, make in COMPILED:
        if (found := pattern.fullmatch(reason)) and (said := make(found)):
            return said
    return None


def reason_in_chinese(reason: str) -> str:
    """What follows a check's words in zh: their Chinese in brackets, when a shape reads them."""
    said = chinese(reason)
    return f"（{said}）" if said else ""
