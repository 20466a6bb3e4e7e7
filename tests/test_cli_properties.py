"""Generated command lines, valid and not: `lab` never shows a traceback, exits 0, 1 or 2,
and a usage error (2) is exactly one line on stderr. Output paths that cannot be written are
refused before any work and leave nothing behind; with stdout closed or full the command says
so in one line (exit 2), or printed nothing (exit 1).

The searches are replaced by instant stand-ins (a matrix that catches nothing, a hunt that
finds nothing): the property is about the command line, not about running real matrices.
"""

from __future__ import annotations

import contextlib
import json
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import lab.cli.searches as commands
from lab.chapter.experiment import load_all
from lab.classroom.exercises import EXERCISES
from lab.cli import main
from lab.kernel.switches import BOOLEAN_WORDS, switch_names
from lab.testing.search import Matrix, Row, flipped_value

IDS = [e.id for e in load_all()]
JUNK = st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc"]), max_size=12)


@pytest.fixture
def instant_searches(monkeypatch, tmp_path):
    matrix = Matrix(Row(None, None, {}), [Row(n, flipped_value(n), {}) for n in switch_names()])
    monkeypatch.setattr(commands, "kill_matrix", lambda **_: matrix)
    monkeypatch.setattr(commands, "hunt", lambda *_, **__: None)
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.chdir(tmp_path)  # relative --out / --dir land in the temp folder
    return tmp_path


ids = st.one_of(st.sampled_from(IDS), st.sampled_from(IDS).map(str.lower), JUNK)
switch_value = st.one_of(st.sampled_from(sorted(BOOLEAN_WORDS)), JUNK)
switch_name = st.one_of(st.sampled_from(switch_names()), JUNK)
switch = st.tuples(switch_name, switch_value).map(lambda nv: ["--switch", f"{nv[0]}={nv[1]}"])
numbers = st.integers(-3, 3).map(str) | JUNK
option = st.one_of(
    st.just(["--json"]),
    st.sampled_from(["en", "zh", "fr"]).map(lambda lang: ["--lang", lang]),
    st.sampled_from(["nope", ".", "missing/folder"]).map(lambda d: ["--dir", d]),
    switch,
    numbers.map(lambda n: ["--examples", n]),
    numbers.map(lambda n: ["--jobs", n]),
    st.sampled_from(["y,n", "maybe", "y,,n", ""]).map(lambda h: ["--human", h]),
    st.sampled_from(["--frobnicate", "--force", "-x", "--"]).map(lambda f: [f]),
    JUNK.map(lambda word: [word]),
    # Output files that cannot be written: a folder, no folder, a device, /proc, a wrong suffix.
    st.tuples(
        st.sampled_from(["--html", "--out", "--file"]),
        st.sampled_from([".", "missing/x.html", "/proc/x.html", "/dev/null", "/proc/x.py"]),
    ).map(list),
    st.just(["--out", "x.txt"]),  # `lab hunt` writes only .py files
)
COMMANDS = ["list", "run", "show", "compare", "switches", "matrix", "hunt", "live", "frob"]
COMMANDS += ["report", "check", "notebooks"]


@st.composite
def command_lines(draw) -> list[str]:
    command = draw(st.sampled_from(COMMANDS))
    words = [command]
    if command in ("run", "show"):
        words += draw(st.lists(ids, min_size=1, max_size=2))
    elif command == "compare":
        words.append(draw(st.sampled_from(["course", "reference", ""])))
    elif command == "hunt":
        words.append(draw(switch_name))
    elif command == "live":
        words.append(draw(JUNK))
    elif command == "check":
        words += draw(st.sampled_from([[], ["--list"], *([e] for e in EXERCISES)]))
    elif command == "notebooks":
        words.append(draw(st.sampled_from(["/proc/nb", "/dev/null"])))
    for extra in draw(st.lists(option, max_size=3)):
        words += extra
    return words


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(argv=command_lines(), stdout=st.sampled_from(["open", "open", "full", "closed"]))
def test_any_command_line_is_handled(instant_searches, capsys, argv, stdout):
    with contextlib.ExitStack() as stack:
        if stdout != "open":
            stream = None if stdout == "closed" else stack.enter_context(open("/dev/full", "w"))
            saved = sys.stdout
            stack.callback(setattr, sys, "stdout", saved)
            sys.stdout = stream  # type: ignore[assignment]
        code = main(argv)
    out, err = capsys.readouterr()
    assert code in ({"open": (0, 1, 2), "full": (1, 2), "closed": (2,)}[stdout]), (argv, code, err)
    assert "Traceback" not in out + err, argv
    if code == 2:
        lines = err.splitlines()
        assert len(lines) == 1 and lines[0].startswith(("lab: error: ", "lab：错误：")), (argv, err)
        assert out == "", argv
    elif "--json" in argv and argv[0] in ("run", "show", "compare", "switches", "matrix"):
        json.loads(out)  # stdout is JSON and nothing else
    assert list(instant_searches.iterdir()) == [], argv  # nothing written where it ran
