"""A wheel is whole: what a student needs ships in it and every hint names what works from a
wheel and a checkout alike. The wheel itself is built, installed in a fresh venv and run by
tests/wheel_check.py, a step of .ci/run (a venv and an install take a minute or more); here its
command list is kept equal to the README's table, and each piece it relies on is checked."""

from __future__ import annotations

import importlib.util
import re
import tomllib
from pathlib import Path

from lab.classroom.exercises import EXERCISES, check, starters_dir
from lab.cli import main
from lab.cli.commands import notebooks_dir
from lab.cli.teacher import kit_dir
from lab.probe.peers import PEERS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")


def wheel_check():
    spec = importlib.util.spec_from_file_location("wheel_check", ROOT / "tests" / "wheel_check.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def readme_commands() -> set[str]:
    """The first word after `lab` of every command in the README's command table."""
    table = README.split("## Commands", 1)[1].split("\n#", 1)[0]
    return {m.group(1) for m in re.finditer(r"^\| `lab ([\w-]+)", table, re.M)}


def test_the_wheel_check_runs_every_command_of_the_readme_table():
    ran = {argv[0] for argv, _, _ in wheel_check().COMMANDS.values()}
    assert readme_commands() and readme_commands() <= ran
    assert {"--init", "--list"} <= {
        w for argv, _, _ in wheel_check().COMMANDS.values() for w in argv
    }


def test_the_wheel_carries_the_starters_and_the_notebooks():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    shipped = config["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    assert shipped == {"experiments": "lab/experiments", "exercises": "lab/starters",
                       "notebooks": "lab/notebook_sources",
                       "docs/teacher": "lab/teacher_kit"}  # fmt: skip
    # Installed, the lab looks for them exactly there; a checkout has them at the root.
    assert starters_dir() == ROOT / "exercises" and notebooks_dir() == ROOT / "notebooks"
    assert kit_dir() == ROOT / "docs" / "teacher"
    assert {"lesson-plan.md", "worksheet-zh.pdf", "worksheet-en.pdf"} <= {
        p.name for p in kit_dir().iterdir()
    }
    for exercise in EXERCISES.values():
        assert (starters_dir() / exercise.file).is_file()


def test_init_copies_the_starter_here_and_check_checks_that_copy(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["check", "m3_chain_order", "--init"]) == 0
    copy = tmp_path / "m3_chain_order.py"
    assert copy.read_text() == (starters_dir() / "m3_chain_order.py").read_text()
    copy.write_text('ORDER = ["known_tool", "validation", "tool_check", "hooks", "permission"]\n')
    capsys.readouterr()
    assert main(["check", "m3_chain_order"]) == 0  # the edited copy, not the lab's starter
    out = capsys.readouterr().out
    assert str(copy) in out and "4 of 4 checks pass" in out and "--init" not in out
    assert main(["check", "m3_chain_order", "--init"]) == 2  # never over the student's work
    assert "m3_chain_order.py exists" in capsys.readouterr().err
    assert copy.read_text().startswith("ORDER = [")


def test_checking_the_lab_s_own_starter_says_how_to_get_a_copy(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    assert main(["check", "m1_lost_call"]) == 1
    out = capsys.readouterr().out
    assert "`lab check m1_lost_call --init` copies it" in out
    assert list(tmp_path.iterdir()) == []


def test_lab_notebooks_writes_them_out_and_never_over_a_file(tmp_path, capsys):
    target = tmp_path / "class"
    assert main(["notebooks", str(target)]) == 0
    written = sorted(p.name for p in target.iterdir())
    assert written == sorted(p.name for p in notebooks_dir().glob("[0-9][0-9]_*.py")) + [
        "README.md"
    ]
    assert len(written) == 11
    (target / "01_conveyor_belt_M1.py").write_text("# my notes\n")
    assert main(["notebooks", str(target)]) == 2
    assert (target / "01_conveyor_belt_M1.py").read_text() == "# my notes\n"
    assert main(["notebooks", str(target / "README.md")]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 2 and "exists" in err[0] and "is a file" in err[1]


def test_hints_name_what_works_from_a_wheel(tmp_path, monkeypatch, capsys):
    hints = " ".join(r.hint or "" for id in EXERCISES for r in check(id))
    assert "(notebook 01" in hints and "`lab notebooks` writes the notebooks out" in hints
    monkeypatch.setenv("COLUMNS", "300")
    assert main(["check", "--list"]) == 0
    assert "exercises/" not in capsys.readouterr().out  # a folder only a checkout has


def test_a_missing_peer_names_its_own_pinned_distributions(monkeypatch):
    import lab.probe.peers as peers

    monkeypatch.setattr(peers, "installed_version", lambda distribution: None)
    pins = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    for name, target in PEERS.items():
        if any(d.startswith("npm:") for d in target.distributions) or name == "claude-code":
            continue  # installed by `lab peers install NAME`, not pip
        line = target.missing()
        assert line is not None and line.startswith("not installed: pip install ")
        assert "harness-lab" not in line  # no such distribution on the package index
        for distribution in target.distributions:
            pinned = [p for p in pins["peers"] if re.match(rf"{distribution}(\[|=)", p)]
            assert (pinned[0] if pinned else distribution) in line, (name, line)
