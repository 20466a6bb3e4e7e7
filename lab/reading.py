"""A student's answer read and compared with what the code computes: a typed line parsed as a
value, text compared without case or outer spaces, the seed's Chinese terms taken for the words
they stand for. predict-then-run (lab/predict.py, lab/views/predict.py) uses these."""

from __future__ import annotations

import ast
from collections.abc import Mapping
from typing import Any

# -- comparing a prediction with a computed value ----------------------------------------------
# The answer words a question asks for, as a student may also write them: the seed's Chinese
# terms and their usual synonyms, and the English with a space for the underscore. Keyed by the
# word as `normal` reads it (stripped, lower case), each to the word the code computes.
SYNONYMS: dict[str, tuple[str, ...]] = {}
for words, meaning in [
    (("丢弃", "被丢弃", "丢了", "丢掉", "丢失"), ("dropped",)),
    (("执行", "执行了", "运行了", "跑了"), ("ran",)),
    (("拦下", "被拦下", "拦住", "被拦住", "停下"), ("stopped",)),
    (("结构校验", "校验", "外形检查", "结构合法"), ("validation",)),
    (("工具自校验", "自校验", "tool check", "tool-check"), ("tool_check",)),
    (("前置钩子",), ("hooks",)),
    (("钩子",), ("hooks", "hook")),
    (("权限判定", "权限", "许可"), ("permission",)),
    (("号码簿查名", "查名", "known tool"), ("known_tool",)),
    (("硬拒绝", "拒绝"), ("deny",)),
    (("需询问", "询问", "问一下", "问一下用户", "人工审批"), ("ask",)),
    (("放行", "允许"), ("allow",)),
    (("墙", "围墙", "硬墙", "工作区围墙"), ("wall",)),
    (("问人", "问题", "问一句", "对讲机"), ("question",)),
    (("什么都没有", "没有", "无"), ("nothing",)),
    (("注册时", "在注册时"), ("at registration",)),
    (("第一次调用时", "首次调用时"), ("at the first call",)),
]:
    SYNONYMS |= dict.fromkeys(words, meaning)


def normal(value: Any) -> Any:
    """A value in a form that compares the way a student means it: text without case or outer
    spaces, any sequence as a tuple, sets and dict keys unordered,
    3 == 3.0."""
    if isinstance(value, str):
        return value.strip().lower()
    if isinstance(value, bool) or value is None:
        return ("flag", value)  # True is no 1 here
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, Mapping):
        return frozenset((normal(k), normal(v)) for k, v in value.items())
    if isinstance(value, set | frozenset):
        return frozenset(normal(v) for v in value)
    if isinstance(value, list | tuple):
        return tuple(normal(v) for v in value)
    return value


def readings(prediction: Any) -> tuple[Any, ...]:
    """What a prediction may mean: itself, or for a synonym the words it stands for."""
    if isinstance(prediction, str):
        return (prediction, *SYNONYMS.get(normal(prediction), ()))
    return (prediction,)


def same(prediction: Any, computed: Any) -> bool:
    return any(normal(reading) == normal(computed) for reading in readings(prediction))


def means(prediction: Any, computed: Any, groups: tuple[tuple[Any, ...], ...]) -> bool:
    """The prediction is the computed value, or a word in the same group of synonyms (the seed's
    own term, its usual names, in either language)."""
    if same(prediction, computed):
        return True
    return any(
        any(same(computed, word) for word in group)
        and any(same(prediction, word) for word in group)
        for group in groups
    )


def synonyms(computed: Any, groups: tuple[tuple[Any, ...], ...]) -> tuple[Any, ...]:
    """Every answer taken as right when the code computes `computed`."""
    return next((g for g in groups if any(same(computed, w) for w in g)), (computed,))


def parse(answer: str) -> Any:
    """A typed answer: a Python literal (True, 4, 'x', (1, 2)) or else the text itself."""
    try:
        return ast.literal_eval(answer.strip())
    except (ValueError, SyntaxError):
        return answer.strip()


def well_formed(answer: str) -> bool:
    """An answer is a value: a literal, or plain words. Empty, or brackets and quotes that do not
    parse (`)))(((`), it is a slip of the keyboard, not a prediction."""
    text = answer.strip()
    try:
        ast.literal_eval(text)
        return True
    except (ValueError, SyntaxError):
        return bool(text) and not any(ch in text for ch in "()[]{}'\"")


def shown(value: Any) -> str:
    return repr(value) if not isinstance(value, str) else value


class NoMoreInput(Exception):
    """Standard input ended before every prediction was read, or held an answer that is not a
    value (on a terminal the question is asked again instead)."""
