"""The switchboard's one reader: each switch chooses its slot's reference part or faulty part.

The only code that reads a `Switches` field. A switch at its reference value (`Switches()`)
chooses the reference part; flipped, the faulty part beside it in the same module.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from lab.harness.batching import OneByOne, ParallelTrays, PerInput, PerTool
from lab.harness.checks import (
    ChecksFirst,
    CompleteInput,
    GatesFirst,
    LastTwoStages,
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
from lab.harness.tools import BareDispatch, ContractChecked, ContractUnchecked, GuardedDispatch
from lab.harness.walls import Sandboxed, Unsandboxed, WallDown, WallUp
from lab.switches import Switches, switch_names

# switch: (slot, reference part, faulty part)
TABLE: dict[str, tuple[str, type, type]] = {
    "trust_stop_reason": ("continue_test", ContentTest, DeclaredStopReason),
    "retry_transient_errors": ("retry", Backoff, NoRetry),
    "unknown_tool_result": ("known_tool", UnknownToolResult, UnknownToolCrash),
    "contract_checked": ("contract", ContractChecked, ContractUnchecked),
    "handler_errors_become_results": ("dispatch", GuardedDispatch, BareDispatch),
    "parallel_batches": ("trays", ParallelTrays, OneByOne),
    "concurrency_from_input": ("concurrency", PerInput, PerTool),
    "execute_truncated_calls": ("complete_input", CompleteInput, RunWhatArrived),
    "validate_before_gate": ("chain_order", ChecksFirst, GatesFirst),
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
# The course preset as a whole swaps one part no single switch does: no check of its own in
# front of the handler (seed §5: the front half of the chain is done by an outside part).
COURSE_ONLY: dict[str, tuple[type, dict[str, tuple[str, ...]]]] = {
    "chain_order": (
        LastTwoStages,
        {
            "en": (
                "input validation (the SDK's job in the course: 被外部件代工)",
                "the tool's own check in front of the handler (course handlers check inside)",
            ),
            "zh": (
                "输入校验（课程里是 SDK 的活：被外部件代工）",
                "处理函数前的工具自校验（课程的处理函数在内部自己查）",
            ),
        },
    ),
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
    course_only: bool = False  # the course preset as a whole chose it, not the switch alone


def choices(switches: Switches, *, course: bool = False) -> list[Choice]:
    """Every slot's part under `switches` (`course`: the course preset, its own part too)."""
    reference = Switches()
    chosen: dict[str, Choice] = {}
    for switch, (slot, good, bad) in TABLE.items():
        value = getattr(switches, switch)
        flipped = value != getattr(reference, switch)
        chosen[slot] = Choice(slot, bad if flipped else good, switch, value, flipped)
    if course:
        for slot, (part, _why) in COURSE_ONLY.items():
            chosen[slot] = replace(chosen[slot], part=part, faulty=True, course_only=True)
    return [chosen[f] for f in Parts.__dataclass_fields__]


def is_course(switches: Switches) -> bool:
    """The course preset, every switch at its course value."""
    return switches == Switches.course()


def parts_for(switches: Switches) -> Parts:
    """The parts the switches choose; the course preset gets its course-only part too."""
    return Parts(**{c.slot: c.part for c in choices(switches, course=is_course(switches))})
