"""The switchboard's prose in Chinese: each switch's fault and why the course sets it as it does,
keyed by the switch's name (lab/kernel/switches.py keeps the English beside the code). A switch
missing here shows its English, and tests/test_zh.py fails on it."""

from __future__ import annotations

from lab.chapter.disputes import DISPUTED_FRONT_HALF

FAULTS = {
    "trust_stop_reason": "续轮判据信声明的 stop_reason，而不看内容块：声明写着 end_turn 时"
    "到来的工具调用被丢掉。",
    "retry_transient_errors": "关掉：瞬时故障（429、529、5xx、流里的错误事件或断开的连接）"
    "立刻结束运行，而不是等一等再问一次。",
    "keep_thinking_blocks": "关掉：回答里的思考块在追加进历史之前被剥掉；开启思考时，"
    "工具循环的下一次请求被 API 拒绝。",
    "unknown_tool_result": "关掉：查不到的工具名抛异常，而不是变成一条 is_error 结果，"
    "运行在一批调用中途崩溃。",
    "contract_checked": "关掉：注册时不检查 schema 与签名的契约；schema 写 file_path、"
    "处理函数却收 path 的工具在第一次调用时失败。",
    "handler_errors_become_results": "关掉（课程的分发）：处理函数抛出的异常没人接住，"
    "冲出循环，运行崩溃，这次调用没有回答。",
    "parallel_batches": "关掉：每个调用自成一个托盘，逐个串行执行，和课程一样。",
    "concurrency_from_input": "关掉：并发与否按每个工具查表决定，而不看调用的输入，"
    "于是 `rm` 会和读同一文件的 `cat` 同托盘并行，而写不同文件的调用永远不能同托盘。",
    "execute_truncated_calls": "被 max_tokens 截断输入 JSON 的 tool_use 照样执行，"
    "用的是 SDK 拼出来的样子（只有完整的字段）：截断的保留清单变短了，截断的安全开关没了，"
    "harness 执行了一个模型从未发出的调用。",
    "validate_before_gate": "关掉：门禁（钩子和权限）排在结构校验和工具自校验之前，"
    "本来就不合格的调用也要问一下用户。",
    "own_front_checks": "关掉（课程的 s03/s04）：harness 没有自己的前半段，处理函数前面既没有"
    "结构校验也没有工具自校验，不合法的调用先过门禁，再交给 handler(**block.input)。",
    "read_exempt_from_cap": "关掉：读文件工具的结果也和别的一样被溢写，读大文件得到一个溢写路径，"
    "读这个路径又溢写一次：自己喂自己的循环。",
    "pair_protection": "关掉：运行前被拦下的调用拿不到 tool_result，历史裁剪也会把 tool_use "
    "和它的 tool_result 切开；下一次请求被 API 拒绝。",
    "keep_partial_answers": "失败的流已经送来的内容（文本、一个 tool_use）先被追加进历史，"
    "再去重问模型：一个模型没写完的 tool_use 欠着一条没人发的 tool_result，"
    "下一次请求被 API 拒绝。",
    "gate_order_correct": "关掉：先问一下用户，再查硬拒绝规则，于是一句「好」就让拒绝清单上的"
    "命令执行了。",
    "deny_rules_cover_every_tool": "关掉（课程的 s03）：硬拒绝闸门只对 bash 生效；"
    "被拒绝规则覆盖的文件工具落到询问闸门，变成一个问题。",
    "workspace_wall": "关掉（课程的 s03 拆掉了 safe_path）：文件工具能伸到工作区外面，"
    "挡在前面的只剩问一下用户。",
    "split_compound_commands": "关掉：复合命令被当成一整串匹配，于是 `ls && rm -rf /` "
    "能通过 `Bash(ls *)` 放行规则，也躲过 `Bash(rm *)` 拒绝规则。",
    "shell_sandbox": "关掉：shell 不在沙箱里运行；文本规则没认出来的命令（/bin/rm、bash -c、"
    "变量、find -delete）能写到磁盘上任何地方。",
    "hooks_before_rules": "关掉：钩子成了权限规则之后的兜底，放行规则在钩子看到之前就定了案："
    "阻断型钩子输了。",
    "hooks_may_loosen": "PreToolUse 钩子的 'allow' 跳过拒绝和询问规则（v2.1.77 之前的真实缺陷）："
    "钩子放松而不是只收紧。",
    "silence_is_approval": "运行了却一言不发的 PreToolUse 钩子被当成放行："
    "本该问一下用户的问题被跳过。",
    "course_hook_semantics": "课程的钩子：回调按顺序执行，第一个非 None 的结果跳过其余回调，"
    "权限只是第一个 PreToolUse 回调，UserPromptSubmit 和 PostToolUse 的结果被丢弃。",
    "stop_hook_guard": "关掉：没有 stop_hook_active 标记，也没有连续 8 次退出阻断的上限，"
    "于是一个一直阻断的退出钩子让循环一直转到轮数上限。",
}

COURSE_WHY = {
    "trust_stop_reason": "s01-s04 按内容块判断（课程网站较早的修订版判 stop_reason："
    "那正是 D1 的退化循环）",
    "retry_transient_errors": "s01 默认的 Anthropic() 客户端对 408/409/429/5xx 退避重试两次"
    "（SDK 的 max_retries=2）；它从不流式，所以流不会在回答中途断开",
    "keep_thinking_blocks": "无从谈起：课程从不开启思考；s01 把 response.content 原样追加，"
    "思考块也会整个送回",
    "unknown_tool_result": 's02 对查不到的名字回一句字符串 "Unknown: <name>"',
    "contract_checked": "schema 与签名的契约是隐含的：没有任何地方检查它",
    "handler_errors_become_results": "s02 的 handler(**block.input) 外面没有 try："
    "关键字展开抛出的 TypeError 冲出循环，程序停下（运行时直接炸）",
    "parallel_batches": "工具严格一个接一个执行：没有线程，没有 asyncio",
    "concurrency_from_input": "无从谈起：没有并行，也就无所谓怎么决定",
    "execute_truncated_calls": "s01 执行回答里的每个 tool_use 块，从不读 stop_reason，"
    "所以被 max_tokens 截断的调用带着已到达的字段执行",
    "validate_before_gate": "门禁之前没有任何外形检查：课程自己根本没有这类检查"
    "（own_front_checks=False），所以每个调用都先碰到门禁，和 D9 的退化链一样；"
    "D9 量到的问题要靠一条课程规则里从没有的询问",
    "own_front_checks": DISPUTED_FRONT_HALF.zh,
    "read_exempt_from_cap": "无从谈起：课程把输出截断在 50,000 个字符，从不溢写",
    "pair_protection": '被拒绝的调用仍然得到 "Permission denied." 作为结果',
    "keep_partial_answers": "无从谈起：s01 从不流式，失败的 create() 不留半截回答",
    "gate_order_correct": "s03 先查拒绝清单，再问一下用户",
    "deny_rules_cover_every_tool": "s03 把硬拒绝清单包在 `if block.name == 'bash'` 里",
    "workspace_wall": "s03 从文件工具里拆掉了 safe_path",
    "split_compound_commands": "无从谈起：课程的拒绝清单和询问规则是子串，在整条命令里任何位置"
    "找到都算，所以 `ls && rm -rf /` 被拒绝；绕过它的是别的写法（D28），不是复合命令",
    "shell_sandbox": "run_bash 在工作目录里 subprocess.run(shell=True)：没有沙箱",
    "hooks_before_rules": "s04：权限是第一个 PreToolUse 回调，放行时什么也不返回，"
    "所以后面的阻断回调照样运行",
    "hooks_may_loosen": "课程的钩子只能阻断：没有可以用来放松的 'allow'",
    "silence_is_approval": "s04 的权限回调总是先跑，不管后面的回调说什么；"
    "一言不发的回调什么也没批准",
    "course_hook_semantics": "s04 按顺序执行回调，第一个非 None 的结果胜出",
    "stop_hook_guard": "没有 stop_hook_active 标记，退出续轮也没有上限",
}


def fault(name: str, english: str, lang: str) -> str:
    """The fault a switch injects, in `lang`."""
    return FAULTS.get(name, english) if lang == "zh" else english


def course_why(name: str, english: str, lang: str) -> str:
    """Why the course sets the switch as it does, in `lang`."""
    return COURSE_WHY.get(name, english) if lang == "zh" else english
