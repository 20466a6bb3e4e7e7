"""Chinese end to end: every command and notebook view rendered with `--lang zh` holds no English
sentence outside code. An "English sentence" is a run of three or more English words in a row;
code, ids, tool and switch names, file paths, command lines, JSON, `backticked` text and data
(a run's tool outputs, the model's text, the API's messages, quoted “…”) are not words here.
"""

from __future__ import annotations

import dataclasses
import html
import re
import tempfile
from collections.abc import Iterable
from functools import cache
from pathlib import Path

import patience
import pytest
from rich.console import Console

from lab.chapter.experiment import load_all, run_experiment
from lab.kernel.trace import (
    AnswerUnreadable,
    ApiRejected,
    CallCutOff,
    ConnectionLost,
    Event,
    HookFired,
    ModelAnswered,
    PartialAnswer,
    ResultAppended,
    RunEnded,
    RunStarted,
    StopContinued,
    ToolExecuted,
)
from lab.languages.choice import default_lang
from lab.views import transcript

# Words that are names in the lab, not prose: tools, answers the user types, stop reasons.
NAMES = {"bash", "read_file", "write_file", "edit_file", "glob", "y", "n", "N", "done"}
NAMES |= {"True", "False", "None"}  # Python's values, as the observables show them
BREAK = re.compile(
    r"[\u2e80-\u9fff\u3000-\u303f\uff00-\uffef→←◀▸■↻✓✗⚠·•|│┃┏┓┗┛━─┳┻╇┡┩┠┨╋┼┬┴└┘┌┐├┤∥…█]+"
)
WORD = re.compile(r"^\(?[A-Za-z][a-z]*(?:'[a-z]+)?[,.;:!?)]*$")
# Spans that are code or data: `code`, “data”, JSON, Switches(...), a command line.
CODE_SPANS = [
    re.compile(r"`[^`]*`"),
    re.compile(r"“[^”]*”"),
    re.compile(r"\{.*\}"),
    re.compile(r"\{\"[^}]*…"),  # JSON cut short to fit a label
    re.compile(r"Switches\([^)]*\)"),
    re.compile(r"\blab (?:show|run|check|list|report|compare|switches|notebooks)\b[^，。；）]*"),
    re.compile(r"\bpip install [^，。；）]*"),
]


# A “data” span a narrow column wrapped onto two or more lines is data all the same.
# A quoted span that a table cell wrapped; in two panes side by side a span of the right pane may
# sit inside one of the left pane's, so the innermost spans go first, again and again.
WRAPPED_DATA = re.compile(r"“[^“”]{0,600}”")  # the longest is an API 400 (~350)


def english_sentences(
    text: str, data: str = "", *, least: int = 3, names: Iterable[str] = ()
) -> list[str]:
    """Every run of `least` (three) or more English words in `text`, outside code and a part of
    `data` (a run that is part of a data string is data, even when a table cell wrapped it).
    `names`: more words that are names here (a tool's, such as hypothesis)."""
    known = NAMES | set(names)
    found = []
    text = re.sub(r"[ \t]+", " ", text)  # a pane's padding is not text
    while (unwrapped := WRAPPED_DATA.sub(" | ", text)) != text:
        text = unwrapped
    for line in text.splitlines():
        for span in CODE_SPANS:
            line = span.sub(" | ", line)
        run: list[str] = []
        for token in [*BREAK.sub(" | ", line).split(), ""]:
            if token and WORD.match(token) and token.strip("(),.;:!?") not in known:
                run.append(token)
                continue
            if len(run) >= least and " ".join(run) not in data:
                found.append(" ".join(run))
            run = []
    return found


def test_the_detector_finds_english_prose_and_lets_code_pass():
    assert english_sentences("门禁 default → allow（no rule matched）") == ["no rule matched"]
    assert english_sentences("提示：what does the schema promise?") == [
        "what does the schema promise?"
    ]
    code = '运行 `lab check m4_rule_set --init`；write_file {"path": "a b c d"} rm -rf build'
    assert english_sentences(code) == []
    assert english_sentences("改动：trust_stop_reason=True · D1 · report.md · Bash(rm *)") == []
    assert english_sentences("模型说“Summarise the report now.”") == []
    # Two panes side by side: the right pane's quote sits inside the left pane's wrapped one.
    panes = "“Blocked at:  “notes.txt\nPermission denied”（拦）  rm: cannot remove”（删）"
    assert english_sentences(panes) == []
    assert english_sentences('托盘 1：save_note {"text": "ask Li about the …') == []
    assert english_sentences("“a” but this prose stays English “b”") == [
        "but this prose stays English"
    ]
    # A short line is checked word by word; a tool's name may be named.
    line = "已写出 a.pdf（3 道题）；用 Jupyter 打开 wrote"
    assert english_sentences(line, least=1, names={"Jupyter"}) == ["wrote"]


# -- the data of every run: what the model, the world and the API said --------------------------
DATA_FIELDS: dict[type, tuple[str, ...]] = {
    RunStarted: ("prompt",),
    ApiRejected: ("message",),
    ConnectionLost: ("message",),
    AnswerUnreadable: ("message",),
    ToolExecuted: ("output",),
    ResultAppended: ("content",),
    StopContinued: ("reason",),
    RunEnded: ("detail",),
    CallCutOff: ("wire",),
}


def blanked(event: Event) -> Event:
    """The event with its data (outputs, the model's text, the API's words) replaced by X."""
    if isinstance(event, ModelAnswered | PartialAnswer):
        blocks = tuple({**b, "text": "X"} if b["type"] == "text" else b for b in event.blocks)
        return dataclasses.replace(event, blocks=blocks)
    if isinstance(event, HookFired):
        return dataclasses.replace(event, result="X" if event.result is not None else None)
    fields = DATA_FIELDS.get(type(event), ())
    return dataclasses.replace(event, **{f: "X" for f in fields if getattr(event, f)})


@cache
def outcomes():
    return [run_experiment(e) for e in load_all()]


def data_of(events: Iterable[Event]) -> set[str]:
    """Every data string of these events, each with its spaces collapsed."""
    lines = set()
    for event in events:
        values = [getattr(event, f) or "" for f in DATA_FIELDS.get(type(event), ())]
        if isinstance(event, ModelAnswered | PartialAnswer):
            values += [b.get("text", "") for b in event.blocks]
        if isinstance(event, HookFired):
            values.append(str(event.result or ""))
        lines |= {" ".join(str(v).split()) for v in values}
    return lines


@cache
def run_data() -> str:
    """Every data string of every run, a line each."""
    runs = [run for o in outcomes() for run in (o.before, o.after) if run is not None]
    return "\n".join(sorted(set().union(*(data_of(run.trace) for run in runs))))


def text_of(renderable, width: int = 200) -> str:
    console = Console(width=width, record=True, color_system=None)
    with console.capture():
        console.print(renderable)
    return console.export_text()


# -- the transcripts, run by run -----------------------------------------------------------------
@pytest.mark.parametrize("side", ["before", "after"])
def test_every_transcript_in_chinese_has_no_english_sentence(side):
    bad = {}
    for outcome in outcomes():
        run = getattr(outcome, side)
        if run is None:
            continue
        events = [blanked(e) for e in run.trace]
        shown = text_of(transcript.transcript(transcript.Facts(events, None, ()), "zh"))
        if found := english_sentences(shown):
            bad[outcome.experiment.id] = found
    assert bad == {}


def test_the_question_to_the_user_and_the_gate_reasons_read_in_chinese():
    from lab.views import harness_words as said

    question = 'bash {"command": "rm x"} (ask rule Potentially destructive command). Allow? [y/N]'
    assert said.question(question, "zh") == (
        'bash {"command": "rm x"}（询问规则 “Potentially destructive command”）。放行吗？[y/N]'
    )
    assert said.reason("the human said 'n' to no rule matched", "zh") == (
        "用户回答 'n'（针对没有规则命中）"
    )
    assert said.reason("the human said 'n' to no rule matched", "en") == (
        "the human said 'n' to no rule matched"
    )


# -- every command ---------------------------------------------------------------------------------
COMMANDS = [
    ["list"],
    ["run"],
    ["run", "D9", "--switch", "trust_stop_reason=true"],
    ["show", "D1"],
    ["show", "D4"],
    ["show", "D9"],
    ["show", "D23"],
    ["compare", "course"],
    ["switches"],
    ["check", "--list"],
    ["check", "m1_lost_call"],
    ["check", "m2_word_count"],
    ["check", "m3_chain_order"],
    ["check", "m4_rule_set"],
    ["check", "m5_stop_hook"],
    ["parts"],
    ["parts", "--diff", "course"],
]


@pytest.mark.parametrize("argv", COMMANDS, ids=" ".join)
def test_every_command_in_chinese_has_no_english_sentence(lab, monkeypatch, argv):
    monkeypatch.setenv("COLUMNS", "250")
    code, out, err = lab(*argv, "--lang", "zh")
    assert code in (0, 1), err
    assert english_sentences(out, run_data()) == []


def test_the_html_report_in_chinese_has_no_english_sentence(lab, tmp_path):
    page = tmp_path / "report.html"
    code, out, err = lab("report", "--html", str(page), "--lang", "zh")
    assert code == 0, err
    assert english_sentences(out) == []
    body = re.sub(r"<(style|script)[^>]*>.*?</\1>", " ", page.read_text(), flags=re.S)
    text = html.unescape(re.sub(r"<[^>]+>", "\n", body))
    text = "\n".join(" ".join(line.split()) for line in text.splitlines())
    assert english_sentences(text, run_data()) == []


def test_the_html_reports_claim_sources_read_in_chinese():
    """Each claim's source is on the page (not only on hover), in Chinese: quoted English is
    data in “…”."""
    from lab.views.html_report import claims_table

    table = claims_table(outcomes(), "zh")
    cells = re.findall(r'<td class="grade"[^>]*>(.*?)</td>', table)
    assert len(cells) == len(outcomes())
    bad = {}
    for outcome, cell in zip(outcomes(), cells, strict=True):
        label, _, source = html.unescape(cell).partition("：")
        found = english_sentences(source)
        if len(source) < 10 or found or label.startswith("beyond"):
            bad[outcome.experiment.id] = found or cell
    assert bad == {}


# -- commands that need set-up: the searches, the files the teacher's commands write, live ----
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
TOOLS = {"hypothesis", "Jupyter", "jupytext"}  # names of tools in the lab's Chinese lines


def english_words(text: str) -> list[str]:
    """Any English word outside code, names and data: these lines are short, so one word is
    already an English sentence left in them."""
    return english_sentences(ANSI.sub("", text), least=1, names=TOOLS)


@pytest.fixture(params=["--lang zh", "LAB_LANG=zh"])
def in_chinese(request, lab, monkeypatch):
    """`lab ARGV...` asked for Chinese: with `--lang zh`, or by default (LAB_LANG=zh, no flag)."""

    def run(*argv: str) -> tuple[int, str, str]:
        if request.param == "--lang zh":
            return lab(*argv, "--lang", "zh")
        monkeypatch.setenv("LAB_LANG", "zh")
        return lab(*argv)

    return run


def test_the_kill_matrix_and_its_progress_in_chinese_have_no_english_word(in_chinese, monkeypatch):
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.setenv("TTY_COMPATIBLE", "1")  # a terminal for rich: the progress is shown
    # One case a switch: the words do not depend on what is caught (the cells are ✗n or ·).
    code, out, err = in_chinese("matrix", "--examples", "1", "--jobs", "1")
    assert code in (0, 1), err
    assert english_words(out + err) == []
    assert "杀伤矩阵 · " in ANSI.sub("", err) and "得分：" in out


@pytest.mark.parametrize(
    ("switch", "examples", "said"),
    [("trust_stop_reason", "20", "被打破"), ("hooks_may_loosen", "2", "没有找到反例")],
)
def test_the_hunts_progress_and_result_in_chinese_have_no_english_word(
    in_chinese, monkeypatch, tmp_path, switch, examples, said
):
    """The experiment file the hunt writes is code; what it prints is not."""
    monkeypatch.setenv("TTY_COMPATIBLE", "1")
    found = tmp_path / "found.py"
    code, out, err = in_chinese("hunt", switch, "--examples", examples, "--out", str(found))
    assert code == (0 if found.exists() else 1), err
    assert english_words(out + err) == []
    assert f"追猎 {switch}" in ANSI.sub("", err) and said in err


@pytest.mark.parametrize(
    "argv",
    [["kit", "kit"], ["worksheet", "w.pdf"], ["report", "--slides", "s.html"], ["notebooks", "nb"]],
    ids=lambda argv: argv[0],
)
def test_what_the_teachers_commands_say_once_written_is_chinese(in_chinese, tmp_path, argv):
    *command, name = argv
    code, out, err = in_chinese(*command, str(tmp_path / name))
    assert code == 0, err
    assert english_words(out) == []
    assert out.startswith("已") and (tmp_path / name).exists()


def test_the_notebooks_confirmation_speaks_the_edition_named_else_the_default(monkeypatch):
    """`lab notebooks --lang` names the edition; the line follows it, else LAB_LANG/the locale."""
    monkeypatch.setenv("LAB_LANG", "zh")
    from lab.cli.teacher import notebooks_note

    english = notebooks_note(9, "en", Path("d"))
    assert english.startswith("wrote 9 notebooks (.ipynb, the en edition)")
    assert notebooks_note(9, "zh", Path("d")).startswith("已把 9 本笔记本（中文学生版，双击即开）")
    assert notebooks_note(9, None, Path("d")).startswith("已把 9 个笔记本和 README.md ")
    monkeypatch.delenv("LAB_LANG")
    assert notebooks_note(9, None, Path("d")).startswith("wrote 9 notebooks and README.md ")


def test_lab_live_in_chinese_has_no_english_sentence(in_chinese, monkeypatch):
    """Its header, the transcript, the user's missing answer and its last line: only the model's
    and the tools' words (data) stay as they are."""
    import anthropic

    from lab.kernel.live import live_run
    from lab.model import FakeMessagesAPI, ScriptedModel, text, tool_use, turn
    from lab.model.server import FakeServer

    script = [
        turn(tool_use("bash", {"command": "rm -rf /"}), tool_use("bash", {"command": "rm x"})),
        turn(text("Nothing was removed, as you asked.")),
    ]
    with FakeServer(FakeMessagesAPI(ScriptedModel(script))) as server:
        client = anthropic.Anthropic(api_key="sk-test", base_url=server.url, max_retries=0)
        harness, _ = live_run("Clean everything up.", client)
    with FakeServer(FakeMessagesAPI(ScriptedModel(script))) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        code, out, err = in_chinese("live", "Clean everything up.")
    assert code == 0, err
    assert english_sentences(out, "\n".join(data_of(harness.trace))) == []
    assert "真实模型 · claude" in out and "没有剩下的回答 → 拒绝" in out  # no --human: none left


@pytest.mark.parametrize("asked", ["--lang zh", "LAB_LANG=zh"])
def test_the_notes_lab_serve_prints_are_chinese(asked, tmp_path):
    """Its `#` lines: what is served, the rule, the canary, the replay, the idle stop. (The probe
    itself, its catalogue and the verdict lines, is outside issue 20: a case's title and rule
    are quoted as data.)"""
    import os
    import subprocess
    import sys

    import anthropic

    from lab.probe.catalogue import BY_ID

    env = {**os.environ, "LAB_LANG": "zh"} if asked == "LAB_LANG=zh" else None
    flags = ["--lang", "zh"] if asked == "--lang zh" else []
    process = subprocess.Popen(
        [sys.executable, "-m", "lab", "serve", "P1", "--until-done", "--idle", "1", *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    url = process.stdout.readline().strip().partition("=")[2]
    process.stdout.readline()
    assert url.startswith("http://127.0.0.1:"), url
    with anthropic.Anthropic(base_url=url, api_key="sk-test", max_retries=0) as client:
        client.messages.create(
            model="m", max_tokens=64, messages=[{"role": "user", "content": "hi"}]
        )
    patience.wait(process, 60, "lab serve P1 --until-done to end")
    notes = [line for line in process.stdout.read().splitlines() if line.startswith("# ")]
    case = BY_ID["P1"]
    assert english_sentences("\n".join(notes), f"{case.title}\n{case.kept_when}") == []
    starts = [
        "# 正在提供探针用例 P1",
        "# 规则：“",
        "# harness 工作目录",
        "# 脚本里的故障",
        "# 1 秒没",
    ]
    assert len(notes) == len(starts), notes
    assert all(note.startswith(start) for note, start in zip(notes, starts, strict=True)), notes


# -- the notebooks' tables and pictures ------------------------------------------------------------
def test_the_notebook_views_in_chinese_have_no_english_sentence():
    from lab import notebook
    from lab.notebook import views
    from lab.views import report

    (d12,) = [o for o in outcomes() if o.experiment.id == "D12"]
    (d3,) = [o for o in outcomes() if o.experiment.id == "D3"]
    shown = [
        report.switches_view("zh"),
        views.invariants_view("zh"),
        views.course_view("zh"),
        views.verdict(d12, "zh"),
        views.side_by_side(d12.before, d12.after, lang="zh"),
        notebook.claims(outcomes(), "zh"),
        notebook.panorama(outcomes(), "zh"),
        notebook.mechanism_map("zh"),
        notebook.timeline(d12.after, lang="zh"),
        notebook.tray_chart(d12.before, d12.after, lang="zh"),
        views.Pair.of(d12.experiment, lang="zh").step(),
        report.messages_view(d3.after.api.requests[-1]["messages"], lang="zh"),
    ]
    bad = {}
    for i, view in enumerate(shown):
        text = str(view) if isinstance(view, notebook.Picture) else text_of(view, 250)
        text = html.unescape(re.sub(r"<[^>]+>", "\n", text))
        if found := english_sentences(text, run_data()):
            bad[i] = found
    assert bad == {}


# -- the language when --lang is not given ---------------------------------------------------------
@pytest.mark.parametrize(
    ("env", "lang"),
    [
        ({}, "en"),
        ({"LANG": "C.UTF-8"}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_TW.UTF-8", "LC_ALL": "en_US.UTF-8"}, "en"),
        ({"LANG": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "zh"),
        ({"LANG": "zh_CN.UTF-8", "LAB_LANG": "en"}, "en"),
        ({"LAB_LANG": "zh"}, "zh"),
    ],
)
def test_the_default_language_follows_lab_lang_then_the_locale(env, lang):
    assert default_lang(env) == lang


def test_a_chinese_locale_makes_zh_the_default_and_lang_still_wins(lab, monkeypatch):
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert "循环判据" in lab("list")[1]
    assert "循环判据" not in lab("list", "--lang", "en")[1]
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setenv("LAB_LANG", "zh")
    assert "循环判据" in lab("list")[1]


def test_a_bad_lab_lang_is_one_usage_line(lab, monkeypatch):
    monkeypatch.setenv("LAB_LANG", "fr")
    code, out, err = lab("list")
    assert code == 2
    assert err == "lab: error: LAB_LANG=fr: expected one of en, zh\n"


# -- the answer words a student types --------------------------------------------------------
@pytest.mark.parametrize(
    ("question", "chinese", "wrong"),
    [("M1.2", "被丢弃", "执行了"), ("M3.1", "结构校验", "工具自校验"), ("M4.1", "硬拒绝", "放行")],
)
def test_a_question_accepts_the_seeds_chinese_term_for_its_answer(question, chinese, wrong):
    from lab.classroom.predict import check

    assert check(question, chinese, "zh").right
    assert not check(question, wrong, "zh").right


def test_a_word_that_stands_for_two_answers_matches_either_and_nothing_else():
    from lab.classroom.predict import same

    assert same("钩子", "hook") and same("钩子", "hooks")
    assert not same("钩子", "permission")
    assert same(" Tool Check ", "tool_check")


def test_predict_on_the_command_line_asks_and_scores_in_chinese(lab, monkeypatch):
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("False\n1\n"))
    code, out, err = lab("run", "D1", "--predict", "--lang", "zh")
    assert code == 0, err
    assert "之后？" in out and "你的预测：2 个中对了 2 个" in out
    assert english_sentences(out) == []


# -- the notebooks' OUTPUTS, as a zh student sees them when the cells run ------------------------
# Words of the lab's own views and pictures that must never reach a zh notebook's output.
VIEW_WORDS = ("reference harness", "has: text only", "virtual seconds", "tray 1", "says: ")


SOURCE_VIEW = re.compile(r'<div class="lab-source">.*?</div>', re.S)  # lab.notebook.code()


def cell_outputs(source: Path) -> list[str]:
    """Execute a notebook's source (the zh edition runs the same code cells) and return every
    output of every code cell as it came (HTML or text)."""
    import jupytext
    from nbclient import NotebookClient
    from nbclient.exceptions import CellTimeoutError

    notebook = jupytext.read(source)
    with tempfile.TemporaryDirectory(prefix="lab-zh-scan-") as folder:
        client = NotebookClient(
            notebook, timeout=int(patience.limit(600)), resources={"metadata": {"path": folder}}
        )
        try:
            client.execute()
        except CellTimeoutError:
            pytest.fail(patience.expired(f"a cell of {source.name} to run", 600))
    outputs = []
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            text = output.get("text") or data.get("text/html") or data.get("text/plain") or ""
            outputs.append("".join(text) if isinstance(text, list) else text)
    return outputs


def as_text(output: str, *, code: bool = False) -> str:
    """An output as plain text, without the lab's code that a notebook shows on purpose
    (`code(...)`, English as written); with `code`, only that code."""
    shown = "\n".join(SOURCE_VIEW.findall(output)) if code else SOURCE_VIEW.sub("", output)
    return html.unescape(re.sub(r"<[^>]+>", "\n", shown))


def notebook_outputs(source: Path) -> list[str]:
    """Every output of a notebook's code cells as plain text, the code it shows left out."""
    return [as_text(output) for output in cell_outputs(source)]


def test_only_the_lab_s_code_is_marked_as_code_and_left_out_of_the_scan():
    from lab.harness.loop import Harness
    from lab.notebook import code, outcome, turn_view

    shown = code(Harness.step)._repr_html_()
    assert shown.startswith('<div class="lab-source">') and "Harness.step" in shown
    assert "Harness.step" not in as_text(shown) and "Harness.step" in as_text(shown, code=True)
    run = turn_view(outcome("D1").before, "zh")._repr_html_()  # a run is what the scan reads
    assert "lab-source" not in run and as_text(run).count("提示词") >= 1


# Every notebook a zh class runs (08 runs the bench, whose report speaks to harness authors in
# English). Outside the lab's code a notebook shows on purpose, no English run is left: wire
# text stays exact, quoted, with its Chinese after it (benchmarks/zh_notebook_outputs.py --show
# lists any, and counts the runs inside the code shown). 01 and 05 run in the quick tier, the
# others in the slow one (each is a kernel and every cell of its notebook).
NOTEBOOKS = [
    "00_overview.py",
    "01_conveyor_belt_M1.py",
    "02_dispatch_table_M2.py",
    "03_chain_of_checks_M3.py",
    "04_gates_M4.py",
    "05_sockets_M5.py",
    "06_pairing_D3.py",
    "07_hypothesis_hunt.py",
    "09_course_beside_production.py",
]
QUICK = {"01_conveyor_belt_M1.py", "05_sockets_M5.py"}


@pytest.mark.parametrize(
    "name",
    [pytest.param(name, marks=() if name in QUICK else pytest.mark.slow) for name in NOTEBOOKS],
)
def test_a_zh_notebook_s_outputs_carry_no_english_outside_the_code_it_shows(name):
    texts = notebook_outputs(Path(__file__).resolve().parent.parent / "notebooks" / name)
    shown = "\n".join(texts)
    assert [w for w in VIEW_WORDS if w in shown] == []
    assert [run for text in texts for run in english_sentences(text)] == []
