"""Chinese `--help` and error lines: under LAB_LANG=zh (or `--lang zh` anywhere on the command
line) every command's help and every line on stderr holds no English sentence outside code, and
an error is still exactly one line with exit 2. The English lines stay as they were."""

from __future__ import annotations

import argparse
import os
import subprocess
import sys

import pytest
from test_cli_inputs import no_work  # noqa: F401 - the fixture: no work before the check
from test_cli_inputs import test_a_bad_input_is_one_line_before_any_work as english_bad_inputs
from test_zh import english_sentences

import lab.cli.dispatch as dispatch
from lab.cli import main
from lab.cli.error_words import line_in_zh
from lab.cli.help_words import HELP, TITLES, cells, help_in_zh, help_texts, parsers
from lab.cli.parser import build_parser
from lab.cli.probe_commands import peers_install
from lab.kernel.switches import switch_names
from lab.languages.choice import chosen_lang
from lab.testing.invariants import BY_NAME

# Names the lab lists in an error line ("known invariants: no_crash, pairing, continuation, …"):
# ids, not prose.
KNOWN_NAMES = ", ".join([*BY_NAME, *switch_names()])
# tests/test_cli_inputs.py's table of bad inputs, (argv, what the English line says).
BAD_INPUTS = english_bad_inputs.pytestmark[0].args[1]
# argparse's own errors, and the values its types refuse.
ARGPARSE_ERRORS = [
    ["run", "--switch"],
    ["run", "--switch", "nope=1"],
    ["run", "--switch", "trust_stop_reason=maybe"],
    ["run", "--switch", "no_equals"],
    ["matrix", "--examples", "0"],
    ["matrix", "--examples", "many"],
    ["compare", "nope"],
    ["compare"],
    ["report"],
    ["report", "--html", "a.html", "--slides", "b.html"],
    ["serve", "--port", "70000"],
    ["serve", "--port", "eighty"],
    ["hunt", "no_such_switch"],
    ["list", "--lang", "fr"],
    ["peers"],
    ["list", "--nosuchflag", "x"],
]
COMMANDS = [p.prog.split()[1:] for p in parsers(build_parser())]


@pytest.fixture
def zh(monkeypatch):
    monkeypatch.setenv("LAB_LANG", "zh")


def test_every_help_text_has_its_chinese():
    missing = [
        text
        for _, attribute, text in help_texts(build_parser())
        if (TITLES.get(text) if attribute == "title" else help_in_zh(text)) is None
    ]
    assert missing == []


def test_every_chinese_help_text_is_still_used():
    shown = {text for _, _, text in help_texts(build_parser())}
    if peers_install() is None:  # a checkout without the peers has no `lab peers`
        shown |= {text for text in HELP if "a peer " in text}
    assert sorted(set(HELP) - shown) == []


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
@pytest.mark.parametrize("how", ["LAB_LANG=zh", "--lang zh"])
def test_help_is_chinese(command, how, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "80")
    if how == "LAB_LANG=zh":
        monkeypatch.setenv("LAB_LANG", "zh")
        argv = [*command, "--help"]
    else:  # after --help, where argparse never reads it (not every command has --lang)
        argv = [*command, "--help", "--lang", "zh"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    usage, _, rest = out.partition("\n\n")  # the usage line is a command line: code
    assert usage.startswith("用法：lab") and "选项：" in rest
    assert english_sentences(rest) == []
    # wrapped by columns, not characters: a Chinese character is two columns wide
    assert max(cells(line) for line in out.splitlines()) <= 80


@pytest.mark.parametrize("command", COMMANDS, ids=" ".join)
def test_help_stays_english_without_chinese(command, capsys):
    assert main([*command, "--help"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("usage: lab") and "show this help message and exit" in out


def test_lang_en_wins_over_lab_lang_zh(zh, capsys):
    assert main(["run", "--lang", "en", "--switch", "x"]) == 2
    err = capsys.readouterr().err
    assert err == "lab: error: argument --switch: 'x': expected NAME=VALUE (see 'lab run --help')\n"


def one_chinese_line(err: str, data: str = "") -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lab：错误："), err
    assert english_sentences(lines[0], data) == [], lines[0]
    return lines[0]


@pytest.mark.usefixtures("no_work")
@pytest.mark.parametrize(("argv", "said"), BAD_INPUTS)
def test_a_bad_input_is_one_chinese_line(argv, said, zh, tmp_path, capsys):
    code = main([a.format(tmp=tmp_path) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    one_chinese_line(err, KNOWN_NAMES)


@pytest.mark.parametrize("argv", ARGPARSE_ERRORS, ids=" ".join)
def test_argparse_errors_are_one_chinese_line(argv, zh, capsys):
    assert main(argv) == 2
    line = one_chinese_line(capsys.readouterr().err, KNOWN_NAMES)
    assert line.endswith(" --help'）")  # where to read more, in Chinese too


def test_stdout_full_or_closed_is_one_chinese_line(zh, capsys, monkeypatch):
    with open("/dev/full", "w") as full:
        monkeypatch.setattr("sys.stdout", full)
        assert main(["list"]) == 2
    assert "无法写入 stdout：设备上没有空间" in one_chinese_line(capsys.readouterr().err)
    monkeypatch.setattr("sys.stdout", None)
    assert main(["list"]) == 2
    assert "stdout 已关闭" in one_chinese_line(capsys.readouterr().err)


def test_an_interrupt_and_a_bug_are_chinese(zh, capsys, monkeypatch):
    def interrupted(args: argparse.Namespace, out: object) -> int:
        raise KeyboardInterrupt

    def broken(args: argparse.Namespace, out: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setitem(dispatch.COMMANDS, "list", interrupted)
    assert main(["list"]) == 130
    assert capsys.readouterr().err == "lab：已中断\n"
    monkeypatch.setitem(dispatch.COMMANDS, "list", broken)
    monkeypatch.setattr(dispatch, "bug_report", lambda: "/tmp/lab-error-x.txt")
    assert main(["list"]) == 3
    err = capsys.readouterr().err
    what = "ZeroDivisionError: division by zero"
    assert err == f"lab：内部错误（实验室自身的缺陷）：{what}；回溯信息在 /tmp/lab-error-x.txt\n"
    assert english_sentences(err, "division by zero") == []


# An experiment file wrong in every field the loader checks, and one whose code raises.
BAD_EXPERIMENT = """\
from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario

EXPERIMENT = Experiment(
    id="X1", mechanism="M9", title={"en": "t"}, takeaway={"en": "t", "zh": "t"},
    flips={"no_such_switch": True, "trust_stop_reason": 1}, grade="Z", source="",
    scenario=Scenario(
        [42], prompt=3, max_turns=0, stream="yes", hooks=[1], human=["maybe"],
        files={1: 2}, permissions=Permissions(deny=["Bash(("], default="maybe"),
    ),
    expect={"nothing": (1, 2), "turns": 5},
)
"""


def test_every_problem_of_an_experiment_file_is_one_chinese_line(zh, tmp_path, capsys):
    (tmp_path / "x1.py").write_text(BAD_EXPERIMENT)
    (tmp_path / "x2.py").write_text("import nothing_here\n")
    assert main(["list", "--dir", str(tmp_path)]) == 2
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 19  # one a problem: 18 in x1.py, x2.py's import
    raised = "ModuleNotFoundError: No module named 'nothing_here'"
    for line in lines:
        assert line.startswith(f"{tmp_path}/x"), line  # FILE:LINE first, as in English
        assert english_sentences(line, raised) == [], line
    assert lines[-1].endswith(f"x2.py:1：代码抛出了 {raised}")


@pytest.mark.parametrize(
    ("english", "chinese"),
    [
        ("x.py:3: syntax error: invalid syntax", "x.py:3：语法错误：invalid syntax"),
        ("--out /a b.py: No space left on device", "--out /a b.py：设备上没有空间"),
        (
            "argument --lang: invalid choice: 'fr' (choose from 'en', 'zh')",
            "参数 --lang：无效的选择：'fr'（可选：'en', 'zh'）",
        ),
    ],
)
def test_a_line_carries_its_data_across(english, chinese):
    assert line_in_zh(english) == chinese


def test_a_line_no_pattern_knows_stays_english(zh, capsys, monkeypatch):
    assert line_in_zh("something entirely new went wrong") is None
    assert line_in_zh("argument --x: something entirely new went wrong") is None  # inner unknown


@pytest.mark.parametrize(
    ("argv", "lang"),
    [
        (["run", "--lang", "zh"], "zh"),
        (["run", "--lang=zh", "D1"], "zh"),
        (["hunt", "x", "--lang", "zh", "--lang", "en"], "en"),  # the last one, as argparse reads
        (["run", "--", "--lang", "zh"], "en"),  # after `--` it is an argument, not a flag
        (["run", "--lang", "fr"], "en"),  # not a language: the default
        (["run", "--lang"], "en"),
    ],
)
def test_the_language_of_help_and_errors_is_the_last_lang_flag(argv, lang):
    assert chosen_lang(argv) == lang


def test_ctrl_c_while_the_command_is_still_loading_is_said_in_chinese(tmp_path):
    from test_cli_process import LOADING  # a Ctrl-C sent while `lab.cli` is being imported

    env = {**os.environ, "LAB_LANG": "zh"}
    done = subprocess.run(
        [sys.executable, "-c", LOADING, "list"], cwd=tmp_path, env=env, capture_output=True
    )
    assert (done.returncode, done.stderr.decode()) == (130, "lab：已中断\n")
