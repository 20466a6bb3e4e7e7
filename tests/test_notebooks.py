"""The notebooks' sources: jupytext percent files, bilingual, every question predicted before
`check` reveals it, no answer written down anywhere in them; and the question bank's answers,
computed from runs. Their quotes of the seed are checked against the seed's text by
tests/seed_checks.py, a step of .ci/run: the seed lives outside the repository, and nothing
here reads outside it (a test below makes sure)."""

from __future__ import annotations

import ast
import importlib.util
import io
import re
from pathlib import Path

import jupytext
import pytest
from rich.console import Console

from lab.chapter.experiment import load_all
from lab.classroom.answer_key import FROM_THE_NOTEBOOK_RUN
from lab.classroom.predict import NO_PREDICTION, check
from lab.classroom.questions import QUESTIONS

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.py"))
CHECK = re.compile(r'check\("([^"]+)", (\w+)')

# The answers, asserted here and written nowhere in the notebooks.
ANSWERS = {
    "M1.1": 2,
    "M1.2": "dropped",
    "M1.3": (3, 400),
    "M2.1": "at registration",
    "M2.2": (1.0, 8.0),
    "M2.3": True,
    "M3.1": "validation",
    "M3.2": (0, 2),
    "M3.3": (4, 3),
    "M4.1": "deny",
    "M4.2": True,
    "M4.3": "tool_check",
    "M5.1": ["toolu_001"],
    "M5.2": "deny",
    "M5.3": (2, 12),
    "P.1": "toolu_002",
    "P.2": True,
    "P.3": "toolu_002",
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


def seed_checks():
    spec = importlib.util.spec_from_file_location("seed_checks", ROOT / "tests" / "seed_checks.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# A seed of the test's own: the checker is checked here, the real seed in .ci/run.
SEED = (
    "【三】**传送带**：模型的回答里只要还有 tool_use，循环就继续。\n"
    "门禁先拒绝，再询问，最后放行。\n"
)


def test_the_seed_check_finds_a_quote_the_seed_does_not_hold():
    checks = seed_checks()
    right = (
        "> **类比**：模型的回答里只要还有 tool_use，循环就继续。\n\n"
        "> 门禁先拒绝，再询问……最后放行。\n"
    )
    assert checks.problems("01_x.py", right, SEED) == []
    wrong = right.replace("循环就继续", "循环就停下")
    assert checks.problems("01_x.py", wrong, SEED) == [
        "01_x.py: not in the seed: ：模型的回答里只要还有tool_use，循环就停下"
    ]
    assert checks.problems("02_y.py", "no quote at all", SEED) == [
        "02_y.py: 0 quotes of the seed, at least 2 expected"
    ]


ATTRIBUTED = (
    "产品侧则是另一回事【三，课程作者拆过闭源源码后指出：工具调用被切成连续的批次】。"
    "此后再未变过【一】。"
)


@pytest.mark.parametrize(
    "quote, why",
    [
        ("产品侧则是另一回事【三，课程作者拆过闭源源码后指出：工具调用被切成连续的批次】。", None),
        ("产品侧则是另一回事【三，课程作者拆过闭源源码后指出：……连续的批次】。", None),
        ("此后再未变过【一】。", None),
        ("另一回事【三】……工具调用被切成连续的批次", "not in the seed: 另一回事【三】"),
        ("此后再未变过。", "drops the seed's 【…】 mark: 此后再未变过"),
        ("工具调用被切成连续的批次", "drops the seed's 【…】 mark: 工具调用被切成连续的批次"),
        ("产品侧则是另一回事【二】。", "not in the seed: 产品侧则是另一回事【二】"),
    ],
)
def test_the_seed_check_keeps_the_attributions_and_grade_marks(quote, why):
    checks = seed_checks()
    found = checks.problems("01_x.py", f"> {quote}\n\n> 此后再未变过【一】。\n", ATTRIBUTED)
    assert found == ([] if why is None else [f"01_x.py: {why}"])


def test_the_seed_check_reads_the_quotes_of_source_files():
    checks = seed_checks()
    source = 'note = "「此后再未变过【一】」 and 「此后再未变过」; an answer 「y」 or 「不」"'
    assert checks.source_problems("lab/x.py", source, ATTRIBUTED) == [
        "lab/x.py: drops the seed's 【…】 mark: 此后再未变过"
    ]


def test_a_quote_split_over_two_string_literals_is_read_whole():
    checks = seed_checks()
    source = 'note = (\n    "「此后再未"\n    "变过【一】」"\n)\n'
    assert checks.strings(source) == "「此后再未变过【一】」"
    assert checks.source_problems("lab/x.py", checks.strings(source), ATTRIBUTED) == []


def test_the_seed_check_refuses_an_empty_seed_folder(tmp_path, capsys):
    assert seed_checks().main([str(tmp_path)]) == 2
    assert f"no seed text (*.txt) in {tmp_path}" in capsys.readouterr().err


def reaches_outside(source: str) -> list[str]:
    """The strings in a test's or a notebook's code that name the folder beside the repository
    the seed lives in (`shared`). A static check: .ci/run also runs the notebook tests in a
    clone with nothing beside it."""
    return [
        repr(node.value)
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        if re.search(r"(^|/)shared(/|$)", node.value)
    ]


def test_nothing_in_the_suite_reads_outside_the_repository():
    assert reaches_outside('SEED = ROOT.parent / "shared" / "seed"') == ["'shared'"]
    assert reaches_outside('Path("../shared/seed")  # shared/') == ["'../shared/seed'"]
    sources = [*(ROOT / "tests").rglob("*.py"), *(ROOT / "notebooks").glob("*.py")]
    # Not the two .ci/run steps, nor this file (its examples above).
    outside_the_suite = ("seed_checks.py", "wheel_check.py", Path(__file__).name)
    suite = [p for p in sources if p.name not in outside_the_suite]
    for path in suite:
        assert reaches_outside(path.read_text(encoding="utf-8")) == [], path.name


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


def squeezed(text: str) -> str:
    return "".join(text.split())


@pytest.mark.parametrize("id", sorted(QUESTIONS))
def test_the_notebook_asks_each_question_in_the_bank_s_words(id):
    """The bank holds each question's text (the answer key and the worksheet print it): the
    notebook that checks it asks it in the same words, both languages and the answer's form."""
    question = QUESTIONS[id]
    (path,) = [p for p in NOTEBOOKS if p.stem == question.notebook]
    assert id in {asked for _, asked, _ in checks_in(path)}
    text = squeezed(markdown(path))
    for words in (question.ask["zh"], question.ask["en"], question.form):
        assert squeezed(words) in text, (id, words)


@pytest.mark.parametrize(
    "id, answer",
    [
        ("M4.3", "工具自校验"),
        ("M4.3", "the tool's own check"),
        ("M3.1", "结构校验"),
        ("M4.1", "硬拒绝"),
        ("M2.1", "注册时"),
        ("M1.2", "丢了"),
        ("A.3", "问一下用户"),
        ("A.3", "对讲机"),
        ("M2.3", "是"),
        ("P.2", "yes"),
    ],
)
def test_the_seed_s_terms_and_their_synonyms_are_accepted(id, answer):
    assert check(id, answer, "zh").right


@pytest.mark.parametrize("id, answer", [("M4.3", "deny"), ("A.3", "wall"), ("M2.1", "调用时")])
def test_a_wrong_answer_is_told_the_misconception_it_holds(id, answer):
    misconception = QUESTIONS[id].misreading(answer)
    for lang in ("zh", "en"):
        verdict = check(id, answer, lang)
        assert not verdict.right
        assert squeezed(misconception[lang]) in squeezed(repr(verdict))
    right = check(id, QUESTIONS[id].compute(), "en")
    assert right.right and squeezed(misconception["en"]) not in squeezed(repr(right))


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
    assert FROM_THE_NOTEBOOK_RUN["H.1"][0] is True  # the teacher's key says so too
    # R.1 and R.3 read a `lab probe` result: tests/test_probe.py computes them from a real one.
    assert set(ANSWERS) | {"C.1", "H.1", "H.2", "H.3", "R.1", "R.3"} == set(QUESTIONS)


def test_the_notebooks_name_only_experiments_that_exist():
    ids = {e.id for e in load_all()}
    for path in NOTEBOOKS:
        for named in re.findall(r'(?:experiment|outcome)\("([^"]+)"\)', path.read_text("utf-8")):
            assert named in ids, (path.name, named)


def hidden_steps(source: str) -> list[str]:
    """`x.step()` statements whose turn a notebook never shows: only a cell's last expression
    is displayed, so a bare step before it runs a turn nobody sees."""
    body = ast.parse(source).body
    return [
        ast.unparse(node)
        for node in body[:-1]
        if isinstance(node, ast.Expr)
        and isinstance(node.value, ast.Call)
        and isinstance(node.value.func, ast.Attribute)
        and node.value.func.attr == "step"
    ]


def test_the_gates_notebook_shows_the_turn_its_question_asks_about():
    assert hidden_steps("door.step()\ndoor.step()\n") == ["door.step()"]
    assert hidden_steps("for _ in range(3):\n    display(door.step())\n") == []
    (cell,) = [
        c.source
        for c in cells(ROOT / "notebooks" / "04_gates_M4.py")
        if c.cell_type == "code" and "Stepper(" in c.source
    ]
    assert hidden_steps(cell) == []  # M4.1 asks which gate stops `rm -rf /`: turn 2


def test_a_stepped_run_is_the_run():
    """The notebooks step a harness turn by turn (`Stepper`): it wires the harness as
    `run_scenario` does, so a stepped run is the same run, event for event, for every experiment
    on both sides of its switch. (Once a cell of notebook 00; a check belongs here.)"""
    from lab.kernel.scenario import run_scenario
    from lab.kernel.switches import Switches
    from lab.notebook import Stepper

    for e in load_all():
        for switches in (Switches(), Switches().flipped(**e.flips)):
            stepped = Stepper(e.scenario, switches).finish()
            assert stepped.trace.events == run_scenario(e.scenario, switches).trace.events, e.id


def test_the_promises_table_never_says_the_course_breaks_the_content_based_continue_rule():
    """Notebook 07's table: the course reads the content to continue (the chapter, §12-Q1 【一】),
    so its 续轮判据 row says "in part" and what it keeps, never a bare no."""
    from lab.notebook import invariants_view
    from lab.notebook.views import COURSE_IN_PART
    from lab.testing import INVARIANTS

    assert set(COURSE_IN_PART) <= {inv.name for inv in INVARIANTS}  # a rename cannot undo it
    for lang, kept in (("zh", "部分守住：续轮判据看内容块"), ("en", "in part: the continue test")):
        console = Console(width=400, file=io.StringIO(), color_system=None)
        console.print(invariants_view(lang).renderable)
        (row,) = [r for r in console.file.getvalue().splitlines() if "continuation_only" in r]
        assert kept in row
