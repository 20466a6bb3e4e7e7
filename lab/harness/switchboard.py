"""The switchboard's one reader: each switch chooses its slot's reference part or faulty part.

The only code that reads a `Switches` field. A switch at its reference value (`Switches()`)
chooses the reference part; flipped, the faulty part beside it in the same module.
"""

from __future__ import annotations

from dataclasses import dataclass

from lab.harness.batching import OneByOne, ParallelTrays, PerInput, PerTool
from lab.harness.checks import (
    ChecksFirst,
    CompleteInput,
    GatesFirst,
    NoFrontHalf,
    OwnFrontHalf,
    RunWhatArrived,
    UnknownToolCrash,
    UnknownToolResult,
)
from lab.harness.hooks import (
    CourseSemantics,
    HookAllowSkipsRules,
    HooksAsFallback,
    HooksFirst,
    HooksOnlyTighten,
    NoStopGuard,
    ProductionSemantics,
    SilenceIsApproval,
    SilenceIsNothing,
    StopGuard,
)
from lab.harness.loop import ContentTest, DeclaredStopReason
from lab.harness.pairing import PairsBroken, PairsKept
from lab.harness.partial import DropPartial, KeepPartial
from lab.harness.parts import Parts
from lab.harness.permissions import AllTools, AskFirst, BashOnly, DenyFirst, PartByPart, WholeLine
from lab.harness.results import ReadPages, ReadSpills
from lab.harness.retry import Backoff, NoRetry
from lab.harness.thinking import ThinkingDropped, ThinkingKept
from lab.harness.tools import BareDispatch, ContractChecked, ContractUnchecked, GuardedDispatch
from lab.harness.walls import Sandboxed, Unsandboxed, WallDown, WallUp
from lab.kernel.switches import Switches, switch_names

# switch: (slot, reference part, faulty part)
TABLE: dict[str, tuple[str, type, type]] = {
    "trust_stop_reason": ("continue_test", ContentTest, DeclaredStopReason),
    "retry_transient_errors": ("retry", Backoff, NoRetry),
    "keep_thinking_blocks": ("thinking", ThinkingKept, ThinkingDropped),
    "unknown_tool_result": ("known_tool", UnknownToolResult, UnknownToolCrash),
    "contract_checked": ("contract", ContractChecked, ContractUnchecked),
    "handler_errors_become_results": ("dispatch", GuardedDispatch, BareDispatch),
    "parallel_batches": ("trays", ParallelTrays, OneByOne),
    "concurrency_from_input": ("concurrency", PerInput, PerTool),
    "execute_truncated_calls": ("complete_input", CompleteInput, RunWhatArrived),
    "validate_before_gate": ("chain_order", ChecksFirst, GatesFirst),
    "own_front_checks": ("front_half", OwnFrontHalf, NoFrontHalf),
    "read_exempt_from_cap": ("read_cap", ReadPages, ReadSpills),
    "pair_protection": ("pairing", PairsKept, PairsBroken),
    "keep_partial_answers": ("partial", DropPartial, KeepPartial),
    "gate_order_correct": ("gate_order", DenyFirst, AskFirst),
    "deny_rules_cover_every_tool": ("deny_scope", AllTools, BashOnly),
    "workspace_wall": ("wall", WallUp, WallDown),
    "split_compound_commands": ("compound", PartByPart, WholeLine),
    "shell_sandbox": ("shell", Sandboxed, Unsandboxed),
    "hooks_before_rules": ("hooks_place", HooksFirst, HooksAsFallback),
    "hooks_may_loosen": ("hook_allow", HooksOnlyTighten, HookAllowSkipsRules),
    "silence_is_approval": ("hook_silence", SilenceIsNothing, SilenceIsApproval),
    "course_hook_semantics": ("hook_semantics", ProductionSemantics, CourseSemantics),
    "stop_hook_guard": ("stop_guard", StopGuard, NoStopGuard),
}
assert sorted(TABLE) == sorted(switch_names()), "every switch has a row"


@dataclass(frozen=True)
class Choice:
    """One slot of an assembled harness: the part in it and what chose it."""

    slot: str
    part: type
    switch: str  # the slot's switch
    value: object  # the switch's value
    faulty: bool  # not the reference part


def choices(switches: Switches) -> list[Choice]:
    """Every slot's part under `switches`."""
    reference = Switches()
    chosen: dict[str, Choice] = {}
    for switch, (slot, good, bad) in TABLE.items():
        value = getattr(switches, switch)
        flipped = value != getattr(reference, switch)
        chosen[slot] = Choice(slot, bad if flipped else good, switch, value, flipped)
    return [chosen[f] for f in Parts.__dataclass_fields__]


def parts_for(switches: Switches) -> Parts:
    """The parts the switches choose: the switches and nothing else (the course preset too)."""
    return Parts(**{c.slot: c.part for c in choices(switches)})
