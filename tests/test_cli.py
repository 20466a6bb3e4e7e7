"""The `lab` command end to end: exit codes, one-line usage errors, JSON, languages, presets.

A few real subprocesses (`python -m lab` from a foreign working directory, started together
so they overlap); everything else through `lab.cli.main` in-process.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import patience
import pytest

from lab.chapter.experiment import experiments_dir, load_all

ROOT = Path(__file__).resolve().parent.parent
EXPERIMENTS = load_all()
IDS = [e.id for e in EXPERIMENTS]
ROW_ID = re.compile(r"^[│ ] ?(D\d+[a-z]?) ")  # a row of a boxed table or a rule-less one


def flat(text: str) -> str:
    """Whitespace folded, so a message rich wrapped across lines can still be found."""
    return " ".join(text.split())


def one_error_line(err: str) -> str:
    """The single `lab: error: ...` line a usage error prints on stderr."""
    lines = err.splitlines()
    assert len(lines) == 1, f"expected one stderr line, got {len(lines)}:\n{err}"
    assert lines[0].startswith("lab: error: "), lines[0]
    return lines[0]


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
        out, err = patience.communicate(process, 120, f"lab {' '.join(commands[name][0])} to end")
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
    line = one_error_line(err)
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
    one_error_line(err)


def test_unknown_switch_is_a_usage_error_naming_the_known_switches(lab):
    code, out, err = lab("run", "--switch", "bogus=1", "D1")
    assert code == 2 and out == ""
    line = one_error_line(err)
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
    assert err.splitlines() == [f"{bad}:1: syntax error: '(' was never closed"]
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
    assert ids == {"D8", "D9", "D9b", "D10", "D12", "D13", "D14", "D16", "D19", "D21", "D26", "D28"}
    verdicts = {
        (cells[0], cells[1]): cells[-1]
        for line in out.splitlines()
        if ROW_ID.match(line)
        for cells in [re.split(r" {2,}", line.strip())]
    }
    # D26's degradation needs its own Edit(.env) deny rule: the course's rules have none.
    assert verdicts[("D26", "ran_denied_by_rule")] == "own rules only"
    # The workspace wall's course value holds at the pinned commit only.
    assert verdicts[("D10", "outside_reads")] == "yes †"
    assert verdicts[("D8", "run_completed")] == "yes"
    # D9: with no check of its own before the handler, the course crashes on the first
    # malformed call instead of asking about both (lab parts --diff course): a crash, not "no"
    assert verdicts[("D9", "human_prompts_for_invalid_calls")] == "crashed"
    assert "D9: the course run crashed: TypeError" in flat(out)
    assert set(verdicts.values()) <= {"yes", "yes †", "own rules only", "no", "crashed"}
    assert "own rules: the same switches with the experiment's own rules" in flat(out)
    assert "† holds at the pinned commit f9e8b28 only" in flat(out)


def test_compare_course_in_chinese_labels_both_readings(lab):
    code, out, _ = lab("compare", "course", "--lang", "zh")
    assert code == 0
    assert "实验自带规则" in flat(out) and "仅自带规则" in out and "教学版" in out
    assert "own rules" not in out and "as degraded" not in out


def test_compare_is_deterministic_in_process(lab):
    first = lab("compare", "course")
    assert lab("compare", "course") == first


# -- switch values: strict, by the switch's declared type ------------------------------------
@pytest.mark.parametrize("word", ["false", "False", "NO", "off", "0"])
def test_a_false_word_leaves_trust_stop_reason_off_and_d1_reproduces(lab, word):
    code, out, err = lab("run", "--switch", f"trust_stop_reason={word}", "D1")
    assert (code, err) == (0, "")
    assert "1 of 1 experiments reproduced" in out
    assert "baseline:" not in out  # the baseline is the reference harness: nothing changed


@pytest.mark.parametrize("word", ["true", "Yes", "ON", "1"])
def test_a_true_word_turns_trust_stop_reason_on_and_says_so_above_the_results(lab, word):
    code, out, err = lab("run", "--switch", f"trust_stop_reason={word}", "D1")
    assert (code, err) == (1, "")
    assert out.splitlines()[0] == "baseline: Switches(trust_stop_reason=False → True)"


def test_pair_protection_false_is_no_longer_a_silent_reproduction(lab):
    code, out, _ = lab("run", "--switch", "pair_protection=false", "D3")
    assert code == 1 and "✗ deviated" in out and "✓ reproduced" not in out
    assert out.startswith("baseline: Switches(pair_protection=True → False)\n")


@pytest.mark.parametrize("value", ["maybe", "", "2", "truthy", "None"])
def test_a_value_that_is_not_a_boolean_is_refused_naming_switch_value_and_words(lab, value):
    code, out, err = lab("run", "--switch", f"pair_protection={value}", "D3")
    assert code == 2 and out == ""
    line = one_error_line(err)
    assert "pair_protection" in line and repr(value) in line
    assert all(word in line for word in ("true/false", "yes/no", "on/off", "1/0"))


# -- folders ---------------------------------------------------------------------------------
def test_dir_that_is_missing_a_file_or_empty_is_a_usage_error(lab, tmp_path):
    a_file = tmp_path / "x.py"
    a_file.write_text("")
    empty = tmp_path / "empty"
    empty.mkdir()
    cases = {
        str(tmp_path / "nope"): "does not exist",
        str(a_file): "is a file",
        str(empty): "holds no experiment file",
    }
    for folder, why in cases.items():
        for argv in (
            ["run", "--dir", folder],
            ["run", "D1", "--dir", folder],
            ["list", "--dir", folder],
        ):
            code, out, err = lab(*argv)
            assert code == 2 and out == "", argv
            line = one_error_line(err)
            assert folder in line and why in line and "known ids" not in line


# -- the rerun hint is the exact command -----------------------------------------------------
def test_the_rerun_hint_carries_dir_and_switch_and_reruns_as_printed(lab, tmp_path):
    folder = tmp_path / "my experiments"  # a space: the hint must quote it
    folder.mkdir()
    (folder / "d01_copy.py").write_text(
        (experiments_dir() / "d01_trust_stop_reason.py").read_text()
    )
    code, out, _ = lab("run", "--dir", str(folder), "--switch", "trust_stop_reason=yes")
    assert code == 1
    (hint,) = [line for line in out.splitlines() if line.startswith("rerun: ")]
    argv = shlex.split(hint.removeprefix("rerun: "))
    assert argv[:3] == ["lab", "show", "D1"]
    assert "--switch" in argv and "--dir" in argv and str(folder) in argv
    code, out, err = lab(*argv[1:])
    assert (code, err) == (1, "")  # it runs as printed, and deviates the same way
    assert out.startswith("baseline: Switches(trust_stop_reason=False → True)")
    assert "✗ deviated" in out


def test_show_accepts_switch_and_dir(lab, tmp_path):
    (tmp_path / "d04.py").write_text((experiments_dir() / "d04_gate_order_correct.py").read_text())
    code, out, err = lab("show", "d4", "--dir", str(tmp_path), "--switch", "gate_order_correct=off")
    assert (code, err) == (1, "")
    assert "baseline (Switches.gate_order_correct = False)" in out


# -- exit codes ------------------------------------------------------------------------------
def test_help_and_version(lab):
    code, out, err = lab("--help")
    assert (code, err) == (0, "")
    table = out.split("exit codes:", 1)[1]
    for exit_code in ("0", "1", "2", "3", "130"):
        assert re.search(rf"^  {exit_code} +\S", table, re.MULTILINE), exit_code
    assert "closed pipe" in table
    from lab import __version__

    assert lab("--version") == (0, f"lab {__version__}\n", "")


@pytest.mark.parametrize(
    ("argv", "default"),
    [(["matrix"], "(default: 100)"), (["matrix"], "(default: "), (["hunt"], "(default: 150)")],
)
def test_numeric_options_show_their_defaults(lab, argv, default):
    code, out, _ = lab(*argv, "--help")
    assert code == 0 and default in " ".join(out.split())


@pytest.mark.parametrize(
    "argv",
    [
        ["matrix", "--examples", "-5"],
        ["matrix", "--examples", "0"],
        ["matrix", "--jobs", "0"],
        ["matrix", "--jobs", "-3"],
        ["matrix", "--jobs", "two"],
        ["hunt", "pair_protection", "--examples", "0"],
        ["hunt", "pair_protection", "--invariant", "nope"],
        ["live", "hello", "--max-turns", "0"],
        ["live", "hello", "--human", "maybe,maybe"],
        ["live", "hello", "--human", "y,yes"],
    ],
)
def test_bad_numbers_and_answers_are_refused_before_anything_runs(lab, argv, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-never-used")
    code, out, err = lab(*argv)
    assert code == 2 and out == ""
    one_error_line(err)


def test_a_bug_is_exit_3_with_one_line_and_the_traceback_in_a_temp_file(lab, monkeypatch):
    import lab.cli as cli

    def broken(args, out):
        raise ZeroDivisionError("the lab divided by zero")

    monkeypatch.setitem(cli.COMMANDS, "list", broken)
    code, out, err = lab("list")
    assert code == 3 and out == ""
    (line,) = err.splitlines()
    assert line.startswith("lab: internal error") and "ZeroDivisionError" in line
    path = Path(line.rsplit("traceback in ", 1)[1])
    try:
        assert path.parent == Path(tempfile.gettempdir())
        report = path.read_text()
        assert "Traceback (most recent call last)" in report and "def broken" not in line
        assert 'raise ZeroDivisionError("the lab divided by zero")' in report
    finally:
        path.unlink()


def test_ctrl_c_in_process_is_exit_130_in_one_line(lab, monkeypatch):
    import lab.cli as cli

    def interrupted(args, out):
        raise KeyboardInterrupt

    monkeypatch.setitem(cli.COMMANDS, "list", interrupted)
    assert lab("list") == (130, "", "lab: interrupted\n")


def test_a_ctrl_c_that_python_could_not_raise_is_delivered_again(lab, monkeypatch):
    """A KeyboardInterrupt inside a __del__ (or a gc callback, as hypothesis's) is "ignored"
    by Python, with a traceback; the lab raises it again at the next ordinary line."""
    import lab.cli as cli

    class Dropped:
        def __del__(self) -> None:
            raise KeyboardInterrupt

    def command(args, out):
        Dropped()  # its __del__ runs here, where the exception cannot propagate
        for _ in range(500):
            time.sleep(0.01)  # the interrupt arrives again during this wait (≤ 5 s)
        return 0

    monkeypatch.setitem(cli.COMMANDS, "list", command)
    code, out, err = lab("list")
    assert (code, err) == (130, "lab: interrupted\n")


# -- live mode: y/n answers only; running out is said in the transcript ----------------------
def test_live_answers_that_run_out_deny_and_say_so(lab, monkeypatch):
    from lab.model import FakeMessagesAPI, ScriptedModel, text, tool_use, turn
    from lab.model.server import FakeServer

    asks_twice = [
        turn(
            tool_use("bash", {"command": "rm notes/todo.txt"}),  # destructive: ask
            tool_use("bash", {"command": "rm README.md"}),
        ),
        turn(text("Done.")),
    ]
    api = FakeMessagesAPI(ScriptedModel(asks_twice))
    with FakeServer(api) as server:
        monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
        monkeypatch.setenv("ANTHROPIC_BASE_URL", server.url)
        code, out, err = lab("live", "Tidy up.", "--human", "Y")
    assert (code, err) == (0, "")
    said = re.findall(r"human asked “[^”]*” → (y|n|no answer left → deny)\b", flat(out))
    assert said == ["y", "no answer left → deny"], out


def test_an_error_that_follows_a_ctrl_c_is_still_an_interrupt(lab, monkeypatch):
    """A Ctrl-C inside an import comes out as a RuntimeError (from __set_name__), inside
    hypothesis as a "flaky" failure: after a Ctrl-C, any error means exit 130, not a bug."""
    import signal

    import lab.cli as cli

    def command(args, out):
        try:
            signal.raise_signal(signal.SIGINT)
        except KeyboardInterrupt as error:
            raise RuntimeError("Error calling __set_name__") from error

    monkeypatch.setitem(cli.COMMANDS, "list", command)
    assert lab("list") == (130, "", "lab: interrupted\n")


def test_the_defaults_in_help_are_the_searches_own():
    import lab.cli.parser as cli
    import lab.testing.search as search

    assert (cli.MATRIX_EXAMPLES, cli.HUNT_EXAMPLES) == (
        search.MATRIX_EXAMPLES,
        search.HUNT_EXAMPLES,
    )
