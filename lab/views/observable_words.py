"""Each observable's name with a Chinese gloss: the name stays code, the gloss says what it counts.

Shown beside the name wherever a zh reader meets it (`lab run`, `lab show`, `lab compare`,
`--predict`, the notebooks, the slides). tests/test_zh.py fails on an observable without one.
"""

from __future__ import annotations

GLOSSES: dict[str, str] = {
    "ran_late_tool": "晚到的工具调用被执行了",
    "ran_deny_listed": "拒绝清单上的命令被执行了",
    "ran_denied_by_rule": "被拒绝规则覆盖的调用被执行了",
    "ran_truncated_call": "被截断的调用被执行了",
    "tool_calls_dropped": "被丢弃的工具调用数",
    "tool_calls_executed": "执行了的工具调用数",
    "tool_calls_failed": "失败的工具调用数",
    "turns": "调用模型的轮数",
    "ended_by_limit": "因轮数上限而结束",
    "run_completed": "运行自己正常结束",
    "model_retries": "对模型的重试次数",
    "files_lost": "丢失的文件数",
    "human_prompts": "问用户的次数",
    "human_prompts_for_invalid_calls": "为不合法调用问用户的次数",
    "contract_errors_at_registration": "注册时查出的契约错误数",
    "outside_reads": "工作区外的读取次数",
    "denied_calls_logged": "审计日志记下的被拒调用数",
    "post_hooks_skipped": "被跳过的执行后回调数",
    "context_injected": "上下文注入成功",
    "spill_files": "溢写文件数",
    "wasted_turns": "白费的轮数",
    "stale_reads": "读到过期内容的次数",
    "makespan_s": "总耗时（虚拟秒）",
    "notes_saved": "保存下来的笔记数",
    "writes_refused": "被沙箱拒绝的写入数",
    "pairs_intact": "配对完整",
    "api_rejected": "API 拒绝了请求",
}


def named(name: str, lang: str, *, cell: bool = False) -> str:
    """An observable's name as a `lang` reader sees it: in zh with its gloss beside it (in a
    table cell, under it: a narrow column keeps the name whole)."""
    gloss = GLOSSES.get(name)
    if lang != "zh" or not gloss:
        return name
    return f"{name}\n（{gloss}）" if cell else f"{name}（{gloss}）"
