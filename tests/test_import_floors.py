"""The packages stand on floors: a module imports only from its own floor's allowed neighbours or
from floors below, so no circle runs between packages.

    0 leaves    lab.errors, lab.lazy, lab.switches, lab.trace, lab.tool,
                lab.source_lines, lab.user_code, lab.schema, lab.disputes (the chapter's claims
                the lab reads otherwise, as data); lab.bilingual, lab.reading (text in two
                languages; a student's answer read and compared)
    1 pieces    lab.world, lab.model,             (the simulated world; the scripted model;
                lab.course_rules                   the course's own rule set, as data)
      record    lab.record, lab.promises          (the one record of a run, and the judges over
                                                   it: below the harness they judge, so an
                                                   oracle cannot borrow the harness's code)
    2 harness   lab.harness                       (the loop and its layers over those pieces)
    3 scenario  lab.scenario, lab.runner, lab.observables, lab.experiment, lab.file_checks,
                lab.live, lab.exercise_checks,    (a harness set up and run, and what it measures;
                lab.exercise_table, lab.exercises, the exercises; the reference beside a preset)
                lab.compare
    4 benches   lab.probe, then lab.testing       (foreign harnesses on the wire; the lab's own,
                                                   searched; testing uses probe, never the reverse)
    5 views     lab.views                         (what a run, a matrix or a probe looks like:
                                                   tables, transcripts, pictures, HTML pages)
    6 class     lab.notebook, lab.predict, lab.questions, lab.answers, lab.answer_key,
                lab.teacher                       (the notebooks' glue, predict-then-run, the
                                                   questions, their hidden answers, the key,
                                                   the worksheet and the students' edition)
    7 commands  lab.cli, lab.start, lab.__main__, (the `lab` command, its first step,
                lab                                `python -m lab`, and the package's face: the
                                                   names it exports come from every floor; the
                                                   command reads only its version)

Every import counts, lazy ones inside functions too: a lazy import still makes a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import lab

ROOT = Path(lab.__file__).parent
FLOORS = [
    {
        "lab.errors",
        "lab.lazy",
        "lab.switches",
        "lab.trace",
        "lab.tool",
        "lab.source_lines",
        "lab.user_code",
        "lab.disputes",
        "lab.schema",
    },
    {"lab.bilingual", "lab.reading", "lab.language"},
    {"lab.world", "lab.model", "lab.course_rules"},
    {"lab.record", "lab.promises"},
    {"lab.harness"},
    {
        "lab.scenario",
        "lab.runner",
        "lab.observables",
        "lab.experiment",
        "lab.file_checks",
        "lab.live",
    },
    {"lab.exercise_checks", "lab.exercise_table"},
    {"lab.exercises", "lab.compare"},
    {"lab.probe"},
    {"lab.testing"},
    {"lab.views"},
    {
        "lab.notebook",
        "lab.predict",
        "lab.questions",
        "lab.answers",
        "lab.answer_key",
        "lab.teacher",
    },
    {"lab.cli", "lab.start", "lab.__main__", "lab"},
]
# Within a floor, only these pairs may import sideways (importer -> imported).
SIDEWAYS = {
    ("lab.observables", "lab.scenario"),
    ("lab.file_checks", "lab.scenario"),
    ("lab.file_checks", "lab.source_lines"),
    ("lab.experiment", "lab.scenario"),
    ("lab.experiment", "lab.observables"),
    ("lab.experiment", "lab.file_checks"),
    ("lab.live", "lab.scenario"),
    ("lab.promises", "lab.record"),  # the judges read the record; the record judges nothing
    ("lab.runner", "lab.scenario"),  # the one entry runs a scenario among other things
    ("lab.live", "lab.runner"),  # live mode wires the harness through the one entry
    ("lab.predict", "lab.questions"),  # check() looks the question up; the bank never asks back
    ("lab.questions", "lab.answers"),  # a question names the function that computes its answer
    ("lab.answer_key", "lab.questions"),  # the teacher's key is written from the bank
    ("lab.answer_key", "lab.predict"),  # ... with the answers shown as `check` shows them
    ("lab.switches", "lab.disputes"),  # a switch's course note may be a disputed claim's text
    ("lab.__main__", "lab.start"),
    ("lab.start", "lab.cli"),  # Ctrl-C is caught first, then the command is loaded
    ("lab.cli", "lab"),  # the command prints the package's version
    ("lab.exercise_table", "lab.exercise_checks"),  # the table names the function of each check
}
PACKAGES = {
    "lab.world",
    "lab.model",
    "lab.harness",
    "lab.probe",
    "lab.testing",
    "lab.views",
    "lab.notebook",
    "lab.teacher",
    "lab.cli",
}


# Packages that only group modules by what they are for: each of their modules keeps its floor.
THEMES = {"kernel", "chapter", "classroom", "languages"}


def unit(module: str) -> str:
    """A subpackage stands for all its modules; a top-level module stands for itself, and so does
    a module of a package in THEMES."""
    parts = module.split(".")
    if len(parts) >= 2 and (ROOT / parts[1]).is_dir() and parts[1] not in THEMES:
        return ".".join(parts[:2])
    return module


def is_module(name: str) -> bool:
    """`lab.views.report` is a module (or a package); `lab.model.turn` is a name in one."""
    path = ROOT.parent.joinpath(*name.split("."))
    return path.is_dir() or path.with_suffix(".py").is_file()


def imports() -> set[tuple[str, str, str]]:
    """(importer unit, imported unit, importing file) for every lab import across units."""
    found = set()
    for path in ROOT.rglob("*.py"):
        module = ".".join(path.relative_to(ROOT.parent).with_suffix("").parts)
        module = module.removesuffix(".__init__")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                # `from lab import exercises` imports the module lab.exercises, not lab itself
                found_in = [f"{node.module}.{alias.name}" for alias in node.names]
                names = [name if is_module(name) else node.module for name in found_in]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name == "lab" or name.startswith("lab."):
                    source, target = unit(module), unit(name)
                    if source != target:
                        found.add((source, target, str(path.relative_to(ROOT.parent))))
    return found


def floor_of(name: str) -> int:
    for number, floor in enumerate(FLOORS):
        if name in floor:
            return number
    raise AssertionError(f"{name} stands on no floor: add it to FLOORS in {__file__}")


def test_every_import_goes_down_a_floor_or_is_an_allowed_neighbour() -> None:
    wrong = []
    for source, target, where in sorted(imports()):
        below = floor_of(target) < floor_of(source)
        beside = floor_of(target) == floor_of(source) and (source, target) in SIDEWAYS
        if not (below or beside):
            wrong.append(f"{where}: {source} imports {target}")
    assert wrong == []


def test_no_circle_between_the_packages() -> None:
    edges = {(s, t) for s, t, _ in imports() if s in PACKAGES and t in PACKAGES}
    assert not {(s, t) for s, t in edges if (t, s) in edges}
    assert ("lab.world", "lab.harness") not in edges  # the tool type lives in the leaf lab.tool


def test_the_floor_test_sees_an_upward_import() -> None:
    """The check is not blind: world importing the harness would be caught."""
    assert floor_of("lab.harness") > floor_of("lab.world")
    assert floor_of("lab.testing") > floor_of("lab.probe")
    assert any(s == "lab.world" for s, _, _ in imports())  # world's imports are seen at all
