"""The panorama: one call's path on one picture — belt → trays → chain of checks → gates and
sockets → run → result → back to the belt — with each experiment's break lit where it happens.

Where an experiment breaks is not written down: it is read off the first divergence of its two
runs (lab/views/transcript.py), so the picture moves when the lab does.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass

from lab.chapter.experiment import Outcome
from lab.kernel.trace import (
    ApiRejected,
    BatchRan,
    CheckFailed,
    GateDecision,
    HistoryTrimmed,
    HookFailed,
    HookFired,
    HookSkipped,
    HumanAsked,
    ModelAnswered,
    ResultAppended,
    ResultSpilled,
    RuleIgnored,
    RunEnded,
    StopContinued,
    ThinkingSentBack,
    ToolCallSeen,
    ToolExecuted,
    ToolRefused,
)
from lab.views import text_cells, transcript
from lab.views.harness_words import STAGES


@dataclass(frozen=True)
class Station:
    key: str
    mechanism: str
    en: str
    zh: str
    x: float
    y: float
    w: float = 96
    h: float = 44


# The call's path, left to right along the top, back to the belt along the bottom.
STATIONS = [
    Station(
        "belt",
        "M1",
        "the loop: tool_use in the content?",
        "传送带：内容块里有活吗",
        10,
        70,
        120,
        58,
    ),
    Station("book", "M2", "dispatch table", "转接号码簿", 150, 10),
    Station("trays", "M2", "trays", "托盘", 150, 78),
    Station("known_tool", "M3", "known_tool", STAGES["known_tool"], 266, 78),
    Station("validation", "M3", "validation", STAGES["validation"], 372, 78),
    Station("tool_check", "M3", "tool_check", STAGES["tool_check"], 478, 78),
    Station("hooks", "M3", "hooks", STAGES["hooks"], 584, 78),
    Station("permission", "M3", "permission", STAGES["permission"], 690, 78),
    Station("run", "M2", "run on the virtual world", "执行（虚拟世界）", 796, 78, 110),
    Station("result", "M3", "tool_result", "结果（配对义务）", 926, 78, 110),
    Station(
        "gates",
        "M4",
        "gates: deny → ask → allow",
        "门禁：硬拒绝 → 需询问 → 放行",
        640,
        170,
        206,
        44,
    ),
    Station("pre_socket", "M5", "PreToolUse", "插线口·前置", 530, 170, 100),
    Station("post_socket", "M5", "PostToolUse", "插线口·执行后", 860, 170, 110),
    Station("prompt_socket", "M5", "UserPromptSubmit", "插线口·输入提交", 10, 170, 120),
    Station("stop_socket", "M5", "Stop", "插线口·退出", 150, 170, 96),
    Station("history", "M1", "history → next request", "历史 → 下一次请求", 440, 250, 190),
]
BY_KEY = {s.key: s for s in STATIONS}
COLOURS = {"M1": "#fff7e6", "M2": "#eef6ee", "M3": "#eef3fb", "M4": "#fdeeee", "M5": "#f5eefb"}


def station_of(line: transcript.Line | None) -> str:
    """Where on the path a transcript line happens."""
    if line is None:
        return "belt"
    event = line.event
    match event:
        case ToolRefused():
            return "book"
        case BatchRan():
            return "trays"
        case CheckFailed():
            return event.stage if event.stage in BY_KEY else "permission"
        case GateDecision() | HumanAsked() | RuleIgnored():
            return "gates"
        case HookFired() | HookSkipped() | HookFailed():
            sockets = {
                "PreToolUse": "pre_socket",
                "UserPromptSubmit": "prompt_socket",
                "Stop": "stop_socket",
            }
            return sockets.get(event.event, "post_socket")
        case StopContinued():
            return "stop_socket"
        case ToolExecuted():
            return "run"
        case ResultAppended() | ResultSpilled():
            return "result"
        case HistoryTrimmed() | ApiRejected() | ThinkingSentBack():
            return "history"
        case ModelAnswered() | ToolCallSeen() | RunEnded():
            return "belt"
    # lines of no event of their own, told by what they say
    words = transcript.WORDS["en"]
    key = line.key or ""
    if key == words["no_result"]:
        return "result"
    if key.startswith("first message"):
        return "prompt_socket"
    return "belt"


def breaks(outcomes: Iterable[Outcome]) -> dict[str, list[str]]:
    """Station → the ids of the experiments whose first divergence happens there."""
    found: dict[str, list[str]] = {s.key: [] for s in STATIONS}
    for outcome in outcomes:
        if outcome.before is None or outcome.after is None:  # its own code raised: no runs
            continue
        split = transcript.first_divergence(outcome.before, outcome.after)
        if split is not None:
            found[station_of(split.left or split.right)].append(outcome.experiment.id)
    return found


def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


@dataclass(frozen=True)
class Size:
    """How big the picture is drawn: its labels' size and its width, both in the SVG's units,
    which a page shows one to one up to that width. The stations keep their places on the map
    (STATIONS, drawn for 1046 wide); a bigger label makes the boxes taller and wrap sooner."""

    label: float = 10.5
    width: float = 1046


PAGE = Size()  # a report or a notebook: the whole path at a glance
PROJECTOR = Size(label=16, width=1190)  # the title slide: read from the back of a room


def panorama_svg(outcomes: Iterable[Outcome], lang: str = "en", size: Size = PAGE) -> str:
    """The picture as SVG markup: stations, the path between them, a red badge per break."""
    lit = breaks(outcomes)
    across, down = size.width / PAGE.width, size.label / PAGE.label  # map → picture
    line = 12 * down  # one label line
    label_lines = {
        s.key: [s.mechanism, *wrap(s.zh if lang == "zh" else s.en, cells(s, size))]
        for s in STATIONS
    }
    # Each box as drawn: at its place on the map, tall enough for its label's lines.
    box = {
        s.key: Box(
            s.x * across,
            s.y * down,
            s.w * across,
            max(s.h * down, (len(label_lines[s.key]) + 0.6) * line),
        )
        for s in STATIONS
    }
    body = [
        '<defs><marker id="head" markerWidth="8" markerHeight="8" refX="7" refY="4" '
        'orient="auto"><path d="M0,0 L8,4 L0,8 z" fill="#888"/></marker></defs>'
    ]
    top = ["belt", "trays", "known_tool", "validation", "tool_check", "hooks", "permission"]
    top += ["run", "result"]
    for a, b in zip(top, top[1:], strict=False):
        s, t = box[a], box[b]
        body.append(arrow(s.x + s.w, t.y + t.h / 2, t.x - 2, t.y + t.h / 2))
    result, history, belt = box["result"], box["history"], box["belt"]
    body.append(  # back to the belt: the result goes into the next request
        f'<path d="M{result.x + result.w / 2:.0f},{result.y + result.h:.0f} '
        f'V{history.y + history.h / 2:.0f} H{history.x + history.w + 2:.0f}" fill="none" '
        'stroke="#888" stroke-width="2" marker-end="url(#head)"/>'
    )
    body.append(
        f'<path d="M{history.x:.0f},{history.y + history.h / 2:.0f} H{belt.x + belt.w / 2:.0f} '
        f'V{belt.y + belt.h + 2:.0f}" fill="none" stroke="#888" stroke-width="2" '
        'marker-end="url(#head)"/>'
    )
    for a, b in (("hooks", "pre_socket"), ("permission", "gates"), ("run", "post_socket")):
        s, t = box[a], box[b]
        body.append(
            f'<line x1="{s.x + s.w / 2:.0f}" y1="{s.y + s.h:.0f}" x2="{t.x + t.w / 2:.0f}" '
            f'y2="{t.y:.0f}" stroke="#bbb" stroke-width="2" stroke-dasharray="4,3"/>'
        )
    for a, b in (("book", "trays"), ("prompt_socket", "belt"), ("stop_socket", "belt")):
        s, t = box[a], box[b]
        y1, y2 = (s.y + s.h, t.y) if s.y < t.y else (s.y, t.y + t.h)
        x2 = min(t.x + t.w / 2, s.x + s.w / 2)
        body.append(
            f'<line x1="{s.x + s.w / 2:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" '
            'stroke="#bbb" stroke-width="2" stroke-dasharray="4,3"/>'
        )
    badge_w, badge_h = 29 * down, 13 * down
    for station in STATIONS:
        ids, drawn = lit[station.key], box[station.key]
        stroke, width = ("#d62728", 3) if ids else ("#999", 1)
        body.append(
            f'<rect class="station" data-station="{station.key}" x="{drawn.x:.0f}" '
            f'y="{drawn.y:.0f}" width="{drawn.w:.0f}" height="{drawn.h:.0f}" rx="7" '
            f'fill="{COLOURS[station.mechanism]}" '
            f'stroke="{stroke}" stroke-width="{width}"/>'
        )
        for i, text in enumerate(label_lines[station.key]):
            weight = "bold" if i == 0 else "normal"
            body.append(
                f'<text x="{drawn.x + 6:.0f}" y="{drawn.y + (i + 1.1) * line:.0f}" '
                f'font-size="{size.label:g}" font-weight="{weight}" fill="#222">{esc(text)}</text>'
            )
        per_row = max(1, int((drawn.w - 4) // (badge_w + 2)))
        for i, id in enumerate(ids):
            if station.y > 60:  # above the station
                bx = drawn.x + 4 + (i % per_row) * (badge_w + 2)
                by = drawn.y - (badge_h + 2) * (1 + i // per_row)
            else:  # the top row has no room above: beside it
                bx, by = drawn.x + drawn.w + 4, drawn.y + 4 + i * (badge_h + 3)
            body.append(
                f'<g class="break" data-experiment="{esc(id)}"><rect x="{bx:.0f}" y="{by:.0f}" '
                f'width="{badge_w:.0f}" height="{badge_h:.0f}" rx="6" fill="#d62728"/><text '
                f'x="{bx + badge_w / 2:.0f}" y="{by + badge_h * 0.77:.0f}" '
                f'font-size="{size.label:g}" font-weight="bold" fill="white" '
                f'text-anchor="middle">{esc(id)}</text></g>'
            )
    title = (
        "一次调用的路径，每个实验的断点亮在它发生的地方"
        if lang == "zh"
        else "One call's path, each experiment's break lit where it happens"
    )
    bottom = max(drawn.y + drawn.h for drawn in box.values())
    body.append(
        f'<text x="10" y="{bottom + 1.6 * line:.0f}" font-size="{size.label * 1.15:g}" '
        f'fill="#555">{esc(title)}</text>'
    )
    height = bottom + 2.2 * line
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" class="panorama" '
        f'viewBox="0 0 {size.width:g} {height:.0f}" width="100%" '
        f"style=\"max-width:{size.width:g}px;font-family:'Noto Sans CJK SC',"
        "'WenQuanYi Micro Hei','PingFang SC','Microsoft YaHei',sans-serif\">"
        + "".join(body)
        + "</svg>"
    )


@dataclass(frozen=True)
class Box:
    """A station as drawn, in the picture's units."""

    x: float
    y: float
    w: float
    h: float


def cells(station: Station, size: Size) -> int:
    """How many display cells (a CJK character takes two) a label line holds in the box."""
    return int(station.w * size.width / PAGE.width / (6.6 * size.label / PAGE.label))


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str = "#888") -> str:
    return (
        f'<line x1="{x1:.0f}" y1="{y1:.0f}" x2="{x2:.0f}" y2="{y2:.0f}" stroke="{colour}" '
        'stroke-width="2" marker-end="url(#head)"/>'
    )


def wrap(text: str, cells: int) -> list[str]:
    """Lines of at most `cells` display cells (a CJK character takes two): at spaces when
    there are any, else after a · or ：, or before a （, when the line has one, else anywhere."""
    if " " in text:
        return text_cells.wrap(text, cells)
    lines, line = [], ""
    for ch in text:
        if text_cells.cells(line + ch) > cells:
            cut = max(line.rfind("·") + 1, line.rfind("：") + 1, line.rfind("（"))
            lines.append(line[:cut] if cut > 0 else line)
            line = line[cut:] if cut > 0 else ""
        line += ch
    return [*lines, line]
