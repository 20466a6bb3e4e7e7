"""Text that is English and carries its Chinese: a str (the English, so it compares, joins and
prints as before) with a `.zh`. The views pick one with `in_lang`."""

from __future__ import annotations


class Words(str):
    """English text (what it is as a str) that also carries its Chinese: a check's name, what
    it runs, a hint. `in_(lang)` picks one."""

    zh: str

    def __new__(cls, en: str, zh: str) -> Words:
        words = super().__new__(cls, en)
        words.zh = zh
        return words

    def in_(self, lang: str) -> str:
        return self.zh if lang == "zh" else str(self)


def in_lang(text: str, lang: str) -> str:
    """`text` in `lang` when it carries its Chinese (Words), else as it is."""
    return text.in_(lang) if isinstance(text, Words) else text
