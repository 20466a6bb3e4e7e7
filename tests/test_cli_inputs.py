"""Input and environment errors are exit 2 with one line naming what and where: output paths
checked before any work starts and nothing half-written, stdout closed or full, flags before the
command, `lab check`'s and `lab hunt`'s and `lab run --predict`'s inputs. And `lab report --dir`
shows an experiment whose own code raised as `lab run` does."""

from __future__ import annotations

import errno
import io
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

import lab.chapter.experiment
import lab.cli.searches as searches
from lab.chapter.experiment import experiments_dir
from lab.cli import main

ROOT = Path(__file__).resolve().parent.parent


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lab: error: "), err
    return lines[0]


@pytest.fixture
def no_work(monkeypatch):
    """Running an experiment or a search fails the test: the check must come first."""

    def work(*_, **__):
        raise AssertionError("work started before the output path was checked")

    monkeypatch.setattr(lab.chapter.experiment, "run_experiment", work)
    monkeypatch.setattr(searches, "hunt", work)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["report", "--html", "{tmp}"], "--html {tmp}: is a folder"),
        (["report", "--html", "/proc/x.html"], "--html /proc/x.html: cannot write in /proc"),
        (["report", "--html", "{tmp}/no/x.html"], "--html {tmp}/no/x.html: no folder {tmp}/no"),
        (["report", "--html", "/dev/null"], "--html /dev/null: is not a regular file"),
        (["hunt", "workspace_wall", "--out", "/proc/x.py"], "--out /proc/x.py: cannot write"),
        (["hunt", "workspace_wall", "--out", "{tmp}"], "--out {tmp}: is a folder"),
        (["hunt", "workspace_wall", "--out", "{tmp}/x.txt"], "must end in .py"),
        (["hunt", "workspace_wall", "--invariant", "nope"], "unknown invariant 'nope'"),
        (["check", "m1_lost_call", "--init", "--file", "/proc/x.py"], "--file /proc/x.py"),
        (["check", "m1_lost_call", "--file", "{tmp}"], "{tmp} is a folder"),
        (["check", "--list", "m9_nothing"], "unknown exercise 'm9_nothing'"),
        (["check", "--list", "--init"], "cannot go with --init"),
        (["notebooks", "/proc/notebooks"], "/proc/notebooks"),
        (["--nosuchflag"], "unrecognized arguments: --nosuchflag"),
        (["--version", "extra"], "invalid choice: 'extra'"),
        (["--version", "list"], "--version takes nothing else"),
        ([], "name a command"),
    ],
)
def test_a_bad_input_is_one_line_before_any_work(argv, said, tmp_path, capsys, no_work):
    before = sorted(tmp_path.iterdir())
    code = main([a.format(tmp=tmp_path) for a in argv])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert said.format(tmp=tmp_path) in one_line(err)
    assert sorted(tmp_path.iterdir()) == before  # nothing half-written, no .partial


def test_a_failed_write_after_the_work_leaves_no_partial_file(tmp_path, capsys, monkeypatch):
    def full(self, target):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "replace", full)
    page = tmp_path / "page.html"
    assert main(["report", "--html", str(page), "--dir", str(tmp_path / "d")]) == 2  # no dir
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "d04.py").write_text(
        (experiments_dir() / "d04_gate_order_correct.py").read_text()
    )
    capsys.readouterr()
    assert main(["report", "--html", str(page), "--dir", str(tmp_path / "d")]) == 2
    assert f"--html {page}: No space left on device" in one_line(capsys.readouterr().err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d"]


@pytest.mark.parametrize("argv", [["list"], ["switches", "--json"], ["--version"]])
def test_stdout_full_or_closed_is_one_line_exit_2(argv, capsys, monkeypatch):
    with open("/dev/full", "w") as full:
        monkeypatch.setattr(sys, "stdout", full)
        assert main(argv) == 2
    assert "cannot write to stdout: No space left on device" in one_line(capsys.readouterr().err)
    monkeypatch.setattr(sys, "stdout", None)
    assert main(argv) == 2
    assert "stdout is closed" in one_line(capsys.readouterr().err)


def test_a_real_full_disk_under_stdout_is_exit_2_without_a_traceback():
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-m", "lab", "list"], stdout=full, stderr=subprocess.PIPE, text=True
        )
    assert done.returncode == 2
    assert "cannot write to stdout: No space left on device" in one_line(done.stderr)


RAISING = """\
from lab.chapter.experiment import Experiment
from lab.model import text, turn
from lab.kernel.scenario import Scenario


def measure(run):
    raise ValueError("the observable broke")


EXPERIMENT = Experiment(
    id="D93",
    mechanism="M3",
    title={"en": "t", "zh": "t"},
    takeaway={"en": "t", "zh": "t"},
    flips={"pair_protection": False},
    scenario=Scenario(script=[turn(text("hi"))]),
    expect={"measured": (True, False)},
    observables={"measured": measure},
)
"""


def test_report_shows_an_experiment_whose_code_raised_as_run_does(tmp_path, capsys):
    folder = tmp_path / "mine"
    folder.mkdir()
    (folder / "d04.py").write_text((experiments_dir() / "d04_gate_order_correct.py").read_text())
    (folder / "d93.py").write_text(RAISING)
    page = tmp_path / "page.html"
    assert main(["report", "--html", str(page), "--dir", str(folder)]) == 2  # as `lab run`
    assert "wrote" in capsys.readouterr().out
    text = page.read_text()
    line = f"{folder / 'd93.py'}:7: D93: ValueError while measuring measured: the observable broke"
    assert text.count(f"✗ error: {line}") == 2  # in the claims table and under its heading
    assert 'id="D4"' in text and "Traceback" not in text


def test_a_one_ingredient_case_is_singular(capsys, monkeypatch):
    finding = SimpleNamespace(invariant=SimpleNamespace(title="deny holds"), size=1)
    monkeypatch.setattr(searches, "hunt", lambda *_, **__: finding)
    monkeypatch.setattr(searches, "render", lambda *_: "# the case\n")
    monkeypatch.setattr(searches, "reproduces", lambda path: True)
    assert main(["hunt", "workspace_wall", "--examples", "1"]) == 0
    err = capsys.readouterr().err
    assert "(1 ingredient)" in err and "ingredients" not in err


@pytest.mark.parametrize("answer", [")))(((", "", "[1, 2", "'half"])
def test_predict_refuses_an_answer_that_is_not_a_value(answer, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{answer}\n1\n"))
    assert main(["run", "D1", "--predict"]) == 2
    assert f"D1 ran_late_tool: {answer!r} is not a value" in one_line(capsys.readouterr().err)


@pytest.mark.parametrize("answer", ["False", "dropped", "(1, 2)", "it is lost"])
def test_predict_takes_a_literal_or_plain_words(answer, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.StringIO(f"{answer}\n1\n"))
    assert main(["run", "D1", "--predict"]) == 0
    assert "your predictions:" in capsys.readouterr().out


def test_check_list_with_an_id_shows_only_that_exercise(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "100")
    assert main(["check", "--list", "m4_rule_set"]) == 0
    out = capsys.readouterr().out
    assert "m4_rule_set" in out and "m1_lost_call" not in out
