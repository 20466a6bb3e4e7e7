"""The later probe cases (P13-P23): the lab's own harness keeps each one, a harness broken on
purpose gets the grade the case's rule gives it, and the permission contract reaches programs."""

from __future__ import annotations

import sys
import types
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import pytest
from tapped import reply_to

from lab.model import rate_limited, turn
from lab.probe.bench import probe_pairs
from lab.probe.cases import MORE_OUTCOMES as OUTCOMES
from lab.probe.cases import transient
from lab.probe.cases.transient import ENDLESS, TOLERANCE
from lab.probe.cases.transient import LATER_RETRY_AFTER as RETRY_AFTER
from lab.probe.catalogue import BY_ID, MORE_CASES
from lab.probe.conversation import Played, Stage
from lab.probe.grades import FAIL, INFO, KEPT, NA, NON_STRICT
from lab.probe.target import CONTRACT_ENV, HUMAN_LOG, OFFLINE_SWITCHES
from lab.probe.targets import command_target, lab_target
from lab.probe.trial import Exchange, Exit, Setting, Trial
from lab.probe.verdict import verdict
from lab.probe.wire_promises import ended

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
THINKING_400 = "Expected `thinking` or `redacted_thinking`, but found `text`"
BREAKERS = [
    ("P13", faulty("strip-text"), NON_STRICT, "answer 1's text was dropped, changed or moved"),
    ("P13", faulty("rename"), FAIL, "missing from the history (no toolu_p13_01)"),
    ("P13", faulty("rewrite"), FAIL, "answer 1's tool_use was rewritten"),
    ("P14", faulty("hasty"), NON_STRICT, "retry-after ignored: asked again 0."),
    ("P14", lab_target("reference", "retry_transient_errors=false"), NON_STRICT, "not retried"),
    ("P15", faulty("quiet"), FAIL, "yet exited 0 (success)"),
    # D29: the reference with thinking on but its thinking blocks dropped from the history
    ("P24", lab_target("reference", "keep_thinking_blocks=false"), FAIL, THINKING_400),
    ("P25", lab_target("reference", "keep_thinking_blocks=false"), FAIL, THINKING_400),
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
    pairs += [(target, BY_ID[case]) for case, target, _, _ in BREAKERS]
    pairs += [(target, BY_ID[case]) for case, target, _ in KEEPERS]
    pairs += [(faulty("careful"), BY_ID["P23"])]
    pairs += [(lab_target("course"), BY_ID[case]) for case in COURSE_NOT_ASKED]
    with ThreadPoolExecutor(max_workers=1) as beside:
        forever = beside.submit(
            probe_pairs, [(faulty("forever"), BY_ID["P15"])], timeout=FOREVER_LIMIT
        )
        cells = {(c.target, c.case): c for c in probe_pairs(pairs)}
        (cell,) = forever.result()
    return cells, cell


@pytest.fixture(scope="module")
def cells(probed):
    return probed[0]


def said(verdict) -> str:
    return "\n".join((verdict.because, *verdict.evidence))


# The reference answers the features a case asks for (a server tool for P18, thinking for P24 and
# P25) but has no tool that returns an image (its world holds text only): P26 reads n/a, says why.
NOT_ASKED = {"P26": "the program offers no read_image tool"}
# The course's harness asks for none of them, as the course is taught.
COURSE_NOT_ASKED = {
    "P18": "no request declares a server tool",
    "P24": "the program never asked for thinking",
}


def test_the_reference_harness_keeps_every_later_case(cells):
    verdicts = {c.id: cells[("lab-reference", c.id)].verdict for c in MORE_CASES}
    wanted = {c.id: NA if c.id in NOT_ASKED else KEPT for c in MORE_CASES}
    assert {case: v.kind for case, v in verdicts.items()} == wanted
    assert all(why in verdicts[case].because for case, why in NOT_ASKED.items())
    assert "retry-after said 1 s" in verdicts["P14"].because
    assert verdicts["P15"].because == "gave up after 6 tries and said so (exit not 0)"
    assert "the final answer was cut off by max_tokens" in said(verdicts["P19"])
    assert "the model refused" in said(verdicts["P20"])
    assert P23_ANSWERED in verdicts["P23"].evidence


def test_the_reference_answers_what_a_case_asks_for_on_the_wire(cells):
    def bodies(case: str) -> list[dict]:
        return [e.body for e in cells[("lab-reference", case)].trial.conversation()]

    server = [[t.get("type") for t in body["tools"] if "type" in t] for body in bodies("P18")]
    assert server and all(kinds == ["web_search_20250305"] for kinds in server)
    for case in ("P24", "P25"):
        asked = [body.get("thinking") for body in bodies(case)]
        assert asked and all(t == {"type": "enabled", "budget_tokens": 1024} for t in asked)
    for case, why in COURSE_NOT_ASKED.items():
        course = cells[("lab-course", case)].verdict
        assert course.kind == NA and why in course.because, course


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
            reply=reply_to(fault(stages[stage], kind), kind),
        )
        for n, (stage, kind, at) in enumerate(requests, 1)
    ]
    return ended(Trial("t", setting, stages, exchanges, Exit(status, "", 5.0)))


def fault(stage: Stage, kind: str):
    """What a request at `stage` was played: the stage's fault (the 429 and its retry-after)."""
    return stage.fault if kind == "fault" else stage.answer


def waits_graded(by_id=BY_ID) -> list[str]:
    """The P14 rules on waits at the tolerance's edge: (wanted, got) grades."""
    within = RETRY_AFTER - TOLERANCE + 0.01
    short = RETRY_AFTER - TOLERANCE - 0.01
    kept = record((0, "fault", 10.0), (0, "answer", 10.0 + within), (1, "answer", 12.0))
    hasty = record((0, "fault", 10.0), (0, "answer", 10.0 + short), (1, "answer", 12.0))
    given_up = record((0, "fault", 10.0), status=0)  # gave up after the 429, and exited 0
    return [verdict(by_id["P14"], trial).kind for trial in (kept, hasty, given_up)]


def tries_graded(by_id=BY_ID) -> list[str]:
    """The P15 rules on tries counted at the time limit, and on both exits."""
    many = record(*[(0, "answer", float(k)) for k in range(ENDLESS)], status=None)
    few = record(*[(0, "answer", float(k)) for k in range(ENDLESS - 1)], status=None)
    said = record((0, "answer", 0.0), status=1)
    quiet = record((0, "answer", 0.0), status=0)
    return [verdict(by_id["P15"], trial).kind for trial in (many, few, said, quiet)]


WAITS = [KEPT, NON_STRICT, FAIL]
TRIES = [FAIL, INFO, KEPT, FAIL]


def test_a_wait_just_within_the_tolerance_is_kept_and_one_just_short_is_not():
    assert waits_graded() == WAITS


def test_a_persistent_529_counts_tries_at_the_time_limit():
    assert tries_graded() == TRIES


# ---- every rule is mutation-tested: no hand mutant survives the cells above ---------------------
# (name, the module of lab/probe/cases/, a line of it, the line that replaces it)
MUTANTS = [
    ("P13 text not compared", "resending", "    if sent != wanted:", "    if False:"),
    (
        "P13 tool_use not compared",
        "resending",
        'if calls != [w for w in wanted if w[0] == "tool_use"]:',
        "if 0:",
    ),
    (
        "P13 a missing turn is info",
        "resending",
        "        return LIES, why",
        "        return AS_TEXT, why",
    ),
    (
        "P14 no tolerance check",
        "transient",
        "if promises.waited_as_told(trial.record, tolerance) else None",
        "if False else None",
    ),
    ("P14 a tolerance of 1 s", "transient", "\nTOLERANCE = 0.1", "\nTOLERANCE = 1.0"),
    ("P15 no endless check", "transient", "and tries >= ENDLESS:", "and False:"),
    ("P15 exit 0 kept", "transient", "Rule(gave_up_quietly, FAIL)", "Rule(gave_up_quietly, KEPT)"),
    (
        "exit 0 after giving up kept",
        "endings",
        "    if not reached and trial.exit.clean:",
        "    if False:",
    ),
    (
        "rejections ignored",
        "endings",
        '    if pairing_of(trial):\n        return "a later request was rejected"',
        '    if 0:\n        return "a later request was rejected"',
    ),
    ("P16 no parse check", "transient", "and PARSE_CRASH.search(said):", "and False:"),
    (
        "P16 unretried kept",
        "transient",
        "Rule(never_retried_502, NON_STRICT)",
        "Rule(never_retried_502, KEPT)",
    ),
    (
        "P17 bodies only",
        "transient",
        "(a.path, a.body, a.betas) == (b.path, b.body, b.betas)",
        "a.body == b.body",
    ),
    (
        "P17 never identical",
        "transient",
        "(a.path, a.body, a.betas) == (b.path, b.body, b.betas)",
        "False",
    ),
    ("P18 any continuation kept", "stop_reasons", "or sent != wanted:", "and False:"),
    (
        "a silent stop kept",
        "endings",
        "lambda t: silent if t.reached(1) is None and t.exit.clean else None",
        "lambda t: None",
    ),
    (
        "P20 going on kept",
        "stop_reasons",
        "Rule(went_on_after_refusal, NON_STRICT)",
        "Rule(went_on_after_refusal, KEPT)",
    ),
    (
        "P21 extras ignored",
        "long_runs",
        "    if promises.termination(trial.record):\n",
        "    if False:\n",
    ),
    (
        "P23 the log ignored",
        "bad_calls",
        'a malformed call" if HUMAN_LOG in trial.new_files',
        'a malformed call" if False',
    ),
    (
        "P23 no result kept",
        "bad_calls",
        "if trial.first_result(call) is None else None",
        "if False else None",
    ),
    (
        "a thread always",
        "endings",
        'return isinstance(thread, dict) and thread.get("type") == "continue"',
        "return True",
    ),
]
CASE_MODULES = ("endings", "stop_reasons", "bad_calls", "transient", "resending", "long_runs")


def mutated_cases(module: str, line: str, mutant: str) -> dict:
    """Every case, built again from lab/probe/cases/ with one line of `module` replaced (the
    modules after it in CASE_MODULES re-read, so that they import the mutant)."""
    folder = Path(transient.__file__).parent
    saved = {name: sys.modules[f"lab.probe.cases.{name}"] for name in CASE_MODULES}
    built: dict = {}
    try:
        for name in CASE_MODULES[CASE_MODULES.index(module) :] if module else ():
            source = (folder / f"{name}.py").read_text()
            if name == module:
                assert source.count(line) == 1, (module, line)
                source = source.replace(line, mutant)
            fresh = types.ModuleType(f"lab.probe.cases.{name}")
            sys.modules[fresh.__name__] = fresh
            exec(compile(source, f"{name}_mutant", "exec"), fresh.__dict__)
            for value in list(fresh.__dict__.values()):
                if isinstance(value, list) and value and all(hasattr(c, "rules") for c in value):
                    built |= {c.id: c for c in value}
    finally:
        sys.modules.update({f"lab.probe.cases.{n}": m for n, m in saved.items()})
    return BY_ID | built


def wanted() -> dict[tuple[str, str], tuple[str, str]]:
    found = {
        ("lab-reference", case.id): (NA, NOT_ASKED[case.id]) if case.id in NOT_ASKED else (KEPT, "")
        for case in MORE_CASES
    }
    found |= {(target.name, case): (kind, line) for case, target, kind, line in BREAKERS}
    return found | {(target.name, case): (KEPT, line) for case, target, line in KEEPERS}


@pytest.mark.parametrize(("name", "module", "line", "mutant"), MUTANTS, ids=[m[0] for m in MUTANTS])
def test_no_hand_mutant_of_the_rules_survives(cells, name, module, line, mutant):
    by_id = mutated_cases(module, line, mutant)
    caught = [
        key
        for key, (kind, text) in wanted().items()
        if (got := verdict(by_id[key[1]], cells[key].trial)).kind != kind or text not in said(got)
    ]
    caught += ["P14 edges"] if waits_graded(by_id) != WAITS else []
    caught += ["P15 edges"] if tries_graded(by_id) != TRIES else []
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
    from lab.cli.probe_commands import chosen_targets, probe_argv

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
