"""`lab report --html FILE`: a self-contained page, opened in headless Chromium and read back as
a reader sees it (printed to PDF: its text and the fonts that drew it)."""

from __future__ import annotations

import html as html_module
import json
import re
import shutil
import subprocess

import pytest

from lab.chapter.experiment import load_all
from lab.cli import main

IDS = [e.id for e in load_all()]


@pytest.fixture(scope="module", params=["en", "zh"])
def page(request, tmp_path_factory, chromium):
    """The page in one language, its HTML, and what Chromium shows of it (text, fonts)."""
    folder = tmp_path_factory.mktemp(f"report-{request.param}")
    path = folder / "lab.html"
    assert main(["report", "--html", str(path), "--lang", request.param]) == 0
    pdf = folder / "lab.pdf"
    missing = [tool for tool in ("chromium", "pdftotext", "pdffonts") if not shutil.which(tool)]
    assert not missing, f"{missing} needed: see the README's 'Testing needs' (apt-get install ...)"
    chromium(folder, "--no-pdf-header-footer", f"--print-to-pdf={pdf}", path.as_uri())
    text = subprocess.run(
        ["pdftotext", "-raw", str(pdf), "-"], check=True, capture_output=True, text=True
    ).stdout
    fonts = subprocess.run(["pdffonts", str(pdf)], check=True, capture_output=True, text=True)
    return request.param, path.read_text(encoding="utf-8"), text, fonts.stdout


def test_the_page_is_self_contained(page):
    _, html, _, _ = page
    assert "<script" not in html and "<link" not in html and "@import" not in html
    assert not re.search(r'(?:src|href)="(?!#)', html), "a reference to another file"
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "")


def test_the_reader_sees_the_panorama_with_every_break_lit(page):
    lang, html, text, _ = page
    seen = "".join(text.split())  # what is printed, wherever the lines broke
    assert ("机制全景" if lang == "zh" else "Thepanorama") in seen
    lit = re.findall(r'class="break" data-experiment="([^"]+)"', html)
    assert sorted(lit) == sorted(IDS)  # each experiment's break is on the picture once
    for station in ("传送带", "托盘", "门禁", "插线口") if lang == "zh" else ("trays", "gates"):
        assert station in seen


def test_the_reader_sees_the_claims_with_their_grades_and_every_transcript(page):
    lang, html, text, _ = page
    seen = "".join(text.split())  # what is printed, wherever the lines broke
    assert ("证据等级" if lang == "zh" else "grade") in seen
    assert "【一】" in seen and ("超出本章" if lang == "zh" else "beyondtheseed") in seen
    for id in IDS:
        assert f'<section class="run" id="{id}">' in html
        assert f"{id}·" in seen, f"{id}'s transcript is not visible"
    mark = "◀第一处分歧" if lang == "zh" else "◀firstdivergence"
    assert seen.count(mark) >= len(IDS)  # the break marked in every experiment


def test_chinese_is_drawn_with_a_cjk_font(page):
    lang, _, text, fonts = page
    if lang == "zh":
        assert "一个循环，和挂在它外面的东西" in "".join(text.split())
        assert re.search(r"WenQuanYi|Noto Sans CJK|Noto Serif CJK|Droid Sans Fallback", fonts)


def test_report_needs_an_existing_folder(tmp_path, capsys):
    assert main(["report", "--html", str(tmp_path / "no" / "page.html")]) == 2
    assert "no folder" in capsys.readouterr().err


# Measured in the page: how far the document reaches, and each <pre> that scrolls sideways.
MEASURE = (
    "<script>const pres = [...document.querySelectorAll('pre')];"
    "document.body.dataset.measured = JSON.stringify({page: document.documentElement.scrollWidth,"
    " view: innerWidth, pres: pres.length,"
    " scrolling: pres.filter(p => p.scrollWidth > p.clientWidth + 1).length});</script>"
)


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_side_by_side_views_fit_a_1200_px_page(tmp_path, lang, chromium):
    """The report's side-by-side runs and a notebook's, in Chromium 1200 px wide: nothing
    reaches past the page and no view scrolls sideways."""
    from lab.chapter.experiment import run_experiment, select
    from lab.notebook import Pair, experiment
    from lab.views.html_report import page

    outcomes = [run_experiment(e) for e in select(load_all(), ["D1", "D17", "D28"])]
    pair = Pair.of(experiment("D17"), lang=lang)
    pair.finish()
    notebook = pair.view()._repr_html_()  # as Jupyter shows it, in a plain page
    report = page(outcomes, lang)
    measured = {}
    for name, html in (("report", report), ("notebook", f"<body>{notebook}</body>")):
        path = tmp_path / f"{name}.html"
        path.write_text(html.replace("</body>", MEASURE + "</body>"), encoding="utf-8")
        dom = chromium(tmp_path, "--window-size=1200,900", "--dump-dom", path.as_uri())
        found = re.search(r'data-measured="([^"]+)"', dom)
        assert found, f"{name}: the page was not measured"
        measured[name] = json.loads(html_module.unescape(found.group(1)))
    for name, m in measured.items():
        assert m["pres"] >= 1, name
        assert m["page"] <= m["view"] and m["scrolling"] == 0, (name, m)


def test_a_grade_is_said_once_and_sources_are_clean_text(page):
    lang, html, _, _ = page
    beyond = "超出本章" if lang == "zh" else "beyond the seed"
    assert beyond in html
    assert not re.search(rf"{beyond}\W*beyond the seed", html)  # not "beyond the seed beyond…"
    assert "beyond the seed: real streams declare tool_use" in html or lang == "zh"
    for experiment in load_all():
        assert '"s ' not in experiment.source, experiment.id  # `the API"s`: a quote slipped


NARROW = """<script>
const out = [];
for (const c of document.querySelectorAll('table.claims th, table.claims td')) {
  const t = c.textContent.trim();
  if (!/[\\u4e00-\\u9fff]/.test(t) || t.length < 2) continue;
  const fs = parseFloat(getComputedStyle(c).fontSize), box = c.getBoundingClientRect();
  const lines = Math.round((box.height - 10) / (fs * 1.4));
  if (box.width - 14 < 1.5 * fs && lines > 1) out.push(t);
}
document.body.setAttribute('data-narrow', JSON.stringify(out));
</script>"""


def test_the_zh_claims_table_never_stacks_characters_one_per_line(tmp_path, chromium):
    """Issue 30: at 1280 px the Chinese claims table's headers stacked one character a line."""
    from lab.chapter.experiment import run_experiment
    from lab.views.html_report import page

    report = page([run_experiment(e) for e in load_all()], "zh")
    path = tmp_path / "report.html"
    path.write_text(report.replace("</body>", NARROW + "</body>"), encoding="utf-8")
    dom = chromium(tmp_path, "--window-size=1280,900", "--dump-dom", path.as_uri())
    found = re.search(r'data-narrow="([^"]*)"', dom)
    assert found, "the page was not measured"
    assert json.loads(html_module.unescape(found.group(1))) == []
