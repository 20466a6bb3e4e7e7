"""Which language the lab speaks: `--lang` on the command line, else LAB_LANG, else the locale.

Light on purpose: lab/start.py reads it before anything else is loaded, to say "interrupted"
in the reader's language when Ctrl-C comes that early.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from itertools import pairwise

from lab.kernel.errors import UsageError

LANGUAGES = ("en", "zh")
INTERRUPTED = {"en": "lab: interrupted", "zh": "lab：已中断"}


def default_lang(env: Mapping[str, str] = os.environ) -> str:
    """The language when `--lang` is not given: LAB_LANG if set, else zh when the locale is
    Chinese (the first of LC_ALL, LC_MESSAGES, LANG that is set, as POSIX reads them), else en."""
    chosen = env.get("LAB_LANG", "").strip()
    if chosen:
        if chosen not in LANGUAGES:
            raise UsageError(f"LAB_LANG={chosen}: expected one of {', '.join(LANGUAGES)}")
        return chosen
    locale = next((env[name] for name in ("LC_ALL", "LC_MESSAGES", "LANG") if env.get(name)), "")
    return "zh" if locale.lower().startswith("zh") else "en"


def chosen_lang(argv: Sequence[str]) -> str:
    """The language of `--help` and of the error lines: the last `--lang X` on the command line
    (whichever command it goes with), else `default_lang()`."""
    chosen = None
    for word, after in pairwise([*argv, ""]):
        if word == "--":
            break
        value = after if word == "--lang" else word.removeprefix("--lang=")
        if word.startswith("--lang") and value in LANGUAGES:
            chosen = value
    return chosen or default_lang()
