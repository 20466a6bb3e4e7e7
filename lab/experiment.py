"""Experiments: one switch flip, one scenario, named observables and their expected before→after.

Experiments live one per file in `experiments/` (shipped inside the package as
`lab/experiments`); each file defines `EXPERIMENT = Experiment(...)`.
"""

from __future__ import annotations

import importlib.util
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from lab.observables import STANDARD, Observable
from lab.scenario import Run, Scenario, run_scenario
from lab.switches import Switches, switch_names

MECHANISMS = {
    "M1": ("the loop", "传送带"),
    "M2": ("the dispatch table", "转接号码簿"),
    "M3": ("the chain of checks", "扫码口"),
    "M4": ("the permission gates", "门禁"),
    "M5": ("the hook sockets", "插线口"),
}

# The seed's evidence grades: 【一】 the course code at f9e8b28, 【二】 official documentation,
# 【三】 the course author's reading of closed source; "beyond" a source the seed does not cite.
GRADES = ("一", "二", "三", "beyond")
OWN_SOURCE = "this lab's own experiment"


class ExperimentError(Exception):
    """A malformed experiment file or an unknown experiment id: one readable line."""


@dataclass(frozen=True)
class Experiment:
    id: str
    mechanism: str
    title: Mapping[str, str]  # {"en": ..., "zh": ...}
    takeaway: Mapping[str, str]
    flips: Mapping[str, Any]
    scenario: Scenario
    expect: Mapping[str, tuple[Any, Any]]  # observable -> (before, after)
    observables: Mapping[str, Observable] = field(default_factory=dict)
    grade: str = "beyond"  # one of GRADES: where the claim comes from
    source: str = OWN_SOURCE  # one line: the seed's section, the docs page, the bug report

    def observable(self, name: str) -> Observable:
        return self.observables.get(name) or STANDARD[name]

    def problems(self) -> list[str]:
        """What is wrong with this declaration (empty when it is well-formed)."""
        found = []
        if not re.fullmatch(r"D\d+[a-z]?", self.id):
            found.append(f"id {self.id!r} is not like 'D1' or 'D1b'")
        if self.mechanism not in MECHANISMS:
            found.append(f"mechanism {self.mechanism!r} is not one of {', '.join(MECHANISMS)}")
        for name, text in (("title", self.title), ("takeaway", self.takeaway)):
            if not isinstance(text, Mapping) or not {"en", "zh"} <= set(text):
                found.append(f"{name} needs both 'en' and 'zh' texts")
        for name in self.flips:
            if name not in switch_names():
                found.append(f"flips unknown switch {name!r}")
        if not self.flips:
            found.append("flips no switch")
        if self.grade not in GRADES:
            found.append(f"grade {self.grade!r} is not one of {', '.join(GRADES)}")
        if not isinstance(self.source, str) or not self.source.strip() or "\n" in self.source:
            found.append("source must be one non-empty line")
        if not isinstance(self.scenario, Scenario):
            found.append("scenario is not a Scenario")
        if not self.expect:
            found.append("expects nothing")
        for name, pair in self.expect.items():
            if name not in self.observables and name not in STANDARD:
                found.append(f"expects unknown observable {name!r}")
            if not (isinstance(pair, tuple) and len(pair) == 2):
                found.append(f"expect[{name!r}] is not a (before, after) pair")
        return found


@dataclass(frozen=True)
class Row:
    observable: str
    before: Any
    after: Any
    expected_before: Any
    expected_after: Any

    @property
    def ok(self) -> bool:
        return self.before == self.expected_before and self.after == self.expected_after


@dataclass(frozen=True)
class Outcome:
    experiment: Experiment
    base: Switches
    before: Run
    after: Run
    rows: list[Row]

    @property
    def reproduced(self) -> bool:
        return all(row.ok for row in self.rows)


def run_experiment(experiment: Experiment, base: Switches | None = None) -> Outcome:
    """Run the scenario on `base` (default: the reference harness), then with the flips."""
    base = base or Switches()
    before = run_scenario(experiment.scenario, base)
    after = run_scenario(experiment.scenario, base.flipped(**experiment.flips))
    rows = [
        Row(name, experiment.observable(name)(before), experiment.observable(name)(after), *pair)
        for name, pair in experiment.expect.items()
    ]
    return Outcome(experiment, base, before, after, rows)


# -- discovery ---------------------------------------------------------------------------
def experiments_dir() -> Path:
    """Installed: lab/experiments inside the package; from a checkout: ./experiments."""
    package = Path(__file__).resolve().parent
    shipped = package / "experiments"
    return shipped if shipped.is_dir() else package.parent / "experiments"


def load_file(path: Path) -> Experiment:
    name = f"lab_experiment_{path.stem}"
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except SyntaxError as error:
        raise ExperimentError(f"{path}:{error.lineno}: syntax error: {error.msg}") from None
    except Exception as error:
        raise ExperimentError(f"{path}: {type(error).__name__}: {error}") from None
    experiment = getattr(module, "EXPERIMENT", None)
    if not isinstance(experiment, Experiment):
        raise ExperimentError(f"{path}: defines no EXPERIMENT = Experiment(...)")
    if problems := experiment.problems():
        raise ExperimentError(f"{path}: experiment {experiment.id}: {'; '.join(problems)}")
    return experiment


def load_all(directory: Path | None = None) -> list[Experiment]:
    directory = directory or experiments_dir()
    found: dict[str, Experiment] = {}
    for path in sorted(directory.glob("[!_]*.py")):
        experiment = load_file(path)
        if experiment.id in found:
            raise ExperimentError(f"{path}: experiment id {experiment.id} is already defined")
        found[experiment.id] = experiment
    return list(found.values())


def select(experiments: list[Experiment], ids: list[str]) -> list[Experiment]:
    """The experiments named by id (case-insensitive), in the order given; all if none."""
    if not ids:
        return experiments
    by_id = {e.id.lower(): e for e in experiments}
    chosen = []
    for wanted in ids:
        if wanted.lower() not in by_id:
            known = ", ".join(e.id for e in experiments)
            raise ExperimentError(f"unknown experiment id {wanted!r}; known ids: {known}")
        chosen.append(by_id[wanted.lower()])
    return chosen
