"""M3 扫码口 (chain of checks): every call passes an ordered list of stages before it runs.

Invariant: cheap, non-negotiable checks come first and the human's time comes last; the
first stage that fails stops the call, and the later stages never see it. Each stage
*returns* what it decided; a later stage reads what the earlier ones said, never the call.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from lab.harness.tools import Tool
from lab.kernel.schema import jsonschema
from lab.kernel.trace import CheckFailed, CheckPassed, Trace

# The order of the chain, in one place: shape, then meaning, then hooks, then the human.
ORDER = ["known_tool", "complete_input", "validation", "tool_check", "hooks", "permission"]
# D9 (the course has only the last two stages): the gates before the cheap checks.
GATE_FIRST = ["known_tool", "complete_input", "hooks", "permission", "validation", "tool_check"]
CUT_OFF = (
    "the input was cut off by max_tokens before it was complete, so this call was not run; "
    "send it again in full (smaller, if it was long)"
)


@dataclass
class Call:
    """One tool call moving down the chain."""

    id: str
    name: str
    input: dict[str, Any]
    tool: Tool | None
    turn: int
    cut_off: bool = False  # max_tokens cut its input JSON: only the complete fields arrived


@dataclass(frozen=True)
class Said:
    """What one stage decided: `stop` is a reason to stop the call (None: it passes), `word`
    what it tells the later stages (a hook's "allow", "ask" or "silent"; the rules' "allow")."""

    stop: str | None = None
    word: str | None = None


PASS = Said()
Earlier = Mapping[str, Said]  # what the stages before said, by stage name
Stage = Callable[[Call, Earlier], Said]
Check = Callable[[Call], str | None]  # a plain check: a reason to stop the call, or None


@dataclass(frozen=True)
class Stopped:
    stage: str
    reason: str


def plain(check: Check) -> Stage:
    """A check that listens to no earlier stage, as a stage of the chain."""
    return lambda call, _earlier: Said(check(call))


# -- known_tool: M2's unknown-name fallback ---------------------------------------------------
class UnknownToolResult:
    """The reference (s02's "Unknown: <name>"): an unknown name is a result, never a crash."""

    def __call__(self, call: Call) -> str | None:
        return None if call.tool else f"Unknown tool: {call.name}"


class UnknownToolCrash(UnknownToolResult):
    """D7: an unknown name crashes the dispatch, like `TOOL_HANDLERS[name]` would."""

    def __call__(self, call: Call) -> str | None:
        if call.tool is None:
            raise KeyError(f"no handler for tool {call.name!r}")
        return None


# -- complete_input: a call max_tokens cut off ------------------------------------------------
class CompleteInput:
    """The reference: a call whose JSON max_tokens cut off is not the call the model meant
    (a cut keep-list is a shorter list, a cut flag is no flag at all): it does not run."""

    def __call__(self, call: Call) -> str | None:
        return CUT_OFF if call.cut_off else None


class RunWhatArrived(CompleteInput):
    """D21: whatever the SDK made of a cut input is taken for the model's call."""

    def __call__(self, call: Call) -> str | None:
        return None


# -- validation and the tool's own check -----------------------------------------------------
@functools.cache
def validator(schema_json: str) -> Any:
    """Built once per distinct schema; unknown fields are refused unless the schema says so."""
    return jsonschema().Draft202012Validator(
        {"additionalProperties": False, **json.loads(schema_json)}
    )


def valid_input(call: Call) -> str | None:
    """The input against the tool's JSON schema: required fields, types, no unknown fields."""
    assert call.tool is not None
    check = validator(json.dumps(call.tool.input_schema, sort_keys=True))
    error = jsonschema().exceptions.best_match(check.iter_errors(call.input))
    if error is None:
        return None
    where = "/".join(str(p) for p in error.absolute_path) or "input"
    return f"invalid input for {call.name} at {where}: {error.message}"


def tool_check(call: Call) -> str | None:
    """The tool's own semantic check (the file must exist, old_text must occur, ...)."""
    assert call.tool is not None
    return call.tool.check(**call.input) if call.tool.check else None


# -- the chain's order: a part ---------------------------------------------------------------
class ChainOrder:
    """A chain order: the stage names, first to last."""

    stages: tuple[str, ...] = tuple(ORDER)


class ChecksFirst(ChainOrder):
    """The reference: shape → the tool's check → hooks → permission (seed §5)."""

    stages = tuple(ORDER)


class GatesFirst(ChainOrder):
    """D9: the gates (hooks, permission) before validation and the tool's own check, so the
    human is asked about calls that were malformed anyway."""

    stages = tuple(GATE_FIRST)


# -- the front half of the chain: the harness's own, or nobody's ----------------------------
FRONT_HALF = ("validation", "tool_check")


class OwnFrontHalf:
    """The reference: the harness checks the input's shape and the tool's own conditions
    itself, in front of the gates and the handler."""

    def keep(self, stages: tuple[str, ...]) -> tuple[str, ...]:
        return stages


class NoFrontHalf(OwnFrontHalf):
    """The course (s03/s04): of its own only the last two stages, the gates then
    handler(**block.input); no validation and no tool's check stand in front (the chapter says
    an outside part does them, 被外部件代工; the lab finds none: disputed,
    lab/chapter/disputes.py)."""

    def keep(self, stages: tuple[str, ...]) -> tuple[str, ...]:
        return tuple(name for name in stages if name not in FRONT_HALF)


def order_part(name: str, stages: list[str]) -> type[ChainOrder]:
    """A chain order of one's own as a part (the M3 exercise passes the student's ORDER)."""
    return type(name, (ChainOrder,), {"stages": tuple(stages), "__doc__": "An order of one's own."})


class CheckChain:
    """The stages in order; `judge` runs them until one stops the call."""

    def __init__(self, stages: list[tuple[str, Stage]], trace: Trace) -> None:
        self.stages = stages
        self.trace = trace

    @property
    def order(self) -> list[str]:
        return [name for name, _ in self.stages]

    def judge(self, call: Call) -> Stopped | None:
        said: dict[str, Said] = {}  # what each stage decided, handed to the later ones
        for name, stage in self.stages:
            said[name] = stage(call, said)
            if (reason := said[name].stop) is not None:
                self.trace.emit(CheckFailed(call.turn, call.id, name, reason))
                return Stopped(name, reason)
            self.trace.emit(CheckPassed(call.turn, call.id, name))
        return None


def build_chain(
    order: tuple[str, ...], stages: dict[str, Stage | None], trace: Trace
) -> CheckChain:
    """The chain in `order`; a stage that is None is not in it (the course's permission,
    which the hooks own)."""
    return CheckChain([(name, stage) for name in order if (stage := stages.get(name))], trace)
