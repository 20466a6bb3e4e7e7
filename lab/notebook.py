"""Notebook glue: step a harness turn by turn; show turns, runs, code and pictures as HTML."""

# Everything shown is drawn from the lab's own objects (trace events, source, switch metadata),
# so nothing on screen can drift from the code. IPython is imported only inside `html()`: the
# lab runs without it, and View/Step/Picture display through `_repr_html_`.

from __future__ import annotations

import html as html_escape
import inspect
import io
import math
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console, Group, RenderableType
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.terminal_theme import TerminalTheme
from rich.text import Text

from lab import report, transcript
from lab.experiment import MECHANISMS, Experiment, Outcome, load_all, run_experiment, select
from lab.harness.checks import ORDER
from lab.harness.hooks import EVENTS
from lab.harness.layers import Layers
from lab.harness.permissions import Gates, Human, Permissions
from lab.model import FakeMessagesAPI, ScriptedModel, make_client
from lab.model.script import tool_use_id
from lab.scenario import Run, Scenario, build_harness, safely
from lab.switches import Switches, switch_info, switch_names
from lab.trace import (
    ApiRejected,
    CheckFailed,
    Event,
    ModelAnswered,
    ResultAppended,
    RunEnded,
    StopContinued,
    ToolCallSeen,
    ToolExecuted,
    Trace,
)
from lab.world import World, course_tools

WIDTH = 120  # characters per line of a single view
WIDE = 170  # characters per line of a side-by-side view
LIMIT = 400  # characters of a tool's output shown in a notebook (the rest is counted)
REPO = Path(__file__).resolve().parent.parent

# A light theme for HTML: the ANSI colours darkened so they read well on white.
LIGHT = TerminalTheme(
    (255, 255, 255),
    (28, 28, 28),
    [
        (28, 28, 28),
        (190, 30, 30),
        (20, 130, 40),
        (150, 105, 0),
        (30, 80, 200),
        (150, 40, 150),
        (0, 120, 140),
        (120, 120, 120),
    ],
    [
        (90, 90, 90),
        (220, 50, 50),
        (30, 160, 60),
        (180, 130, 0),
        (60, 110, 230),
        (180, 60, 180),
        (0, 150, 170),
        (240, 240, 240),
    ],
)
PRE = (
    "<pre style=\"font-family:Menlo,'DejaVu Sans Mono',consolas,'Courier New',monospace;"
    "font-size:12px;line-height:1.35;color:{foreground};background:{background};"
    'padding:6px 8px;overflow-x:auto;white-space:pre">{code}</pre>'
)


# -- rich → HTML ---------------------------------------------------------------------------
def to_html(renderable: RenderableType, width: int = WIDTH) -> str:
    """Any rich renderable as a self-contained HTML <pre> with inline styles."""
    console = Console(
        record=True,
        width=width,
        file=io.StringIO(),
        force_terminal=True,
        force_jupyter=False,
        color_system="truecolor",
    )
    console.print(renderable)
    return console.export_html(theme=LIGHT, inline_styles=True, code_format=PRE)


def to_text(renderable: RenderableType, width: int = WIDTH) -> str:
    """Any rich renderable as plain text (no colours)."""
    console = Console(width=width, file=io.StringIO(), force_jupyter=False, color_system=None)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get().rstrip("\n")


def html(renderable: RenderableType, width: int = WIDTH) -> Any:
    """Any rich renderable as an IPython HTML object (for `display(...)` in a notebook)."""
    from IPython.display import HTML  # lazily: the lab runs without IPython

    return HTML(to_html(renderable, width))


@dataclass
class View:
    """A rich renderable that shows itself as HTML in a notebook and as text in a terminal."""

    renderable: RenderableType
    width: int = WIDTH

    def __rich__(self) -> RenderableType:
        return self.renderable

    def _repr_html_(self) -> str:
        return to_html(self.renderable, self.width)

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
    return View(Group(*panels))


# -- one turn at a time ------------------------------------------------------------------------
@dataclass
class Step:
    """The events one step added to the trace (the start, then one turn: one model call and
    its tool calls). Displays as the turn view; `of(kind)` picks events of one type."""

    turn: int
    events: list[Event]
    ended: str | None = None
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
        self.world = World.create(dict(scenario.files))
        self.initial = self.world.snapshot()
        self.model = ScriptedModel(scenario.script)
        self.api = FakeMessagesAPI(self.model)
        self.harness = build_harness(
            scenario.setup, self.switches, self.world, make_client(self.api)
        )
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
        assert self.harness.ended is not None
        h = self.harness
        return Run(
            self.scenario,
            self.switches,
            h.trace,
            h.messages,
            self.world,
            self.initial,
            self.api,
            self.model,
            h.ended,
        )


def switch_title(switches: Switches, base: Switches | None = None) -> str:
    flips = switches.differences(base)
    return ", ".join(f"{k}={v}" for k, v in flips.items()) or "reference harness"


class Pair:
    """One scenario under two sets of switches, stepped together and shown side by side."""

    def __init__(
        self, scenario: Scenario, left: Switches, right: Switches, lang: str = "en"
    ) -> None:
        self.left, self.right = Stepper(scenario, left, lang), Stepper(scenario, right, lang)
        self.titles = (switch_title(left), switch_title(right, left))
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
    titles: tuple[str, str] = ("baseline", "switched"),
    turns: Sequence[int] = (),
    lang: str = "en",
) -> View:
    """Two runs turn by turn in two columns, the first divergence marked on both."""
    return View(transcript.side_by_side(a, b, titles, list(turns) or None, lang, LIMIT), WIDE)


def verdict(result: Outcome, lang: str = "en") -> View:
    """An experiment's observables before → after, as `lab run` prints them."""
    return View(report.outcome_view(result, lang))


def panorama(outcomes: Sequence[Outcome], lang: str = "en") -> Picture:
    """One call's path, each experiment's break lit where it happens (lab/panorama.py)."""
    from lab.panorama import panorama_svg

    return Picture(panorama_svg(outcomes, lang))


def claims(outcomes: Sequence[Outcome], lang: str = "en") -> Picture:
    """The claims table with evidence grades, as on the projector page."""
    from lab.html_report import claims_table

    return Picture(claims_table(list(outcomes), lang))


# -- property-based testing (lab/testing) ------------------------------------------------------
def invariants_view() -> View:
    """The reference harness's promises as lab/testing names them, each with what it checks."""
    from lab.testing import INVARIANTS  # lazily: lab.notebook does not depend on lab.testing

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("invariant", "title", "不变式", "the course keeps it", "promise"):
        table.add_column(column, overflow="fold")
    for inv in INVARIANTS:
        table.add_row(inv.name, inv.title, inv.zh, "yes" if inv.course else "no", inv.promise)
    return View(table)


def rules_text(rules: Any) -> str:
    """A RuleSet's non-default fields, e.g. "deny ('Bash(rm *)',) · default ask"."""
    defaults = type(rules)()
    return " · ".join(
        f"{f.name} {getattr(rules, f.name)}"
        for f in fields(rules)
        if getattr(rules, f.name) != getattr(defaults, f.name)
    )


def case_view(case: Any, title: str = "the case") -> View:
    """A generated case (lab.testing.Case) as a student reads a scenario: the script turn by
    turn with each declared stop_reason, then the files, rules, human and hooks it needs."""
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
            lines.append(Text(report.block_line(block)))
        implied = "declared" if step.stop_reason is not None else "implied"
        table.add_row(f"turn {n}", f"{step.declared} ({implied})", Group(*lines))
    extras = {
        "files": ", ".join(f"{name} ({len(text)} chars)" for name, text in case.files),
        "rules": rules_text(case.rules),
        "human": case.human,
        "hooks": ", ".join(case.hooks),
        "tools": ", ".join(case.tools),
        "keep_last": "" if case.keep_last is None else case.keep_last,
        "stream": "yes" if case.stream else "",
    }
    for name, value in extras.items():
        if value not in ("", (), None):
            table.add_row(name, "", Text(str(value)))
    return View(table)


def matrix_view(matrix: Any) -> View:
    """The kill matrix (lab.testing.search.Matrix): a row per switch flipped alone, a column per
    invariant, ✗ where hypothesis found a case that breaks it."""
    from lab.testing import INVARIANTS

    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    table.add_column("switch flipped")
    for inv in INVARIANTS:
        table.add_column(inv.name, justify="center")
    for row in [matrix.reference, *matrix.rows]:
        marks = [
            Text("✗", "bold red") if inv.name in row.findings else Text("·", "dim")
            for inv in INVARIANTS
        ]
        table.add_row(row.switch or "(reference harness)", *marks)
    return View(table, WIDE)


# -- pictures ------------------------------------------------------------------------------
def esc(text: Any) -> str:
    return html_escape.escape(str(text), quote=True)


def svg(width: float, height: float, body: list[str]) -> Picture:
    return Picture(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width:.0f} {height:.0f}" '
        f'width="100%" style="max-width:{width:.0f}px;font-family:Menlo,\'DejaVu Sans Mono\','
        f'monospace;font-size:11px">' + "".join(body) + "</svg>"
    )


def label(x: float, y: float, text: Any, **attrs: Any) -> str:
    extra = " ".join(f'{k.replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return f'<text x="{x:.1f}" y="{y:.1f}" {extra}>{esc(text)}</text>'


def rect(x: float, y: float, w: float, h: float, **attrs: Any) -> str:
    extra = " ".join(f'{k.replace("_", "-")}="{esc(v)}"' for k, v in attrs.items())
    return f'<rect x="{x:.1f}" y="{y:.1f}" width="{w:.1f}" height="{h:.1f}" {extra}/>'


TRAY_COLOURS = ["#4e79a7", "#f28e2b", "#59a14f", "#b07aa1", "#76b7b2", "#edc948"]


def tray_chart(*runs: Any, titles: Sequence[str] = ()) -> Picture:
    """The trays of one or more runs on the virtual clock, one shared time axis: a bar per
    executed call, a band per tray (∥ = the tray ran in parallel)."""
    charts = [
        (titles[i] if i < len(titles) else "", report.tray_bars(r)) for i, r in enumerate(runs)
    ]
    seconds = max([b.finished for _, bars in charts for b in bars] + [1.0])
    left, width, row = 300, 880, 18
    scale = (width - left - 70) / seconds
    step = 1 if seconds <= 20 else 5 * math.ceil(seconds / 100)
    body, y = [], 8.0
    for title, bars in charts:
        makespan = max((b.finished for b in bars), default=0.0)
        body.append(label(4, y + 12, f"{title}  ·  makespan {makespan:g} s", font_weight="bold"))
        y += 20
        top = y
        for tray in sorted({b.tray for b in bars}):
            members = [b for b in bars if b.tray == tray]
            start = min(b.started for b in members)
            end = max(b.finished for b in members)
            colour = TRAY_COLOURS[(tray - 1) % len(TRAY_COLOURS)]
            band_y = y
            band_w, band_h = max((end - start) * scale, 2), row * len(members)
            body.append(
                rect(left + start * scale, band_y, band_w, band_h, fill=colour, fill_opacity=0.12)
            )
            for bar in members:
                body.append(label(4, y + 13, bar.label))
                fill = "#d62728" if bar.is_error else colour
                w = max((bar.finished - bar.started) * scale, 2)
                body.append(rect(left + bar.started * scale, y + 3, w, row - 6, fill=fill, rx=2))
                y += row
            mark = f"tray {tray}" + (" ∥" if members[0].parallel else "")
            body.append(label(left + end * scale + 4, band_y + 13, mark, fill="#555"))
        for t in range(0, int(seconds) + 1, step):
            x = left + t * scale
            body.append(
                f'<line x1="{x:.1f}" y1="{top:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                'stroke="#bbb" stroke-dasharray="2,3"/>'
            )
            body.append(label(x - 3, y + 12, f"{t}s", fill="#555"))
        y += 30
    body.append(label(left, y, "virtual seconds (only tools move the clock)", fill="#555"))
    return svg(width, y + 8, body)


def call_fates(source: Any) -> dict[str, str]:
    """What became of each tool_use the model sent: 'ran', 'error', 'blocked at <stage>',
    'dropped' (never looked at) or 'no result' (looked at, no tool_result sent)."""
    events = report.events_of(source)
    seen = {e.call_id for e in events if isinstance(e, ToolCallSeen)}
    blocked = {e.call_id: e.stage for e in events if isinstance(e, CheckFailed)}
    ran = {e.call_id: e.is_error for e in events if isinstance(e, ToolExecuted)}
    answered = {e.call_id for e in events if isinstance(e, ResultAppended)}
    fates = {}
    for answer in (e for e in events if isinstance(e, ModelAnswered)):
        for block in answer.blocks:
            if block["type"] != "tool_use":
                continue
            call_id = block["id"]
            if call_id not in seen:
                fates[call_id] = "dropped"
            elif call_id not in answered:
                fates[call_id] = "no result"
            elif call_id in blocked:
                fates[call_id] = f"blocked at {blocked[call_id]}"
            else:
                fates[call_id] = "error" if ran.get(call_id) else "ran"
    return fates


FATE_COLOURS = {"ran": "#59a14f", "error": "#e15759", "dropped": "#d62728", "no result": "#d62728"}


def timeline(source: Any, title: str = "") -> Picture:
    """The run as a strip of turns: what each answer declared against what its content held
    (red frame when they disagree), each call's fate, and how the turn ended."""
    events = report.events_of(source)
    fates = call_fates(events)
    turns = report.by_turn(events)
    numbers = [n for n in turns if n > 0]
    col, gap, top = 118, 18, 26
    body = [label(4, 16, title, font_weight="bold")] if title else []
    height = top
    for i, n in enumerate(numbers):
        x = 4 + i * (col + gap)
        turn_events = turns[n]
        answer = next((e for e in turn_events if isinstance(e, ModelAnswered)), None)
        calls = [b for b in answer.blocks if b["type"] == "tool_use"] if answer else []
        box_h = 64 + 18 * len(calls)
        disagree = answer is not None and (answer.stop_reason == "tool_use") != answer.tool_use_seen
        frame = "#d62728" if disagree or answer is None else "#888"
        body.append(rect(x, top, col, box_h, fill="#fafafa", stroke=frame, stroke_width=2, rx=6))
        body.append(label(x + 6, top + 15, f"turn {n}", font_weight="bold"))
        if answer is None:
            rejected = next((e for e in turn_events if isinstance(e, ApiRejected)), None)
            text = f"API {rejected.status}" if rejected else "no answer"
            body.append(label(x + 6, top + 32, text, fill="#d62728", font_weight="bold"))
        else:
            body.append(label(x + 6, top + 32, f"says: {answer.stop_reason}"))
            holds = f"has: {len(calls)} tool_use" if calls else "has: text only"
            body.append(label(x + 6, top + 47, holds, fill="#d62728" if disagree else "#222"))
        for j, block in enumerate(calls):
            fate = fates.get(block["id"], "?")
            colour = FATE_COLOURS.get(fate, "#f28e2b")
            y = top + 56 + 18 * j
            body.append(rect(x + 6, y, col - 12, 15, fill=colour, rx=3))
            body.append(label(x + 10, y + 11, f"{block['name']}: {fate}", fill="white"))
        ended = next((e for e in turn_events if isinstance(e, RunEnded)), None)
        stop_hook = any(isinstance(e, StopContinued) for e in turn_events)
        after = f"■ {ended.reason}" if ended else ("↻ Stop hook" if stop_hook else "↻")
        body.append(label(x + 6, top + box_h + 16, after, font_weight="bold"))
        if not ended and i + 1 < len(numbers):
            y = top + 20
            body.append(
                f'<line x1="{x + col:.1f}" y1="{y}" x2="{x + col + gap - 3:.1f}" y2="{y}" '
                'stroke="#888" stroke-width="2"/>'
            )
        height = max(height, top + box_h + 24)
    width = 8 + len(numbers) * (col + gap)
    return svg(max(width, 200), height, body)


def cells(text: str) -> int:
    """Display width: CJK characters take two cells."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def wrap(text: str, width: int) -> list[str]:
    """Word wrap by display width (CJK counted double)."""
    lines, line = [], ""
    for word in text.split():
        candidate = f"{line} {word}".strip()
        if cells(candidate) > width and line:
            lines.append(line)
            candidate = word
        line = candidate
    return [*lines, line] if line else lines


def mechanism_modules() -> dict[str, list[tuple[str, str]]]:
    """The harness modules whose docstring opens with a mechanism tag, e.g. 'M2 托盘 (trays)'."""
    import lab.harness as harness_package

    found: dict[str, list[tuple[str, str]]] = {m: [] for m in MECHANISMS}
    for path in sorted(Path(harness_package.__file__).parent.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        doc = source.split('"""')[1] if source.startswith('"""') else ""
        tag = doc.split(" ", 1)[0]
        if tag in found:
            found[tag].append((f"lab/harness/{path.name}", doc.splitlines()[0]))
    return found


def mechanism_map() -> Picture:
    """The five mechanisms on one picture, generated from the code: the loop in the middle,
    the four layers hung outside it, each with its modules, its order, switches and experiments."""
    world = World.create()
    gates = Gates(Permissions(), Human(), world, Trace(), Switches())
    contents = {
        "M2": "tools: " + ", ".join(t.name for t in course_tools(world)),
        "M3": "chain: " + " → ".join(ORDER),
        "M4": "gates: " + " → ".join(name for name, _ in gates.order),
        "M5": "events: " + ", ".join(EVENTS),
    }
    switches: dict[str, list[str]] = {m: [] for m in MECHANISMS}
    for name in switch_names():
        for m in switch_info(name)["mechanism"].split("/"):
            switches[m].append(name)
    experiments: dict[str, list[str]] = {m: [] for m in MECHANISMS}
    for e in load_all():
        experiments[e.mechanism].append(e.id)
    modules = mechanism_modules()
    # How the loop reaches each layer: the Layers methods it calls (checked to exist).
    reached = {
        "M2": "layers.run_calls",
        "M3": "layers.run_calls · layers.history",
        "M4": "the chain's permission stage",
        "M5": "layers.prompt_message · layers.stop_continuation",
    }
    for via in reached.values():
        for part in via.split(" · "):
            if part.startswith("layers."):
                assert hasattr(Layers, part.removeprefix("layers.")), part

    def box_lines(m: str) -> list[tuple[str, dict[str, str]]]:
        english, chinese = MECHANISMS[m]
        lines = [(f"{m} {chinese} · {english}", {"font-weight": "bold", "font-size": "13px"})]
        for path, first in modules[m]:
            lines.append((path, {"fill": "#1f4e99"}))
            lines += [(t, {"fill": "#333"}) for t in wrap(first, 47)]
        if m in contents:
            lines += [(t, {"fill": "#7a3e00"}) for t in wrap(contents[m], 47)]
        lines += [(t, {"fill": "#555"}) for t in wrap("switches: " + ", ".join(switches[m]), 47)]
        lines.append(("experiments: " + ", ".join(experiments[m]), {"fill": "#555"}))
        return lines

    width, box_w, line_h = 1000, 345, 14
    spots = {"M2": (8, "top"), "M3": (width - box_w - 8, "top")}
    spots |= {"M5": (8, "bottom"), "M4": (width - box_w - 8, "bottom")}
    heights = {m: 16 + line_h * len(box_lines(m)) for m in spots}
    top_h = max(heights["M2"], heights["M3"])
    bottom_h = max(heights["M4"], heights["M5"])
    middle_h = 250
    height = top_h + middle_h + bottom_h + 16
    cx, cy, rx, ry = width / 2, top_h + middle_h / 2 + 8, 185, 118
    body = [
        f'<ellipse cx="{cx}" cy="{cy}" rx="{rx}" ry="{ry}" fill="#fff7e6" stroke="#e08a00" '
        'stroke-width="3"/>'
    ]
    for m, (x, where) in spots.items():
        y = 8 if where == "top" else height - heights[m] - 8
        inner_x = x + box_w if x < cx else x
        inner_y = y + heights[m] if where == "top" else y
        edge_x = cx + (-0.72 if x < cx else 0.72) * rx
        edge_y = cy + (-0.69 if where == "top" else 0.69) * ry
        body.append(
            f'<line x1="{inner_x:.1f}" y1="{inner_y:.1f}" x2="{edge_x:.1f}" y2="{edge_y:.1f}" '
            'stroke="#999" stroke-width="2" stroke-dasharray="6,4"/>'
        )
        mid_x, mid_y = (inner_x + edge_x) / 2, (inner_y + edge_y) / 2
        anchor = "end" if x < cx else "start"
        body.append(
            label(mid_x + (-6 if x < cx else 6), mid_y, reached[m], fill="#777", text_anchor=anchor)
        )
        body.append(rect(x, y, box_w, heights[m], fill="#f4f8ff", stroke="#4e79a7", rx=8))
        for i, (text, style) in enumerate(box_lines(m)):
            body.append(label(x + 8, y + 18 + i * line_h, text, **style))
    english, chinese = MECHANISMS["M1"]
    centre = [(f"M1 {chinese} · {english}", {"font-weight": "bold", "font-size": "14px"})]
    for path, first in modules["M1"]:
        centre.append((path, {"fill": "#1f4e99"}))
        centre += [(t, {"fill": "#333"}) for t in wrap(first, 44)]
    centre.append(("call the model → tool_use in the content?", {"fill": "#7a3e00"}))
    centre.append(("yes: run the calls, append the results, again", {"fill": "#7a3e00"}))
    centre.append(("no: may I stop? (the Stop socket) → done", {"fill": "#7a3e00"}))
    centre.append(("switches: " + ", ".join(switches["M1"]), {"fill": "#555"}))
    centre.append(("experiments: " + ", ".join(experiments["M1"]), {"fill": "#555"}))
    first_y = cy - (len(centre) - 1) * line_h / 2 + 4
    for i, (text, style) in enumerate(centre):
        body.append(label(cx, first_y + i * line_h, text, text_anchor="middle", **style))
    return svg(width, height, body)


__all__ = [
    "Pair",
    "claims",
    "panorama",
    "Picture",
    "Step",
    "Stepper",
    "View",
    "call_fates",
    "case_view",
    "code",
    "experiment",
    "html",
    "invariants_view",
    "matrix_view",
    "mechanism_map",
    "outcome",
    "side_by_side",
    "timeline",
    "to_html",
    "tray_chart",
    "turn_view",
    "verdict",
]
