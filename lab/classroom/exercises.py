"""Exercises with hidden checks: the student edits a starter file (`lab check ID --init` copies it
into the current folder; a checkout also has them in exercises/), `lab check ID` runs it against
scenarios the student does not see and says pass or fail with a hint.

The exercises are in exercise_table.py, their checks in exercise_checks.py; this module finds,
copies, loads and checks a student's file. The solutions are written nowhere but in the tests.
"""

from __future__ import annotations

import traceback
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from lab.classroom.exercise_table import EXERCISES, Check, Exercise
from lab.kernel.user_code import run_file
from lab.languages.bilingual import Words, in_lang

__all__ = ["EXERCISES", "Check", "Exercise", "ExerciseError", "Result", "Words", "in_lang"]


def starters_dir() -> Path:
    """Installed: lab/starters inside the package; from a checkout: ./exercises."""
    package = Path(__file__).resolve().parent.parent
    shipped = package / "starters"
    return shipped if shipped.is_dir() else package.parent / "exercises"


class ExerciseError(Exception):
    """An unknown exercise or a starter file that is not there: a usage error."""


# -- checking a student's file ------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    check: Check
    hint: str | None  # None: passed

    @property
    def passed(self) -> bool:
        return self.hint is None


def starter_path(exercise: Exercise, here: Path | None = None) -> Path:
    """The student's copy: ./FILE (what `--init` wrote) or ./exercises/FILE (a checkout) if
    there is one, else the lab's own starter."""
    here = here or Path.cwd()
    for local in (here / exercise.file, here / "exercises" / exercise.file):
        if local.is_file():
            return local
    return starters_dir() / exercise.file


def is_own_starter(path: Path) -> bool:
    """Whether `path` is the lab's shipped starter (a student checks a copy of it)."""
    return path.resolve().parent == starters_dir().resolve()


def init(id: str, target: Path) -> Path:
    """Copy the exercise's starter to `target` (never over an existing file); returns it."""
    exercise = exercise_named(id)
    if target.exists():
        raise ExerciseError(f"{target} exists: `lab check {id}` checks it; remove it to start over")
    try:
        with open(target, "x", encoding="utf-8") as file:
            file.write((starters_dir() / exercise.file).read_text(encoding="utf-8"))
    except OSError as error:
        raise ExerciseError(f"{target}: {error.strerror or error}") from None
    return target


def exercise_named(id: str) -> Exercise:
    if id not in EXERCISES:
        raise ExerciseError(f"unknown exercise {id!r}; exercises: {', '.join(EXERCISES)}")
    return EXERCISES[id]


def load(path: Path) -> ModuleType:
    return run_file(path, f"lab_exercise_{path.stem}")


def where(error: BaseException, path: Path) -> str:
    """file:line of the student's own code in a traceback, if it is there."""
    if isinstance(error, SyntaxError):
        return f"{path}:{error.lineno}"
    frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename) == path]
    return f"{path}:{frames[-1].lineno}" if frames else str(path)


def check(id: str, path: Path | None = None) -> list[Result]:
    """Run every check of the exercise on the student's file; each passes or gives a hint."""
    exercise = exercise_named(id)
    path = (path or starter_path(exercise)).resolve()
    if path.is_dir():
        raise ExerciseError(f"{path} is a folder; name the exercise's file ({exercise.file})")
    if not path.is_file():
        raise ExerciseError(f"{path}: no such file")
    try:
        module = load(path)
    except Exception as error:
        problem = f"{where(error, path)}: {type(error).__name__}: {error}"
        hint: str | None = Words(
            f"your file does not load: {problem}", f"你的文件加载不了：{problem}"
        )
        name = Words("the file loads", "文件能加载")
        return [Result(Check(name, "import", lambda m: None), hint)]
    if not hasattr(module, exercise.defines):
        missing = Words(
            f"your file must define {exercise.defines}", f"你的文件必须定义 {exercise.defines}"
        )
        name = Words("the file defines it", "文件定义了它")
        return [Result(Check(name, "hasattr", lambda m: None), missing)]
    results = []
    for item in exercise.checks:
        try:
            # Each check judges a fresh copy: state a solution keeps (a counter) starts anew.
            hint = item.run(load(path))
        except Exception as error:  # the student's code raised inside a check
            raised = f"{type(error).__name__}: {error} ({where(error, path)})"
            hint = Words(f"your code raised {raised}", f"你的代码抛出了 {raised}")
        results.append(Result(item, hint))
    return results
