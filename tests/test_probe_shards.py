"""lab probe --shard K/N and lab probe merge: a matrix shared out to N machines and joined back.

The deal is checked on its own (every cell in exactly one shard, each shard's load within one
cell of the others', the same deal on any machine); then a real run of the lab's own two targets
on a few cases is sharded N = 2 and N = 3 ways, merged, and compared cell by cell with the run on
one machine: the JSON, the exit status, the JUnit XML, the Markdown and the report page.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import pytest
from hypothesis import given
from hypothesis import strategies as st

from lab.probe.shards import Shard, deal, parse_shard

LAB = [sys.executable, "-m", "lab"]
AGENTS = Path(__file__).parent / "agents"
# Two targets (the reference claims every case; the course fails P3 and P10, which it does not
# claim); P1 runs in one answer mode, the others in both. No case that measures a wait: its
# seconds differ from run to run.
RUN = ["probe", "lab-reference", "lab-course", "--case", "P1", "P2", "P3", "P5", "P10"]
# What another process on the machine wrote into the temp folder or a home folder during a trial
# (sandbox.py lists those places): a fact about the machine, not about the cell.
OUTSIDE = re.compile(r"^ *wrote outside its scratch folder: .*$", re.MULTILINE)


def lab(folder: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "TMPDIR": str(folder)}
    return subprocess.run(
        [*LAB, *args], capture_output=True, text=True, cwd=folder, env=env, check=False
    )


# ---------------------------------------------------------------- the deal
@given(st.lists(st.floats(0.0, 60.0), max_size=60), st.integers(1, 8))
def test_the_deal_puts_each_cell_in_one_shard_and_balances_the_load(costs, n):
    shard_of = deal(costs, n)
    assert len(shard_of) == len(costs) and set(shard_of) <= set(range(1, n + 1))
    loads = [
        sum(c for c, k in zip(costs, shard_of, strict=True) if k == s) for s in range(1, n + 1)
    ]
    # longest first, each to the lightest: no shard ends more than one cell above another
    assert max(loads) - min(loads) <= max(costs, default=0.0) + 1e-9
    assert deal(costs, n) == shard_of  # nothing but the costs decides


def test_the_slow_cases_are_spread_over_the_shards():
    from lab.probe.bench import select_cases
    from lab.probe.shards import matrix_costs
    from lab.probe.targets import builtin

    pairs = [(t, c) for t in builtin().values() for c in select_cases([])]
    shard_of = deal(matrix_costs(pairs), 4)
    for case in ("P15", "P22"):  # the two longest: every shard gets its share of them
        counts = [
            sum(1 for (_, c), k in zip(pairs, shard_of, strict=True) if c.id == case and k == s)
            for s in (1, 2, 3, 4)
        ]
        assert max(counts) - min(counts) <= 1, (case, counts)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("0/4", "K must be between 1 and N"),
        ("5/4", "K must be between 1 and N (1/4 to 4/4)"),
        ("1/0", "K must be between 1 and N"),
        ("a/4", "expected K/N, e.g. 1/4"),
        ("1/4/2", "expected K/N"),
    ],
)
def test_a_bad_shard_is_one_line(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse_shard(text)
    assert parse_shard(" 2/4 ") == Shard(2, 4) and str(Shard(2, 4)) == "2/4"


# ---------------------------------------------------------------- a real run, sharded and merged
@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The run on one machine (as shard 1/1, with every output), and its shards for N = 2, 3."""
    folder = tmp_path_factory.mktemp("shards")
    whole = lab(
        folder, *RUN, "--shard", "1/1", "--json", "--junit", "whole.xml", "--report", "whole.html"
    )
    assert whole.returncode == 0, whole.stderr  # the course claims neither P3 nor P10
    (folder / "whole.json").write_text(whole.stdout)
    shards = {}
    for n in (2, 3):
        shards[n] = []
        for k in range(1, n + 1):
            done = lab(folder, *RUN, "--shard", f"{k}/{n}", "--json")
            assert done.returncode == 0, done.stderr
            (folder / f"{k}-of-{n}.json").write_text(done.stdout)
            shards[n].append(f"{k}-of-{n}.json")
    return folder, whole, shards


def comparable(cell: dict) -> dict:
    """A cell without what timing and the machine decide: when each request came, and what
    other processes wrote meanwhile."""
    cell = json.loads(OUTSIDE.sub("", json.dumps(cell)).replace('\\n"', '"'))
    cell["evidence"] = [line for line in cell["evidence"] if line]
    for request in cell["requests"]:
        request.pop("at")
    if "other" in cell:
        cell["other"] = comparable(cell["other"])
    return cell


def without_outside(text: str) -> str:
    return OUTSIDE.sub("", text).replace("\n\n", "\n")


def test_merging_the_one_machine_run_reproduces_its_outputs_byte_for_byte(runs):
    folder, whole, _ = runs
    merged = lab(
        folder, "probe", "merge", "whole.json", "--json", "--junit", "m.xml", "--report", "m.html"
    )
    assert merged.returncode == 0, merged.stderr
    assert (folder / "m.xml").read_text() == (folder / "whole.xml").read_text()
    assert (folder / "m.html").read_text() == (folder / "whole.html").read_text()
    result, expected = json.loads(merged.stdout), json.loads(whole.stdout)
    assert expected["run"]["shard"] == "1/1" and result["run"]["shard"] is None
    expected["run"]["shard"] = None
    assert result == expected


@pytest.mark.parametrize("n", [2, 3])
def test_the_shards_merged_are_the_run_on_one_machine_cell_by_cell(runs, n):
    folder, whole, shards = runs
    sizes = [len(json.loads((folder / name).read_text())["cells"]) for name in shards[n]]
    assert sum(sizes) == 10 and min(sizes) >= 1  # 2 targets × 5 cases, shared out
    merged = lab(
        folder, "probe", "merge", *reversed(shards[n]), "--json",
        "--junit", f"{n}.xml", "--report", f"{n}.html",
    )  # fmt: skip
    assert merged.returncode == whole.returncode == 0
    result, expected = json.loads(merged.stdout), json.loads(whole.stdout)
    assert [(c["target"], c["case"]) for c in result["cells"]] == [
        (c["target"], c["case"]) for c in expected["cells"]
    ]
    for got, want in zip(result["cells"], expected["cells"], strict=True):
        assert comparable(got) == comparable(want), (got["target"], got["case"])
    assert {c["case"]: c["verdict"] for c in result["cells"] if c["target"] == "lab-course"}[
        "P3"
    ] == "fail"
    for key in ("isolation", "targets", "cases"):
        assert result[key] == expected[key]
    for suffix in ("xml", "html"):
        got_text = without_outside((folder / f"{n}.{suffix}").read_text())
        assert got_text == without_outside((folder / f"whole.{suffix}").read_text())
    markdown = lab(folder, "probe", "merge", *shards[n], "--markdown")
    assert markdown.stdout == lab(folder, "probe", "merge", "whole.json", "--markdown").stdout
    assert "| P3 schema-invalid input | kept | **fail** |" in markdown.stdout


def test_the_exit_status_is_the_run_s(runs, tmp_path):
    """A claimed case that reads fail in one shard makes the merged run exit 1 (here the
    reference's P1, its verdict edited into a copy of the shard that holds it)."""
    folder, _, shards = runs
    names = []
    for name in shards[2]:
        result = json.loads((folder / name).read_text())
        for cell in result["cells"]:
            if (cell["target"], cell["case"]) == ("lab-reference", "P1"):
                cell["verdict"] = "fail"
        (tmp_path / name).write_text(json.dumps(result))
        names.append(str(tmp_path / name))
    merged = lab(folder, "probe", "merge", *names)
    assert merged.returncode == 1
    assert "P1 read fail, which it claims to keep" in " ".join(merged.stdout.split())


def one_line(done: subprocess.CompletedProcess) -> str:
    assert done.returncode == 2 and done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line.startswith("lab: error: ")
    return line.removeprefix("lab: error: ")


def test_shards_that_do_not_make_one_run_are_one_line_and_exit_2(runs, tmp_path):
    folder, _, shards = runs
    one, two = shards[2]
    merge = ["probe", "merge"]
    assert one_line(lab(folder, *merge, one)) == "shard 2/2 missing (give every shard of the run)"
    assert one_line(lab(folder, *merge, one, two, one)) == f"{one} and {one} are both shard 1/2"
    said = one_line(lab(folder, *merge, one, two, shards[3][2]))
    assert said == f"{shards[3][2]} and {one} are shards of different runs (shards: 3 vs 2)"
    unsharded = json.loads((folder / "whole.json").read_text())
    unsharded["run"]["shard"] = None  # what `lab probe ... --json` without --shard writes
    (tmp_path / "unsharded.json").write_text(json.dumps(unsharded))
    assert one_line(lab(folder, *merge, str(tmp_path / "unsharded.json"))).endswith(
        "unsharded.json: a whole run, not a shard (it ran without --shard K/N)"
    )
    # another version of the lab, another version of a target's library, other cases
    for change, said in (
        (lambda r: r["run"].update(lab="0.0.9"), "the lab's version: 0.0.9 vs "),
        (lambda r: r["targets"][0]["versions"].update(anthropic="0.1"), "installed versions"),
        (lambda r: r["run"]["argv"].remove("P10"), "the command: probe lab-reference"),
    ):
        result = json.loads((folder / two).read_text())
        change(result)
        (tmp_path / two).write_text(json.dumps(result))
        line = one_line(lab(folder, *merge, one, str(tmp_path / two)))
        assert line.startswith(f"{tmp_path / two} and {one} are shards of different runs (")
        assert said in line
    # a shard file holding cells that are not its shard's
    result = json.loads((folder / two).read_text())
    result["cells"] = result["cells"][1:]
    (tmp_path / two).write_text(json.dumps(result))
    line = one_line(lab(folder, *merge, one, str(tmp_path / two)))
    assert line == f"{tmp_path / two}: its cells are not shard 2/2's of this run"
    (tmp_path / "text.json").write_text("isolation: none")
    line = one_line(lab(folder, *merge, str(tmp_path / "text.json")))
    assert line == f"{tmp_path / 'text.json'}: not the JSON of `lab probe --shard K/N --json`"
    line = one_line(lab(folder, *merge, one, "--case", "P1"))
    assert line == "merge takes shard files and --json, --markdown, --report, --junit, not --case"
    assert one_line(lab(folder, *merge, one, two, "--junit", "/proc/m.xml")).startswith(
        "--junit /proc/m.xml: cannot write there"
    )


# ---------------------------------------------------------------- --env
def test_env_reaches_the_program_and_the_offline_switches_are_set(tmp_path):
    """A program that starts only when its own switch is set: without --env it is never
    reached (exit 4); with it, it keeps P1. It checks LiteLLM's offline switches too."""
    wrapper = tmp_path / "needs_switch.py"
    wrapper.write_text(
        "import os, runpy, sys\n"
        "assert os.environ.get('MY_AGENT_MODE') == 'probe', 'MY_AGENT_MODE not set'\n"
        "assert os.environ['LITELLM_OFFLINE_MODE'] == 'true'\n"
        "assert os.environ['LITELLM_LOCAL_MODEL_COST_MAP'] == 'True'\n"
        f"sys.argv = [{str(AGENTS / 'hand_loop.py')!r}, '--mode', 'careful', sys.argv[-1]]\n"
        "runpy.run_path(sys.argv[0], run_name='__main__')\n"
    )
    command = f"{sys.executable} {wrapper}"
    without = lab(tmp_path, "probe", "--cmd", command, "--case", "P1")
    assert without.returncode == 4
    assert "AssertionError: MY_AGENT_MODE not set" in without.stdout
    done = lab(tmp_path, "probe", "--cmd", command, "--env", "MY_AGENT_MODE=probe", "--case", "P1")
    assert done.returncode == 0, done.stdout
    assert "1 kept, 0 fail" in done.stdout


def test_a_cell_read_back_from_json_renders_as_the_cell_itself():
    """Every view of a cell read back by `lab probe merge` is the view of the cell as it ran,
    for a call that names the scratch folder too: the page hides the run's paths before it cuts
    a long input, so the cut falls at the same place either way."""
    from dataclasses import replace

    from lab.probe.bench import run_trial
    from lab.probe.catalogue import BY_ID
    from lab.probe.merge import cell_from_json
    from lab.probe.targets import command_target
    from lab.views.probe_html import cell_section
    from lab.views.probe_junit import testcase
    from lab.views.probe_matrix import cell_json, target_view

    program = f"{sys.executable} {AGENTS / 'hand_loop.py'} --mode careful"
    call = ("read_file", '{"path": "{dir}/notes.txt", "why": "the probe asked for it"}')
    target = replace(command_target(program), call=call, warm=False)
    cell = run_trial(target, BY_ID["P5"], stream=False)
    assert cell.trial is not None and cell.trial.hidden  # its folder, hidden as {dir}
    back = cell_from_json(json.loads(json.dumps(cell_json(cell, target))))
    assert cell_section(target, back) == cell_section(target, cell)
    assert "{dir}/notes.txt" in cell_section(target, cell)
    assert cell_json(back, target) == cell_json(cell, target)
    assert str(target_view(target, [back], 100)) == str(target_view(target, [cell], 100))
    assert ElementTree.tostring(testcase(back, target)) == ElementTree.tostring(
        testcase(cell, target)
    )
