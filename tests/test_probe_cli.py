"""lab probe on the command line: usage errors in one line, exit statuses, JSON, isolation, fuzz."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from xml.etree import ElementTree

import patience
import pytest

AGENTS = Path(__file__).parent / "agents"
LAB = [sys.executable, "-m", "lab"]


def lab(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    command, environment = [*LAB, *args], {**os.environ, **(env or {})}
    return patience.run(command, 300, f"lab {' '.join(args)}", env=environment)


def said(done: subprocess.CompletedProcess) -> str:
    """What a command printed, its lines joined (the text is wrapped to the terminal's width)."""
    return " ".join(done.stdout.split())


def agent(mode: str) -> str:
    return f"{sys.executable} {AGENTS / 'hand_loop.py'} --mode {mode}"


# A test program run warm (--warm): forked from a parent that imported the SDK once, with the
# same verdicts as cold (test_probe.py's test_a_warm_start_changes_no_verdict_and_no_evidence).
# The cold path of --cmd stays covered by the tests below that do not ask for it.
WARM = "--warm"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], "name the targets one way: TARGET ..., --all or --cmd COMMAND"),
        (["lab-reference", "--all"], "name the targets one way"),
        (["nobody"], "unknown target 'nobody'; known targets: lab-reference, lab-course"),
        (["lab-reference", "--case", "P99"], "unknown case 'P99'; known cases: P1, P1s"),
        (["lab-reference", "--call", "x={}"], "--call goes with --cmd"),
        (["--cmd", "python a.py", "--call", "read_file"], "--call 'read_file': expected TOOL=JSON"),
        (["--cmd", "python a.py", "--call", "read_file={"], "the JSON does not parse"),
        (["--cmd", "python a.py", "--call", "read_file=[]"], "the JSON must be an object"),
        (["--cmd", ""], "--cmd: the command is empty"),
        (["lab-reference", "--report", "out.txt"], "the file name must end in .html"),
        (["--all", "--fuzz", "2"], "--fuzz needs one target"),
        (["lab-reference", "--final-call", "f={}"], "--final-call goes with --cmd"),
        (["--cmd", "python a.py", "--final-call", "f"], "--final-call 'f': expected TOOL=JSON"),
        (["lab-reference", "--junit", "/no/such/folder/x.xml"], "--junit /no/such/folder/x.xml"),
        (["lab-reference", "--jobs", "0"], "--jobs: 0 is less than 1"),
        (["lab-reference", "--warm"], "--warm goes with --cmd"),
        (["--cmd", "python a.py", "--warm", "--cold"], "--warm goes with --cmd, not with --cold"),
        # a program or script that is not there: a usage error, not a matrix of `not reached`
        (["--cmd", "no-such-agent --fast"], "--cmd: no program 'no-such-agent' (not found on"),
        (["--cmd", "./no-such-agent"], "--cmd: no program './no-such-agent' (no such file)"),
        (["--cmd", f"{sys.executable} no_such_agent.py"], "which does not exist"),
        (
            ["--cmd", "python " + "a" * 300 + ".py"],
            "python would run 'aaaa"
            + "a" * 36
            + "…aaaa"
            + "a" * 13
            + ".py' (303 characters), which",
        ),
        (
            ["--cmd", "a" * 300],
            "program 'a" + "a" * 39 + "…" + "a" * 20 + "' (300 characters) (not found on",
        ),
        (["--cmd", "/"], "--cmd: '/' is not an executable program"),
        # a file name that is not UTF-8 reaches Python as surrogates (os.fsdecode)
        (["--cmd", "python \udcff\udcfe.py"], "--cmd python \\xff\\xfe.py: not UTF-8 text"),
        (["--cmd", "python a.py", "--env", "A"], "argument --env: 'A': expected NAME=VALUE"),
        (["lab-reference", "--shard", "5/4"], "--shard: 5/4: K must be between 1 and N"),
        (["lab-reference", "--shard", "0/4"], "--shard: 0/4: K must be between 1 and N"),
        (["lab-reference", "--shard", "1of4"], "--shard: '1of4': expected K/N, e.g. 1/4"),
        (["lab-reference", "--fuzz", "2", "--shard", "1/2"], "--shard shares out a matrix"),
        # outputs checked before the run: a read-only file system, a folder
        (["lab-reference", "--report", "/proc/probe.html"], "/proc/probe.html: cannot write"),
        (["lab-reference", "--junit", "/proc/probe.xml"], "/proc/probe.xml: cannot write there"),
        (["lab-reference", "--junit", "/"], "--junit /: a folder, not a file"),
    ],
)
def test_usage_errors_are_one_line_and_exit_2(args, message, capsys):
    from lab.cli import main

    assert main(["probe", *args]) == 2  # before anything runs: no namespace, no trial
    printed = capsys.readouterr()
    assert printed.out == ""
    lines = printed.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("lab: error: ") and message in lines[0]


def test_a_program_that_keeps_what_it_is_probed_with_exits_0_and_one_that_fails_exits_1(
    tmp_path,
):
    kept = lab("probe", "--cmd", agent("careful"), WARM, "--case", "P1", "P2")
    assert kept.returncode == 0, kept.stdout
    assert "2 kept, 0 fail, 0 non-strict, 0 info, 0 n/a, 0 not reached" in said(kept)
    assert kept.stdout == "\n".join(line.rstrip() for line in kept.stdout.split("\n"))
    junit = tmp_path / "probe.xml"
    broke = lab(
        "probe", "--cmd", agent("trusting"), WARM, "--case", "P1", "P3", "--junit", str(junit)
    )
    assert broke.returncode == 1
    assert "P1 read fail, which it claims to keep" in said(broke)
    assert "reproduce: lab serve P1 (in a folder with notes.txt)" in said(broke)
    # JUnit: one testcase per cell, a fail as a <failure>, a non-strict as a property only
    suite = ElementTree.parse(junit).getroot().find("testsuite")
    cases = {c.get("name"): c for c in suite.iter("testcase")}
    assert sorted(cases) == ["P1 tool_use declared end_turn (JSON)", "P3 schema-invalid input"]
    p1, p3 = cases["P1 tool_use declared end_turn (JSON)"], cases["P3 schema-invalid input"]
    assert p1.find("failure").get("message") == "the call was dropped: its canary never came back"
    assert "lab serve P1" in p1.find("failure").text
    assert p3.find("failure") is None and p3.find("error") is None
    grades = {p.get("name"): p.get("value") for p in p3.iter("property")}
    assert grades["grade"] == "non-strict"
    assert (suite.get("tests"), suite.get("failures")) == ("2", "1")


def test_a_command_that_never_reaches_the_script_exits_4():
    command = f"{sys.executable} {AGENTS / 'no_v1.py'}"  # posts to /messages: the fake says 404
    done = lab("probe", "--cmd", command, "--case", "P1")
    assert done.returncode == 4, done.stdout + done.stderr
    assert "P1 not reached: tool_use declared end_turn (JSON)" in said(done)
    assert "the target never got a script answer" in said(done)


def test_lab_help_documents_exit_4():
    done = lab("--help")
    assert "  4    `lab probe --cmd`, `lab serve CASE`: the program was not reached" in done.stdout


def test_json_carries_every_cell_with_every_request_body_and_evidence():
    done = lab("probe", "lab-course", "--case", "P10", "P1b", "--json")
    assert done.returncode == 0  # the course does not claim P10
    result = json.loads(done.stdout)
    assert [c["id"] for c in result["cases"]] == ["P1b", "P10"]
    assert result["cases"][1]["grade"] == "【二】" and result["cases"][1]["outcomes"]
    (target,) = result["targets"]
    assert target["name"] == "lab-course" and target["versions"]["anthropic"]
    p10 = next(c for c in result["cells"] if c["case"] == "P10")
    assert p10["verdict"] == "fail"
    assert p10["requests"][0]["answer"].startswith("200 stage 0, attempt 1, ")
    assert "canary seen" in p10["evidence"][0]
    assert p10["exit"] == "exit status 0"
    assert p10["reproduce"].startswith("lab serve P10 ")
    # every request's body, in both answer modes: the other mode's trial is there too
    body = p10["requests"][1]["body"]
    assert body["messages"][-1]["content"][0]["tool_use_id"] == "toolu_p10_01"
    assert {p10["mode"], p10["other"]["mode"]} == {"json", "stream"}
    assert p10["other"]["requests"][0]["body"]["messages"][0]["content"].startswith("[lab probe")


def test_a_target_runs_in_a_namespace_with_only_loopback_and_a_minimal_environment():
    escape = f"{sys.executable} {AGENTS / 'escape.py'}"
    done = lab("probe", "--cmd", escape, "--case", "P1b", "--json", env={"LAB_SECRET": "x"})
    result = json.loads(done.stdout)
    assert result["isolation"] == "network namespace, interfaces: lo"
    (cell,) = result["cells"]
    assert cell["exit"] == "exit status 0", cell  # 3: it got out; 4: it saw more than it should
    assert cell["verdict"] == "kept"


def test_fuzz_prints_the_smallest_breaker_as_a_lab_serve_script(tmp_path):
    done = lab("probe", "--cmd", agent("trusting"), WARM, "--fuzz", "2")
    assert done.returncode == 1
    script = done.stdout
    assert script.startswith('"""Found by `lab probe --cmd ')
    assert "lab serve THIS_FILE.py" in script
    (tmp_path / "found.py").write_text(script)
    from lab.probe.serve import resolve

    assert resolve(str(tmp_path / "found.py"), None).responder.stages


def test_fuzz_finds_nothing_against_the_reference_harness():
    done = lab("probe", "lab-reference", "--fuzz", "3")
    assert done.returncode == 0, done.stdout
    assert done.stdout.startswith("lab-reference: none of ")


def test_without_a_namespace_the_probe_says_so_and_runs_anyway():
    bin_only = {"PATH": str(Path(sys.executable).parent)}  # no `unshare` to be found
    done = lab("probe", "lab-reference", "--case", "P1b", env=bin_only)
    assert done.returncode == 0
    assert done.stderr.splitlines() == [
        "lab probe: warning: no network isolation: no `unshare` here (Linux only)"
    ]
    assert done.stdout.startswith(
        "isolation: none (no `unshare` here (Linux only)): the targets could reach the network"
    )


def test_a_call_naming_the_scratch_folder_is_judged_as_it_was_sent():
    call = 'read_file={"path": "{dir}/notes.txt"}'
    done = lab(
        "probe", "--cmd", agent("careful"), WARM, "--call", call, "--case", "P5", "P1", "--json"
    )
    result = json.loads(done.stdout)
    assert {c["case"]: c["verdict"] for c in result["cells"]} == {"P1": "kept", "P5": "kept"}
    assert done.returncode == 0


def test_warm_makes_a_cmd_program_warm_and_reaches_the_probe_run_again():
    from lab.cli.parser import build_parser
    from lab.cli.probe_commands import chosen_targets, probe_argv

    command = f"python {AGENTS / 'hand_loop.py'}"
    args = build_parser().parse_args(["probe", "--cmd", command, "--warm"])
    (target,) = chosen_targets(args)
    assert (target.warm, target.command) == (True, True)
    assert "--warm" in probe_argv(args)  # the re-entered probe (in its namespace) starts it warm
    assert "--warm" not in probe_argv(build_parser().parse_args(["probe", "--cmd", command]))


def test_a_program_that_ignores_the_base_url_runs_from_a_wrapper_that_writes_its_config():
    """The README's worked example: config_agent.py reads its endpoint from a file in HOME, so
    on its own it is never reached; with_config.sh writes that file into the scratch HOME."""
    alone = lab("probe", "--cmd", f"{sys.executable} {AGENTS / 'config_agent.py'}", "--case", "P1")
    assert alone.returncode == 4
    assert "FileNotFoundError" in said(alone) and "config.json" in said(alone)
    wrapped = lab("probe", "--cmd", f"sh {AGENTS / 'with_config.sh'}", "--case", "P1", "P2")
    assert wrapped.returncode == 0, wrapped.stdout
    assert "2 kept, 0 fail" in said(wrapped)


def test_the_help_names_every_variable_a_cmd_program_gets(tmp_path):
    """`lab probe --help` lists a --cmd program's environment: exactly what the probe sets."""
    import re

    from lab.cli.probe_commands import PROGRAM_ENV
    from lab.probe.catalogue import CASES
    from lab.probe.confinement import Scratch, environment
    from lab.probe.targets import command_target

    target = command_target(f"{sys.executable} {AGENTS / 'hand_loop.py'}")
    given = environment(Scratch(tmp_path), "http://127.0.0.1:9", target.env, stream=True)
    asked = {name for case in CASES for name, _ in case.asks}  # set in their cases' trials only
    named = set(re.findall(r"\b[A-Z][A-Z_]+[A-Z]\b", PROGRAM_ENV)) - {"UTF"}  # C.UTF-8
    assert set(given) | asked == named and asked
    assert "LAB_PROBE_STREAM (0 or 1" in " ".join(lab("probe", "--help").stdout.split())
