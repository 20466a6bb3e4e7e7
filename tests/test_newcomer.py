"""What a newcomer hit on a fresh clone, each fixed: the README's copy-paste lines run as pasted
(the venv's Python, a serve recipe that waits for the line it reads), `lab serve --json` gives
the canary, `lab report` never writes over a file unasked and says on stderr why it exits 2,
`--lang` may come before the command, and a Chinese locale gets the Chinese students' edition."""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from lab.chapter.experiment import experiments_dir
from lab.cli import main
from lab.probe.serve import resolve
from lab.views.serve_log import ServeLog

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
HAND_LOOP = ROOT / "tests" / "agents" / "hand_loop.py"
CANARY_COMMAND = re.compile(r"echo .* > notes.txt")  # what the README's recipe greps for


# ---- the README's copy-paste lines -------------------------------------------------------------
def test_a_cmd_that_runs_a_program_of_this_repository_uses_the_venvs_python():
    """The quick start never activates the venv: a bare `python` is the system's (exit 4)."""
    ours = []
    for command in re.findall(r"--cmd '([^']+)'", README):
        program, *words = shlex.split(command)
        if any((ROOT / word).is_file() and word.endswith(".py") for word in words):
            ours.append(command)
            assert program == ".venv/bin/python", command
    assert ours  # the README does show one


def serve_recipe() -> str:
    section = README.split("### Evidence and the report", 1)[1]
    return re.search(r"From one terminal:\n\n```bash\n(.*?)```", section, re.DOTALL).group(1)


def test_the_serve_recipe_waits_for_the_line_it_reads_not_for_a_time(tmp_path):
    recipe = serve_recipe()
    assert not re.search(r"\bsleep [1-9]", recipe), recipe
    lab = f"{shlex.quote(sys.executable)} -m lab"
    harness = f"{shlex.quote(sys.executable)} {shlex.quote(str(HAND_LOOP))} --mode careful"
    script = re.sub(r"^lab ", f"{lab} ", recipe, flags=re.M).replace("python my_agent.py", harness)
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANTHROPIC_")}
    env["PYTHONPATH"] = str(ROOT)  # the lab of this checkout, from the temp folder
    done = subprocess.run(
        ["bash", "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("verdict: 2 request(s)"), done.stdout  # the verdict, whole
    assert "\nP1 kept:" in done.stdout and "canary: came back" in done.stdout


# ---- lab serve --json ----------------------------------------------------------------------------
def intro(ident: str, as_json: bool, capsys) -> list[str]:
    ServeLog(as_json).intro(resolve(ident, None), "http://127.0.0.1:1")
    return capsys.readouterr().out.splitlines()


def test_serve_json_prints_the_canary_as_plain_serve_does(capsys):
    plain = intro("P1", False, capsys)
    lines = intro("P1", True, capsys)
    assert lines[:4] == plain[:4]  # the export lines, both wires
    (canary,) = [json.loads(line) for line in lines[4:]]  # then JSON only
    (said,) = [line for line in plain if "notes.txt" in line]
    assert canary["notes"] == CANARY_COMMAND.search(said).group()
    assert canary["notes"] == f"echo {canary['canary']} > notes.txt"
    (grepped,) = CANARY_COMMAND.findall("\n".join(lines))  # the README's grep finds it
    assert grepped == canary["notes"]


def test_serve_json_of_an_experiment_has_no_canary(capsys):
    assert len(intro("D1", True, capsys)) == 4  # the export lines only


# ---- lab report ----------------------------------------------------------------------------------
@pytest.fixture
def one_experiment(tmp_path) -> Path:
    folder = tmp_path / "experiments"
    folder.mkdir()
    d4 = experiments_dir() / "d04_gate_order_correct.py"
    (folder / "d04.py").write_text(d4.read_text())
    return folder


@pytest.mark.parametrize("flag", ["--html", "--slides"])
@pytest.mark.parametrize("name", ["notes.txt", "page.html"])
def test_report_never_writes_over_a_file_unless_forced(flag, name, one_experiment, capsys):
    page = one_experiment.parent / name
    page.write_text("my own notes\n")
    assert main(["report", flag, str(page), "--dir", str(one_experiment)]) == 2
    (err,) = capsys.readouterr().err.splitlines()
    assert err == f"lab: error: {flag} {page}: the file exists; pass --force to overwrite it"
    assert page.read_text() == "my own notes\n"
    assert main(["report", flag, str(page), "--dir", str(one_experiment), "--force"]) == 0
    assert page.read_text().startswith("<!DOCTYPE html>")


RAISES = """\
from lab.chapter.experiment import Experiment
from lab.model import text, turn
from lab.kernel.scenario import Scenario


def measure(run):
    raise KeyError("nothing here")


EXPERIMENT = Experiment(
    id="D94",
    mechanism="M1",
    title={"en": "t", "zh": "t"},
    takeaway={"en": "t", "zh": "t"},
    flips={"trust_stop_reason": True},
    scenario=Scenario(script=[turn(text("hi"))]),
    expect={"measured": (True, False)},
    observables={"measured": measure},
)
"""


@pytest.mark.parametrize("flag", ["--html", "--slides"])
def test_report_of_an_experiment_that_raises_says_so_on_stderr(flag, one_experiment, capsys):
    (one_experiment / "d94.py").write_text(RAISES)
    page = one_experiment.parent / "page.html"
    assert main(["report", flag, str(page), "--dir", str(one_experiment)]) == 2
    out, err = capsys.readouterr()
    (line,) = err.splitlines()
    where = f"{one_experiment / 'd94.py'}:7: D94"
    assert line == f"lab: error: {where}: KeyError while measuring measured: 'nothing here'"
    assert page.exists() and out  # the page is written, the others shown


# ---- the language --------------------------------------------------------------------------------
@pytest.mark.parametrize("before", [["--lang", "zh"], ["--lang=zh"]])
def test_lang_before_the_command_is_the_same_as_after_it(before, lab):
    code, out, err = lab(*before, "list")
    assert (code, out, err) == lab("list", "--lang", "zh")
    assert code == 0 and "传送带" in out


def test_lang_before_no_command_asks_for_a_command_in_chinese(lab):
    code, out, err = lab("--lang", "zh")
    assert code == 2 and err.startswith("lab：错误：") and len(err.splitlines()) == 1


def test_a_chinese_locale_writes_the_students_edition_as_lang_zh_does(tmp_path, monkeypatch):
    assert main(["notebooks", "--lang", "zh", str(tmp_path / "asked")]) == 0
    assert main(["notebooks", str(tmp_path / "both")]) == 0  # the English locale: bilingual
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert main(["notebooks", str(tmp_path / "locale")]) == 0

    def files(name: str) -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in (tmp_path / name).iterdir()}

    assert files("locale") == files("asked")
    assert files("both") != files("asked")
    monkeypatch.setenv("LAB_LANG", "en")  # English asked for: both languages again
    assert main(["notebooks", str(tmp_path / "en")]) == 0
    assert files("en") == files("both")
