"""The reference harness's promises (lab/testing's invariants) in Chinese, keyed by the invariant's
name; the English is each check's docstring. A promise missing here shows its English, and
tests/test_zh.py fails on it."""

from __future__ import annotations

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


# A part of what an invariant's check says when it breaks → its Chinese (the first part found
# names it). The hunt of notebook 07 flips the workspace wall, so containment's words lead.
REASONS: dict[str, str] = {
    "files outside the workspace changed": "工作区外的文件变了，却没有哪条 bash 命令写过它们",
    "reached outside the workspace": "文件工具越出了工作区",
    ", outside the workspace": "文件工具列出了工作区外的路径",
}


def reason_in_chinese(reason: str) -> str:
    """What follows a check's words in zh: their Chinese in brackets, when the table knows it."""
    said = next((zh for part, zh in REASONS.items() if part in reason), None)
    return f"（{said}）" if said else ""
