"""The `lab` command end to end: exit codes, one-line usage errors, JSON, languages, presets.

A few real subprocesses (`python -m lab` from a foreign working directory, started together
so they overlap); everything else through `lab.cli.main` in-process.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from lab.cli import main
from lab.experiment import experiments_dir, load_all

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = load_all()
IDS = [e.id for e in EXPERIMENTS]
ROW_ID = re.compile(r"^│ (D\d+[a-z]?) +│")


def flat(text: str) -> str:
    """Whitespace folded, so a message rich wrapped across lines can still be found."""
    return " ".join(text.split())


def table_ids(text: str) -> list[str]:
    return [m.group(1) for line in text.splitlines() if (m := ROW_ID.match(line))]


# -- subprocesses: `python -m lab` from any working directory ---------------------------------
@pytest.fixture(scope="module")
def subprocess_runs(tmp_path_factory):
    """`lab run --json` once and `lab run` twice (different hash seeds), all at the same time,
    from an empty folder that holds no experiments."""
    cwd = tmp_path_factory.mktemp("elsewhere")
    env = {**os.environ, "COLUMNS": "100", "PYTHONPATH": str(ROOT)}
    commands = {
        "json": (["run", "--json"], "0"),
        "text1": (["run"], "1"),
        "text2": (["run"], "2"),
    }
    started = {
        name: subprocess.Popen(
            [sys.executable, "-m", "lab", *argv],
            cwd=cwd,
            env={**env, "PYTHONHASHSEED": seed},
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        for name, (argv, seed) in commands.items()
    }
    finished = {}
    for name, process in started.items():
        out, err = process.communicate(timeout=120)
        finished[name] = (process.returncode, out, err)
    assert list(cwd.iterdir()) == []  # nothing was written where the command ran
    return finished


def test_run_json_from_another_directory_prints_only_json_and_everything_reproduces(
    subprocess_runs,
):
    code, out, err = subprocess_runs["json"]
    assert code == 0, err.decode()
    assert err == b""
    report = json.loads(out)  # the whole of stdout parses: nothing but JSON on it
    assert [e["id"] for e in report["experiments"]] == IDS
    assert (
        report["total"]
        == report["reproduced"]
        == len(IDS)
        == len(list(experiments_dir().glob("[!_]*.py")))
    )
    for experiment in report["experiments"]:
        assert experiment["reproduced"] is True, experiment["id"]
        assert experiment["base"] == {}
        assert all(row["ok"] for row in experiment["observables"])
        assert experiment["title"]["zh"] and experiment["title"]["en"]


def test_run_text_is_byte_identical_across_processes(subprocess_runs):
    code1, out1, err1 = subprocess_runs["text1"]
    code2, out2, err2 = subprocess_runs["text2"]
    assert code1 == code2 == 0
    assert err1 == err2 == b""
    assert out1 == out2
    summary = f"{len(IDS)} of {len(IDS)} experiments reproduced their expected degradation."
    assert summary in out1.decode()
    assert "lab show" not in out1.decode()


# -- in-process ------------------------------------------------------------------------------
@pytest.fixture
def lab(capsys, monkeypatch):
    """Run `lab ARGV...` in-process; returns (exit code, stdout, stderr)."""
    monkeypatch.setenv("COLUMNS", "100")

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


def one_line(err: str) -> str:
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one stderr line, got {len(lines)}:\n{err}"
    assert lines[0].startswith("lab: error: ")
    return lines[0]


def test_run_selected_ids_runs_just_those(lab):
    code, out, err = lab("run", "--json", "D1", "d4")
    assert code == 0 and err == ""
    report = json.loads(out)
    assert [e["id"] for e in report["experiments"]] == ["D1", "D4"]
    assert report["total"] == report["reproduced"] == 2


def test_run_text_prints_only_the_selected_experiments(lab):
    code, out, _ = lab("run", "D4", "D1")
    assert code == 0
    assert "2 of 2 experiments reproduced" in out
    headings = re.findall(r"^(D\d+[a-z]?) · M\d", out, re.MULTILINE)
    assert headings == ["D4", "D1"]


def test_unknown_id_is_a_usage_error_naming_the_known_ids(lab):
    code, out, err = lab("run", "D1", "D99")
    assert code == 2
    assert out == ""  # D1 did not run and print before the error
    line = one_line(err)
    assert "D99" in line
    for experiment_id in IDS:
        assert re.search(rf"\b{experiment_id}\b", line), experiment_id


@pytest.mark.parametrize(
    "argv",
    [
        ["run", "--frobnicate"],
        ["frobnicate"],
        [],
        ["run", "--lang", "fr"],
        ["compare", "nonsense"],
        ["show"],
        ["run", "--switch", "no_equals_sign"],
    ],
)
def test_bad_flags_are_usage_errors_on_one_line(lab, argv):
    code, out, err = lab(*argv)
    assert code == 2
    assert out == ""
    one_line(err)


def test_unknown_switch_is_a_usage_error_naming_the_known_switches(lab):
    code, out, err = lab("run", "--switch", "bogus=1", "D1")
    assert code == 2 and out == ""
    line = one_line(err)
    assert "bogus" in line and "trust_stop_reason" in line and "stop_hook_guard" in line


def test_a_changed_baseline_makes_d1_deviate_and_names_the_rerun_command(lab):
    code, out, err = lab("run", "--switch", "trust_stop_reason=True", "D1", "D4")
    assert code == 1 and err == ""
    assert "1 of 2 experiments reproduced" in out
    assert "lab show D1" in out
    assert "lab show D4" not in out


def test_a_changed_baseline_shows_in_the_json(lab):
    code, out, _ = lab("run", "--json", "--switch", "trust_stop_reason=True", "D1")
    assert code == 1
    (d1,) = json.loads(out)["experiments"]
    assert d1["base"] == {"trust_stop_reason": True}
    assert d1["reproduced"] is False


def test_a_malformed_file_in_dir_is_one_line_with_its_path_and_nothing_is_written(lab, tmp_path):
    good = tmp_path / "d04_copy.py"
    good.write_text((experiments_dir() / "d04_gate_order_correct.py").read_text())
    bad = tmp_path / "d99_bad.py"
    bad.write_text("EXPERIMENT = (\n")
    code, out, err = lab("run", "--dir", str(tmp_path))
    assert code == 2
    assert out == ""  # not even the well-formed experiment ran
    assert str(bad) in one_line(err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["d04_copy.py", "d99_bad.py"]


def test_a_copy_with_a_wrong_expectation_deviates(lab, tmp_path):
    source = (experiments_dir() / "d19_parallel_batches.py").read_text()
    assert '"makespan_s": (1.0, 8.0)' in source
    wrong = source.replace('"makespan_s": (1.0, 8.0)', '"makespan_s": (1.0, 7.0)')
    (tmp_path / "d19_wrong.py").write_text(wrong)
    code, out, err = lab("run", "--dir", str(tmp_path))
    assert code == 1 and err == ""
    assert "0 of 1 experiments reproduced" in out
    assert "lab show D19" in out


def test_list_shows_every_id_grouped_by_mechanism(lab):
    code, out, err = lab("list")
    assert code == 0 and err == ""
    groups: dict[str, str] = {}
    order: list[str] = []
    current = None
    for line in out.splitlines():
        if heading := re.match(r"^(M[1-5]) · ", line):
            current = heading.group(1)
            order.append(current)
        elif row := ROW_ID.match(line):
            assert row.group(1) not in groups, f"{row.group(1)} listed twice"
            groups[row.group(1)] = current
    assert groups == {e.id: e.mechanism for e in EXPERIMENTS}
    assert order == sorted(set(order)) == sorted({e.mechanism for e in EXPERIMENTS})


def test_show_d23_contains_the_fake_api_s_real_400_text(lab):
    code, out, err = lab("show", "D23")
    assert code == 0 and err == ""
    expected = (
        "`tool_use` ids were found without `tool_result` blocks immediately after: "
        "toolu_002. Each `tool_use` block must have a corresponding `tool_result` block "
        "in the next message."
    )
    assert flat(expected) in flat(out)
    assert "API 400 invalid_request_error" in out


def test_run_in_chinese_prints_the_chinese_title(lab):
    code, out, _ = lab("run", "--lang", "zh", "D4")
    assert code == 0
    assert "权限闸门顺序倒置" in out
    assert "复现" in out
    assert "reproduced" not in out


def test_compare_course_lists_the_course_gaps_experiments_only(lab):
    code, out, err = lab("compare", "course")
    assert code == 0 and err == ""
    ids = set(table_ids(out))
    assert {"D12", "D16"} <= ids
    assert "D4" not in ids
    # D11 is not here: the course's substring deny list denies `ls && rm -rf /` (moot switch).
    assert ids == {"D8", "D9", "D10", "D12", "D13", "D14", "D16", "D19", "D21", "D26", "D28"}
    row_verdicts = [
        line.rstrip().rstrip("│").split("│")[-1].strip()
        for line in out.splitlines()
        if ROW_ID.match(line)
    ]
    assert row_verdicts and set(row_verdicts) == {"yes"}


def test_compare_is_deterministic_in_process(lab):
    first = lab("compare", "course")
    assert lab("compare", "course") == first
