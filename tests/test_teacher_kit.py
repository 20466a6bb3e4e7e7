"""The teacher's kit: the students' Chinese edition of the notebooks, the printable worksheet
(read back with pdftotext), the projector slides (measured in headless Chromium at 1280×720)
and `lab kit`, which writes the kit out from a wheel too."""

from __future__ import annotations

import html as html_module
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from lab.classroom.questions import QUESTIONS
from lab.cli import main
from lab.cli.commands import notebooks_dir
from lab.teacher.edition import cells, edition
from lab.teacher.one_language import HINT, NEUTRAL, has_chinese, is_english, one_language, sentences
from lab.teacher.worksheet import questions

ROOT = Path(__file__).resolve().parent.parent
KIT = ROOT / "docs" / "teacher"
NOTEBOOKS = sorted(notebooks_dir().glob("[0-9][0-9]_*.py"))


def needs(*tools: str) -> None:
    missing = [tool for tool in tools if not shutil.which(tool)]
    assert not missing, f"{missing} needed: see the README's 'Testing needs' (apt-get install ...)"


# ---- the splitter, on text whose halves are known --------------------------------------------
def test_one_language_keeps_each_half_and_leaves_answers_and_code_whole():
    text = (
        "## 拨动开关：信声明 / Flip the switch: trust the declaration\n\n"
        "`Pair.of(d1)` 把同一个场景走两遍。两次运行分道扬镳的那一行\n标上 ◀。`Pair.of(d1)` "
        "steps the scenario twice.\n\n"
        "**问题 M1.2 / Question M1.2.** 会怎样？ What becomes of it? "
        "*(ran / stopped / dropped)*\n\n"
        "**问题 M1.3 / Question M1.3.** 几次？ How many? *(两个整数 / two integers)*\n\n"
        "*Analogy.* The belt brings the work.\n\n"
        "| 笔记本 / notebook | 内容 / what |\n|---|---|\n| `01` | schema 属性是 path / limit |"
    )
    assert one_language(text, "zh").split("\n\n") == [
        "## 拨动开关：信声明",
        "`Pair.of(d1)` 把同一个场景走两遍。两次运行分道扬镳的那一行标上 ◀。",
        "**问题 M1.2** 会怎样？*(ran / stopped / dropped)*",
        "**问题 M1.3** 几次？*(两个整数)*",
        "| 笔记本 | 内容 |\n|---|---|\n| `01` | schema 属性是 path / limit |",
    ]
    english = one_language(text, "en").split("\n\n")
    assert english[:2] == ["## Flip the switch: trust the declaration",
                           "`Pair.of(d1)` steps the scenario twice."]  # fmt: skip
    assert english[2] == "**Question M1.2.** What becomes of it? *(ran / stopped / dropped)*"
    assert english[3] == "**Question M1.3.** How many? *(two integers)*"
    assert "*Analogy.* The belt brings the work." in english


def test_a_chinese_sentence_that_names_english_terms_stays_chinese():
    assert not is_english("tool runner 在 P1s 上一共发了几个请求？")
    assert not is_english("实验室的哪一个开关让它自己的 harness 做出同样的事？")
    assert is_english("naming the stage that stopped it — 被拒也要补一条结果.")
    assert is_english("*Analogy.*")


# ---- the students' edition -------------------------------------------------------------------
def english_left(markdown: str) -> list[str]:
    """Sentences of English prose in Markdown (code, quotes and answer hints aside)."""
    found = []
    for line in markdown.splitlines():
        if line.startswith("|"):  # a table cell may pair a term with its English name
            continue
        for sentence in sentences(HINT.sub("", line)):
            if is_english(sentence) and len(NEUTRAL.sub("", sentence).split()) > 1:
                found.append(sentence)
    return found


@pytest.fixture(scope="module")
def zh_edition(tmp_path_factory):
    folder = tmp_path_factory.mktemp("class") / "zh"
    assert main(["notebooks", "--lang", "zh", str(folder)]) == 0
    return folder


def edition_notebook(folder: Path, source: Path):
    """A notebook of the edition as Jupyter reads it (the .ipynb a double-click opens)."""
    import nbformat

    return nbformat.read(folder / f"{source.stem}.ipynb", as_version=4)


def test_the_chinese_edition_has_every_notebook_and_no_english_prose(zh_edition):
    names = sorted(p.name for p in zh_edition.iterdir())
    assert names == sorted([f"{p.stem}.ipynb" for p in NOTEBOOKS] + ["README.md"])
    for source in NOTEBOOKS:
        notebook = edition_notebook(zh_edition, source)
        assert notebook.metadata.kernelspec.name == "python3"
        assert "jupytext" not in notebook.metadata  # no pairing back to a .py
        written = [c for c in notebook.cells]
        original_cells = cells(source.read_text(encoding="utf-8"))[1]
        code = [c.source for c in written if c.cell_type == "code"]
        original = ["\n".join(c.lines).strip("\n") for c in original_cells if not c.is_markdown]
        assert code == original, source.name
        for cell in written:
            if cell.cell_type == "markdown":
                assert has_chinese(cell.source), (source.name, cell.source)
                assert not english_left(cell.source), (source.name, english_left(cell.source))


def test_the_edition_keeps_the_cells_a_class_skips_tagged(zh_edition):
    source = notebooks_dir() / "05_sockets_M5.py"
    tagged = [
        c
        for c in edition_notebook(zh_edition, source).cells
        if "skip-in-class" in c.metadata.get("tags", [])
    ]
    assert len(tagged) >= 5 and all(c.cell_type in ("code", "markdown") for c in tagged)


def test_the_edition_has_a_short_chinese_readme_on_opening_and_running(zh_edition):
    readme = (zh_edition / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 30 and not english_left(readme)
    for step in ("jupyter lab", "双击", "Shift+Enter", "prediction = ...", "skip-in-class"):
        assert step in readme, step


def test_the_chinese_edition_keeps_every_question_and_every_chinese_heading(zh_edition):
    text = "".join(
        cell.source + "\n"
        for source in NOTEBOOKS
        for cell in edition_notebook(zh_edition, source).cells
    )
    flat = "".join(text.split())
    for question in questions(notebooks_dir()):
        assert "".join(question.text["zh"].split()) in flat.replace("*", "").replace("`", "")
        assert f'check("{question.id}"' in text
    for source in NOTEBOOKS:
        for heading in re.findall(r"^# (#+ .+)$", source.read_text(encoding="utf-8"), re.M):
            chinese = re.split(" ?/ ", heading)[0] if has_chinese(heading) else heading
            assert chinese in text, heading


def test_the_edition_is_the_same_every_time_and_english_is_the_other_half():
    source = NOTEBOOKS[1].read_text(encoding="utf-8")
    assert edition(source, "zh") == edition(source, "zh")
    english = edition(source, "en")
    assert "The belt brings the work" in english and "传送带只做一件事" not in english


def test_a_chinese_edition_notebook_still_runs(zh_edition, tmp_path, monkeypatch):
    """One small notebook of the edition, executed top to bottom by nbmake in a fresh kernel
    (nbmake's runner itself, without a second pytest around it)."""
    from nbmake.nb_run import NotebookRun

    notebook = tmp_path / "06_pairing_D3.ipynb"
    shutil.copy(zh_edition / "06_pairing_D3.ipynb", notebook)  # as the student opens it
    monkeypatch.setenv("IPYTHONDIR", str(tmp_path / "ipython"))
    monkeypatch.setenv("HOME", str(tmp_path))
    result = NotebookRun(notebook, 600).execute()
    assert result.error is None, result.error and result.error.summary


def test_the_edition_is_never_written_over_a_file(tmp_path, capsys):
    folder = tmp_path / "zh"
    folder.mkdir()
    mine = folder / f"{NOTEBOOKS[0].stem}.ipynb"
    mine.write_text("my notes\n")
    assert main(["notebooks", "--lang", "zh", str(folder)]) == 2
    assert mine.read_text() == "my notes\n"
    assert sorted(p.name for p in folder.iterdir()) == [mine.name]
    assert len(capsys.readouterr().err.splitlines()) == 1


# ---- the worksheet ---------------------------------------------------------------------------
def pdf_text(path: Path) -> str:
    needs("pdftotext")
    shown = subprocess.run(
        ["pdftotext", "-raw", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    return "".join(shown.split())  # wherever the lines broke


def test_every_question_of_the_notebooks_is_a_question_of_the_lab():
    found = questions(notebooks_dir())
    assert [q.id for q in found] and len({q.id for q in found}) == len(found)
    assert {q.id for q in found} <= set(QUESTIONS)
    for question in found:
        assert has_chinese(question.text["zh"]), question
        assert not has_chinese(NEUTRAL.sub("", question.text["en"])), question


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_worksheet_has_a_line_for_every_question(lang, tmp_path, capsys):
    path = tmp_path / f"worksheet-{lang}.pdf"
    assert main(["worksheet", "--lang", lang, str(path)]) == 0
    found = questions(notebooks_dir())
    said = {"en": f"({len(found)} questions)", "zh": f"（{len(found)} 道题）"}[lang]
    assert said in capsys.readouterr().out
    seen = pdf_text(path)
    for question in found:
        setting = QUESTIONS[question.id].setting.get(lang, "")
        line = "".join(f"{question.id} {setting} {question.text[lang]}".split())
        assert line in seen, (question.id, line)
    assert seen.count("我的预测" if lang == "zh" else "myprediction") == len(found)
    # The worksheets in docs/teacher (shipped in the wheel, `lab kit`) are this one.
    assert pdf_text(KIT / f"worksheet-{lang}.pdf") == seen, (
        f"docs/teacher/worksheet-{lang}.pdf is stale: "
        f"lab worksheet --lang {lang} docs/teacher/worksheet-{lang}.pdf"
    )


def pdf_pages(path: Path) -> list[list[str]]:
    """The worksheet's lines as pdftotext lays them out, page by page."""
    needs("pdftotext")
    shown = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout
    pages = [
        [line.strip() for line in page.splitlines() if line.strip()] for page in shown.split("\f")
    ]
    return [page for page in pages if page]


LABELLED = re.compile(r"^([A-Z]\d*\.\d+)\s+\S")  # a question's first line: its id, then text


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_worksheet_s_layout_in_order_two_pages_no_orphan_no_bad_wrap(lang):
    from lab.teacher.worksheet import in_order

    pages = pdf_pages(KIT / f"worksheet-{lang}.pdf")
    assert len(pages) == 2, [len(p) for p in pages]  # the English sheet had a third page
    answer = "我的预测" if lang == "zh" else "my prediction"
    ids: list[str] = []
    for page in pages:
        labelled = [LABELLED.match(line).group(1) for line in page if LABELLED.match(line)]
        answers = [line for line in page if line.startswith(answer)]
        # every question on the page has its answer line there too: nothing split, no orphan
        assert len(labelled) == len(answers) >= 8, (len(labelled), len(answers))
        ids += labelled
        for index, line in enumerate(page):
            assert not re.fullmatch(r"[A-Z]\d*\.\d+", line), line  # no id alone on a line
            opened = line.count("(") + line.count("（") - line.count(")") - line.count("）")
            assert opened <= 0 or index + 1 == len(page), line  # an answer form is never split
    expected = [q.id for q in in_order(questions(notebooks_dir()))]
    assert ids == expected
    optional = [i for i, id in enumerate(ids) if id[0] in "HR"]
    assert optional == list(range(len(ids) - len(optional), len(ids)))  # optional ones last


@pytest.mark.parametrize(
    "name, said",
    [
        ("missing/worksheet.pdf", "no folder"),
        ("worksheet.txt", "must end in .pdf"),
        (".", "is a folder"),
    ],
)
def test_a_bad_worksheet_path_is_one_line_and_nothing_written(name, said, tmp_path, capsys):
    before = sorted(tmp_path.rglob("*"))
    assert main(["worksheet", str(tmp_path / name)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and said in err[0], err
    assert sorted(tmp_path.rglob("*")) == before


def test_without_fpdf2_or_a_cjk_font_the_worksheet_says_what_to_install(
    tmp_path, monkeypatch, capsys
):
    import lab.teacher.worksheet as worksheet

    path = tmp_path / "sheet.pdf"
    monkeypatch.setitem(sys.modules, "fpdf", None)  # import fpdf raises ImportError
    assert main(["worksheet", str(path)]) == 2
    monkeypatch.undo()
    monkeypatch.setattr(worksheet, "CJK_FONTS", [])
    monkeypatch.setattr(worksheet.shutil, "which", lambda name: None)
    assert main(["worksheet", "--lang", "zh", str(path)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "pip install 'harness-lab[teacher]'" in err[0]
    assert "apt-get install fonts-wqy-microhei" in err[1]
    assert list(tmp_path.iterdir()) == []


# ---- the slides ------------------------------------------------------------------------------
# The deck in an iframe of exactly 1280×720 CSS pixels (a projector; headless Chromium's own
# window keeps room for a toolbar); every slide shown in turn and measured, then the keys.
MEASURE = """<script>
window.addEventListener('load', () => {
  const win = document.getElementById('deck').contentWindow, deck = win.deck;
  const out = {view: [win.innerWidth, win.innerHeight], slides: [], over: []};
  deck.slides.forEach((slide, i) => {
    deck.show(i);
    out.slides.push([slide.id, slide.hidden ? 0 : 1,
      deck.slides.filter((s) => !s.hidden).length]);
    const outside = [...slide.querySelectorAll('*')].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.right > win.innerWidth + 1 || r.bottom > win.innerHeight + 1;
    });
    if (slide.scrollHeight > slide.clientHeight + 1 || slide.scrollWidth > slide.clientWidth + 1
        || outside.length) out.over.push(slide.id);
  });
  deck.show(0);  // the panorama's labels as shown: their size times the picture's scale
  const svg = deck.slides[0].querySelector('svg.panorama');
  const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  out.label_px = Math.min(...[...svg.querySelectorAll('text')].map(
    (t) => scale * parseFloat(t.getAttribute('font-size'))));
  const press = (key) => {
    win.document.dispatchEvent(new win.KeyboardEvent('keydown', {key}));
    return deck.current();
  };
  out.keys = ['Home', 'ArrowRight', 'ArrowRight', 'ArrowLeft', 'End', 'ArrowRight', 'Home',
              'ArrowLeft', 'PageDown'].map(press);
  document.body.dataset.measured = JSON.stringify(out);
});
</script>"""


def measured(deck: str, folder: Path, chromium) -> dict:
    page = folder / "measure.html"
    frame = (
        '<iframe id="deck" style="width:1280px;height:720px;border:0" '
        f'srcdoc="{html_module.escape(deck)}"></iframe>'
    )
    page.write_text(
        f'<!DOCTYPE html><html><body style="margin:0">{frame}{MEASURE}</body></html>',
        encoding="utf-8",
    )
    dom = chromium(folder, "--window-size=1400,1000", "--dump-dom", page.as_uri())
    found = re.search(r'data-measured="([^"]+)"', dom)
    assert found, "the deck was not measured"
    return json.loads(html_module.unescape(found.group(1)))


@pytest.fixture(scope="module", params=["zh", "en"])
def deck(request, tmp_path_factory):
    folder = tmp_path_factory.mktemp(f"slides-{request.param}")
    path = folder / "slides.html"
    assert main(["report", "--slides", str(path), "--lang", request.param]) == 0
    return request.param, path.read_text(encoding="utf-8"), folder


def test_one_experiment_per_slide_and_nothing_overflows_at_1280x720(deck, chromium):
    from lab.chapter.experiment import load_all

    lang, page, folder = deck
    m = measured(page, folder, chromium)
    assert m["view"] == [1280, 720]
    ids = ["start", *(e.id for e in load_all())]
    assert [s[0] for s in m["slides"]] == ids
    assert all(shown == 1 and count == 1 for _, shown, count in m["slides"])  # one at a time
    assert m["over"] == [], f"{lang}: these slides overflow 1280×720: {m['over']}"
    last = len(ids) - 1
    assert m["keys"] == [0, 1, 2, 1, last, last, 0, 0, 1]


def test_the_panorama_s_labels_on_the_title_slide_read_from_the_back_of_a_room(deck, chromium):
    lang, page, folder = deck
    assert measured(page, folder, chromium)["label_px"] >= 16, lang


def test_a_link_to_a_slide_opens_that_slide(deck, chromium):
    lang, page, folder = deck
    path = folder / "slides.html"
    dom = chromium(folder, "--window-size=1280,720", "--dump-dom", path.as_uri() + "#D9")
    shown = re.findall(r'<section class="slide[^"]*" id="([^"]+)"(?! hidden)', dom)
    assert shown == ["D9"], shown


def test_the_measure_catches_a_slide_that_overflows(deck, chromium):
    lang, page, folder = deck
    long = "这一句太长了。" * 80 if lang == "zh" else "This takeaway is far too long. " * 60
    swollen = re.sub(r'(<div class="takeaway">)[^<]*', lambda m: m.group(1) + long, page, count=1)
    assert swollen != page
    assert measured(swollen, folder, chromium)["over"] == ["D1"]


def test_the_slides_are_one_self_contained_file_in_one_language(deck):
    lang, page, _ = deck
    assert (
        "<link" not in page
        and "@import" not in page
        and "http://" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")
    )
    assert not re.search(r'(?:src|href)="(?!#)', page)
    assert ("一个循环，和挂在它外面的东西" in page) == (lang == "zh")
    assert ("what hangs outside it" in page) == (lang == "en")
    assert ("两次运行在第" in page) == (lang == "zh")


def test_where_the_runs_part_stays_one_row_of_the_projector_in_either_language(deck):
    """A line of the break is cut by screen columns, not characters: a Chinese gloss takes two
    columns a character, and a line that wrapped pushed D28 off a 1280×720 screen."""
    from rich.cells import cell_len

    lang, page, _ = deck
    rows = [html_module.unescape(r) for r in re.findall(r'<div class="line">([^<]*)</div>', page)]
    assert len(rows) >= 2 * 20, lang  # two lines for each experiment whose runs part
    assert max(cell_len(r) for r in rows) <= 104, lang
    assert any(r.endswith("…") for r in rows), lang  # the long ones were cut, not dropped


def test_html_and_slides_are_one_or_the_other(tmp_path, capsys):
    assert main(["report", "--html", str(tmp_path / "a.html"), "--slides", "b.html"]) == 2
    assert main(["report", "--slides", str(tmp_path / "no" / "b.html")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "not allowed with" in err[0] and "no folder" in err[1]
    assert list(tmp_path.iterdir()) == []


# ---- the kit, written out ---------------------------------------------------------------------
def test_lab_kit_writes_the_kit_and_never_over_a_file(tmp_path, capsys):
    target = tmp_path / "teacher"
    assert main(["kit", str(target)]) == 0
    written = sorted(p.name for p in target.iterdir())
    assert {"lesson-plan.md", "worksheet-zh.pdf", "worksheet-en.pdf"} <= set(written)
    assert written == sorted(p.name for p in KIT.iterdir() if p.is_file())
    assert (target / "worksheet-zh.pdf").read_bytes() == (KIT / "worksheet-zh.pdf").read_bytes()
    assert main(["kit", str(target)]) == 2
    assert "exists" in capsys.readouterr().err


def test_the_lesson_plan_names_each_piece_and_its_command():
    plan = (KIT / "lesson-plan.md").read_text(encoding="utf-8")
    for words in [
        *("lab notebooks --lang zh", "lab worksheet", "lab report --slides", "answer-key.md"),
        *("lab kit", "90", "lab probe", "lab hunt", "fonts-wqy-microhei"),
    ]:
        assert words in plan, words
    minutes = [int(m) for m in re.findall(r"^\| *(\d+) *\|", plan, re.M)]
    assert minutes and sum(minutes) == 90 * 2  # the zh plan's rows, then the en plan's


def test_without_jupytext_the_edition_says_what_to_install_and_writes_nothing(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setitem(sys.modules, "jupytext", None)  # import jupytext raises ImportError
    folder = tmp_path / "zh"
    assert main(["notebooks", "--lang", "zh", str(folder)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "harness-lab[notebooks]" in err
    assert not folder.exists()
