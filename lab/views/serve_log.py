"""What `lab serve` prints while it serves: the export lines a shell needs (both wires: the
Messages API's pair, then the Chat Completions API's) and what is served, one line per request
with the fake's verdict, and each run's verdict when it ends.
With --json, after the export lines, one JSON object per line (no notes for a reader, but
the canary a probe case needs).
The `#` notes follow --lang; the verdict lines are still English.
"""

from __future__ import annotations

import json
from typing import Any

from lab.languages.bilingual import in_lang
from lab.probe.confinement import FAKE_KEY
from lab.probe.serve import Served
from lab.probe.trial import Exchange


class ServeLog:
    """`lab serve`'s output, printed as it happens (lab/probe/serve.py's Log)."""

    def __init__(self, as_json: bool, lang: str = "en") -> None:
        self.as_json = as_json
        self.lang = lang

    def intro(self, served: Served, url: str) -> None:
        lines = intro_lines(served, url, self.lang)
        if self.as_json:  # the canary too: without it a correct harness reads `fail`
            lines = lines[: len(EXPORTS)] + canary_json(served)
        for line in lines:
            print(line, flush=True)

    def exchange(self, exchange: Exchange) -> None:
        print(exchange_line(exchange, self.as_json), flush=True)

    def say(self, line: str) -> None:
        if not self.as_json:
            print(in_lang(line, self.lang), flush=True)

    def verdict(self, result: dict[str, Any]) -> None:
        for line in verdict_lines(result, self.as_json):
            print(line, flush=True)


def canary_json(served: Served) -> list[str]:
    """With --json, the canary line as a JSON object: the canary, and the command that puts it
    where the harness reads it (the same `echo ... > notes.txt` the plain line ends with)."""
    if served.case is None or served.setting is None:
        return []
    canary = served.setting.canary
    return [json.dumps({"canary": canary, "notes": f"echo {canary} > notes.txt"})]


def exchange_line(exchange: Exchange, as_json: bool) -> str:
    if as_json:
        return json.dumps(
            {
                "request": exchange.number,
                "method": exchange.method,
                "path": exchange.path,
                "status": exchange.status,
                "answer": exchange.answer,
            },
            ensure_ascii=False,
        )
    return f"#{exchange.number} {exchange.method} {exchange.path} → {exchange.answer}"


def verdict_lines(summary: dict[str, Any], as_json: bool) -> list[str]:
    if as_json:
        return [json.dumps({"verdict": summary}, ensure_ascii=False)]
    consumed = "yes" if summary["script_consumed"] else "no"
    unlisted = summary.get("not_listed", {})  # a long run lists the first ones of each
    rejections = len(summary["rejections"]) + unlisted.get("rejections", 0)
    faults = len(summary["faults"]) + unlisted.get("faults", 0)
    lines = [
        f"verdict: {summary['requests']} request(s); script consumed: {consumed}; "
        f"rejections: {rejections}; faults: {faults}"
    ]
    lines += [f"  rejected: {line}" for line in summary["rejections"]]
    lines += [f"  fault: {line}" for line in summary["faults"]]
    if (case := summary.get("case")) is not None:
        lines.append(f"{case['id']} {case['grade']}: {case['because']}")
        lines += [f"  {line}" for line in case["evidence"]]
        lines.append(f"canary: {case['canary']}")
    return lines


INTRO = {
    "en": {
        "serving": "# serving {note}",
        "rule": "# rule: kept when {kept_when}",
        "canary": "# notes.txt in the harness's working folder must hold the canary: "
        "echo {canary} > notes.txt",
        "replay": "# the script's faults are played in every run (--replay)",
        "once": "# the script's faults are played in the first run only (--replay: every run)",
    },
    "zh": {
        "serving": "# 正在提供{note}",
        "rule": "# 规则：“{kept_when}” 时算守住",  # the probe's catalogue is English: data
        "canary": "# harness 工作目录里的 notes.txt 必须装着金丝雀：echo {canary} > notes.txt",
        "replay": "# 脚本里的故障每次运行都放（--replay）",
        "once": "# 脚本里的故障只在第一次运行时放（--replay：每次都放）",
    },
}


# What a shell needs for either wire, in the order printed: an Anthropic SDK reads the first
# pair (its base URL without /v1), an OpenAI SDK the second (its base URL ends in /v1).
EXPORTS = (
    ("ANTHROPIC_BASE_URL", "{url}"),
    ("ANTHROPIC_API_KEY", FAKE_KEY),
    ("OPENAI_BASE_URL", "{url}/v1"),
    ("OPENAI_API_KEY", FAKE_KEY),
)


def export_lines(url: str) -> list[str]:
    """The export lines for a server at `url`, both wires."""
    return [f"export {name}={value.format(url=url)}" for name, value in EXPORTS]


def intro_lines(served: Served, url: str, lang: str = "en") -> list[str]:
    """What is printed first: the export lines a shell needs, then what is served."""
    w = INTRO[lang]
    lines = export_lines(url)
    lines.append(w["serving"].format(note=in_lang(served.note, lang)))
    if served.case is not None and served.setting is not None:
        lines.append(w["rule"].format(kept_when=served.case.kept_when))
        lines.append(w["canary"].format(canary=served.setting.canary))
    replay = getattr(served.responder, "replay", None)
    if replay is not None:
        lines.append(w["replay" if replay else "once"])
    return lines
