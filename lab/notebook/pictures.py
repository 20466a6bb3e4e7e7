"""Notebook pictures: hand-drawn SVG charts (trays, call timelines, the mechanism map)."""

from __future__ import annotations

import html as html_escape
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from lab.chapter.experiment import MECHANISMS, load_all
from lab.harness.checks import ORDER
from lab.harness.hooks import EVENTS
from lab.harness.layers import Layers
from lab.harness.permissions import Gates, Human, Permissions
from lab.kernel.switches import switch_info, switch_names
from lab.kernel.trace import (
    ApiRejected,
    CheckFailed,
    ModelAnswered,
    ResultAppended,
    RunEnded,
    StopContinued,
    ToolCallSeen,
    ToolExecuted,
    Trace,
)
from lab.notebook.views import Picture
from lab.views import harness_words as said
from lab.views import trays
from lab.views.text_cells import wrap
from lab.world import World, course_tools

# The pictures' words; a call's fate is keyed by call_fates' codes ("blocked at <stage>" by stage).
WORDS = {
    "en": {
        "makespan": "{title}  ·  makespan {s:g} s",
        "tray": "tray {n}",
        "axis": "virtual seconds (only tools move the clock)",
        "turn": "turn {n}",
        "no_answer": "no answer",
        "says": "says: {stop}",
        "has": "has: {n} tool_use",
        "text_only": "has: text only",
        "stop_hook": "↻ Stop hook",
        "tools": "tools: ",
        "chain": "chain: ",
        "gates": "gates: ",
        "events": "events: ",
        "switches": "switches: ",
        "experiments": "experiments: ",
        "permission_stage": "the chain's permission stage",
        "loop": "call the model → tool_use in the content?",
        "yes": "yes: run the calls, append the results, again",
        "no": "no: may I stop? (the Stop socket) → done",
    },
    "zh": {
        "makespan": "{title}  ·  总耗时 {s:g} 秒",
        "tray": "托盘 {n}",
        "axis": "虚拟秒（只有工具会拨动时钟）",
        "turn": "第 {n} 轮",
        "no_answer": "没有回答",
        "says": "声明：{stop}",
        "has": "内容：{n} 个 tool_use",
        "text_only": "内容：只有文本",
        "stop_hook": "↻ 退出钩子",
        "tools": "工具：",
        "chain": "校验链：",
        "gates": "门禁：",
        "events": "事件：",
        "switches": "开关：",
        "experiments": "实验：",
        "permission_stage": "校验链的权限判定段",
        "loop": "调用模型 → 内容里有 tool_use 吗？",
        "yes": "有：执行调用，追加结果，再来一轮",
        "no": "没有：能停吗？（退出插线口）→ done",
    },
}
FATES = {"ran": "执行", "error": "出错", "dropped": "被丢弃", "no result": "没有结果"}


def fate_text(fate: str, lang: str) -> str:
    """A call's fate as call_fates gives it, in `lang`."""
    if lang != "zh":
        return fate
    if fate.startswith("blocked at "):
        return f"拦在{said.stage(fate.removeprefix('blocked at '), 'zh')}"
    return FATES.get(fate, fate)


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


def tray_chart(*runs: Any, titles: Sequence[str] = (), lang: str = "en") -> Picture:
    """The trays of one or more runs on the virtual clock, one shared time axis: a bar per
    executed call, a band per tray (∥ = the tray ran in parallel)."""
    w = WORDS[lang]
    charts = [
        (titles[i] if i < len(titles) else "", trays.tray_bars(r)) for i, r in enumerate(runs)
    ]
    seconds = max([b.finished for _, bars in charts for b in bars] + [1.0])
    left, width, row = 300, 880, 18
    scale = (width - left - 70) / seconds
    step = 1 if seconds <= 20 else 5 * math.ceil(seconds / 100)
    body, y = [], 8.0
    for title, bars in charts:
        makespan = max((b.finished for b in bars), default=0.0)
        head = w["makespan"].format(title=title, s=makespan)
        body.append(label(4, y + 12, head, font_weight="bold"))
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
                bar_w = max((bar.finished - bar.started) * scale, 2)
                body.append(
                    rect(left + bar.started * scale, y + 3, bar_w, row - 6, fill=fill, rx=2)
                )
                y += row
            mark = w["tray"].format(n=tray) + (" ∥" if members[0].parallel else "")
            body.append(label(left + end * scale + 4, band_y + 13, mark, fill="#555"))
        for t in range(0, int(seconds) + 1, step):
            x = left + t * scale
            body.append(
                f'<line x1="{x:.1f}" y1="{top:.1f}" x2="{x:.1f}" y2="{y:.1f}" '
                'stroke="#bbb" stroke-dasharray="2,3"/>'
            )
            body.append(label(x - 3, y + 12, f"{t}s", fill="#555"))
        y += 30
    body.append(label(left, y, w["axis"], fill="#555"))
    return svg(width, y + 8, body)


def call_fates(source: Any) -> dict[str, str]:
    """What became of each tool_use the model sent: 'ran', 'error', 'blocked at <stage>',
    'dropped' (never looked at) or 'no result' (looked at, no tool_result sent)."""
    events = trays.events_of(source)
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


def timeline(source: Any, title: str = "", lang: str = "en") -> Picture:
    """The run as a strip of turns: what each answer declared against what its content held
    (red frame when they disagree), each call's fate, and how the turn ended."""
    w = WORDS[lang]
    events = trays.events_of(source)
    fates = call_fates(events)
    turns = trays.by_turn(events)
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
        body.append(label(x + 6, top + 15, w["turn"].format(n=n), font_weight="bold"))
        if answer is None:
            rejected = next((e for e in turn_events if isinstance(e, ApiRejected)), None)
            text = f"API {rejected.status}" if rejected else w["no_answer"]
            body.append(label(x + 6, top + 32, text, fill="#d62728", font_weight="bold"))
        else:
            body.append(label(x + 6, top + 32, w["says"].format(stop=answer.stop_reason)))
            holds = w["has"].format(n=len(calls)) if calls else w["text_only"]
            body.append(label(x + 6, top + 47, holds, fill="#d62728" if disagree else "#222"))
        for j, block in enumerate(calls):
            fate = fates.get(block["id"], "?")
            colour = FATE_COLOURS.get(fate, "#f28e2b")
            y = top + 56 + 18 * j
            body.append(rect(x + 6, y, col - 12, 15, fill=colour, rx=3))
            shown = f"{block['name']}: {fate_text(fate, lang)}"
            body.append(label(x + 10, y + 11, shown, fill="white"))
        ended = next((e for e in turn_events if isinstance(e, RunEnded)), None)
        stop_hook = any(isinstance(e, StopContinued) for e in turn_events)
        after = f"■ {ended.reason}" if ended else (w["stop_hook"] if stop_hook else "↻")
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


def mechanism_map(lang: str = "en") -> Picture:
    """The five mechanisms on one picture, generated from the code: the loop in the middle,
    the four layers hung outside it, each with its modules, its order, switches and experiments.
    In Chinese the modules' docstrings (English) are left out: their paths stay."""
    w = WORDS[lang]
    world = World.create()
    gates = Gates(Permissions(), Human(), world, Trace())
    contents = {
        "M2": w["tools"] + ", ".join(t.name for t in course_tools(world)),
        "M3": w["chain"] + " → ".join(said.stage(name, lang) for name in ORDER),
        "M4": w["gates"] + " → ".join(said.gate(name, lang) for name in gates.order.gates),
        "M5": w["events"] + ", ".join(EVENTS),
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
        "M4": w["permission_stage"],
        "M5": "layers.prompt_message · layers.stop_continuation",
    }
    for via in reached.values():
        for part in via.split(" · "):
            if part.startswith("layers."):
                assert hasattr(Layers, part.removeprefix("layers.")), part

    def box_lines(m: str) -> list[tuple[str, dict[str, str]]]:
        english, chinese = MECHANISMS[m]
        name = chinese if lang == "zh" else f"{chinese} · {english}"
        lines = [(f"{m} {name}", {"font-weight": "bold", "font-size": "13px"})]
        for path, first in modules[m]:
            lines.append((path, {"fill": "#1f4e99"}))
            lines += [(t, {"fill": "#333"}) for t in wrap(first, 47) if lang == "en"]
        if m in contents:
            lines += [(t, {"fill": "#7a3e00"}) for t in wrap(contents[m], 47)]
        lines += [(t, {"fill": "#555"}) for t in wrap(w["switches"] + ", ".join(switches[m]), 47)]
        lines.append((w["experiments"] + ", ".join(experiments[m]), {"fill": "#555"}))
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
    name = chinese if lang == "zh" else f"{chinese} · {english}"
    centre = [(f"M1 {name}", {"font-weight": "bold", "font-size": "14px"})]
    for path, first in modules["M1"]:
        centre.append((path, {"fill": "#1f4e99"}))
        centre += [(t, {"fill": "#333"}) for t in wrap(first, 44) if lang == "en"]
    centre += [(w[key], {"fill": "#7a3e00"}) for key in ("loop", "yes", "no")]
    centre.append((w["switches"] + ", ".join(switches["M1"]), {"fill": "#555"}))
    centre.append((w["experiments"] + ", ".join(experiments["M1"]), {"fill": "#555"}))
    first_y = cy - (len(centre) - 1) * line_h / 2 + 4
    for i, (text, style) in enumerate(centre):
        body.append(label(cx, first_y + i * line_h, text, text_anchor="middle", **style))
    return svg(width, height, body)
