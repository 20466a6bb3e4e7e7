"""The notebooks' sources: jupytext percent files, bilingual, quoting the seed word for word,
every question predicted before `check` reveals it, no answer written down anywhere in them; and
the question bank's answers, computed from runs."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import jupytext
import pytest

from lab.experiment import load_all
from lab.predict import NO_PREDICTION, check
from lab.questions import QUESTIONS

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
SEED = (ROOT.parent / "shared" / "seed").glob("*.txt")
SEED_TEXT = "".join(path.read_text(encoding="utf-8") for path in SEED)
CHECK = re.compile(r'check\("([^"]+)", (\w+)')

# The answers, asserted here and written nowhere in the notebooks.
ANSWERS = {
    "M1.1": 2,
    "M1.2": "dropped",
    "M1.3": (3, 400),
    "M2.1": "at registration",
    "M2.2": (1.0, 8.0),
    "M2.3": "old notes",
    "M3.1": "validation",
    "M3.2": (0, 2),
    "M3.3": (4, 3),
    "M4.1": "deny",
    "M4.2": 2,
    "M4.3": "tool_check",
    "M5.1": ["toolu_001"],
    "M5.2": "deny",
    "M5.3": (2, 12),
    "P.1": "toolu_002",
    "P.2": True,
    "P.3": "toolu_002",
    "C.2": "question",
    "R.2": "trust_stop_reason",
    "A.1": 1,
    "A.2": 3,
    "A.3": "question",
    "A.4": 0,
}


def cells(path: Path) -> list:
    return jupytext.read(path).cells


def markdown(path: Path) -> str:
    return "\n".join(c.source for c in cells(path) if c.cell_type == "markdown")


def test_every_notebook_is_a_percent_source_with_a_kernel():
    assert [p.stem[:2] for p in NOTEBOOKS] == [
        "00", "01", "02", "03", "04", "05", "06", "07", "08", "09"
    ]  # fmt: skip
    assert not list((ROOT / "notebooks").glob("*.ipynb")), "the .py sources are the only copy"
    for path in NOTEBOOKS:
        notebook = jupytext.read(path)
        assert notebook.metadata["kernelspec"]["name"] == "python3"
        assert notebook.metadata["jupytext"]["text_representation"]["format_name"] == "percent"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_notebook_speaks_chinese_and_english(path):
    text = markdown(path)
    assert len(re.findall(r"[\u4e00-\u9fff]", text)) > 100
    assert len(re.findall(r"\b(the|and|of)\b", text)) > 10
    title = cells(path)[0].source.splitlines()[0]
    assert re.search(r"[\u4e00-\u9fff]", title) and " / " in title


def quotes(path: Path) -> list[str]:
    """The seed's words a notebook quotes: its `> ` lines, per paragraph, labels removed."""
    found, current = [], []
    for line in markdown(path).splitlines() + [""]:
        if line.startswith("> ") and re.search(r"[\u4e00-\u9fff]", line):
            current.append(line[2:].strip())
        elif current:
            found.append("".join(current))
            current = []
    return found


def squeeze(text: str) -> str:
    """Without grade tags and attributions, labels, emphasis and white space."""
    text = re.sub(r"【[一二三]】", "", text)
    text = re.sub(r"【[一二三]，[^：】]*：", "", text)  # an attribution before the quoted words
    text = re.sub(r"【[一二三]，[^】]*】", "", text)  # an attribution alone
    text = re.sub(r"（种子[^）]*）", "", text)
    text = re.sub(r"^\*\*(类比|不变式|顺序不变式|安全不变量|§\d+)\*\*", "", text.strip())
    return "".join(text.replace("**", "").replace("】", "").replace("`", "").split())


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebooks_quote_the_seed_word_for_word(path):
    assert SEED_TEXT, "the seed is read from ../shared/seed"
    seed = squeeze(SEED_TEXT)
    quoted = quotes(path)
    assert len(quoted) >= {"00": 1, "07": 0}.get(path.stem[:2], 2)
    for quote in quoted:
        for fragment in squeeze(quote).split("……"):
            fragment = fragment.strip("。…")
            if re.search(r"[\u4e00-\u9fff]", fragment):
                assert fragment in seed, fragment[:60]


def test_the_analogies_are_the_seed_s():
    text = "".join(markdown(p) for p in NOTEBOOKS)
    for analogy in ("传送带", "转接号码簿", "托盘", "扫码口", "门禁", "插线口"):
        assert analogy in text


def checks_in(path: Path) -> list[tuple[int, str, str]]:
    return [
        (i, m.group(1), m.group(2))
        for i, cell in enumerate(cells(path))
        if cell.cell_type == "code"
        for m in CHECK.finditer(cell.source)
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_every_question_is_predicted_in_a_cell_before_its_check(path):
    notebook = cells(path)
    for index, id, name in checks_in(path):
        assert id in QUESTIONS, id
        earlier = [c.source for c in notebook[:index] if c.cell_type == "code"]
        assert any(re.search(rf"^{name} = \.\.\.", s, re.M) for s in earlier), (id, name)


def test_every_question_of_the_bank_is_asked_somewhere():
    asked = {id for path in NOTEBOOKS for _, id, _ in checks_in(path)}
    assert asked == set(QUESTIONS)


def literal_asserts(source: str) -> list[str]:
    """assert statements that compare with a literal: an answer written down."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Assert):
            literals = [
                n
                for n in ast.walk(node.test)
                if isinstance(n, ast.Constant | ast.List | ast.Tuple | ast.Dict | ast.Set)
            ]
            if any(
                not (isinstance(n, ast.Constant) and isinstance(n.value, str)) for n in literals
            ):
                found.append(ast.unparse(node))
    return found


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_answer_is_written_in_a_notebook(path):
    for cell in cells(path):
        if cell.cell_type == "code":
            assert literal_asserts(cell.source) == []
        else:
            assert not re.search(r"\*Answer|答案[:：]", cell.source)


def test_literal_asserts_are_found():
    assert literal_asserts("assert answer == (0, 2)") == ["assert answer == (0, 2)"]
    assert literal_asserts("assert a == b, 'why'") == []


@pytest.mark.parametrize("id", sorted(ANSWERS))
def test_the_bank_computes_each_answer(id):
    assert check(id, ANSWERS[id], "en").right
    wrong = check(id, "something else", "en")
    assert not wrong.right and "something else" in repr(wrong)
    assert "No prediction yet" in repr(check(id, NO_PREDICTION, "en"))


def test_the_hunt_questions_are_computed_from_a_real_hunt():
    from lab.testing.search import hunt

    finding = hunt("workspace_wall", examples=40, shrinks=20)
    assert check("H.1", True, "en", finding=finding).right
    # R.1 and R.3 read a `lab probe` result: tests/test_probe.py computes them from a real one.
    assert set(ANSWERS) | {"C.1", "H.1", "H.2", "H.3", "R.1", "R.3"} == set(QUESTIONS)


def test_the_notebooks_name_only_experiments_that_exist():
    ids = {e.id for e in load_all()}
    for path in NOTEBOOKS:
        for named in re.findall(r'(?:experiment|outcome)\("([^"]+)"\)', path.read_text("utf-8")):
            assert named in ids, (path.name, named)
