"""The chapter's claims the lab reads differently: each stated once, in both languages.

Wherever such a claim appears (a notebook, the §8 table, a course note, `lab parts`, the
README) the lab prints this text, so the class hears one story: what the chapter says, what the
lab finds in the course code, and why. `tests/test_disputes.py` looks for statements that
contradict it.
"""

from __future__ import annotations

__all__ = ["DISPUTED", "DISPUTED_FRONT_HALF", "Dispute"]

from dataclasses import dataclass


@dataclass(frozen=True)
class Dispute:
    seed: str  # the chapter's words
    en: str  # the lab's reading and why, in English
    zh: str  # the same, in Chinese
    contradictions: tuple[str, ...]  # phrases that would state the chapter's reading as fact

    def said(self, lang: str) -> str:
        """The lab's reading in `lang` ("en" or "zh")."""
        return self.zh if lang == "zh" else self.en


DISPUTED_FRONT_HALF = Dispute(
    seed="教学版只实现了这条链的后两段【一】，前半段不是不存在，是被外部件代工了",
    en="disputed: the chapter says the front half of the chain is done by an outside part "
    "(被外部件代工: the SDK checks the shape); the lab reads the course code differently: no "
    "outside part checks a tool_use input against its schema. The SDK parses the JSON and never "
    'validates it (a cut {"path": "/tm becomes {}, no error: D21), and the API holds an input '
    "to the schema only for a tool with strict: true, which the course's tools do not set. So "
    "a malformed call meets the gates, then handler(**block.input) raises (D8, D9b)",
    zh="有分歧：本章说扫码链的前半段「被外部件代工」（SDK 替它扛了外形检查）；本实验室读课程代码"
    "得出不同结论：没有任何外部件按 schema 检查 tool_use 的输入。SDK 只解析 JSON、从不校验"
    '（被截断的 {"path": "/tm 变成 {}，不报错：D21），API 只对设了 strict: true 的工具按 schema '
    "约束输入，而课程的工具都没设。所以不合法的调用先过门禁，再在 handler(**block.input) 里炸掉"
    "（D8、D9b）",
    contradictions=(
        "the SDK's job",
        "the SDK's and the API's job",
        "SDK 的活",
        "SDK's job in the course",
    ),
)

# Every disputed claim, by the harness slot whose part it is about.
DISPUTED: dict[str, Dispute] = {"front_half": DISPUTED_FRONT_HALF}
