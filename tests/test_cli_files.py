"""Experiment files are checked field by field: each problem is one `FILE:LINE: what` line,
every problem of every file is reported at once (exit 2), and an experiment whose own code
raises while running is that experiment's error while the others still run.
"""

from __future__ import annotations

import json
import os
import re
import warnings
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lab.chapter.experiment import ExperimentFileError, experiments_dir, load_all, load_file

# Every field on a line of its own, so a problem can be pinned to its line.
TEMPLATE = """\
from lab.chapter.experiment import Experiment
from lab.model import text, tool_use, turn
from lab.kernel.scenario import Scenario

EXPERIMENT = Experiment(
    id={id},
    mechanism={mechanism},
    title={title},
    takeaway={{"en": "t", "zh": "t"}},
    flips={flips},
    scenario=Scenario(
        script={script},
        files={files},
        human={human},
        max_turns={max_turns},
        stream={stream},
    ),
    expect={expect},
)
"""
LINE = {
    "id": 6,
    "mechanism": 7,
    "title": 8,
    "flips": 10,
    "script": 12,
    "files": 13,
    "human": 14,
    "max_turns": 15,
    "stream": 16,
    "expect": 18,
}
GOOD = {
    "id": '"D90"',
    "mechanism": '"M3"',
    "title": '{"en": "t", "zh": "t"}',
    "flips": '{"pair_protection": False}',
    "script": '[turn(text("hi"))]',
    "files": '{"a.txt": "A"}',
    "human": '["y"]',
    "max_turns": "3",
    "stream": "False",
    "expect": '{"pairs_intact": (True, True)}',
}
# field -> wrong values, each with a fragment its one-line message contains
BAD = {
    "id": [("92", "id 92"), ('"X1"', "id 'X1'")],
    "mechanism": [('"M9"', "mechanism 'M9'"), ("3", "mechanism 3")],
    "title": [('{"en": "t"}', "title needs both"), ('"a title"', "title needs both")],
    "flips": [
        ("None", "flips is None"),
        ('{"pair_protection": "no"}', "pair_protection to 'no', not a bool"),
        ('{"pair_protection": 0}', "not a bool"),
        ('{"no_such_switch": True}', "unknown switch 'no_such_switch'"),
        ("{}", "flips no switch"),
    ],
    "script": [
        ('"not a list"', "script is 'not a list'"),
        ('[turn(tool_use("bash", ["ls"]))]', "input ['ls'] is not a mapping"),
        ('[turn(tool_use("bash", {}, raw_json="{"))]', "raw_json is only streamed"),
        ('["hello"]', "script step 'hello' is not a Turn"),
    ],
    "files": [('{"a.txt": 5}', "files is {'a.txt': 5}"), ('["a.txt"]', "files is ['a.txt']")],
    "human": [('"yes"', "human is 'yes'"), ('["maybe"]', "human is ['maybe']")],
    "max_turns": [("0", "max_turns is 0"), ("-1", "max_turns is -1"), ('"3"', "max_turns is '3'")],
    "stream": [('"yes"', "stream is 'yes'")],
    "expect": [
        ('[("pairs_intact", (True, False))]', "expect is [("),
        ('{"pairs_intact": [True, False]}', "not a (before, after) pair"),
        ('{"no_such_observable": (1, 2)}', "unknown observable 'no_such_observable'"),
        ("{}", "expects nothing"),
    ],
}
PROBLEM = re.compile(r"^(?P<path>.+\.py):(?P<line>\d+): (?P<what>.+)$")


def write(folder: Path, name: str, **fields: str) -> Path:
    path = folder / name
    path.write_text(TEMPLATE.format(**(GOOD | fields)))
    return path


def test_the_template_is_well_formed(tmp_path):
    assert load_file(write(tmp_path, "d90.py")).id == "D90"


CASES = [(field, value, fragment) for field, bad in BAD.items() for value, fragment in bad]


@pytest.mark.parametrize(("field", "value", "fragment"), CASES)
def test_each_wrong_field_is_one_line_at_its_line(lab, tmp_path, field, value, fragment):
    path = write(tmp_path, "d90.py", **{field: value})
    code, out, err = lab("run", "--dir", str(tmp_path))
    assert code == 2 and out == ""
    (line,) = err.splitlines()
    assert line.startswith(f"{path}:{LINE[field]}: "), line
    assert fragment in line


def test_every_problem_of_every_file_at_once(lab, tmp_path):
    (tmp_path / "d04.py").write_text((experiments_dir() / "d04_gate_order_correct.py").read_text())
    first = write(tmp_path, "d90.py", id="92", files='{"a.txt": 5}', max_turns="0")
    second = write(tmp_path, "d91.py", id='"D91"', flips="None", script='"not a list"')
    (tmp_path / "d92.py").write_text("import no_such_module\n")
    code, out, err = lab("list", "--dir", str(tmp_path))
    assert code == 2 and out == ""
    seen = [(m["path"], int(m["line"])) for m in map(PROBLEM.match, err.splitlines())]
    assert seen == [
        (str(first), LINE["id"]),
        (str(first), LINE["files"]),
        (str(first), LINE["max_turns"]),
        (str(second), LINE["flips"]),
        (str(second), LINE["script"]),
        (str(tmp_path / "d92.py"), 1),
    ]
    assert "ModuleNotFoundError: No module named 'no_such_module'" in err


def test_a_file_that_raises_on_import_names_the_line_that_raised(tmp_path):
    path = tmp_path / "d90.py"
    path.write_text("x = 1\n\ny = x / 0\n")
    with pytest.raises(ExperimentFileError) as caught:
        load_file(path)
    assert caught.value.lines == [f"{path}:3: ZeroDivisionError: division by zero"]


def test_two_files_with_one_id(lab, tmp_path):
    write(tmp_path, "d90.py")
    copy = write(tmp_path, "d90_copy.py")
    code, _, err = lab("list", "--dir", str(tmp_path))
    assert code == 2
    assert err.splitlines() == [
        f"{copy}:{LINE['id']}: id D90 is already used by {tmp_path / 'd90.py'}"
    ]


def test_tool_use_with_a_list_input_is_refused_at_load_without_a_pydantic_warning(tmp_path):
    path = write(tmp_path, "d90.py", script='[turn(tool_use("bash", ["ls"]))]')
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any warning (pydantic's serializer one) fails here
        with pytest.raises(ExperimentFileError, match="is not a mapping"):
            load_file(path)


def test_raw_json_loads_when_the_scenario_streams(tmp_path):
    path = write(
        tmp_path, "d90.py", script='[turn(tool_use("bash", {}, raw_json="{"))]', stream="True"
    )
    assert load_file(path).scenario.stream is True


# -- errors while running: that experiment's, one line; the others still run ------------------
RAISING = """\
from lab.chapter.experiment import Experiment
from lab.model import text, turn
from lab.kernel.scenario import Scenario


def measure(run):
    raise ValueError("the observable broke")


def tools(world):
    return [1 / 0]


EXPERIMENT = Experiment(
    id="D93",
    mechanism="M3",
    title={{"en": "t", "zh": "t"}},
    takeaway={{"en": "t", "zh": "t"}},
    flips={{"pair_protection": False}},
    scenario=Scenario(script=[turn(text("hi"))]{tools}),
    expect={{"measured": (True, False)}},
    observables={{"measured": measure}},
)
"""


@pytest.mark.parametrize(
    ("tools", "line", "what"),
    [
        ("", 7, "ValueError while measuring measured: the observable broke"),
        (", tools=tools", 11, "ZeroDivisionError while running the scenario: division by zero"),
    ],
)
def test_an_experiment_whose_code_raises_is_its_own_error(lab, tmp_path, tools, line, what):
    (tmp_path / "d04.py").write_text((experiments_dir() / "d04_gate_order_correct.py").read_text())
    broken = tmp_path / "d93.py"
    broken.write_text(RAISING.format(tools=tools))
    code, out, err = lab("run", "--dir", str(tmp_path))
    assert code == 2 and err == ""
    assert f"✗ error: {broken}:{line}: D93: {what}" in " ".join(out.split())
    assert "1 of 2 experiments reproduced" in out  # D4 still ran, and reproduced
    assert "Traceback" not in out
    code, out, _ = lab("run", "--json", "--dir", str(tmp_path))
    report = {e["id"]: e for e in json.loads(out)["experiments"]}
    assert code == 2
    assert report["D4"]["reproduced"] is True and report["D4"]["error"] is None
    assert report["D93"]["reproduced"] is False
    assert report["D93"]["error"] == f"{broken}:{line}: D93: {what}"


def test_the_shipped_experiments_are_all_well_formed():
    assert load_all()  # loading checks every field of every file


# -- generated malformed files ----------------------------------------------------------------
@st.composite
def malformed(draw) -> dict[str, tuple[str, str]]:
    """One to four fields made wrong at once, each with the fragment its message contains."""
    fields = draw(st.lists(st.sampled_from(sorted(BAD)), min_size=1, max_size=4, unique=True))
    return {field: draw(st.sampled_from(BAD[field])) for field in fields}


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(wrong=malformed())
def test_generated_malformed_files_get_one_line_per_problem(lab, tmp_path, wrong):
    path = write(tmp_path, "d90.py", **{field: value for field, (value, _) in wrong.items()})
    code, out, err = lab("list", "--dir", str(tmp_path))
    assert code == 2 and out == ""
    lines = err.splitlines()
    assert lines and all((m := PROBLEM.match(line)) and m["path"] == str(path) for line in lines), (
        err
    )
    for field, (_, fragment) in wrong.items():
        assert any(
            line.startswith(f"{path}:{LINE[field]}: ") and fragment in line for line in lines
        ), (field, err)
    assert "Traceback" not in err


def test_a_file_edited_within_the_same_second_is_read_again(lab, tmp_path):
    # Same size, same modification time: cached bytecode would run the old text.
    path = write(tmp_path, "d90.py", id='"D91"')
    stamp = path.stat().st_mtime_ns
    assert "D91" in lab("list", "--dir", str(tmp_path))[1]
    write(tmp_path, "d90.py", id='"D92"')
    os.utime(path, ns=(stamp, stamp))
    code, out, _ = lab("list", "--dir", str(tmp_path))
    assert code == 0 and "D92" in out and "D91" not in out
