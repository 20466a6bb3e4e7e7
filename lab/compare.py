"""`lab compare`: the reference harness beside a preset, experiment by experiment.

A preset is switches and rules: `course` is `Switches.course()` with the course's own s03 rule
set (lab/course_rules.py). Each experiment whose switches the preset flips runs three times:
the reference harness with the experiment's rules, the preset with the preset's rules (the
course as it is), and the preset with the experiment's own rules (as `lab run` flips it). A
row that degrades only with the experiment's own rules says so: the course alone would not.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from lab.course_rules import revision_dependent
from lab.experiment import Experiment
from lab.harness.permissions import Permissions, course_permissions
from lab.scenario import run_scenario
from lab.switches import Switches

# Each preset: its switches and its rule set.
PRESETS: dict[str, tuple[Callable[[], Switches], Callable[[], Permissions]]] = {
    "course": (Switches.course, course_permissions),
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


def compare(preset_name: str, experiments: Sequence[Experiment]) -> list[Row]:
    """The rows of `lab compare PRESET`, in the experiments' order."""
    make_switches, make_rules = PRESETS[preset_name]
    preset = make_switches()
    flipped = preset.differences()
    pinned_only = revision_dependent()
    rows = []
    for experiment in experiments:
        if not in_preset(experiment, flipped):
            continue
        reference = run_scenario(experiment.scenario, Switches())
        as_is = run_scenario(replace(experiment.scenario, permissions=make_rules()), preset)
        own = run_scenario(experiment.scenario, preset)
        marked = any(name in pinned_only for name in experiment.flips)
        for name, (_, degraded) in experiment.expect.items():
            observe = experiment.observable(name)
            values = (observe(reference), observe(as_is), observe(own))
            rows.append(Row(experiment.id, name, *values, degraded, marked))
    return rows


def compare_json(preset_name: str, rows: list[Row]) -> dict[str, Any]:
    """`lab compare PRESET --json` (schema in the README)."""
    return {
        "preset": preset_name,
        "flips": PRESETS[preset_name][0]().differences(),
        "rules": "the course's s03 rules (lab/course_rules.py)",
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
                "revision_dependent": row.revision_dependent,
            }
            for row in rows
        ],
    }
