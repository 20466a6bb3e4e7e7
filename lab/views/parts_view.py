"""`lab parts`: the assembled harness, each slot's part and the switch that chose it, and a
preset's swaps against the reference harness as a diff (+ added, − removed)."""

from __future__ import annotations

from dataclasses import dataclass

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from lab.chapter.disputes import DISPUTED  # by slot: a part the chapter reads otherwise
from lab.chapter.experiment import MECHANISMS
from lab.harness.parts import part_doc, part_name
from lab.harness.switchboard import TABLE, Choice

LABELS = {
    "en": {
        "slot": "slot",
        "part": "part",
        "by": "chosen by",
        "preset": "the course preset",
        "chain": "chain of checks",
        "gates": "gates",
        "sockets": "sockets",
        "count": "{events} events, {callbacks} callbacks",
        "none": "no part of the harness's own",
        "faulty": "✗ a faulty part (or the course's)",
        "swaps": "{title}, against the reference harness: {n} of {m} slots swapped",
        "same": "{title} swaps nothing: it is the reference harness",
    },
    "zh": {
        "slot": "槽位",
        "part": "部件",
        "by": "由谁选定",
        "preset": "课程预设",
        "chain": "扫码链",
        "gates": "门禁",
        "sockets": "插线口",
        "count": "{events} 个事件、{callbacks} 个回调",
        "none": "没有 harness 自带的回调",
        "faulty": "✗ 有缺陷的部件（或课程的部件）",
        "swaps": "{title}，对照参考 harness：{m} 个槽位换了 {n} 个",
        "same": "{title} 什么也没换：它就是参考 harness",
    },
}


@dataclass(frozen=True)
class Assembly:
    """An assembled harness as `lab parts` shows it."""

    title: str
    choices: list[Choice]
    chain: list[str]
    gates: list[str]
    sockets: dict[str, list[str]]  # event -> the callbacks the harness itself plugs in


def mechanism(slot: str) -> str:
    """The mechanism a slot belongs to: the first one its switch's flag names."""
    from lab.kernel.switches import switch_info

    switch = next(name for name, (s, _good, _bad) in TABLE.items() if s == slot)
    return switch_info(switch)["mechanism"].split("/")[0]


def mechanism_title(code: str, lang: str) -> str:
    en, zh = MECHANISMS[code]
    return f"{code} {zh if lang == 'zh' else en}"


def chosen_by(choice: Choice, lang: str) -> str:
    return f"{choice.switch}={choice.value}"


def part_text(choice: Choice) -> Text:
    name = part_name(choice.part)
    return Text(f"✗ {name}", "bold red") if choice.faulty else Text(f"  {name}")


def footer_lines(assembly: Assembly, lang: str) -> list[tuple[str, str]]:
    """The chain's order, the gates and the sockets, as (label, value)."""
    w = LABELS[lang]
    plugged = [
        f"{event}: {', '.join(hooks)}" if hooks else event
        for event, hooks in assembly.sockets.items()
    ]
    callbacks = sum(len(hooks) for hooks in assembly.sockets.values())
    count = w["count"].format(events=len(assembly.sockets), callbacks=callbacks)
    return [
        (w["chain"], " → ".join(assembly.chain)),
        (w["gates"], " → ".join([*assembly.gates, "default"])),
        (w["sockets"], f"{count}: " + " · ".join(plugged)),
    ]


def lines_grid(lines: list[tuple[str, str, str]]) -> Table:
    """(sign, label, value) rows, the value wrapping under itself."""
    grid = Table.grid(padding=(0, 1))
    grid.add_column(no_wrap=True)
    grid.add_column(style="bold", no_wrap=True)
    grid.add_column(overflow="fold")
    for sign, label, value in lines:
        style = {"−": "red", "+": "green"}.get(sign, "")
        grid.add_row(Text(sign, style), Text(f"{label}:", style), Text(value, style))
    return grid


def parts_view(assembly: Assembly, lang: str = "en") -> RenderableType:
    """Every slot in the order a call meets it, grouped by mechanism."""
    w = LABELS[lang]
    table = Table(box=box.SIMPLE_HEAD, padding=(0, 1), pad_edge=False, collapse_padding=True)
    table.add_column("", style="bold", no_wrap=True, min_width=2)
    table.add_column(w["slot"], style="cyan", no_wrap=True, min_width=14)
    table.add_column(w["part"], no_wrap=True, min_width=21)
    table.add_column(w["by"], overflow="fold")
    current = None
    for choice in sorted(assembly.choices, key=lambda c: mechanism(c.slot)):
        code = mechanism(choice.slot)
        if current is not None and code != current:
            table.add_section()
        table.add_row(
            code if code != current else "",
            choice.slot,
            part_text(choice),
            chosen_by(choice, lang),
        )
        current = code
    disputed = [
        Padding(Text(f"{part_name(c.part)}: {DISPUTED[c.slot].said(lang)}", "dim"), (0, 0, 0, 2))
        for c in assembly.choices
        if c.faulty and c.slot in DISPUTED
    ]
    title = Text(assembly.title, "bold")
    footer = lines_grid([(" ", label, value) for label, value in footer_lines(assembly, lang)])
    legend = " · ".join(mechanism_title(code, lang) for code in MECHANISMS)
    return Group(title, table, *disputed, footer, Text(f"{legend}\n{w['faulty']}", "dim"))


def diff_view(reference: Assembly, other: Assembly, lang: str = "en") -> RenderableType:
    """What `other` swaps against the reference: − the reference part, + the other's part,
    the switch that swapped it and what the new part does; then the chain, gates, sockets."""
    w = LABELS[lang]
    before = {c.slot: c for c in reference.choices}
    swapped = [c for c in other.choices if c.part is not before[c.slot].part]
    if not swapped:
        return Text(w["same"].format(title=other.title))
    head = w["swaps"].format(title=other.title, n=len(swapped), m=len(other.choices))
    rows: list[RenderableType] = [Text(head, "bold")]
    current = None
    for choice in sorted(swapped, key=lambda c: mechanism(c.slot)):
        code = mechanism(choice.slot)
        if code != current:
            rows.append(Text(mechanism_title(code, lang), "bold"))
            current = code
        rows.append(Text(f"  − {part_name(before[choice.slot].part)}", "red"))
        line = Text(f"  + {part_name(choice.part)}", "green")
        line.append(f"   {chosen_by(choice, lang)}", "cyan")
        rows.append(line)
        if lang == "en":  # a part's docstring is the code's own English
            rows.append(Padding(Text(part_doc(choice.part), "dim"), (0, 0, 0, 6)))
        if choice.slot in DISPUTED:  # the chapter reads this part otherwise: say so, once
            rows.append(Padding(Text(DISPUTED[choice.slot].said(lang), "yellow"), (0, 0, 0, 6)))
    lines: list[tuple[str, str, str]] = []
    for (label, mine), (_, theirs) in zip(
        footer_lines(reference, lang), footer_lines(other, lang), strict=True
    ):
        lines += (
            [("−", label, mine), ("+", label, theirs)] if mine != theirs else [(" ", label, mine)]
        )
    return Group(*rows, Text(""), lines_grid(lines))
