"""The harness's own words (stage and gate names, the reasons it gives, the question it puts to
the user) read in the reader's language. The harness emits English with a stable structure; a
Chinese view matches that structure here, at render time, and keeps what is data as it is: a
rule's text, a tool or file name, a hook's own message (in “…”), the model's input as JSON.

A string no pattern knows is shown as the harness wrote it (tests/test_zh.py finds those).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# The chain of checks in the seed's words (§5: 结构校验 → 工具自校验 → 前置钩子 → 权限判定 → 执行).
STAGES = {
    "known_tool": "号码簿查名",
    "complete_input": "输入完整",
    "validation": "结构校验",
    "tool_check": "工具自校验",
    "hooks": "前置钩子",
    "permission": "权限判定",
}

# The three gates (§6: 硬拒绝 → 需询问 → 放行), the fallback and the hooks' say.
GATES = {
    "deny": "硬拒绝",
    "ask": "需询问",
    "allow": "放行",
    "default": "默认",
    "hook": "钩子",
    "hook ask": "钩子要求询问",
}
DECISIONS = {"allow": "放行", "deny": "拒绝", "ask": "问一下用户"}
RULE_KINDS = {"deny": "拒绝规则", "ask": "询问规则", "allow": "放行规则"}


def stage(name: str, lang: str) -> str:
    return STAGES.get(name, name) if lang == "zh" else name


def gate(name: str, lang: str) -> str:
    return GATES.get(name, name) if lang == "zh" else name


def decision(name: str, lang: str) -> str:
    return DECISIONS.get(name, name) if lang == "zh" else name


def data(text: str) -> str:
    """Words that are data, not the lab's prose (a rule's label, a hook's message): quoted."""
    return f"“{text}”"


CODE = re.compile(r"^[\w.]+\(.*\)$|^[\w./*-]+$")  # Bash(rm *), Edit(.env), a path, a name


def rule_text(text: str) -> str:
    """A rule as written: code (`Bash(rm *)`) stays; a label (the course's descriptions) is
    quoted."""
    return text if CODE.match(text) else data(text)


# jsonschema's messages for the lab's schemas (validation), key -> Chinese.
SCHEMA: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"^'(.+)' is a required property$"), lambda m: f"缺少必填字段 '{m[1]}'"),
    (re.compile(r"^(.+) is not of type (.+)$"), lambda m: f"{m[1]} 的类型不是 {m[2]}"),
    (
        re.compile(r"^Additional properties are not allowed \((.+) (?:was|were) unexpected\)$"),
        lambda m: f"不允许多余的字段（{m[1]}）",
    ),
]


def schema_message(text: str) -> str:
    for pattern, make in SCHEMA:
        if found := pattern.match(text):
            return make(found)
    return text


# What stands for the user's answer when there is none: `lab live` once its --human list is used
# up (lab/kernel/live.py's NO_ANSWER_LEFT).
ANSWERS = {"no answer left → deny": "没有剩下的回答 → 拒绝"}


def answer(text: str, lang: str) -> str:
    """The user's answer: y or n as typed; the lab's stand-in for none, in `lang`."""
    return ANSWERS.get(text, text) if lang == "zh" else text


def _human(found: re.Match[str]) -> str:
    return f"用户回答 '{answer(found[1], 'zh')}'（针对{reason(found[2], 'zh')}）"


# The reasons the harness gives, by their stable structure. Order matters: longer first.
REASONS: list[tuple[re.Pattern[str], Callable[[re.Match[str]], str]]] = [
    (re.compile(r"^a hook allowed it$"), lambda m: "钩子放行了它"),
    (
        re.compile(r"^no rule matched; a PreToolUse hook allowed it, nobody was asked$"),
        lambda m: "没有规则命中；PreToolUse 钩子放行了它，没有问用户",
    ),
    (re.compile(r"^no rule matched$"), lambda m: "没有规则命中"),
    (re.compile(r"^deny rule deny list: (.+)$", re.S), lambda m: f"拒绝清单 {m[1]}"),
    (
        re.compile(r"^(deny|ask|allow) rule (.+)$", re.S),
        lambda m: f"{RULE_KINDS[m[1]]} {rule_text(m[2])}",
    ),
    (re.compile(r"^a PreToolUse hook asked$"), lambda m: "PreToolUse 钩子要求问一下用户"),
    (re.compile(r"^the human said '(.*)' to (.+)$", re.S), _human),
    (re.compile(r"^the human said '(.*)'$"), lambda m: f"用户回答 '{answer(m[1], 'zh')}'"),
    (
        re.compile(r"^(Permission denied\.?) \((.+)\)$", re.S),
        lambda m: f"权限拒绝（{reason(m[2], 'zh')}）",
    ),
    (re.compile(r"^Unknown tool: (.+)$"), lambda m: f"号码簿里没有这个工具：{m[1]}"),
    (
        re.compile(r"^invalid input for (\S+) at (\S+): (.+)$", re.S),
        lambda m: f"{m[1]} 的输入在 {m[2]} 处不合格：{schema_message(m[3])}",
    ),
    (
        re.compile(r"^blocked by a PreToolUse hook: (.+)$", re.S),
        lambda m: f"被 PreToolUse 钩子拦下：{data(m[1])}",
    ),
    (re.compile(r"^Path escapes workspace: (.+)$"), lambda m: f"路径越出工作区：{m[1]}"),
    (
        re.compile(r"^the input was cut off by max_tokens before it was complete"),
        lambda m: (
            "输入还没写完就被 max_tokens 截断了，这次调用没有执行；请完整地重发（太长就写短些）"
        ),
    ),
    (
        re.compile(r"^error event in the stream (\S+): (.+)$"),
        lambda m: f"流里的错误事件 {m[1]}：{m[2]}",
    ),
    (re.compile(r"^(\d{3}) (\S+): (.+)$"), lambda m: f"{m[1]} {m[2]}：{m[3]}"),
    (re.compile(r"^connection lost: (.+)$"), lambda m: f"连接中断：{m[1]}"),
    (
        re.compile(r"^tool '(.+?)': (.+)$"),
        lambda m: f"工具 '{m[1]}'：{contract(m[2])}",
    ),
]

CONTRACT = [
    (
        re.compile(r"^schema properties (\[.*\]) are not handler parameters$"),
        "schema 的属性 {} 不是处理函数的形参",
    ),
    (
        re.compile(r"^handler parameters (\[.*\]) are not in the schema$"),
        "处理函数的形参 {} 不在 schema 里",
    ),
]


def contract(text: str) -> str:
    """The contract check's problems (schema <-> signature), one by one."""
    parts = []
    for part in text.split("; "):
        for pattern, template in CONTRACT:
            if found := pattern.match(part):
                part = template.format(found[1])
                break
        parts.append(part)
    return "；".join(parts)


def reason(text: str, lang: str) -> str:
    """A reason the harness gave (a gate's, a failed check's, a retry's), in `lang`."""
    if lang != "zh":
        return text
    for pattern, make in REASONS:
        if found := pattern.match(text):
            return make(found)
    return text


QUESTION = re.compile(r"^(\S+) (.*) \((.+)\)\. Allow\? \[y/N\]$", re.S)


def question(text: str, lang: str) -> str:
    """The question put to the user, `write_file {...} (no rule matched). Allow? [y/N]`."""
    if lang != "zh" or not (found := QUESTION.match(text)):
        return text
    return f"{found[1]} {found[2]}（{reason(found[3], 'zh')}）。放行吗？[y/N]"


# How a run ended (RunEnded.reason), glossed: the word stays, the gloss says it in Chinese.
ENDINGS = {
    "done": "完成",
    "turn_limit": "到了轮数上限",
    "api_error": "API 报错",
    "bad_answer": "回答读不出来",
    "crash": "崩溃",
}
BLOCKED = re.compile(r"^Blocked at (\w+): (.*)$", re.S)


def ending(reason: str, lang: str) -> str:
    """A run's end as a `lang` reader sees it: `crash（崩溃）` in zh."""
    gloss = ENDINGS.get(reason)
    return f"{reason}（{gloss}）" if lang == "zh" and gloss else reason


def result_gloss(content: str, lang: str) -> str:
    """A gloss for a tool_result the harness wrote itself (the wire text stays exact): a block
    says at which stage and why, in Chinese; nothing for a tool's own output."""
    found = BLOCKED.match(content) if lang == "zh" else None
    if found is None:
        return ""
    return f"（在「{stage(found[1], lang)}」这一关被拦下：{reason(found[2], lang)}）"
