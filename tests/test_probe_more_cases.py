"""The later probe cases (P13-P23): the lab's own harness keeps each one, a harness broken on
purpose gets the grade the case's rule gives it, and the permission contract reaches programs."""

from __future__ import annotations

import sys
import types
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest

from lab.model import rate_limited, turn
from lab.probe import more_cases
from lab.probe.bench import probe_pairs
from lab.probe.cases import judge
from lab.probe.conversation import Played, Stage
from lab.probe.grades import FAIL, INFO, KEPT, NON_STRICT
from lab.probe.more_cases import (
    ENDLESS,
    MORE_BY_ID,
    MORE_CASES,
    OUTCOMES,
    RETRY_AFTER,
    TOLERANCE,
)
from lab.probe.target import CONTRACT_ENV, HUMAN_LOG, OFFLINE_SWITCHES
from lab.probe.targets import command_target, lab_target
from lab.probe.trial import Exchange, Exit, Setting, Trial

AGENTS = Path(__file__).parent / "agents"
READ_NOTES = ("read_file", '{"path": "notes.txt"}')
DENY_TOUCH = ("shell", '{"command": "touch denied.canary"}')
FOREVER_LIMIT = 20.0  # seconds: the time limit of the harness that retries forever


def faulty(mode: str):
    # Forked from a warm parent, as the lab's own harness is: the same verdicts (test_probe.py's
    # test_a_warm_start_changes_no_verdict_and_no_evidence), no cold SDK import per trial.
    program = f"{sys.executable} {AGENTS / 'faulty_loop.py'} --mode {mode}"
    return replace(command_target(program), warm=True)


def approving(mode: str):
    program = f"{sys.executable} {AGENTS / 'approving_loop.py'} --mode {mode}"
    return replace(command_target(program, READ_NOTES, denied_call=DENY_TOUCH), warm=True)


# (case, the harness that misses it, the grade, a line its verdict must hold)
BREAKERS = [
    ("P13", faulty("strip-text"), NON_STRICT, "answer 1's text was dropped, changed or moved"),
    ("P13", faulty("rename"), FAIL, "missing from the history (no toolu_p13_01)"),
    ("P13", faulty("rewrite"), FAIL, "answer 1's tool_use was rewritten"),
    ("P14", faulty("hasty"), NON_STRICT, "retry-after ignored: asked again 0."),
    ("P14", lab_target("reference", "retry_transient_errors=false"), NON_STRICT, "not retried"),
    ("P15", faulty("quiet"), FAIL, "yet exited 0 (success)"),
    ("P16", faulty("raw"), FAIL, "crashed parsing the HTML page as JSON"),
    ("P16", lab_target("reference", "retry_transient_errors=false"), NON_STRICT, "never retried"),
    ("P17", faulty("retry-400"), NON_STRICT, "the identical request was sent again after the 400"),
    ("P17", faulty("quiet"), FAIL, "success reported after a failure"),
    ("P18", faulty("quiet"), NON_STRICT, "the paused text presented as final (exit 0)"),
    ("P18", faulty("extra"), NON_STRICT, "went on, but not from the paused turn as is (user"),
    ("P19", faulty("quiet"), NON_STRICT, "a half answer presented as final (exit 0)"),
    ("P20", faulty("quiet"), NON_STRICT, "the refusal is not reported"),
    ("P20", faulty("extra"), NON_STRICT, "went on with the refused turn still in the history"),
    ("P21", faulty("extra"), NON_STRICT, "1 request(s) after the final answer"),
    ("P22", faulty("trim"), FAIL, "unexpected `tool_use_id`"),
    ("P23", lab_target("reference", "validate_before_gate=false"), FAIL, "the human was asked"),
    ("P23", approving("gate-first"), FAIL, "the human log .lab-probe-human.log: written"),
    ("P23", approving("lose"), FAIL, "the malformed call toolu_p23_01 got no result"),
]
# A program that keeps a case another way than the lab's harness does.
P23_ANSWERED = "request #2 answers toolu_p23_01: a tool_result, is_error true"
KEEPERS = [
    ("P13", faulty("careful"), "text and tool_use, in order, same ids and inputs"),
    ("P17", faulty("drop-beta"), "changed: the anthropic-beta header"),
    ("P19", faulty("extra"), "the cut answer was continued to its end"),
    ("P23", approving("careful"), "the human log .lab-probe-human.log: absent"),
    ("P23", approving("ask-first"), P23_ANSWERED),
]


@pytest.fixture(scope="module")
def probed():
    """Every pair below in one probe run; beside it, the program that retries forever, which
    waits out its own time limit (its wait overlaps the run instead of following it)."""
    reference = lab_target("reference")
    pairs = [(reference, case) for case in MORE_CASES]
    pairs += [(target, MORE_BY_ID[case]) for case, target, _, _ in BREAKERS]
    pairs += [(target, MORE_BY_ID[case]) for case, target, _ in KEEPERS]
    pairs += [(faulty("careful"), MORE_BY_ID["P23"])]
    with ThreadPoolExecutor(max_workers=1) as beside:
        forever = beside.submit(
            probe_pairs, [(faulty("forever"), MORE_BY_ID["P15"])], timeout=FOREVER_LIMIT
        )
        cells = {(c.target, c.case): c for c in probe_pairs(pairs)}
        (cell,) = forever.result()
    return cells, cell


@pytest.fixture(scope="module")
def cells(probed):
    return probed[0]


def said(verdict) -> str:
    return "\n".join((verdict.because, *verdict.evidence))


def test_the_reference_harness_keeps_every_later_case(cells):
    verdicts = {c.id: cells[("lab-reference", c.id)].verdict for c in MORE_CASES}
    assert {case: v.kind for case, v in verdicts.items()} == {c.id: KEPT for c in MORE_CASES}
    assert "retry-after said 1 s" in verdicts["P14"].because
    assert verdicts["P15"].because == "gave up after 6 tries and said so (exit not 0)"
    assert "the final answer was cut off by max_tokens" in said(verdicts["P19"])
    assert "the model refused" in said(verdicts["P20"])
    assert P23_ANSWERED in verdicts["P23"].evidence


@pytest.mark.parametrize(("case", "target", "kind", "line"), BREAKERS)
def test_each_later_case_grades_the_harness_that_misses_it(cells, case, target, kind, line):
    verdict = cells[(target.name, case)].verdict
    assert verdict.kind == kind, verdict
    assert line in said(verdict), verdict


@pytest.mark.parametrize(("case", "target", "line"), KEEPERS)
def test_a_harness_that_keeps_a_case_its_own_way_is_kept(cells, case, target, line):
    verdict = cells[(target.name, case)].verdict
    assert verdict.kind == KEPT, verdict
    assert line in said(verdict), verdict


def test_a_harness_that_retries_a_529_forever_fails_at_the_time_limit(probed):
    _, cell = probed  # probed alone with a 20 s limit
    assert cell.trial.exit.timeout == FOREVER_LIMIT
    assert cell.verdict.kind == FAIL, cell.verdict
    assert cell.verdict.because.startswith("still asking at the time limit")


def test_d9_is_na_for_a_program_without_a_permission_system(cells):
    verdict = cells[(faulty("careful").name, "P23")].verdict
    assert (verdict.kind, verdict.because) == (
        "n/a",
        "the target declares no deny rule to test (no permission system)",
    )


# ---- judges on hand-made records: the thresholds are where the rules say ----------------------
def record(*requests: tuple[int, str, float], status: int | None = 0) -> Trial:
    """A trial from (stage, kind, arrival time) per request, for the judges' edges."""
    setting = Setting("P14", "canary", ("read_file", {}), None, "[m]", "[m] go")
    stages = [Stage(turn("x"), fault=rate_limited(RETRY_AFTER)), Stage(turn("done."))]
    exchanges = [
        Exchange(
            n,
            "POST",
            "/v1/messages",
            {},
            200,
            "",
            Played(n, stage, n, kind, fault(stages[stage], kind), False, n > 1),
            at,
        )
        for n, (stage, kind, at) in enumerate(requests, 1)
    ]
    return Trial("t", setting, stages, exchanges, Exit(status, "", 5.0))


def fault(stage: Stage, kind: str):
    """What a request at `stage` was played: the stage's fault (the 429 and its retry-after)."""
    return stage.fault if kind == "fault" else stage.answer


def waits_graded(module=more_cases) -> list[str]:
    """The P14 judge on waits at the tolerance's edge: (wanted, got) grades."""
    within = RETRY_AFTER - TOLERANCE + 0.01
    short = RETRY_AFTER - TOLERANCE - 0.01
    kept = record((0, "fault", 10.0), (0, "answer", 10.0 + within), (1, "answer", 12.0))
    hasty = record((0, "fault", 10.0), (0, "answer", 10.0 + short), (1, "answer", 12.0))
    given_up = record((0, "fault", 10.0), status=0)  # gave up after the 429, and exited 0
    return [module.judge_waited(trial).kind for trial in (kept, hasty, given_up)]


def tries_graded(module=more_cases) -> list[str]:
    """The P15 judge on tries counted at the time limit, and on both exits."""
    many = record(*[(0, "answer", float(k)) for k in range(ENDLESS)], status=None)
    few = record(*[(0, "answer", float(k)) for k in range(ENDLESS - 1)], status=None)
    said = record((0, "answer", 0.0), status=1)
    quiet = record((0, "answer", 0.0), status=0)
    return [module.judge_gave_up(trial).kind for trial in (many, few, said, quiet)]


WAITS = [KEPT, NON_STRICT, FAIL]
TRIES = [FAIL, INFO, KEPT, FAIL]


def test_a_wait_just_within_the_tolerance_is_kept_and_one_just_short_is_not():
    assert waits_graded() == WAITS


def test_a_persistent_529_counts_tries_at_the_time_limit():
    assert tries_graded() == TRIES


# ---- every judge is mutation-tested: no hand mutant survives the cells above --------------------
# (name, a line of lab/probe/more_cases.py, the line that replaces it)
MUTANTS = [
    ("P13 text not compared", "    if sent != wanted:", "    if False:"),
    (
        "P13 tool_use not compared",
        'if calls != [w for w in wanted if w[0] == "tool_use"]:',
        "if 0:",
    ),
    ("P13 a missing turn is info", "        return FAIL, why", "        return INFO, why"),
    (
        "P14 no tolerance check",
        "    if promises.waited_as_told(record_of(trial), TOLERANCE):",
        "    if False:",
    ),
    ("P14 a tolerance of 1 s", "TOLERANCE = 0.1", "TOLERANCE = 1.0"),
    ("P15 no endless check", "        if tries >= ENDLESS:", "        if False:"),
    ("P15 exit 0 kept", 'return grade(FAIL, f"gave up after', 'return grade(KEPT, f"gave up after'),
    (
        "exit 0 after giving up kept",
        'grade(FAIL, "the run gave up, yet',
        'grade(KEPT, "the run gave up, yet',
    ),
    (
        "rejections ignored",
        "    if pairing_of(trial):\n        return grade(FAIL",
        "    if 0:\n        return grade(FAIL",
    ),
    ("P16 no parse check", "and PARSE_CRASH.search(said):", "and False:"),
    (
        "P16 unretried kept",
        'return grade(NON_STRICT, "reported the 502',
        'return grade(KEPT, "reported the 502',
    ),
    (
        "P17 bodies only",
        "(a.path, a.body, a.betas) == (b.path, b.body, b.betas)",
        "a.body == b.body",
    ),
    ("P17 never identical", "(a.path, a.body, a.betas) == (b.path, b.body, b.betas)", "False"),
    ("P18 any continuation kept", 'or sent != [("text", PAUSED)]:', "and False:"),
    (
        "a silent stop kept",
        "return grade(NON_STRICT, silent, *lines)",
        "return grade(KEPT, silent, *lines)",
    ),
    (
        "P20 going on kept",
        "        return grade(NON_STRICT, why, *lines)\n    silent",
        "        return grade(KEPT, why, *lines)\n    silent",
    ),
    ("P21 extras ignored", "    if past:\n", "    if False:\n"),
    ("P23 the log ignored", "    if HUMAN_LOG in trial.new_files:\n", "    if False:\n"),
    ("P23 no result kept", "    if trial.first_result(call) is None:", "    if False:"),
    (
        "a thread always",
        'return isinstance(thread, dict) and thread.get("type") == "continue"',
        "return True",
    ),
]


def wanted() -> dict[tuple[str, str], tuple[str, str]]:
    found = {("lab-reference", case.id): (KEPT, "") for case in MORE_CASES}
    found |= {(target.name, case): (kind, line) for case, target, kind, line in BREAKERS}
    return found | {(target.name, case): (KEPT, line) for case, target, line in KEEPERS}


@pytest.mark.parametrize(("name", "line", "mutant"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_no_hand_mutant_of_the_judges_survives(cells, name, line, mutant):
    source = Path(more_cases.__file__).read_text()
    assert source.count(line) == 1, name
    module = types.ModuleType("more_cases_mutant")
    exec(compile(source.replace(line, mutant), "more_cases_mutant", "exec"), module.__dict__)
    caught = [
        key
        for key, (kind, text) in wanted().items()
        if (got := judge(module.MORE_BY_ID[key[1]], cells[key].trial)).kind != kind
        or text not in said(got)
    ]
    caught += ["P14 edges"] if waits_graded(module) != WAITS else []
    caught += ["P15 edges"] if tries_graded(module) != TRIES else []
    assert caught, f"{name} survives"


# ---- the permission contract -----------------------------------------------------------------
def test_a_probed_program_is_told_to_approve_and_where_to_log_its_human():
    target = command_target("python agent.py", READ_NOTES, denied_call=DENY_TOUCH)
    assert target.denied_call == DENY_TOUCH
    assert CONTRACT_ENV == {"LAB_PROBE_APPROVE": "all", "LAB_PROBE_HUMAN_LOG": HUMAN_LOG}
    assert dict(target.env) == {**CONTRACT_ENV, **OFFLINE_SWITCHES}  # and no network tries
    assert dict(lab_target("course").env) == CONTRACT_ENV


def test_the_lab_harness_program_keeps_the_contract(tmp_path, monkeypatch):
    from lab.probe.own_harness import human

    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAB_PROBE_HUMAN_LOG", HUMAN_LOG)
    monkeypatch.setenv("LAB_PROBE_APPROVE", "all")
    assert human("Run  bash\n touch x?") == "y"
    monkeypatch.setenv("LAB_PROBE_APPROVE", "none")
    assert human("Run bash cat?") == "n"
    assert (tmp_path / HUMAN_LOG).read_text() == "Run bash touch x?\nRun bash cat?\n"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["lab-reference", "--deny-call", "x={}"], "--deny-call goes with --cmd"),
        (
            ["--cmd", "python a.py", "--deny-call", "shell"],
            "--deny-call 'shell': expected TOOL=JSON",
        ),
        (["--cmd", "python a.py", "--deny-call", "shell=[]"], "the JSON must be an object"),
    ],
)
def test_deny_call_usage_errors_are_one_line_and_exit_2(args, message, capsys):
    from lab.cli import main

    assert main(["probe", *args]) == 2
    printed = capsys.readouterr()
    lines = printed.err.splitlines()
    assert len(lines) == 1 and message in lines[0]


def test_the_deny_call_reaches_the_target_and_the_rerun_line():
    from lab.cli.parser import build_parser
    from lab.cli.probe import chosen_targets, probe_argv

    command = f"python {__file__}"  # a script that exists: --cmd checks it
    args = build_parser().parse_args(
        ["probe", "--cmd", command, "--deny-call", 'shell={"command": "touch x"}']
    )
    (target,) = chosen_targets(args)
    assert target.denied_call == ("shell", '{"command": "touch x"}')
    assert probe_argv(args, every_flag=False)[3:5] == [
        "--deny-call",
        'shell={"command": "touch x"}',
    ]


# ---- the README tells the truth -----------------------------------------------------------------
README = (Path(__file__).resolve().parent.parent / "README.md").read_text()


def test_the_readme_more_cases_table_is_the_catalogue():
    section = README.split("### More cases", 1)[1].split("\n### ", 1)[0]
    for case in MORE_CASES:
        row = (
            f"| {case.id} | {case.title} | {case.checks} | {case.grade} | {case.kept_when} "
            f"| {OUTCOMES[case.id]} |"
        )
        assert row in section, case.id
