"""The parts a harness is built from: one slot per guarantee, the reference part in each.

`Parts()` is the reference harness. Each faulty part sits beside its reference part in the
mechanism's own module; lab/harness/switchboard.py says which switch chooses which.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

from lab.harness.batching import ParallelTrays, PerInput
from lab.harness.checks import (
    ChainOrder,
    ChecksFirst,
    CompleteInput,
    OwnFrontHalf,
    UnknownToolResult,
)
from lab.harness.hooks import (
    HooksFirst,
    HooksOnlyTighten,
    ProductionSemantics,
    SilenceIsNothing,
    StopGuard,
)
from lab.harness.loop import ContentTest, LoopParts
from lab.harness.pairing import PairsKept
from lab.harness.partial import DropPartial
from lab.harness.permissions import AllTools, DenyFirst, PartByPart, WholeLine
from lab.harness.results import ReadPages
from lab.harness.retry import Backoff
from lab.harness.thinking import ThinkingKept
from lab.harness.tools import ContractChecked, GuardedDispatch
from lab.harness.walls import Sandboxed, WallUp


@dataclass(frozen=True)
class Parts:
    """The slots in the order a call meets them; each holds a part (a class)."""

    continue_test: type[ContentTest] = ContentTest  # M1 loop.py
    retry: type[Backoff] = Backoff  # M1 retry.py
    thinking: type[ThinkingKept] = ThinkingKept  # M1 thinking.py
    contract: type[ContractChecked] = ContractChecked  # M2 tools.py
    dispatch: type[GuardedDispatch] = GuardedDispatch  # M2 tools.py
    trays: type[ParallelTrays] = ParallelTrays  # M2 batching.py
    concurrency: type[PerInput] = PerInput  # M2 batching.py
    chain_order: type[ChainOrder] = ChecksFirst  # M3 checks.py
    front_half: type[OwnFrontHalf] = OwnFrontHalf  # M3 checks.py
    known_tool: type[UnknownToolResult] = UnknownToolResult  # M3 checks.py
    complete_input: type[CompleteInput] = CompleteInput  # M3 checks.py
    read_cap: type[ReadPages] = ReadPages  # M3 results.py
    pairing: type[PairsKept] = PairsKept  # M3 pairing.py
    partial: type[DropPartial] = DropPartial  # M3 partial.py
    gate_order: type[DenyFirst] = DenyFirst  # M4 permissions.py
    deny_scope: type[AllTools] = AllTools  # M4 permissions.py
    compound: type[WholeLine] = PartByPart  # M4 permissions.py
    wall: type[WallUp] = WallUp  # M4 walls.py
    shell: type[Sandboxed] = Sandboxed  # M4 walls.py
    hooks_place: type[HooksFirst] = HooksFirst  # M5 hooks.py
    hook_allow: type[HooksOnlyTighten] = HooksOnlyTighten  # M5 hooks.py
    hook_silence: type[SilenceIsNothing] = SilenceIsNothing  # M5 hooks.py
    hook_semantics: type[ProductionSemantics] = ProductionSemantics  # M5 hooks.py
    stop_guard: type[StopGuard] = StopGuard  # M1/M5 hooks.py

    def loop(self) -> LoopParts:
        """The loop's own parts (M1), which the builder hands to the loop."""
        return LoopParts(self.continue_test, self.retry, self.partial, self.thinking)


def slots() -> list[str]:
    return [f.name for f in fields(Parts)]


def part_name(part: type) -> str:
    return part.__name__


def part_doc(part: type) -> str:
    """The first line of a part's docstring: what it does."""
    return " ".join((part.__doc__ or "").split("\n\n")[0].split())
