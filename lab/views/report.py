"""Renderings of outcomes and runs with rich: verdict tables, JSON, `lab show` (the two runs
explained by transcript.py), trays on the virtual clock, histories as the API sees them."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from dataclasses import asdict
from typing import Any

from rich import box
from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from lab.chapter.experiment import MECHANISMS, Experiment, Outcome
from lab.classroom.reading import glossed, shown
from lab.kernel.switches import Switches, switch_info, switch_names
from lab.kernel.trace import BatchRan
from lab.views import harness_words, observable_words, switch_words, transcript
from lab.views.scenario_words import in_chinese
from lab.views.text_cells import ByWidth
from lab.views.trays import tray_view

WORDS = {
    "en": {
        "switch": "switch",
        "observable": "observable",
        "before": "before",
        "after": "after",
        "expected": "expected",
        "verdict": "verdict",
        "ok": "✓ reproduced",
        "bad": "✗ deviated",
        "takeaway": "takeaway",
        "summary": "{n} of {total} experiments reproduced their expected degradation.",
        "rerun": "rerun: {command}",
        "errors": "{n} could not run: the error is under its heading above.",
        "error": "error",
        "baseline": "baseline",
        "degraded": "degraded",
        "reference": "the reference harness",
        "titled": "{name} ({what})",
        ":": ": ",
        "id": "id",
        "switch · grade": "switch · grade",
        "title · takeaway": "title · takeaway",
        "mechanism": "mechanism",
        "grade": "grade",
        "ref_column": "reference",
        "course": "course",
        "experiments": "experiments",
        "fault": "fault it injects",
        "facts": "{mechanism} · {grade} · reference {reference} · course {course} · "
        "experiments {experiments}",
        "dagger": "† the course value holds at the pinned commit {pinned} only; other revisions "
        "of the course differ (course_why in `lab switches --json`)",
    },
    "zh": {
        "switch": "改动",
        "observable": "观测量",
        "before": "之前",
        "after": "之后",
        "expected": "预期",
        "verdict": "判定",
        "ok": "✓ 复现",
        "bad": "✗ 偏离",
        "takeaway": "口播落点",
        "summary": "{total} 个实验中 {n} 个复现了预期的退化。",
        "rerun": "重跑：{command}",
        "errors": "{n} 个实验无法运行：错误写在各自标题下。",
        "error": "错误",
        "baseline": "基线",
        "degraded": "退化",
        "reference": "参考实现",
        "titled": "{name}（{what}）",
        ":": "：",
        "id": "编号",
        "switch · grade": "改动 · 证据等级",
        "title · takeaway": "标题 · 口播落点",
        "mechanism": "机制",
        "grade": "证据等级",
        "ref_column": "参考实现",
        "course": "教学版",
        "experiments": "实验",
        "fault": "注入的故障",
        "facts": "{mechanism} · {grade} · 参考实现 {reference} · 教学版 {course} · "
        "实验 {experiments}",
        "dagger": "† 教学版的值只在固定提交 {pinned} 上成立，教学版的其他修订不同"
        "（见 `lab switches --json` 的 course_why）",
    },
}


# -- Chinese line breaking -------------------------------------------------------------------
# rich breaks CJK text between any two characters, even before a 「。」. Prose breaks the way
# Chinese typesetting does (避头尾): closing punctuation never starts a line, opening never ends.
NO_LINE_START = "。，、；：！？）」』》〉】…"
NO_LINE_END = "（「『《〈【"
_CJK = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
_UNIT = re.compile(rf"\s+|[{_CJK}]|[^\s{_CJK}]+")


def line_units(plain: str) -> list[tuple[int, int]]:
    """Spans that stay on one line: a word, one CJK character or a run of spaces, with
    closing punctuation glued to what precedes it and opening punctuation to what follows."""
    units: list[list[int]] = []
    for found in _UNIT.finditer(plain):
        start, end = found.span()
        last = units[-1] if units else None
        glue = (
            last is not None
            and not plain[start].isspace()
            and not plain[last[0]].isspace()
            and (plain[start] in NO_LINE_START or plain[last[1] - 1] in NO_LINE_END)
        )
        if glue and last is not None:
            last[1] = end
        else:
            units.append([start, end])
    return [(start, end) for start, end in units]


def break_lines(plain: str, width: int) -> list[tuple[int, int]]:
    """(start, end) of each line of `plain` wrapped to `width` cells, spaces at breaks dropped."""
    lines: list[tuple[int, int]] = []
    start = end = None
    used = 0
    for unit_start, unit_end in line_units(plain):
        unit = plain[unit_start:unit_end]
        if unit.isspace():
            used += cell_len(unit) if start is not None else 0
            continue
        size = cell_len(unit)
        if start is not None and used + size > width:
            lines.append((start, end))  # type: ignore[arg-type]
            start = None
        if start is None:
            start, used = unit_start, 0
        end, used = unit_end, cell_len(plain[start:unit_end])
    if start is not None:
        lines.append((start, end))  # type: ignore[arg-type]
    return lines


class Prose:
    """Text wrapped with Chinese line-breaking rules (use it for zh titles and takeaways)."""

    def __init__(self, text: Text | str, style: str = "") -> None:
        self.text = text if isinstance(text, Text) else Text(text, style)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Text]:
        plain = self.text.plain
        for start, end in break_lines(plain, options.max_width):
            yield self.text[start:end]

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        plain = self.text.plain
        widest = max((cell_len(plain[a:b]) for a, b in line_units(plain)), default=0)
        return Measurement(min(widest, options.max_width), cell_len(plain))


def prose(text: Text | str, lang: str, style: str = "") -> RenderableType:
    """Chinese text as Prose; other languages as rich Text (which breaks between words)."""
    if lang == "zh":
        return Prose(text, style)
    return text if isinstance(text, Text) else Text(text, style)


def show(value: Any, lang: str = "en", short: bool = False) -> str:
    """An observable's value in a table: text as JSON, anything else as Python writes it; in zh
    a yes/no or a term leads with the chapter's word (否（False）, 被丢弃（dropped）), and a
    `short` yes/no is the word alone (where the value's code word is shown beside it)."""
    if lang == "zh" and short and isinstance(value, bool):
        return "是" if value else "否"
    if lang == "zh" and (said := glossed(value, lang)) != shown(value):
        return said
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def flips_text(flips: dict[str, Any]) -> str:
    return ", ".join(f"Switches.{name} = {value}" for name, value in flips.items())


BEYOND = {"en": "beyond the seed", "zh": "超出本章"}


def grade_label(grade: str, lang: str = "en") -> str:
    """The seed's evidence grade as the seed prints it: 【一】【二】【三】, or beyond the seed."""
    return BEYOND[lang] if grade == "beyond" else f"【{grade}】"


def heading(experiment: Experiment, lang: str) -> Text:
    mechanism = MECHANISMS[experiment.mechanism][0 if lang == "en" else 1]
    return Text.assemble(
        (f"{experiment.id}", "bold"),
        f" · {experiment.mechanism} {mechanism} · ",
        (grade_label(experiment.grade, lang), "cyan"),
        " · ",
        (experiment.title[lang], "bold"),
    )


def baseline_text(base: Switches, lang: str = "en") -> Text:
    """A changed baseline, e.g. `baseline: Switches(trust_stop_reason=False → True)`."""
    reference = Switches()
    changes = ", ".join(
        f"{name}={getattr(reference, name)} → {value}" for name, value in base.differences().items()
    )
    w = WORDS[lang]
    return Text(f"{w['baseline']}{w[':']}Switches({changes})", "bold yellow")


def outcome_view(outcome: Outcome, lang: str = "en") -> RenderableType:
    w = WORDS[lang]
    experiment = outcome.experiment
    if outcome.error is not None:
        return Group(
            prose(heading(experiment, lang), lang),
            Padding(
                Text(f"{w['switch']}{w[':']}{flips_text(dict(experiment.flips))}"), (0, 0, 0, 2)
            ),
            Padding(Text(f"✗ {w['error']}{w[':']}{outcome.error}", "bold red"), (0, 0, 1, 2)),
        )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_edge=False)
    for column in ("observable", "before", "after", "expected", "verdict"):
        table.add_column(w[column], no_wrap=column == "expected")  # one arrow, on one line
    for row in outcome.rows:
        verdict = Text(w["ok"], "green") if row.ok else Text(w["bad"], "bold red")
        before, after = (
            show(v, lang, short=True) for v in (row.expected_before, row.expected_after)
        )
        expected = f"{before} → {after}"
        name = observable_words.named(row.observable, lang, cell=True)
        table.add_row(name, show(row.before, lang), show(row.after, lang), expected, verdict)
    takeaway = f"{w['takeaway']}{w[':']}{experiment.takeaway[lang]}"
    return Group(
        prose(heading(experiment, lang), lang),
        Padding(Text(f"{w['switch']}{w[':']}{flips_text(dict(experiment.flips))}"), (0, 0, 0, 2)),
        Padding(table, (0, 0, 0, 2)),
        Padding(prose(takeaway, lang, "italic"), (0, 0, 1, 2)),
    )


def summary_view(outcomes: list[Outcome], lang: str = "en", reruns: bool = True) -> RenderableType:
    """How many reproduced (and how many could not run); with `reruns`, the rerun lines."""
    w = WORDS[lang]
    n = sum(o.reproduced for o in outcomes)
    lines = [Text(w["summary"].format(n=n, total=len(outcomes)), "bold")]
    if errors := sum(o.error is not None for o in outcomes):
        lines.append(Text(w["errors"].format(n=errors), "bold red"))
    return Group(*lines, *(rerun_lines(outcomes, lang) if reruns else []))


def rerun_lines(
    outcomes: list[Outcome],
    lang: str = "en",
    command: Callable[[str], str] = lambda ident: f"lab show {ident}",
) -> list[Text]:
    """For each experiment that did not reproduce, the command that reruns it. Print them
    with `soft_wrap=True`: a command is never wrapped or cut."""
    w = WORDS[lang]
    return [
        Text(w["rerun"].format(command=command(o.experiment.id)), "red")
        for o in outcomes
        if not o.reproduced
    ]


def outcome_json(o: Outcome) -> dict[str, Any]:
    """One experiment's verdict as JSON (its schema is in the README)."""
    return {
        "id": o.experiment.id,
        "mechanism": o.experiment.mechanism,
        "grade": o.experiment.grade,
        "source": o.experiment.source,
        "title": dict(o.experiment.title),
        "takeaway": dict(o.experiment.takeaway),
        "flips": dict(o.experiment.flips),
        "base": o.base.differences(),
        "reproduced": o.reproduced,
        "error": o.error,
        "observables": [
            {
                "name": r.observable,
                "before": r.before,
                "after": r.after,
                "expected_before": r.expected_before,
                "expected_after": r.expected_after,
                "ok": r.ok,
            }
            for r in o.rows
        ],
    }


def outcomes_json(outcomes: list[Outcome]) -> dict[str, Any]:
    return {
        "experiments": [outcome_json(o) for o in outcomes],
        "reproduced": sum(o.reproduced for o in outcomes),
        "total": len(outcomes),
    }


def run_json(run: Any) -> dict[str, Any] | None:
    """One run as JSON: why it ended, every trace event (its class name under "event") and
    the final messages."""
    if run is None:
        return None
    events = [{"event": type(e).__name__, **asdict(e)} for e in run.trace]
    return {"ended": run.ended, "events": events, "messages": run.messages}


def show_json(outcome: Outcome) -> dict[str, Any]:
    """`lab show --json`: the verdict and both runs."""
    return {
        **outcome_json(outcome),
        "runs": {"baseline": run_json(outcome.before), "degraded": run_json(outcome.after)},
    }


def experiments_view(experiments: list[Experiment], lang: str = "en") -> RenderableType:
    """`lab list`: per mechanism, each experiment's id, switch and evidence grade, title and
    takeaway. Titles and takeaways wrap (Chinese by its own line-breaking rules), never cut."""
    w = WORDS[lang]
    tables = []
    for mechanism, names in MECHANISMS.items():
        group = [e for e in experiments if e.mechanism == mechanism]
        if not group:
            continue
        # English keeps the chapter's Chinese name beside its own; Chinese shows only its own.
        title = f"{mechanism} · {names[1]}" if lang == "zh" else " · ".join((mechanism, *names))
        table = Table(title=title, title_justify="left", expand=True)
        table.add_column(w["id"], no_wrap=True)
        table.add_column(w["switch · grade"], no_wrap=True)
        table.add_column(w["title · takeaway"], overflow="fold")
        for e in group:
            flips = [f"{name}={value}" for name, value in e.flips.items()]
            switch = "\n".join([*flips, grade_label(e.grade, lang)])
            text = Group(prose(Text(e.title[lang], "bold"), lang), prose(e.takeaway[lang], lang))
            table.add_row(e.id, switch, text)
        tables.append(table)
    return Group(*tables)


# -- one run, turn by turn ------------------------------------------------------------------
def clip(text: str, limit: int = 60) -> str:
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


BLOCK_WORDS = {"en": "text  “{text}”", "zh": "文本“{text}”{chinese}"}


def block_line(block: dict[str, Any], lang: str = "en") -> str:
    """One content block on one line; in zh a text block says 文本 and gives its Chinese."""
    if block["type"] == "text":
        chinese = in_chinese(block["text"], lang)
        return BLOCK_WORDS[lang].format(text=clip(block["text"]), chinese=chinese)
    if block["type"] == "tool_use":
        args = json.dumps(block["input"], ensure_ascii=False)
        return f"tool_use {block['id']}  {block['name']} {clip(args, 50)}"
    return block["type"]


def run_view(run: Any, title: str = "", lang: str = "en") -> RenderableType:
    """The run turn by turn: model blocks, declared stop_reason, calls, checks, results."""
    body = transcript.transcript(run, lang)
    return Group(Text(title, "bold underline"), body) if title else body


def experiment_runs_view(outcome: Outcome, lang: str = "en") -> RenderableType:
    """`lab show`: the two runs one after the other, the first divergence marked on both and
    named at the top, the trays on the clock when any ran in parallel, then the verdict."""
    w = WORDS[lang]
    experiment = outcome.experiment
    if outcome.before is None or outcome.after is None:
        return outcome_view(outcome, lang)  # the experiment's own code raised: its error
    flips = flips_text(dict(experiment.flips))
    base = flips_text(outcome.base.differences()) or w["reference"]
    titles = (
        w["titled"].format(name=w["baseline"], what=base),
        w["titled"].format(name=w["degraded"], what=flips),
    )
    parts: list[RenderableType] = [
        prose(heading(experiment, lang), lang),
        Text(f"  {w['switch']}{w[':']}{flips}"),
        Text(""),
        transcript.one_after_the_other(outcome.before, outcome.after, titles, lang),
    ]
    if any(e.parallel for r in (outcome.before, outcome.after) for e in r.trace.of(BatchRan)):
        for run, title in zip((outcome.before, outcome.after), titles, strict=True):
            parts += [Text(""), Text(title, "bold"), tray_view(run, lang=lang)]
    return Group(*parts, Text(""), outcome_view(outcome, lang))


# -- trays on a clock ------------------------------------------------------------------------
# These read only trace events, so they draw a finished Run, a Trace, a plain list of events or
# anything with a `.trace` (a notebook's Stepper) alike.
def outcomes_table(outcomes: list[Outcome], lang: str = "en") -> RenderableType:
    """Every experiment in one table: its switch, each observable before → after, verdict."""
    w = WORDS[lang]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("id", "mechanism", "switch", "observable", "before", "after", "verdict"):
        table.add_column(w.get(column, column))
    for outcome in outcomes:
        experiment = outcome.experiment
        for i, row in enumerate(outcome.rows):
            first = i == 0
            verdict = Text(w["ok"], "green") if row.ok else Text(w["bad"], "bold red")
            table.add_row(
                experiment.id if first else "",
                experiment.mechanism if first else "",
                ", ".join(f"{k}={v}" for k, v in experiment.flips.items()) if first else "",
                observable_words.named(row.observable, lang, cell=True),
                show(row.before, lang),
                show(row.after, lang),
                verdict,
            )
        table.add_section()
    return Group(table, summary_view(outcomes, lang))


def switches_view(lang: str = "en") -> RenderableType:
    """The switchboard: every flag with its mechanism, evidence grade, reference and course
    values, its experiments and the fault it injects; a table from 140 columns, stacked below."""
    from lab.chapter.course_rules import PINNED, revision_dependent

    w = WORDS[lang]
    reference, course = Switches(), Switches.course()
    pinned_only = revision_dependent()  # marked †: the course value holds at PINNED only
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, show_lines=True)
    table.add_column(w["switch"], no_wrap=True)
    for column in ("mechanism", "grade", "ref_column", "course", "experiments"):
        table.add_column(w[column])
    table.add_column(w["fault"], ratio=1)
    stacked: list[RenderableType] = []
    for name in switch_names():
        info = switch_info(name)
        mark = " †" if name in pinned_only else ""
        values = (str(getattr(reference, name)), f"{getattr(course, name)}{mark}")
        fault = switch_words.fault(name, info["fault"], lang)
        grade = grade_label(info["grade"], lang)
        shown = Prose(fault) if lang == "zh" else fault  # rich cuts a long CJK cell short
        table.add_row(name, info["mechanism"], grade, *values, info["experiments"], shown)
        facts = w["facts"].format(
            mechanism=info["mechanism"],
            grade=grade,
            reference=values[0],
            course=values[1],
            experiments=info["experiments"] or "-",
        )
        stacked += [
            Text(name, "bold"),
            Padding(Text(facts), (0, 0, 0, 2)),
            Padding(prose(f"{w['fault']}{w[':']}{fault}", lang), (0, 0, 1, 2)),
        ]
    dagger = prose(w["dagger"].format(pinned=PINNED), lang)
    return ByWidth(Group(table, dagger), Group(*stacked, dagger), at=140)


def switches_json() -> list[dict[str, Any]]:
    """`lab switches --json`: every flag and what it documents (schema in the README)."""
    reference, course = Switches(), Switches.course()
    return [
        {
            "name": name,
            "mechanism": info["mechanism"],
            "grade": info["grade"],
            "reference": getattr(reference, name),
            "course": getattr(course, name),
            "course_why": info["course_why"],
            "experiments": [e.strip() for e in info["experiments"].split(",") if e.strip()],
            "reader": info["reader"],
            "fault": info["fault"],
        }
        for name in switch_names()
        for info in [switch_info(name)]
    ]


def blocks_of(message: dict[str, Any] | None, kind: str, key: str) -> set[str]:
    content = [] if message is None else message["content"]
    return set() if isinstance(content, str) else {b[key] for b in content if b["type"] == kind}


HISTORY = {
    "en": ("role", "content", "  ✗ answers no tool_use of the message before",
           "  ✗ no tool_result in the next message"),
    "zh": ("角色", "内容", "  ✗ 没有回答上一条消息里的任何 tool_use",
           "  ✗ 下一条消息里没有它的 tool_result"),
}  # fmt: skip


def messages_view(
    messages: list[dict[str, Any]], title: str = "", lang: str = "en"
) -> RenderableType:
    """A history as the API sees it, one row per message; a tool_use not answered in the next
    message, or a tool_result that answers nothing in the previous one, is flagged ✗."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=title or None, title_justify="left")
    role, content_head, orphan, unanswered = HISTORY[lang]
    for column in ("#", role, content_head):
        table.add_column(column, overflow="fold")
    for i, message in enumerate(messages):
        before = messages[i - 1] if i > 0 else None
        after = messages[i + 1] if i + 1 < len(messages) else None
        content = message["content"]
        said = f"“{clip(content)}”{in_chinese(content, lang)}" if isinstance(content, str) else ""
        parts = [Text(said)] if said else []
        for block in [] if isinstance(content, str) else content:
            if block["type"] == "tool_result":
                error = " is_error" if block.get("is_error") else ""
                content = block["content"] if isinstance(block["content"], str) else ""
                gloss = harness_words.result_gloss(content, lang)
                said = f"“{clip(content)}”{gloss}" if gloss else clip(block["content"])
                line = Text(f"tool_result → {block['tool_use_id']}{error}: {said}")
                line.stylize("yellow" if error else "green")
                if block["tool_use_id"] not in blocks_of(before, "tool_use", "id"):
                    line.append(orphan, "bold red")
                parts.append(line)
            elif block["type"] == "tool_use":
                line = Text(block_line(block), "cyan")
                answered = blocks_of(after, "tool_result", "tool_use_id")
                if after is not None and block["id"] not in answered:
                    line.append(unanswered, "bold red")
                parts.append(line)
            else:
                gloss = in_chinese(block["text"], lang) if block["type"] == "text" else ""
                parts.append(Text(block_line(block) + gloss))
        table.add_row(str(i), message["role"], Group(*parts))
    return table
