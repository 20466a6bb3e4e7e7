"""`lab parts`: assemble a harness from the switchboard's parts and show it, or a preset's swaps."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from lab.kernel.switches import Switches

if TYPE_CHECKING:
    from rich.console import Console

    from lab.harness.course_hooks import Hooks
    from lab.views.parts_view import Assembly

TITLES = {
    "en": {
        "reference": "the reference harness (Switches())",
        "course": "the course preset (Switches.course())",
        "custom": "the harness with {flips}",
    },
    "zh": {
        "reference": "参考 harness（Switches()）",
        "course": "课程预设（Switches.course()）",
        "custom": "改了开关的 harness：{flips}",
    },
}


def assemble(switches: Switches, title: str, hooks: Hooks = ()) -> Assembly:
    """The harness the switches choose, built for real (its chain, gates and sockets are read
    from the assembled layers, not restated)."""
    from lab.harness.hooks import EVENTS
    from lab.harness.layers import Layers
    from lab.harness.switchboard import choices, parts_for
    from lab.harness.tools import ToolRegistry
    from lab.kernel.trace import Trace
    from lab.views.parts_view import Assembly
    from lab.world import World

    world = World.create()
    layers = Layers(ToolRegistry(), Trace(), world, parts_for(switches), hooks=hooks)
    sockets = {
        event: [getattr(hook, "__name__", "hook") for hook in layers.sockets.callbacks[event]]
        for event in EVENTS
        if event in layers.sockets.semantics.events  # the course has four events
    }
    return Assembly(
        title=title,
        choices=choices(switches),
        chain=layers.chain.order,
        gates=list(layers.gates.order.gates),
        sockets=sockets,
    )


def cmd_parts(args: argparse.Namespace, out: Console) -> int:
    from lab.views.parts_view import diff_view, parts_view

    titles = TITLES[args.lang]
    from lab.chapter.compare import PRESETS

    if args.diff:
        reference = assemble(Switches(), titles["reference"])
        make_preset, _rules, preset_hooks = PRESETS[args.diff]
        preset = assemble(make_preset(), titles[args.diff], preset_hooks)
        out.print(diff_view(reference, preset, args.lang))
        return 0
    hooks: Hooks = ()
    if args.preset:
        make_switches, _rules, hooks = PRESETS[args.preset]
        switches, title = make_switches(), titles[args.preset]
    else:
        switches = Switches().flipped(**dict(args.switch))
        flips = ", ".join(f"{k}={v}" for k, v in switches.differences().items())
        title = titles["custom"].format(flips=flips) if flips else titles["reference"]
    out.print(parts_view(assemble(switches, title, hooks), args.lang))
    return 0
