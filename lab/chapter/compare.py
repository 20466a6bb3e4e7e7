"""`lab compare`: the reference harness beside a preset, experiment by experiment.

A preset is switches and rules: `course` is `Switches.course()` with the course's own s03 rule
set (lab/chapter/course_rules.py). Each experiment whose switches the preset flips runs three times:
the reference harness with the experiment's rules, the preset with the preset's rules (the
course as it is), and the preset with the experiment's own rules (as `lab run` flips it). A
row that degrades only with the experiment's own rules says so: the course alone would not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from lab.chapter.course_rules import revision_dependent
from lab.chapter.experiment import Experiment
from lab.harness.course_hooks import COURSE_CALLBACKS, Hooks
from lab.harness.permissions import Permissions, course_permissions
from lab.kernel.scenario import Run, Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import ResultAppended, RunEnded, ToolCallSeen

# Each preset: its switches, its rule set and the callbacks it plugs in.
PRESETS: dict[str, tuple[Callable[[], Switches], Callable[[], Permissions], Hooks]] = {
    "course": (Switches.course, course_permissions, COURSE_CALLBACKS),
}


@dataclass(frozen=True)
class Row:
    """One observable of one experiment, read three ways."""

    id: str
    observable: str
    reference: Any  # the reference harness, the experiment's own rules
    preset: Any  # the preset's switches and the preset's rules
    own_rules: Any  # the preset's switches, the experiment's own rules
    degraded: Any  # what the experiment expects after its flip
    revision_dependent: bool  # a flipped switch's course value holds at the pinned commit only
    preset_ended: str = "done"  # how the preset's run ended: "crash" is no value to compare
    preset_detail: str = ""  # what ended it (a crash's exception)

    @property
    def crashed(self) -> bool:
        return self.preset_ended == "crash"

    @property
    def as_degraded(self) -> bool:
        return self.preset == self.degraded

    @property
    def as_degraded_own_rules(self) -> bool:
        return self.own_rules == self.degraded


def in_preset(experiment: Experiment, flipped: dict[str, Any]) -> bool:
    """The preset flips every switch the experiment flips, the same way."""
    return all(
        name in flipped and flipped[name] == value for name, value in experiment.flips.items()
    )


def end_detail(run: Run) -> str:
    """What ended a run, as its RunEnded event says (a crash's exception), and the calls it
    left unanswered."""
    ended = run.trace.of(RunEnded)
    detail = ended[-1].detail if ended else ""
    answered = {e.call_id for e in run.trace.of(ResultAppended)}
    owed = [e.call_id for e in run.trace.of(ToolCallSeen) if e.call_id not in answered]
    return f"{detail} ({len(owed)} calls unanswered)" if owed else detail


def as_preset(scenario: Scenario, preset_name: str) -> Scenario:
    """The scenario set up as the preset is: its rules (not the scenario's), its callbacks
    plugged in before the scenario's own."""
    _, make_rules, hooks = PRESETS[preset_name]
    return replace(scenario, permissions=make_rules(), hooks=[*hooks, *scenario.hooks])


def as_the_course(scenario: Scenario) -> Run:
    """A scenario run by the course as it is: its switches, its rules, its callbacks; the run
    every "course" column of the class shows."""
    return run_scenario(as_preset(scenario, "course"), Switches.course())


def compare(preset_name: str, experiments: Sequence[Experiment]) -> list[Row]:
    """The rows of `lab compare PRESET`, in the experiments' order."""
    preset = PRESETS[preset_name][0]()
    flipped = preset.differences()
    pinned_only = revision_dependent()
    rows = []
    for experiment in experiments:
        if not in_preset(experiment, flipped):
            continue
        reference = run_scenario(experiment.scenario, Switches())
        as_is = run_scenario(as_preset(experiment.scenario, preset_name), preset)
        own = run_scenario(experiment.scenario, preset)
        marked = any(name in pinned_only for name in experiment.flips)
        for name, (_, degraded) in experiment.expect.items():
            observe = experiment.observable(name)
            values = (observe(reference), observe(as_is), observe(own))
            ending = (as_is.ended, end_detail(as_is))
            rows.append(Row(experiment.id, name, *values, degraded, marked, *ending))
    return rows


def compare_json(preset_name: str, rows: list[Row]) -> dict[str, Any]:
    """`lab compare PRESET --json` (schema in the README)."""
    return {
        "preset": preset_name,
        "flips": PRESETS[preset_name][0]().differences(),
        "rules": "the course's s03 rules (lab/chapter/course_rules.py)",
        "revision_dependent": revision_dependent(),
        "rows": [
            {
                "id": row.id,
                "observable": row.observable,
                "reference": row.reference,
                preset_name: row.preset,
                "own_rules": row.own_rules,
                "as_degraded": row.as_degraded,
                "as_degraded_own_rules": row.as_degraded_own_rules,
                f"{preset_name}_ended": {"reason": row.preset_ended, "detail": row.preset_detail},
                "revision_dependent": row.revision_dependent,
            }
            for row in rows
        ],
    }
