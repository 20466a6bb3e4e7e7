"""M2 托盘 (trays): the calls of one answer, cut into consecutive batches in the model's order.

Invariant: concurrency-safe calls share a tray and run in parallel (at most 10), an unsafe
call is a tray of its own, trays run strictly in order; safety is decided per call *input*.
Parallel calls start at the same virtual instant and see the same world; their changes are
merged in call order, so results and makespans are exact and repeatable.
"""

from __future__ import annotations

from collections.abc import Callable

from lab.harness.checks import Call
from lab.kernel.trace import BatchRan, Trace
from lab.world import World

MAX_PARALLEL = 10  # production's CLAUDE_CODE_MAX_TOOL_USE_CONCURRENCY default
# What a per-tool table would say (D18's fault): bash counts as safe because `ls` and `cat` are.
TOOL_LEVEL_SAFE = {"bash", "read_file", "glob"}

Execute = Callable[[Call], tuple[str, bool]]


# -- may a call share a tray? -----------------------------------------------------------------
class PerInput:
    """The reference: decided by the call's input (`ls` may share a tray, `rm x` may not)."""

    def safe(self, call: Call) -> bool:
        if call.tool is None:
            return False
        try:
            return bool(call.tool.concurrency_safe(**call.input))
        except Exception:  # malformed input: it will fail validation, in a tray of its own
            return False


class PerTool(PerInput):
    """D18, D27: decided by a per-tool table, so `rm` shares a parallel tray with a `cat` of
    the same file, and writes to different files never share one."""

    def safe(self, call: Call) -> bool:
        return call.tool is not None and call.name in TOOL_LEVEL_SAFE


class ParallelTrays:
    """The reference: concurrency-safe neighbours share a tray and run in parallel."""

    def safe(self, call: Call, concurrency: PerInput) -> bool:
        return concurrency.safe(call)


class OneByOne(ParallelTrays):
    """D19, the course: every call is a tray of its own and runs serially."""

    def safe(self, call: Call, concurrency: PerInput) -> bool:
        return False


class Trays:
    def __init__(
        self,
        world: World,
        trace: Trace,
        *,
        trays: type[ParallelTrays] = ParallelTrays,
        concurrency: type[PerInput] = PerInput,
    ) -> None:
        self.trays, self.concurrency = trays(), concurrency()
        self.world, self.trace = world, trace

    def is_safe(self, call: Call) -> bool:
        return self.trays.safe(call, self.concurrency)

    def cut(self, calls: list[Call]) -> list[list[Call]]:
        """Consecutive trays: safe calls gather (up to the cap), an unsafe call stands alone."""
        trays: list[list[Call]] = []
        for call in calls:
            safe = self.is_safe(call)
            last = trays[-1] if trays else None
            if safe and last and self.is_safe(last[0]) and len(last) < MAX_PARALLEL:
                last.append(call)
            else:
                trays.append([call])
        return trays

    def run(self, turn: int, tray: list[Call], execute: Execute) -> list[tuple[str, bool]]:
        """Execute the tray's runnable calls; in parallel when there are several."""
        started = self.world.clock.now
        parallel = len(tray) > 1
        outcomes = self.run_parallel(tray, execute) if parallel else [execute(c) for c in tray]
        if tray:
            ids = tuple(c.id for c in tray)
            self.trace.emit(BatchRan(turn, ids, parallel, started, self.world.clock.now))
        return outcomes

    def run_parallel(self, tray: list[Call], execute: Execute) -> list[tuple[str, bool]]:
        base, started = self.world.fs, self.world.clock.now
        outcomes, changes, finished = [], [], []
        try:
            for call in tray:  # every call starts at the same instant on its own copy of the disk
                self.world.fs, self.world.clock.now = base.copy(), started
                try:
                    outcomes.append(execute(call))
                finally:  # a call that crashes the run (D8's course dispatch) still left marks
                    changes.append(self.world.fs.diff(base))
                    finished.append(self.world.clock.now)
        finally:
            self.world.fs = base
            for change in changes:  # merged in call order: a later call wins on a shared path
                base.apply(change)
            self.world.clock.now = max(finished, default=started)
        return outcomes
