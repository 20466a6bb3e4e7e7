"""The kill matrix scores 100 %: every switch's fault is caught by some invariant and the
reference harness breaks none; `lab matrix` and `lab hunt` end to end.
"""

from __future__ import annotations

import json

import pytest
from rich.cells import cell_len

import lab.cli.searches as commands
from lab.chapter.experiment import load_file, run_experiment
from lab.cli import main
from lab.kernel.switches import switch_names
from lab.testing.invariants import INVARIANTS
from lab.testing.search import Finding, hunt, kill_matrix, matrix_row


@pytest.fixture(scope="module")
def matrix():
    return kill_matrix(jobs=2)  # the same settings as `lab matrix`


HUNTS: dict[tuple, Finding | None] = {}  # (switch, invariant, examples) -> what it found


@pytest.fixture
def hunt_once(monkeypatch):
    """`lab hunt` runs each distinct hunt once in this file: a hunt is deterministic, and the
    tests that repeat one are about what the command does with it (ids, --force, the file)."""

    def remembered(switch, *, invariant=None, examples, tick=None):
        key = (switch, invariant, examples)
        if key not in HUNTS:
            HUNTS[key] = hunt(switch, invariant=invariant, examples=examples, tick=tick)
        return HUNTS[key]

    monkeypatch.setattr(commands, "hunt", remembered)


def test_every_fault_in_the_lab_is_caught_by_an_invariant(matrix):
    uncaught = [row.switch for row in matrix.rows if not row.caught]
    assert uncaught == [] and matrix.score == 1
    assert [row.switch for row in matrix.rows] == switch_names()


def test_the_reference_harness_breaks_no_invariant(matrix):
    assert {name: f.reason for name, f in matrix.reference.findings.items()} == {}


def test_counterexamples_are_small(matrix):
    sizes = [f.size for row in matrix.rows for f in row.findings.values()]
    assert max(sizes) <= 12


def test_a_row_is_the_same_every_time():
    first, second = (matrix_row("pair_protection", examples=20) for _ in range(2))
    assert {k: repr(f.case) for k, f in first.findings.items()} == {
        k: repr(f.case) for k, f in second.findings.items()
    }


@pytest.mark.parametrize("width", [80, 100, 120])
def test_lab_matrix_fits_the_terminal_with_a_legend(matrix, monkeypatch, capsys, width):
    monkeypatch.setattr(commands, "kill_matrix", lambda **_: matrix)  # computed once above
    monkeypatch.setenv("COLUMNS", str(width))
    assert main(["matrix"]) == 0
    out, err = capsys.readouterr()
    assert max(cell_len(line.rstrip()) for line in out.splitlines()) <= width
    assert "…" not in out
    n = len(switch_names())
    assert f"score: {n}/{n} switches caught (100%)" in " ".join(out.split())
    for name in switch_names():
        assert f"{name}=" in out
    legend = " ".join(out.split("invariants:", 1)[1].split())
    for number, invariant in enumerate(INVARIANTS, start=1):
        assert f"{number}={invariant.name}" in legend
    broken = {f"✗{f.size}" for row in matrix.rows for f in row.findings.values()}
    assert broken and all(cell in out for cell in broken) and "·" in out
    assert "Traceback" not in err


def test_lab_matrix_json(matrix, monkeypatch, capsys):
    monkeypatch.setattr(commands, "kill_matrix", lambda **_: matrix)
    assert main(["matrix", "--json", "--examples", "7"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["examples"] == 7
    assert [i["name"] for i in report["invariants"]] == [i.name for i in INVARIANTS]
    assert report["reference"] == {"broken": {}}
    assert [r["switch"] for r in report["rows"]] == switch_names()
    n = len(switch_names())
    assert (report["caught"], report["total"], report["score"]) == (n, n, 1.0)
    for row, shown in zip(matrix.rows, report["rows"], strict=True):
        assert shown["caught"] is True and shown["value"] == row.value
        assert {k: v["size"] for k, v in shown["broken"].items()} == {
            k: f.size for k, f in row.findings.items()
        }


# ---- lab hunt ------------------------------------------------------------------------------
def test_hunt_rediscovers_d4_and_writes_a_reproducing_experiment(tmp_path, capsys):
    path = tmp_path / "d4h.py"
    assert main(["hunt", "gate_order_correct", "--out", str(path)]) == 0
    experiment = load_file(path)
    assert experiment.id == "D4h" and dict(experiment.flips) == {"gate_order_correct": False}
    assert experiment.expect["deny_dominance_holds"] == (True, False)
    assert run_experiment(experiment).reproduced
    assert [p.name for p in tmp_path.iterdir()] == ["d4h.py"]  # no temp file left behind
    out, err = capsys.readouterr()
    assert out == "" and "wrote" in err


def test_hunt_prints_the_experiment_on_stdout_without_out(capsys):
    assert main(["hunt", "trust_stop_reason", "--examples", "40"]) == 0
    out, _ = capsys.readouterr()
    namespace: dict = {}
    exec(compile(out, "hunted.py", "exec"), namespace)
    assert namespace["EXPERIMENT"].flips == {"trust_stop_reason": True}


def test_hunt_refuses_to_overwrite_without_force(tmp_path, capsys, hunt_once):
    path = tmp_path / "taken.py"
    path.write_text("keep me\n")
    assert main(["hunt", "pair_protection", "--out", str(path)]) == 2
    assert path.read_text() == "keep me\n"
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--force" in err
    assert main(["hunt", "pair_protection", "--out", str(path), "--force", "--examples", "40"]) == 0
    assert load_file(path).id == "D3h"
    # Overwriting keeps the id: the file it replaces does not count as taken.
    assert main(["hunt", "pair_protection", "--out", str(path), "--force", "--examples", "40"]) == 0
    assert load_file(path).id == "D3h"


def test_two_hunts_into_one_folder_get_distinct_ids(tmp_path, capsys, hunt_once):
    for name in ("first.py", "second.py", "third.py"):
        assert (
            main(["hunt", "pair_protection", "--examples", "40", "--out", str(tmp_path / name)])
            == 0
        )
    ids = [load_file(tmp_path / name).id for name in ("first.py", "second.py", "third.py")]
    assert ids == ["D3h", "D3h2", "D3h3"]
    assert main(["run", "--dir", str(tmp_path)]) == 0  # the folder runs: no duplicate id
    assert "3 of 3 experiments reproduced" in capsys.readouterr().out


def test_hunt_names_the_known_switches_for_an_unknown_one(capsys):
    assert main(["hunt", "no_such_switch"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and all(name in err for name in switch_names())


def test_a_failed_write_leaves_no_file(tmp_path, monkeypatch):
    def broken_check(path):
        raise RuntimeError("disk full")

    monkeypatch.setattr(commands, "reproduces", broken_check)
    with pytest.raises(RuntimeError):
        commands.write_atomically("EXPERIMENT = None\n", tmp_path / "x.py", force=False)
    assert list(tmp_path.iterdir()) == []


def test_hunt_for_one_invariant():
    finding = hunt("course_hook_semantics", invariant="context", examples=60)
    assert finding is not None and finding.invariant.name == "context"
    assert finding.case.hooks == ("style_guide",)
