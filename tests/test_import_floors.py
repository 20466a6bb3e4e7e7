"""The packages stand on floors (FLOORS below, lowest first): a module imports only from its own
floor's allowed neighbours (SIDEWAYS) or from floors below, so no circle runs between packages.
Every import counts, lazy ones inside functions too: a lazy import still makes a circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import lab

ROOT = Path(lab.__file__).parent
FLOORS = [
    # 0 leaves: errors, the switchboard, the trace, the tool type, FILE:LINE of a field, a user's
    # file run fresh, jsonschema loaded late, the chapter's claims the lab reads otherwise (data)
    {
        "lab.kernel.errors",
        "lab.lazy",
        "lab.kernel.switches",
        "lab.kernel.trace",
        "lab.kernel.tool",
        "lab.chapter.source_lines",
        "lab.kernel.user_code",
        "lab.chapter.disputes",
        "lab.kernel.schema",
    },
    # text in two languages; a student's answer read and compared
    {"lab.languages.bilingual", "lab.classroom.reading", "lab.languages.choice"},
    # 1 pieces: the simulated world; the scripted model; the course's own rule set, as data
    {"lab.world", "lab.model", "lab.chapter.course_rules"},
    # the one record of a run, and the judges over it: below the harness they judge, so an
    # oracle cannot borrow the harness's code
    {"lab.kernel.record", "lab.kernel.promises"},
    # 2 the loop and its layers over those pieces; the course's own steps s01 → s04 beside them
    {"lab.harness", "lab.chapter.course_steps"},
    # 3 a harness set up and run, and what it measures; the exercises; the reference beside a preset
    {
        "lab.kernel.scenario",
        "lab.kernel.runner",
        "lab.kernel.observables",
        "lab.chapter.experiment",
        "lab.chapter.file_checks",
        "lab.kernel.live",
    },
    {"lab.classroom.exercise_checks", "lab.classroom.exercise_table"},
    {"lab.classroom.exercises", "lab.chapter.compare"},
    # 4 benches: foreign harnesses on the wire; the lab's own, searched (testing uses probe, never
    # the reverse)
    {"lab.probe"},
    {"lab.testing"},
    # 5 views: what a run, a matrix or a probe looks like (tables, transcripts, pictures, pages)
    {"lab.views"},
    # 6 class: the notebooks' glue, predict-then-run, the questions, their hidden answers, the key,
    # the worksheet and the students' edition
    {
        "lab.notebook",
        "lab.classroom.predict",
        "lab.classroom.questions",
        "lab.classroom.answers",
        "lab.classroom.answer_key",
        "lab.teacher",
    },
    # 7 commands: the `lab` command, its first step, `python -m lab`, and the package's face (the
    # names it exports come from every floor; the command reads only its version)
    {"lab.cli", "lab.start", "lab.__main__", "lab"},
]
# Within a floor, only these pairs may import sideways (importer -> imported).
SIDEWAYS = {
    ("lab.kernel.observables", "lab.kernel.scenario"),
    ("lab.chapter.file_checks", "lab.kernel.scenario"),
    ("lab.chapter.file_checks", "lab.chapter.source_lines"),
    ("lab.chapter.experiment", "lab.kernel.scenario"),
    ("lab.chapter.experiment", "lab.kernel.observables"),
    ("lab.chapter.experiment", "lab.chapter.file_checks"),
    ("lab.kernel.live", "lab.kernel.scenario"),
    # the judges read the record; the record judges nothing
    ("lab.kernel.promises", "lab.kernel.record"),
    # the one entry runs a scenario among other things
    ("lab.kernel.runner", "lab.kernel.scenario"),
    # live mode wires the harness through the one entry
    ("lab.kernel.live", "lab.kernel.runner"),
    # check() looks the question up; the bank never asks back
    ("lab.classroom.predict", "lab.classroom.questions"),
    # a question names the function that computes its answer
    ("lab.classroom.questions", "lab.classroom.answers"),
    # the teacher's key is written from the bank, with the answers shown as `check` shows them
    ("lab.classroom.answer_key", "lab.classroom.questions"),
    ("lab.classroom.answer_key", "lab.classroom.predict"),
    # a switch's course note may be a disputed claim's text
    ("lab.kernel.switches", "lab.chapter.disputes"),
    ("lab.__main__", "lab.start"),
    # Ctrl-C is caught first, then the command is loaded
    ("lab.start", "lab.cli"),
    # the command prints the package's version
    ("lab.cli", "lab"),
    # the table names the function of each check
    ("lab.classroom.exercise_table", "lab.classroom.exercise_checks"),
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
    if len(parts) >= 3 and parts[1] in THEMES:  # a theme's module, or a package of its own
        return ".".join(parts[:3])
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
                # `from lab.classroom import exercises` imports the module lab.classroom.exercises,
                # not lab itself
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
    assert (
        "lab.world",
        "lab.harness",
    ) not in edges  # the tool type lives in the leaf lab.kernel.tool


def test_the_floor_test_sees_an_upward_import() -> None:
    """The check is not blind: world importing the harness would be caught."""
    assert floor_of("lab.harness") > floor_of("lab.world")
    assert floor_of("lab.testing") > floor_of("lab.probe")
    assert any(s == "lab.world" for s, _, _ in imports())  # world's imports are seen at all
