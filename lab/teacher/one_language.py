"""The notebooks' bilingual Markdown, one language kept: Chinese sentences and English sentences
told apart by their script, and "中文 / English" pairs (headings, labels, table cells, answer
hints) cut at the slash. Deterministic: the same text gives the same halves."""

from __future__ import annotations

import re

CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_])[A-Za-z][a-z'’-]*[a-z](?![A-Za-z0-9_])")
# Not prose of either language: code spans, the seed's quotes 「…」 and its grade marks 【…】.
NEUTRAL = re.compile(r"`[^`\n]*`|「[^」]*」|【[^】]*】")
# Spans the sentence splitter must not cut: code and an answer hint such as *(整数 / an integer)*.
UNITS = re.compile(r"`[^`]*`|\*\([^*]*\)\*")
HINT = re.compile(r"\*\(([^*]*)\)\*")
BOLD = re.compile(r"\*\*([^*]+)\*\*")
# A sentence ends after 。！？ or after . ! ? followed by a space; closing marks stay with it.
# A Chinese aside in （） followed by English ends one too.
SENTENCE_END = re.compile(r"[。！？][）」』*]*\s*|[.!?][)*\"”]*(?:\s+|$)|）\s*(?=[A-Z])")
SLASH = re.compile(r" ?/ ")
# Inside a sentence: "检查隐藏 / hidden checks" up to the next punctuation; the first pattern
# removes the English half, the second the Chinese half.
ENGLISH_HALF = re.compile(
    r"(?<=[\u3400-\u9fff）」》]) ?/ [A-Za-z][^\u3400-\u9fff（）()/`]*?(?=[）)」，。；：:]|\.?$)"
)
CHINESE_HALF = re.compile(r"[\u3400-\u9fff「」，、：]+ ?/ (?=[A-Za-z])")
LIST_ITEM = re.compile(r"(?:[-*+]|\d+\.)\s")


def chinese_chars(text: str) -> int:
    return len(CJK.findall(NEUTRAL.sub("", text)))


def english_words(text: str) -> int:
    return len(LATIN_WORD.findall(NEUTRAL.sub("", text)))


def is_english(text: str) -> bool:
    """English prose: a word or more, and more words than half its Chinese characters (a
    Chinese sentence names a tool runner; an English one may quote 被拒也要补一条结果). Ids such
    as D1b or P1s are no words."""
    words = english_words(text)
    return words >= 1 and 2 * words > chinese_chars(text)


def has_chinese(text: str) -> bool:
    return chinese_chars(text) > 0


def slash_pair(text: str) -> tuple[str, str] | None:
    """ "中文 / English" → its two halves; None unless the text before a ` / ` is Chinese and
    everything after it is not, and the slash follows Chinese or opens an English capital (so
    `属性是 path / limit` or `deny / ask / allow` stay whole)."""
    parts = SLASH.split(text)
    for i in range(1, len(parts)):
        left, right = " / ".join(parts[:i]), " / ".join(parts[i:])
        joins = WIDE.match(left.rstrip()[-1:]) or right.lstrip()[:1].isupper()
        if joins and has_chinese(left) and not has_chinese(right) and english_words(right) >= 1:
            return left.rstrip(), right.lstrip()
    return None


def pick(text: str, lang: str) -> str:
    """One half of a "中文 / English" pair; text that is no pair stays as it is."""
    pair = slash_pair(text)
    if pair is None:
        return text
    return pair[0] if lang == "zh" else pair[1]


def hint(match: re.Match[str], lang: str) -> str:
    """*(两个整数 / two integers)* → one half; *(deny / ask / allow)* is answers: kept whole."""
    return f"*({pick(match.group(1), lang)})*"


def bold(match: re.Match[str], lang: str) -> str:
    """**问题 M1.1 / Question M1.1.** → one half."""
    return f"**{pick(match.group(1), lang)}**"


def sentences(text: str) -> list[str]:
    """The text cut after each sentence's end, never inside code or an answer hint."""
    masked = UNITS.sub(lambda m: "\0" * len(m.group()), text)
    cuts = [m.end() for m in SENTENCE_END.finditer(masked)]
    bounds = [0, *[c for c in cuts if 0 < c < len(text)], len(text)]
    return [text[a:b] for a, b in zip(bounds, bounds[1:], strict=False) if text[a:b].strip()]


def keeps(sentence: str, lang: str) -> bool:
    """Whether a sentence belongs to `lang`; an answer hint alone belongs to both."""
    if HINT.fullmatch(sentence.strip()):
        return True
    english = is_english(HINT.sub("", sentence))
    return english if lang == "en" else not english


WIDE = re.compile(r"[\u2014\u2026\u3000-\u303f\u3400-\u9fff\uff00-\uffef「」『』（）]")

PUNCTUATION = re.compile(r"[\u3000-\u303f\uff00-\uffef]")  # 。，：（ …: never a space beside


def join(pieces: list[str]) -> str:
    """Sentences back into one line: a space between them unless Chinese punctuation ends one."""
    text = ""
    for piece in pieces:
        if text and not WIDE.match(text.rstrip("*")[-1:]):
            text += " "
        text += piece
    return text


def unwrap(lines: list[str]) -> str:
    """Lines of a paragraph as one: no space where the break falls between Chinese words or
    beside Chinese punctuation."""
    text = ""
    for line in (line.strip() for line in lines):
        touching = WIDE.match(text[-1:]) and WIDE.match(line[:1])
        if text and not (touching or PUNCTUATION.match(text[-1]) or PUNCTUATION.match(line[:1])):
            text += " "
        text += line
    return text


def prose(text: str, lang: str) -> str:
    """A paragraph (or one list item) in one language."""
    text = unwrap(text.splitlines())
    text = BOLD.sub(lambda m: bold(m, lang), text)
    text = HINT.sub(lambda m: hint(m, lang), text)
    kept = []
    for sentence in sentences(text):
        sentence = (ENGLISH_HALF if lang == "zh" else CHINESE_HALF).sub("", sentence.strip())
        pair = slash_pair(sentence) if not UNITS.search(sentence) else None
        if pair is not None and english_words(pair[1]) >= 2:
            sentence = pair[0] if lang == "zh" else pair[1]
        elif not keeps(sentence, lang):
            continue
        kept.append(sentence)
    return join(kept)


def heading(line: str, lang: str) -> str:
    marks, _, title = line.partition(" ")
    return f"{marks} {pick(title, lang)}"


def table_row(line: str, lang: str) -> str:
    cells = line.strip().strip("|").split("|")
    if all(set(cell.strip()) <= set("-: ") for cell in cells):
        return line  # the |---|---| rule
    return "| " + " | ".join(pick(cell.strip(), lang) for cell in cells) + " |"


def block(lines: list[str], lang: str) -> list[str]:
    """One Markdown block (a paragraph, a list, a table, a quote, a heading) in one language;
    an empty list when nothing of it is in that language."""
    first = lines[0]
    if first.startswith("```"):
        return lines
    if first.startswith("#"):
        return [heading(line, lang) for line in lines]
    if first.startswith("|"):
        return [table_row(line, lang) for line in lines]
    if all(line.startswith(">") for line in lines):
        inner = block([line[1:].lstrip() for line in lines], lang)
        return [f"> {line}".rstrip() for line in inner]
    if LIST_ITEM.match(first):
        items: list[list[str]] = []
        for line in lines:
            if LIST_ITEM.match(line) or not items:
                items.append([line])
            else:
                items[-1].append(line)
        kept = []
        for item in items:
            marker = LIST_ITEM.match(item[0])
            head = marker.group() if marker else ""
            text = prose("\n".join([item[0][len(head) :], *item[1:]]), lang)
            if text:
                kept.append(head + text)
        return kept
    text = prose("\n".join(lines), lang)
    return [text] if text else []


def blocks(markdown: str) -> list[list[str]]:
    """Markdown cut into blocks at blank lines (a fenced code block is one block)."""
    found: list[list[str]] = []
    current: list[str] = []
    fenced = False
    for line in markdown.splitlines():
        if line.startswith("```"):
            fenced = not fenced
        if not line.strip() and not fenced:
            if current:
                found.append(current)
            current = []
        else:
            current.append(line)
    if current:
        found.append(current)
    return found


def one_language(markdown: str, lang: str) -> str:
    """The Markdown with only `lang`'s sentences ("zh" or "en"); blocks left empty are removed."""
    kept = [block(lines, lang) for lines in blocks(markdown)]
    return "\n\n".join("\n".join(lines) for lines in kept if lines)
