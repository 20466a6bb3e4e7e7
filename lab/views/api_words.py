"""The API's refusals in Chinese: what each 400 the fake API can send means, shown in the zh
edition beside the message, which stays exactly as the API wrote it."""

from __future__ import annotations

# A part of the API's message (lab/model/validation.py) → what it says, in the chapter's words.
# The first part found in a message names it.
SAYS: dict[str, str] = {
    "must start with a thinking block": "开启思考时，工具循环续上的那条助手消息必须以思考块开头",
    "the first block must be thinking": "含思考块的助手消息必须以思考块开头",
    "Invalid `signature`": "思考块的签名对不上：思考块被改过",
    "cannot be modified": "最新一条助手消息里的思考块不许改动",
    "cannot be `thinking`": "助手消息的最后一块不能是思考块",
    "When thinking is disabled": "没开思考时，最后一条助手消息不能含思考块",
    "all messages must have non-empty content": "除了最后一条助手消息，每条消息都不能为空",
    "without `tool_result` blocks immediately after": (
        "有工具调用在紧接着的下一条消息里没有配对的结果"
    ),
    "unexpected `tool_use_id`": "这个结果在上一条消息里找不到对应的工具调用",
    "must have a single result": "同一个工具调用收到了不止一个结果",
    "text content blocks must be non-empty": "文本块不能为空",
    "must contain non-whitespace text": "文本块不能只有空白",
    "ids must be unique": "工具调用的 id 必须互不相同",
    "cannot end with trailing whitespace": "预填的助手消息不能以空白结尾",
    "blocks can only be in": "这种块放进了不该放它的角色的消息里",
}


def meaning(message: str, lang: str) -> str:
    """What follows the API's message in `lang`: its meaning in brackets in zh (when the table
    knows it), else nothing."""
    if lang != "zh":
        return ""
    said = next((zh for part, zh in SAYS.items() if part in message), None)
    return f"（API 的意思：{said}）" if said else ""
