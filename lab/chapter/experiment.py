"""Experiments: one switch flip, one scenario, named observables and their expected before→after.

Experiments live one per file in `experiments/` (shipped inside the package as
`lab/experiments`); each file defines `EXPERIMENT = Experiment(...)`. Loading checks every
field (`lab.chapter.file_checks`) and reports each problem as one `FILE:LINE: what is wrong` line.
"""

from __future__ import annotations

__all__ = [
    "GRADES",
    "MECHANISMS",
    "Experiment",
    "Outcome",
    "load_all",
    "load_file",
    "run_experiment",
]

import re
import traceback
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from lab.chapter.file_checks import Problem, flips_problems, scenario_problems
from lab.chapter.source_lines import SourceLines
from lab.kernel.errors import InputError
from lab.kernel.observables import STANDARD, Observable
from lab.kernel.scenario import Run, Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.user_code import run_file

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


class ExperimentError(InputError):
    """An unknown experiment id, or a folder with no experiment in it."""


class ExperimentFileError(ExperimentError):
    """Malformed experiment files: each line is `FILE:LINE: what is wrong`."""

    prefix = ""  # the line starts with the file, as a compiler's would


ID = re.compile(r"D\d+[a-z]?\d*")  # D1, D1b, and hunted ones: D4h, D4h2


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
    path: Path | None = field(default=None, compare=False, repr=False)  # the file, once loaded

    def observable(self, name: str) -> Observable:
        return self.observables.get(name) or STANDARD[name]

    def problems(self) -> list[Problem]:
        """What is wrong with this declaration, field by field (empty when well-formed)."""
        found: list[Problem] = []
        if not (isinstance(self.id, str) and ID.fullmatch(self.id)):
            found.append((("id",), f"id {self.id!r} is not like 'D1', 'D1b' or 'D4h2'"))
        if not (isinstance(self.mechanism, str) and self.mechanism in MECHANISMS):
            found.append(
                (
                    ("mechanism",),
                    f"mechanism {self.mechanism!r} is not one of {', '.join(MECHANISMS)}",
                )
            )
        for name in ("title", "takeaway"):
            text = getattr(self, name)
            if not (
                isinstance(text, Mapping)
                and all(isinstance(text.get(lang), str) and text[lang] for lang in ("en", "zh"))
            ):
                found.append(((name,), f"{name} needs both 'en' and 'zh' texts"))
        found += [(("flips", *where), why) for where, why in flips_problems(self.flips)]
        if self.grade not in GRADES:
            found.append((("grade",), f"grade {self.grade!r} is not one of {', '.join(GRADES)}"))
        if not isinstance(self.source, str) or not self.source.strip() or "\n" in self.source:
            found.append((("source",), "source must be one non-empty line"))
        if isinstance(self.scenario, Scenario):
            found += [
                (("scenario", *where), why) for where, why in scenario_problems(self.scenario)
            ]
        else:
            found.append(
                (("scenario",), f"scenario is a {type(self.scenario).__name__}, not a Scenario")
            )
        if not isinstance(self.observables, Mapping) or not all(
            isinstance(k, str) and callable(v) for k, v in self.observables.items()
        ):
            found.append((("observables",), "observables must map names to functions of a Run"))
            return found
        found += [(("expect", *where), why) for where, why in self.expect_problems()]
        return found

    def expect_problems(self) -> list[Problem]:
        if not isinstance(self.expect, Mapping):
            return [((), f"expect is {self.expect!r:.40}; write {{observable: (before, after)}}")]
        if not self.expect:
            return [((), "expects nothing")]
        found: list[Problem] = []
        for name, pair in self.expect.items():
            if name not in self.observables and name not in STANDARD:
                found.append(((name,), f"expects unknown observable {name!r}"))
            if not (isinstance(pair, tuple) and len(pair) == 2):
                found.append(((name,), f"expect[{name!r}] is {pair!r}, not a (before, after) pair"))
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
    before: Run | None  # None when the experiment's own code raised (see `error`)
    after: Run | None
    rows: list[Row]
    error: str | None = None  # one line, FILE:LINE: what raised

    @property
    def reproduced(self) -> bool:
        return self.error is None and all(row.ok for row in self.rows)


def run_experiment(experiment: Experiment, base: Switches | None = None) -> Outcome:
    """Run the scenario on `base` (default: the reference harness), then with the flips.

    When the experiment's own code raises (a tools factory, an observable) the outcome
    carries that error as one line instead; an error in the lab's code propagates."""
    base = base or Switches()
    doing = "running the scenario"
    try:
        before = run_scenario(experiment.scenario, base)
        after = run_scenario(experiment.scenario, base.flipped(**experiment.flips))
        rows = []
        for name, pair in experiment.expect.items():
            doing = f"measuring {name}"
            observe = experiment.observable(name)
            rows.append(Row(name, observe(before), observe(after), *pair))
    except Exception as error:
        where = raised_in(error, experiment.path)
        if where is None:
            raise  # not the experiment's code: a bug of the lab
        line = f"{where}: {experiment.id}: {type(error).__name__} while {doing}: {error}"
        return Outcome(experiment, base, None, None, [], error=" ".join(line.split()))
    return Outcome(experiment, base, before, after, rows)


def raised_in(error: BaseException, source: Path | None) -> str | None:
    """FILE:LINE of the innermost frame of `error` in the experiment's folder (its file or a
    helper beside it), or None when the error did not pass through there."""
    if source is None:
        return None
    folder = source.resolve().parent
    frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename]
    mine = [f for f in frames if Path(f.filename).resolve().parent == folder]
    if not mine:
        return None
    file = Path(mine[-1].filename)
    return f"{source if file.resolve() == source.resolve() else file}:{mine[-1].lineno}"


# -- discovery ---------------------------------------------------------------------------
def experiments_dir() -> Path:
    """Installed: lab/experiments inside the package; from a checkout: ./experiments."""
    package = Path(__file__).resolve().parent.parent
    shipped = package / "experiments"
    return shipped if shipped.is_dir() else package.parent / "experiments"


def import_experiment(path: Path) -> Any:
    """Run the file and return its EXPERIMENT; an error while it runs is one FILE:LINE line."""
    try:
        module = run_file(path, f"lab_experiment_{path.stem}")
    except SyntaxError as error:
        raise ExperimentFileError(
            f"{path}:{error.lineno or 1}: syntax error: {error.msg}"
        ) from None
    except Exception as error:
        frames = [f for f in traceback.extract_tb(error.__traceback__) if f.filename == str(path)]
        line = frames[-1].lineno if frames else 1
        what = " ".join(f"{type(error).__name__}: {error}".split())
        raise ExperimentFileError(f"{path}:{line}: {what}") from None
    if not hasattr(module, "EXPERIMENT"):
        raise ExperimentFileError(f"{path}:1: defines no EXPERIMENT = Experiment(...)")
    return module.EXPERIMENT


def load_file(path: Path) -> Experiment:
    """Import one experiment file and check every field; each problem is one FILE:LINE line."""
    experiment = import_experiment(path)
    if not isinstance(experiment, Experiment):
        where = SourceLines(path).line(("EXPERIMENT",))
        kind = type(experiment).__name__
        raise ExperimentFileError(f"{path}:{where}: EXPERIMENT is a {kind}, not an Experiment(...)")
    if problems := experiment.problems():
        lines = SourceLines(path)  # parsed only now: a well-formed file is not read twice
        located = sorted((lines.line(where), i, why) for i, (where, why) in enumerate(problems))
        raise ExperimentFileError(*(f"{path}:{line}: {why}" for line, _, why in located))
    return replace(experiment, path=path)


def load_all(directory: Path | None = None) -> list[Experiment]:
    """Every experiment of a folder; the problems of all its files are reported together."""
    directory = directory or experiments_dir()
    if not directory.exists():
        raise ExperimentError(f"experiment folder {directory} does not exist")
    if not directory.is_dir():
        raise ExperimentError(f"{directory} is a file, not a folder of experiment files")
    paths = sorted(directory.glob("[!_]*.py"))
    if not paths:
        raise ExperimentError(f"experiment folder {directory} holds no experiment file (*.py)")
    found: dict[str, Experiment] = {}
    problems: list[str] = []
    for path in paths:
        try:
            experiment = load_file(path)
        except ExperimentFileError as error:
            problems += error.lines
            continue
        if experiment.id in found:
            first = found[experiment.id].path
            line = SourceLines(path).line(("id",))
            problems.append(f"{path}:{line}: id {experiment.id} is already used by {first}")
            continue
        found[experiment.id] = experiment
    if problems:
        raise ExperimentFileError(*problems)
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
