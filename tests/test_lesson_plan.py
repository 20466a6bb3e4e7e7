"""The 90-minute lesson plan fits the notebooks: every question it names exists and is asked in the
notebook of its part, each part's minutes cover its cells by the class-time rule (cells tagged
`skip-in-class` aside), and students are never sent to the teacher's view of the checks."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lab.classroom.questions import QUESTIONS
from lab.cli.commands import notebooks_dir
from lab.teacher.class_time import class_cells, class_minutes, questions_asked

PLAN = Path(__file__).resolve().parent.parent / "docs" / "teacher" / "lesson-plan.md"
TEXT = PLAN.read_text(encoding="utf-8")
ZH, EN = TEXT.split("## English", 1)
ROW = re.compile(r"^\| (\d+) \| ([^|]+) \| ([^|]+) \|", re.M)
ID = re.compile(r"(?<![\w.])([A-Z]\d*\.\d+)(?:[–-]([A-Z]\d*\.\d+))?(?![\w.])")


def named_ids(text: str) -> list[str]:
    """Question ids named in text, a range such as M1.1–M1.3 spelled out."""
    found = []
    for first, last in ID.findall(text):
        if not last:
            found.append(first)
            continue
        stem, start = first.rsplit(".", 1)
        end = int(last.rsplit(".", 1)[1])
        found += [f"{stem}.{n}" for n in range(int(start), end + 1)]
    return found


def rows(half: str) -> list[tuple[int, str, str | None]]:
    found = []
    for minutes, _, run in ROW.findall(half):
        notebook = re.search(r"`(\d\d_\w+)`", run)
        found.append((int(minutes), run, notebook and notebook.group(1)))
    return found


def source(name: str) -> str:
    return (notebooks_dir() / f"{name}.py").read_text(encoding="utf-8")


def test_named_ids_spell_out_ranges():
    assert named_ids("`01` (D1, D1b; M1.1–M1.3) and C.1, §3.2") == ["M1.1", "M1.2", "M1.3", "C.1"]


def test_the_plan_is_ninety_minutes_in_both_languages():
    assert [m for m, _, _ in rows(ZH)] == [m for m, _, _ in rows(EN)]
    assert sum(m for m, _, _ in rows(EN)) == 90


@pytest.mark.parametrize("half", [ZH, EN], ids=["zh", "en"])
def test_every_question_the_plan_names_exists_and_is_asked_in_its_notebook(half):
    named = named_ids(half)
    assert len(named) >= 20 and set(named) <= set(QUESTIONS), set(named) - set(QUESTIONS)
    for _, run, notebook in rows(half):
        if notebook:
            assert set(named_ids(run)) <= set(questions_asked(source(notebook))), run


def test_the_plan_names_no_question_that_does_not_exist_the_old_c2():
    assert "C.2" not in TEXT and "C.2" not in named_ids(TEXT)


@pytest.mark.parametrize("half", [ZH, EN], ids=["zh", "en"])
def test_each_part_s_minutes_cover_its_cells_in_class(half):
    for minutes, _, notebook in rows(half):
        if notebook:
            assert class_minutes(source(notebook)) <= minutes, (notebook, minutes)


def test_the_long_notebooks_skip_cells_and_the_plan_says_so():
    for name in ("05_sockets_M5", "09_course_beside_production"):
        cells = class_cells(source(name))
        assert any(c.skipped for c in cells), name
        assert not any(c.skipped and c.kind == "question" for c in cells), name
    assert "skip-in-class" in ZH and "skip-in-class" in EN


def test_a_skipped_cell_costs_nothing_and_a_question_costs_most():
    notebook = (
        '# %%\nimport x\n# %% [markdown]\n# text\n# %%\nprediction = ...\n# %%\ncheck("A.1", p)\n'
        '# %% tags=["skip-in-class"]\nshow()\n'
    )
    assert [c.kind for c in class_cells(notebook)] == [
        "setup",
        "markdown",
        "prediction",
        "question",
        "code",
    ]
    assert class_minutes(notebook) == 2.0


@pytest.mark.parametrize("half", [ZH, EN], ids=["zh", "en"])
def test_students_are_never_sent_to_the_teacher_s_view(half):
    in_class = half.split("###", 3)[2]  # the in-class section: the table and what follows
    assert "--list" not in in_class
    assert "lab check m1_lost_call --init" in in_class
