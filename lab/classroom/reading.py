"""A student's answer read the way the student means it: a typed line is read as the kind of value
the code computes (a yes or no, a number, numbers, a call id, a term, a list), in English or
Chinese, then compared. predict-then-run (lab/classroom/predict.py, lab/views/predict_view.py) uses
these."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping
from typing import Any

NO_PREDICTION = ...  # what a prediction cell holds until the student writes one

# -- the tables ----------------------------------------------------------------------------------
# Each term the questions ask for, by the word the code computes, with the forms a student may
# type for it: the chapter's own term first, then its usual names in both languages.
TERMS: dict[str, tuple[str, ...]] = {
    # what became of a call (M1.2)
    "dropped": ("被丢弃", "丢弃", "丢了", "丢掉", "被丢掉", "丢失", "lost", "never looked at"),
    "ran": ("执行了", "执行", "运行了", "跑了", "executed", "run"),
    "stopped": ("被拦下", "拦下", "拦住", "被拦住", "挡下", "被挡下", "blocked"),
    # the five stages of a call, in the chapter's order (M3, M4, exercise m3)
    "known_tool": ("号码簿查名", "查名", "查号码簿", "known tool", "lookup", "name lookup"),
    "validation": (
        *("结构校验", "外形检查", "结构检查", "结构合法", "schema 校验"),
        *("schema validation", "structure check"),
    ),
    "tool_check": (
        *("工具自校验", "自校验", "工具自己的检查", "语义校验", "语义合法", "工具自检"),
        *("the tool's own check", "tool self check", "self check"),
    ),
    "hooks": ("前置钩子", "钩子", "pre hook", "pre hooks", "pretooluse", "hook"),
    "permission": ("权限判定", "权限", "许可", "门禁", "permission check", "the gates"),
    # the gates (M4, M5)
    "deny": (
        *("硬拒绝", "拒绝", "拒绝清单", "拒绝表", "拒绝规则", "拒绝名单", "黑名单", "铁门"),
        *("deny list", "deny rule", "hard deny", "denylist"),
    ),
    "ask": (
        *("需询问", "询问", "问一下", "问一下用户", "问人", "一句问话", "问一句", "对讲机"),
        *("人工审批", "问用户", "question", "a question", "intercom"),
    ),
    "allow": ("放行", "允许", "通过", "allow list", "allow rule"),
    # what stands in front of /etc/passwd (A.3)
    "wall": ("墙", "围墙", "硬墙", "硬边界", "工作区的墙", "工作区围墙", "safe path"),
    "nothing": ("什么都没有", "没有", "无", "none", "nothing at all"),
    # when a broken contract fails (M2.1)
    "at registration": ("注册时", "在注册时", "登记时", "注册的时候", "registration"),
    "at the first call": ("第一次调用时", "首次调用时", "调用时", "first call", "when called"),
}
# Words around a term that do not change it ("the deny gate", 「在结构校验阶段」).
PREFIXES = ("the ", "a ", "at the ", "at ", "in the ", "by the ", "在", "于", "由", "被", "是")
SUFFIXES = (
    " gate",
    " stage",
    " rule",
    " rules",
    "门",
    "这道门",
    "那道门",
    "阶段",
    "这一步",
    "规则",
)

# A yes or a no: whole words first, then the marks a Chinese answer that repeats the verb carries
# (执行了吗 → 执行了 / 没执行; 能读到吗 → 能 / 读不到). A negation wins over an affirmation.
YES = ("true", "yes", "y", "yeah", "it does", "does", "did", "是", "对", "是的", "对的", "会", "能")
NO = ("false", "no", "n", "nope", "it does not", "doesn't", "didn't", "否", "不", "错", "不是")
NEGATION_MARKS = ("不", "没", "否", "未", "无", "别", "非", "not ", "n't", "never")
AFFIRMATION_MARKS = ("是", "对", "会", "能", "可以", "有", "了", "得", "住", "到", "标")

# Numbers: digits, Chinese numerals (第二轮, 三处, 十二), English words, and the words for none.
CHINESE_DIGITS = dict(
    zip("零〇一二两三四五六七八九", (0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True)
)
CHINESE_UNITS = {"十": 10, "百": 100, "千": 1000}
ENGLISH_NUMBERS = {
    w: n
    for n, w in enumerate(
        "zero one two three four five six seven eight nine ten eleven twelve".split()
    )
}
ZERO_WORDS = ("没有", "一个都没有", "一个也没有", "无", "none", "nothing", "no one", "零个")
NUMBER = re.compile(
    r"\d+(?:\.\d+)?|[零〇一二两三四五六七八九十百千]+|\b(?:" + "|".join(ENGLISH_NUMBERS) + r")\b"
)
# A list's items may be parted by any of these (commas of both languages, 和, and, spaces…).
SEPARATORS = re.compile(r"\s*(?:[,，、;；/|]|\band\b|和|与|以及|及)\s*|\s+")
CALL_ID = re.compile(r"toolu_\d+")
# Around a call id: "toolu_002", "002", "2", "第二个", "2号调用".
CALL_NUMBER = re.compile(
    r"(?:toolu[_ ]?|第|#)?\s*(\d+|[零〇一二两三四五六七八九十]+)\s*(?:个|号)?\s*(?:调用)?"
)


# -- reading text --------------------------------------------------------------------------------
def predicted(prediction: Any) -> bool:
    """`...`, `None` and empty text are no prediction yet: nothing is read, nothing revealed."""
    if prediction is NO_PREDICTION or prediction is None:
        return False
    return not (isinstance(prediction, str) and not prediction.strip())


def words(text: str) -> str:
    """Text as compared: lower case, outer spaces, quotes and end punctuation gone, `_` and `-`
    read as spaces, runs of spaces as one."""
    text = text.strip().strip("`'\"“”‘’「」『』《》").strip().rstrip("。.!！?？").strip()
    return re.sub(r"[\s_\-]+", " ", text.lower()).strip()


# Each typed form, as `words` reads it, to the term it stands for.
FORMS: dict[str, str] = {}
for _term, _forms in TERMS.items():
    FORMS |= {words(form): _term for form in (_term, *_forms)}


def term(text: str) -> str:
    """The term a typed word stands for (`工具自校验` → `tool_check`), or the words themselves."""
    said = words(text)
    for candidate in (said, *unwrapped(said)):
        if candidate in FORMS:
            return FORMS[candidate]
    return said


def unwrapped(said: str) -> list[str]:
    """The text with a filler word taken from its front, its end, or both."""
    heads = [said[len(p) :].strip() for p in PREFIXES if said.startswith(p)]
    return heads + [h[: -len(s)].strip() for h in (said, *heads) for s in SUFFIXES if h.endswith(s)]


def chinese_number(numeral: str) -> int:
    """十二 → 12, 二十 → 20, 一百零八 → 108, 四零零 → 400 (digit by digit)."""
    if not any(unit in numeral for unit in CHINESE_UNITS):
        return int("".join(str(CHINESE_DIGITS[d]) for d in numeral))
    total, digit = 0, None
    for ch in numeral:
        if ch in CHINESE_UNITS:
            total += (1 if digit is None else digit) * CHINESE_UNITS[ch]
            digit = None
        else:
            digit = CHINESE_DIGITS[ch]
    return total + (digit or 0)


def number_of(token: str) -> int | float:
    if token in ENGLISH_NUMBERS:
        return ENGLISH_NUMBERS[token]
    if token[0].isdigit():
        return float(token) if "." in token else int(token)
    return chinese_number(token)


def numbers(text: str) -> list[int | float]:
    """Every number in a typed line, in order: "1, 8", 「1秒和8秒」, 「第二轮」, "three"."""
    said = f" {words(text)} "
    for zero in sorted(ZERO_WORDS, key=len, reverse=True):  # 「一个都没有」 before 「没有」
        said = said.replace(f" {zero} " if zero.isascii() else zero, " 0 ")
    if any(mark in said for mark in NEGATION_MARKS):  # 「非零」, "not 3": no number said
        return []
    return [number_of(token) for token in NUMBER.findall(said)]


def flag(text: str) -> bool | None:
    """A yes or a no, or None when the text is neither."""
    said = words(text)
    if said in YES:
        return True
    if said in NO:
        return False
    padded = f" {said} "
    if any(mark in padded for mark in NEGATION_MARKS):
        return False
    if any(mark in said for mark in AFFIRMATION_MARKS):
        return True
    return None


def items(text: str) -> list[str]:
    """A list typed with any separator: `toolu_001, toolu_003`, 「toolu_001 和 toolu_003」."""
    inner = text.strip().strip("[](){}（）【】")
    return [piece for piece in SEPARATORS.split(inner) if piece.strip("'\" ")]


def calls(text: str) -> tuple[str, ...]:
    """Call ids in a typed list: every `toolu_…` named, else each item read as a call."""
    named = re.findall(r"toolu_\d+", text.lower())
    return tuple(named) if named else tuple(call_id(piece) for piece in items(text))


def call_id(text: str) -> str:
    """A call named as the student names it: `toolu_002`, `002`, `2`, 「第二个」 → `toolu_002`."""
    said = words(text).replace(" ", "_") if "toolu" in text else words(text)
    match = CALL_NUMBER.fullmatch(said)
    if not match:
        return said
    digits = match.group(1)
    number = int(digits) if digits.isdigit() else chinese_number(digits)
    return f"toolu_{number:03d}"


# -- a prediction read as the kind of value the code computes -----------------------------------
def kind(computed: Any) -> str:
    """What kind of answer a question computes (the form the question states)."""
    if isinstance(computed, bool):
        return "flag"
    if isinstance(computed, int | float):
        return "number"
    if isinstance(computed, str):
        return "call" if CALL_ID.fullmatch(computed) else "term"
    if isinstance(computed, list | tuple):
        if computed and all(
            isinstance(v, int | float) and not isinstance(v, bool) for v in computed
        ):
            return "numbers"
        if all(isinstance(v, str) for v in computed):
            return "calls" if all(CALL_ID.fullmatch(v) for v in computed) else "terms"
    return "value"


def read_number(text: str) -> Any:
    found = numbers(text)
    return found[0] if len(found) == 1 else text


def read_numbers(text: str) -> Any:
    return tuple(numbers(text)) or text


def read_flag(text: str) -> Any:
    said = flag(text)
    return text if said is None else said


# How a typed line is read, by the kind of answer; what cannot be read stays the text it was.
READERS: dict[str, Callable[[str], Any]] = {
    "flag": read_flag,
    "number": read_number,
    "numbers": read_numbers,
    "call": call_id,
    "term": term,
    "calls": calls,
    "terms": lambda text: tuple(term(piece) for piece in items(text)),
    "value": lambda text: text,
}


def literal(text: str) -> Any:
    """A Python literal typed as text (`10`, `(3, 400)`, `True`), or the text itself."""
    try:
        return ast.literal_eval(text.strip())
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return text


def read(prediction: Any, computed: Any) -> Any:
    """The prediction as the kind of value `computed` is: what a ✓ or ✗ is decided on."""
    way = kind(computed)
    if isinstance(prediction, str):
        value = literal(prediction)
        if isinstance(value, str):
            return READERS[way](value)
        prediction = value
    if way == "term" and isinstance(prediction, str):
        return term(prediction)
    if way in ("calls", "terms") and isinstance(prediction, list | tuple | set):
        reader = READERS["call" if way == "calls" else "term"]
        return tuple(reader(v) if isinstance(v, str) else v for v in prediction)
    if way == "call" and isinstance(prediction, int) and not isinstance(prediction, bool):
        return f"toolu_{prediction:03d}"
    return prediction


def normal(value: Any) -> Any:
    """A value in the form it is compared in: terms by what they stand for, sequences as tuples,
    sets and dict keys unordered, 3 == 3.0, True no 1."""
    if isinstance(value, str):
        return term(value)
    if isinstance(value, bool) or value is None:
        return ("flag", value)
    if isinstance(value, int | float):
        return float(value)
    if isinstance(value, Mapping):
        return frozenset((normal(k), normal(v)) for k, v in value.items())
    if isinstance(value, set | frozenset):
        return frozenset(normal(v) for v in value)
    if isinstance(value, list | tuple):
        return tuple(normal(v) for v in value)
    return value


def shown(value: Any) -> str:
    """A value as the student sees it: text as is, anything else as Python writes it."""
    return repr(value) if not isinstance(value, str) else value


def glossed(value: Any, lang: str) -> str:
    """A value as shown to a class: in Chinese a term leads with the chapter's word and a yes or
    no with 是/否, the code's word after it in brackets (被丢弃（dropped）, 是（True）)."""
    if lang != "zh":
        return shown(value)
    if isinstance(value, bool):
        return f"{'是' if value else '否'}（{value}）"
    if isinstance(value, str) and term(value) in TERMS:
        return f"{TERMS[term(value)][0]}（{value}）"
    if isinstance(value, list | tuple) and value and all(_is_term(v) for v in value):
        return "、".join(glossed(v, lang) for v in value)
    return shown(value)


def _is_term(value: Any) -> bool:
    return isinstance(value, str) and term(value) in TERMS


def same(prediction: Any, computed: Any) -> bool:
    """The prediction, read as the kind of value the code computes, is that value. Two values
    that print the same are the same: a ✗ never shows two equal values."""
    if not predicted(prediction):
        return False
    reading = read(prediction, computed)
    if normal(reading) == normal(computed):
        return True
    return shown(reading).strip() == shown(computed) or shown(prediction).strip() == shown(computed)


def means(prediction: Any, computed: Any, groups: tuple[tuple[Any, ...], ...] = ()) -> bool:
    """The prediction is the computed value, or a word in one of the question's own groups of
    answers that mean the same (e.g. 执行了 for a True)."""
    if same(prediction, computed):
        return True
    return predicted(prediction) and any(
        any(same(word, computed) for word in group)
        and any(same(prediction, word) for word in group)
        for group in groups
    )


def synonyms(computed: Any, groups: tuple[tuple[Any, ...], ...] = ()) -> tuple[Any, ...]:
    """The forms also taken as right when the code computes `computed` (for the answer key)."""
    forms: list[Any] = []
    if isinstance(computed, str) and not isinstance(computed, bool):
        forms += TERMS.get(term(computed), ())
    if isinstance(computed, bool):
        forms += [w for w in (YES if computed else NO) if len(w) > 1 or "\u4e00" <= w <= "\u9fff"]
    for group in groups:
        if any(same(computed, w) for w in group if not isinstance(w, bool)) or computed in group:
            forms += [w for w in group if w not in forms]
    return tuple(dict.fromkeys(f for f in forms if shown(f) != shown(computed)))


# -- a typed line on the command line ------------------------------------------------------------
def parse(answer: str) -> Any:
    """A typed answer: a Python literal (True, 4, 'x', (1, 2)) or else the text itself."""
    value = literal(answer)
    return value.strip() if isinstance(value, str) else value


def well_formed(answer: str) -> bool:
    """An answer is a value: a literal, or plain words. Empty, or brackets and quotes that do not
    parse (`)))(((`), it is a slip of the keyboard, not a prediction."""
    text = answer.strip()
    try:
        return predicted(ast.literal_eval(text))
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return bool(text) and not any(ch in text for ch in "()[]{}'\"")


class NoMoreInput(Exception):
    """Standard input ended before every prediction was read, or held an answer that is not a
    value (on a terminal the question is asked again instead)."""
