"""Notebook views: step a harness turn by turn; show turns, runs and code as HTML or text."""

# Everything shown is drawn from the lab's own objects (trace events, source, switch metadata),
# so nothing on screen can drift from the code. IPython is imported only inside `html()`: the
# lab runs without it, and View/Step/Picture display through `_repr_html_`.

from __future__ import annotations

import inspect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from lab.chapter.experiment import Experiment, Outcome, load_all, run_experiment, select
from lab.kernel.runner import wire
from lab.kernel.scenario import Run, Scenario, safely
from lab.kernel.switches import Switches, switch_info, switch_names
from lab.kernel.trace import (
    EndReason,
    Event,
    RunEnded,
    Trace,
)
from lab.model.script import tool_use_id
from lab.views import harness_words, invariant_words, output_words, report, switch_words, transcript
from lab.views.rich_html import WIDTH, to_html, to_text
from lab.views.scenario_words import in_chinese

WIDE = transcript.SIDE_BY_SIDE_WIDTH  # characters per line of a side-by-side view
LIMIT = 400  # characters of a tool's output shown in a notebook (the rest is counted)
REPO = Path(__file__).resolve().parent.parent.parent


def html(renderable: RenderableType, width: int = WIDTH) -> Any:
    """Any rich renderable as an IPython HTML object (for `display(...)` in a notebook)."""
    from IPython.display import HTML  # lazily: the lab runs without IPython

    return HTML(to_html(renderable, width))


@dataclass
class View:
    """A rich renderable that shows itself as HTML in a notebook and as text in a terminal."""

    renderable: RenderableType
    width: int = WIDTH
    source: bool = False  # the lab's code, shown as it is (marked so a reader can tell)

    def __rich__(self) -> RenderableType:
        return self.renderable

    def _repr_html_(self) -> str:
        shown = to_html(self.renderable, self.width)
        return f'<div class="lab-source">{shown}</div>' if self.source else shown

    def __repr__(self) -> str:  # a plain-text console (IPython in a terminal) sees the text
        return to_text(self.renderable, self.width)


@dataclass(frozen=True)
class Picture:
    """Generated SVG/HTML markup (a chart or a diagram) that a notebook displays inline."""

    markup: str

    def _repr_html_(self) -> str:
        return self.markup

    def __str__(self) -> str:
        return self.markup

    def __repr__(self) -> str:
        return f"<Picture: {len(self.markup)} characters of SVG; display it in a notebook>"


# -- the lab's objects -----------------------------------------------------------------------
def experiment(id: str) -> Experiment:
    """One experiment by id, loaded from experiments/ like `lab show` does."""
    (found,) = select(load_all(), [id])
    return found


def outcome(id: str) -> Outcome:
    """One experiment run twice: on the reference harness and with its switch flipped."""
    return run_experiment(experiment(id))


def code(*objects: Any, highlight: str | None = None) -> View:
    """The source of functions, methods, classes or modules, as the lab has them right now;
    lines containing `highlight` (e.g. a switch name) are highlighted."""
    panels = []
    for obj in objects:
        lines, start = inspect.getsourcelines(obj)
        lines[-1] = lines[-1].rstrip("\n")
        start = max(start, 1)
        marked = {start + i for i, line in enumerate(lines) if highlight and highlight in line}
        where = Path(inspect.getsourcefile(obj) or "?").resolve()
        shown = where.relative_to(REPO) if where.is_relative_to(REPO) else where.name
        name = getattr(obj, "__qualname__", getattr(obj, "__name__", ""))
        syntax = Syntax(
            "".join(lines),
            "python",
            theme="friendly",
            line_numbers=True,
            start_line=start,
            highlight_lines=marked,
            dedent=True,
        )
        title = f"{shown}:{start}  {name}"
        panels.append(Panel(syntax, title=title, title_align="left", expand=False))
    return View(Group(*panels), source=True)


# -- one turn at a time ------------------------------------------------------------------------
@dataclass
class Step:
    """The events one step added to the trace (the start, then one turn: one model call and
    its tool calls). Displays as the turn view; `of(kind)` picks events of one type."""

    turn: int
    events: list[Event]
    ended: EndReason | None = None
    lang: str = "en"

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]

    def __rich__(self) -> RenderableType:
        if not self.events:
            words = transcript.WORDS[self.lang]
            return Text(words["nothing_yet"].format(ended=self.ended), "dim")
        return transcript.transcript(self.events, self.lang, limit=LIMIT)

    def _repr_html_(self) -> str:
        return to_html(self.__rich__())

    def __repr__(self) -> str:
        return to_text(self.__rich__())


class Stepper:
    """A harness built from a scenario exactly as `run_scenario` builds it, stepped by hand."""

    def __init__(
        self, scenario: Scenario, switches: Switches | None = None, lang: str = "en"
    ) -> None:
        self.scenario, self.lang = scenario, lang
        self.switches = switches or Switches()
        self.wired = wire(scenario.setup, self.switches, script=scenario.script)
        self.world, self.harness = self.wired.world, self.wired.harness
        self.started = False
        self.shown = 0  # trace events already handed out by step()

    @property
    def trace(self) -> Trace:
        return self.harness.trace

    @property
    def turn(self) -> int:
        return self.harness.turn

    @property
    def done(self) -> bool:
        return self.harness.ended is not None

    def step(self) -> Step:
        """Run one turn (the first call also starts the run) and return its new events.
        A crash is recorded as the run's end, as `run_safely` records it."""
        if not self.done:
            safely(self.harness, self.advance)
        new = self.trace.events[self.shown :]
        self.shown = len(self.trace.events)
        return Step(self.turn, new, self.harness.ended, self.lang)

    def advance(self) -> None:
        if not self.started:
            self.started = True
            self.harness.start(self.scenario.prompt)
        self.harness.step()

    def finish(self) -> Run:
        """Step to the end; the same Run that `run_scenario` would have returned."""
        while not self.done:
            self.step()
        return self.wired.finish(self.scenario)


def switch_title(switches: Switches, base: Switches | None = None, lang: str = "en") -> str:
    flips = switches.differences(base)
    return ", ".join(f"{k}={v}" for k, v in flips.items()) or WORDS[lang]["reference"]


class Pair:
    """One scenario under two sets of switches, stepped together and shown side by side."""

    def __init__(
        self, scenario: Scenario, left: Switches, right: Switches, lang: str = "en"
    ) -> None:
        self.left, self.right = Stepper(scenario, left, lang), Stepper(scenario, right, lang)
        self.titles = (switch_title(left, lang=lang), switch_title(right, left, lang))
        self.steps, self.lang = 0, lang

    @classmethod
    def of(cls, experiment: Experiment, base: Switches | None = None, lang: str = "en") -> Pair:
        """The experiment's scenario on `base` (default: the reference) and with its flips."""
        base = base or Switches()
        return cls(experiment.scenario, base, base.flipped(**experiment.flips), lang)

    @property
    def done(self) -> bool:
        return self.left.done and self.right.done

    def step(self) -> View:
        """One turn on both sides; shows that turn side by side (the first also the start)."""
        self.steps += 1
        self.left.step()
        self.right.step()
        turns = [0, 1] if self.steps == 1 else [self.steps]
        return self.view(turns)

    def divergence(self) -> transcript.Divergence | None:
        """Where the two runs part ways so far (the break), or None."""
        return transcript.first_divergence(self.left, self.right, self.lang)

    def finish(self) -> tuple[Run, Run]:
        return self.left.finish(), self.right.finish()

    def view(self, turns: Sequence[int] | None = None) -> View:
        """Every turn so far (or the given ones), side by side, the break marked."""
        shown = transcript.side_by_side(self.left, self.right, self.titles, turns, self.lang, LIMIT)
        return View(shown, WIDE)


def turn_view(source: Any, lang: str = "en") -> View:
    """A run (or a Stepper, a Trace, a list of events) turn by turn."""
    return View(transcript.transcript(source, lang, LIMIT))


def side_by_side(
    a: Any,
    b: Any,
    titles: tuple[str, str] | None = None,
    turns: Sequence[int] = (),
    lang: str = "en",
) -> View:
    """Two runs turn by turn in two columns, the first divergence marked on both (titled
    baseline and switched unless `titles`)."""
    titles = titles or (WORDS[lang]["baseline"], WORDS[lang]["switched"])
    return View(transcript.side_by_side(a, b, titles, list(turns) or None, lang, LIMIT), WIDE)


def verdict(result: Outcome, lang: str = "en") -> View:
    """An experiment's observables before → after, as `lab run` prints them."""
    return View(report.outcome_view(result, lang))


def panorama(outcomes: Sequence[Outcome], lang: str = "en") -> Picture:
    """One call's path, each experiment's break lit where it happens (lab/views/panorama.py)."""
    from lab.views.panorama import panorama_svg

    return Picture(panorama_svg(outcomes, lang))


def claims(outcomes: Sequence[Outcome], lang: str = "en") -> Picture:
    """The claims table with evidence grades, as on the projector page."""
    from lab.views.html_report import claims_table

    return Picture(claims_table(list(outcomes), lang))


# -- property-based testing (lab/testing) ------------------------------------------------------
COLUMNS: dict[str, dict[str, tuple[str, ...]]] = {
    "en": {
        "invariants": ("invariant", "title", "不变式", "the course keeps it", "promise"),
        "course": (
            "switch",
            "reference",
            "course",
            "experiments",
            "why the course differs / keeps it",
        ),
        "ends": ("harness", "how the run ended", "what was raised"),
    },
    "zh": {
        "invariants": ("不变式", "中文名", "教学版守住吗", "承诺"),
        "course": ("开关", "参考实现", "教学版", "实验", "教学版为何不同 / 为何相同"),
        "ends": ("哪一边", "运行怎么结束的", "抛出了什么"),
    },
}
WORDS = {
    "en": {
        "yes": "yes",
        "no": "no",
        "reference": "reference harness",
        "course": "the course (its switches, its rules)",
        "case": "the smallest case hypothesis found",
        "broken": "promise broken",
        "what": "what broke",
        "turn": "turn {n}",
        "declared": "declared",
        "implied": "implied",
        "stop": "{stop} ({how})",
        "chars": "{name} ({n} chars)",
        "flipped": "switch flipped",
        "baseline": "baseline",
        "switched": "switched",
    },
    "zh": {
        "yes": "是",
        "no": "否",
        "reference": "参考实现",
        "course": "教学版（它的开关、它自己的规则）",
        "case": "hypothesis 找到的最小用例",
        "broken": "被打破的承诺",
        "what": "哪里破了",
        "turn": "第 {n} 轮",
        "declared": "声明",
        "implied": "隐含",
        "stop": "{stop}（{how}）",
        "chars": "{name}（{n} 个字符）",
        "flipped": "拨动的开关",
        "baseline": "基线",
        "switched": "拨动后",
    },
}


# An invariant the course breaks in part only: what it keeps, so a bare "no" does not say the
# opposite of the chapter (the course's continue test reads the content, seed §12-Q1 【一】).
COURSE_IN_PART = {
    "continuation_only_on_tool_use": {
        "en": "in part: the continue test reads the content 【一】; no Stop guard (D16), and a "
        "handler error crashes (D8)",
        "zh": "部分守住：续轮判据看内容块【一】；没有退出防护（D16），处理函数异常直接崩溃（D8）",
    },
}


def invariants_view(lang: str = "en") -> View:
    """The reference harness's promises as lab/testing names them, each with what it checks."""
    from lab.testing import INVARIANTS  # lazily: lab.notebook does not depend on lab.testing

    w = WORDS[lang]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in COLUMNS[lang]["invariants"]:
        table.add_column(column, overflow="fold")
    for inv in INVARIANTS:
        keeps = w["yes"] if inv.course else w["no"]
        if inv.name in COURSE_IN_PART:
            keeps = COURSE_IN_PART[inv.name][lang]
        promise = invariant_words.promise(inv.name, inv.promise, lang)
        titles = (inv.title, inv.zh) if lang == "en" else (inv.zh,)
        table.add_row(inv.name, *titles, keeps, promise)
    return View(table)


def finding_view(finding: Any, lang: str = "en") -> View:
    """What a hunt found (lab.testing.search.Finding): the promise it broke and how, in `lang`
    (the check's own words quoted, their Chinese beside them when known)."""
    w = WORDS[lang]
    inv = finding.invariant
    title = inv.zh if lang == "zh" else inv.title
    reason = finding.reason
    if lang == "zh":
        reason = f"“{reason}”{invariant_words.reason_in_chinese(reason)}"
    colon = "：" if lang == "zh" else ": "
    return View(
        Group(
            Text(f"{w['broken']}{colon}{inv.name} · {title}", "bold"),
            Text(f"{w['what']}{colon}{reason}"),
        )
    )


def sides(lang: str = "en") -> tuple[str, str]:
    """The two columns of a reference-vs-course comparison, in `lang`."""
    return WORDS[lang]["reference"], WORDS[lang]["course"]


def ends_view(runs: Iterable[tuple[str, Any]], lang: str = "en") -> View:
    """How each labelled run ended and, if it crashed, what was raised (as raised; in zh with
    its Chinese after it)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in COLUMNS[lang]["ends"]:
        table.add_column(column, overflow="fold")
    for label, run in runs:
        end = run.trace.of(RunEnded)[-1]
        raised = end.detail
        if lang == "zh" and raised:
            raised = f"“{raised}”{output_words.gloss(raised, lang)}"
        table.add_row(label, harness_words.ending(end.reason, lang), Text(raised))
    return View(table)


def course_view(lang: str = "en") -> View:
    """§8's table: every switch, its reference and course values, its experiments, and why the
    course differs or keeps it (bold where the course differs)."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in COLUMNS[lang]["course"]:
        table.add_column(column, overflow="fold")
    reference, course = Switches(), Switches.course()
    for name in switch_names():
        info = switch_info(name)
        differs = getattr(course, name) != getattr(reference, name)
        table.add_row(
            name,
            str(getattr(reference, name)),
            str(getattr(course, name)),
            info["experiments"],
            switch_words.course_why(name, info["course_why"], lang),
            style="bold" if differs else "dim",
        )
    return View(table)


COURSE_RUN = {
    "en": {
        "title": "{chapter}'s loop: {n} calls, {lost} files gone from the virtual disk",
        "call": "call",
        "result": "what the loop sent back",
        "asked": "asked the human",
        "log": "log_hook saw",
        "nothing": "nothing",
        "prompt": "the user: ",
        "said": "the model, last: ",
    },
    "zh": {
        "title": "{chapter} 的循环：{n} 个调用，虚拟磁盘上少了 {lost} 个文件",
        "call": "调用",
        "result": "循环发回的结果",
        "asked": "问了人",
        "log": "审计日志（log_hook）看到",
        "nothing": "什么也没有",
        "prompt": "用户：",
        "said": "模型最后说：",
    },
}


# The course's own texts (its results and its question to the human), glossed beside the wire
# text in the zh edition (by prefix).
COURSE_RESULT_GLOSS = {
    "Permission denied by deny list": "被拒绝清单拦下",
    "Permission denied by user": "人说了不",
    "Permission denied.": "权限拒绝",
    "Error: Dangerous command blocked": "run_bash 拦下了危险命令",
    "Unknown: ": "号码簿里查不到这个名字",
    "(no output)": "执行了，没有输出",
    "Potentially destructive command": "可能有破坏性的命令，问人放不放行",
}


def course_result(output: str, lang: str) -> Text:
    """The course's text as sent; in zh quoted as data (“…”), its Chinese after it."""
    if lang != "zh":
        return Text(output)
    gloss = next((f"（{g}）" for k, g in COURSE_RESULT_GLOSS.items() if output.startswith(k)), "")
    return Text(f"“{output}”" + (gloss or output_words.gloss(output, lang)))


def course_lines(lines: Sequence[str], lang: str) -> RenderableType:
    """The questions put to the human, one a line, each as `course_result` shows it."""
    return Group(*(course_result(line, lang) for line in lines))


def course_said(run: Any, lang: str) -> list[Text]:
    """What the run's user asked and what the model said last, each with its Chinese in zh."""
    w = COURSE_RUN[lang]
    prompt = run.messages[0]["content"]
    last = run.messages[-1]
    said = [b["text"] for b in last["content"] if b.get("type") == "text"]
    shown = [(w["prompt"], prompt), *((w["said"], text) for text in said)]
    return [Text(f"{label}“{text}”{in_chinese(text, lang)}") for label, text in shown]


def course_run_view(run: Any, lang: str = "en") -> View:
    """A run of the course's loop (lab.chapter.course_steps): the prompt, each call and what went
    back, then the questions put to the human and the audit log (s03/s04), the model's last
    words."""
    w = COURSE_RUN[lang]
    title = w["title"].format(chapter=run.chapter, n=len(run.calls), lost=len(run.lost))
    # column lines: a call's last word and its result never read as one phrase
    table = Table(box=box.MINIMAL, pad_edge=False)
    table.add_column(w["call"], overflow="fold")
    table.add_column(w["result"], overflow="fold")
    for name, input, output in run.calls:  # wire text: Text(), never read as rich markup
        args = " ".join(str(v) for v in input.values())
        table.add_row(Text(f"{name} {args}".strip()), course_result(output, lang))
    if run.chapter in ("s03", "s04"):
        asked = course_lines(run.asked, lang) if run.asked else Text(w["nothing"])
        table.add_row(w["asked"], asked, style="dim")
    if run.chapter == "s04":
        log = Text("\n".join(run.log)) if run.log else Text(w["nothing"])
        table.add_row(w["log"], log, style="dim")
    prompt, *said = course_said(run, lang)
    return View(Group(Text(title, "bold"), prompt, table, *said))


def rules_text(rules: Any) -> str:
    """A RuleSet's non-default fields, e.g. "deny ('Bash(rm *)',) · default ask"."""
    defaults = type(rules)()
    return " · ".join(
        f"{f.name} {getattr(rules, f.name)}"
        for f in fields(rules)
        if getattr(rules, f.name) != getattr(defaults, f.name)
    )


def case_view(case: Any, title: str = "", lang: str = "en") -> View:
    """A generated case (lab.testing.Case) as a student reads a scenario: the script turn by
    turn with each declared stop_reason, then the files, rules, human and hooks it needs."""
    w = WORDS[lang]
    title = title or w["case"]
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, title=title, title_justify="left")
    for column in ("", "stop_reason", "content"):
        table.add_column(column, overflow="fold")
    calls = 0
    for n, step in enumerate(case.scenario().script, start=1):
        lines = []
        for block in step.blocks:
            if block["type"] == "tool_use" and block.get("id") is None:
                calls += 1  # the id the fake model will give it
                block = {**block, "id": tool_use_id(calls)}
            lines.append(Text(report.block_line(block, lang)))
        implied = w["declared"] if step.stop_reason is not None else w["implied"]
        stop = w["stop"].format(stop=step.declared, how=implied)
        table.add_row(w["turn"].format(n=n), stop, Group(*lines))
    extras = {
        "files": ", ".join(w["chars"].format(name=name, n=len(text)) for name, text in case.files),
        "rules": rules_text(case.rules),
        "human": case.human,
        "hooks": ", ".join(case.hooks),
        "tools": ", ".join(case.tools),
        "keep_last": "" if case.keep_last is None else case.keep_last,
        "stream": w["yes"] if case.stream else "",
    }
    for name, value in extras.items():
        if value not in ("", (), None):
            table.add_row(name, "", Text(str(value)))
    return View(table)


def matrix_view(matrix: Any, lang: str = "en") -> View:
    """The kill matrix (lab.testing.search.Matrix): a row per switch flipped alone, a column per
    invariant, ✗ where hypothesis found a case that breaks it."""
    from lab.testing import INVARIANTS

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column(WORDS[lang]["flipped"])
    for inv in INVARIANTS:
        table.add_column(inv.name, justify="center")
    for row in [matrix.reference, *matrix.rows]:
        marks = [
            Text("✗", "bold red") if inv.name in row.findings else Text("·", "dim")
            for inv in INVARIANTS
        ]
        table.add_row(row.switch or f"({WORDS[lang]['reference']})", *marks)
    return View(table, WIDE)
