"""Every invariant holds on the reference harness for generated conversations, and on the
course preset where the course keeps it.

The number of examples comes from the hypothesis profile (tests/conftest.py: deterministic in
CI, more of them locally). Each property also runs, through @example, the experiment that
shows its fault, so the reference is always checked on exactly that shape. Harness bugs the
properties found are pinned with @example on the property that found them.
"""

from __future__ import annotations

import itertools

from hypothesis import example, given
from hypothesis import strategies as st

from lab.kernel.switches import Switches
from lab.model import (
    CutOff,
    Turn,
    cut_off,
    overloaded,
    stream_dropped,
    stream_error,
    text,
    tool_use,
    turn,
    turn_of,
)
from lab.testing import BY_NAME, INVARIANTS, Case, RuleSet
from lab.testing.strategies import (
    DENY_LIST,
    cases,
    cut_cases,
    fault_cases,
    faulty_scripts,
    focused_cases,
    scripts,
)

DONE = turn(text("Done."))


def case(*turns, **ingredients) -> Case:
    """A hand-written case: the given turns, then the final text turn."""
    return Case(script=(*turns, DONE), **ingredients)


def calls(*blocks, stop_reason=None):
    return turn(*blocks, stop_reason=stop_reason)


def bash(command: str) -> dict:
    return tool_use("bash", {"command": command})


def read(path: str) -> dict:
    return tool_use("read_file", {"path": path})


def holds(name: str, case: Case, switches: Switches | None = None) -> None:
    reason = BY_NAME[name].check(case.run(switches))
    assert reason is None, reason


# ---- the experiments' shapes, pinned as examples -------------------------------------------
D1 = case(calls(bash("ls")), calls(bash("cat notes.txt"), stop_reason="end_turn"))
D1B = Case(script=(turn(text("It has 3 lines."), stop_reason="tool_use"),))
D23 = case(calls(bash("ls"), bash("rm -rf tmp")), rules=RuleSet(deny=("Bash(rm *)",)))
D3 = case(calls(read("notes.txt")), calls(read("notes.txt")), files=("notes.txt",), keep_last=3)
D4 = case(calls(bash("rm -rf /")), rules=RuleSet(course=True), human=("y",))
D7 = case(calls(bash("ls"), tool_use("check_disk", {"device": "/dev/sda"})))
D8 = case(calls(tool_use("word_count", {"file_path": "notes.txt"})), tools=("word_count",))
D9 = case(
    calls(tool_use("write_file", {"path": "notes.md"}), tool_use("write_file", {"path": "n"})),
    rules=RuleSet(default="ask"),
    human=("y", "y"),
)
D10 = case(calls(read("/etc/passwd")), rules=RuleSet(course=True), human=("y",))
D11 = case(
    calls(bash("ls && rm -rf /")), rules=RuleSet(deny=("Bash(rm *)",), allow=("Bash(ls *)",))
)
D12 = case(
    calls(bash("ls"), bash("rm notes.txt")),
    rules=RuleSet(deny=("Bash(rm *)",)),
    hooks=("audit_log",),
)
D13 = case(calls(bash("ls")), hooks=("note_output", "metrics_recorder"))
D14 = Case(script=(DONE,), hooks=("style_guide", "prompt_logger"))
D15 = case(calls(bash("rm -rf src")), rules=RuleSet(deny=("Bash(rm *)",)), hooks=("auto_approve",))
D16 = Case(script=(DONE,), hooks=("double_check",))
D16_ALWAYS = Case(script=(DONE,), hooks=("never_done",))
D17 = case(calls(read("big.log")), files=("big.log",))
D18 = case(calls(bash("rm notes.txt"), bash("cat notes.txt")), files=("notes.txt",))
D19 = case(calls(read("notes.txt"), read("src/app.py"), read("big.log")), files=("notes.txt",))
D20 = case(calls(bash("ls")), overloaded())
D21 = case(cut_off(calls(read("notes.txt")), keep_chars=20), files=("notes.txt",), stream=True)
READING = calls(text("Reading."), read("notes.txt"), bash("wc -l notes.txt"))
D22 = case(stream_error(READING, after_blocks=2), READING, files=("notes.txt",), stream=True)
DROPPED = case(stream_dropped(READING, block=2, after_chars=9), READING, stream=True)


# ---- M1: the loop --------------------------------------------------------------------------
@given(focused_cases("M3/M1"))
@example(D23)
@example(D3)
@example(D1B)
def test_pairing(case):
    holds("pairing_in_call_order", case)


@given(focused_cases("M1"))
@example(D1)
@example(D1B)
@example(D16)
@example(D16_ALWAYS)
def test_continuation(case):
    holds("continuation_only_on_tool_use", case)


@given(focused_cases("M1"))
@example(D16_ALWAYS)
def test_termination(case):
    holds("ends_once_within_limit", case)


@given(focused_cases("M2"))
@example(D7)
@example(case(calls(tool_use("explode")), tools=("explode",)))
@example(case(calls(bash("ls")), hooks=("broken_hook",)))
# Found by this property: a bash command that is not text crashed the tray cut, and a file
# where the spill folder goes crashed the result cap.
@example(case(calls(tool_use("bash", {"command": ["ls"]}))))
@example(
    case(
        calls(tool_use("write_file", {"path": ".spill", "content": ""}), bash("cat big.log")),
        files=("big.log",),
    )
)
def test_no_crash(case):
    holds("no_crash", case)


# ---- the API's faults ----------------------------------------------------------------------
@given(fault_cases())
@example(D20)
@example(DROPPED)
@example(case(*[overloaded()] * 5))
def test_faults_are_waited_out(case):
    holds("retried", case)


@given(fault_cases())
@example(D22)
@example(DROPPED)
def test_only_whole_answers_enter_the_history(case):
    holds("whole_answers", case)


@given(cut_cases())
@example(D21)
@example(case(cut_off(calls(bash("ls"), bash("pwd")), keep_chars=14)))
def test_cut_calls_never_run(case):
    holds("cut_calls_refused", case)


@given(fault_cases())
@example(D20)
@example(D21)
@example(D22)
def test_faults_keep_the_pairing_obligation(case):
    holds("pairing_in_call_order", case)
    holds("no_crash", case)


# ---- M4/M5: permissions and hooks ----------------------------------------------------------
@given(focused_cases("M4/M5"))
@example(D4)
@example(D11)
@example(D15)
def test_deny_dominance(case):
    holds("deny_dominance", case)


@given(focused_cases("M5"))
@example(D15)
# Found by this property: a hook's "ask" sent a call to the human although the rules deny it.
@example(
    case(
        calls(tool_use("write_file", {"path": "out.txt", "content": "x"})),
        rules=RuleSet(default="deny"),
        human=("y",),
        hooks=("ask_edits",),
    )
)
def test_hooks_only_tighten(case):
    holds("tighten", case)


@given(focused_cases("M5"))
@example(D12)
@example(D13)
@example(D14)
def test_every_hook_runs(case):
    holds("every_hook", case)


@given(focused_cases("M5/M1"))
@example(D14)
def test_context_reaches_the_model(case):
    holds("context", case)


@given(focused_cases("M3"))
@example(D9)
def test_human_last(case):
    holds("human_last", case)


@given(focused_cases("M4"))
@example(D10)
@example(case(calls(tool_use("glob", {"pattern": "../*"}))))
def test_containment(case):
    holds("containment", case)


# ---- M2/M3: the dispatch table, trays and results ------------------------------------------
@given(focused_cases("M2"))
@example(D8)
def test_contract_is_checked_at_registration(case):
    holds("contract", case)


@given(focused_cases("M2"))
@example(D18)
@example(case(calls(bash("echo a >> notes.txt"), bash("echo b >> notes.txt"))))
def test_order(case):
    holds("order", case)


@given(focused_cases("M2"))
@example(D18)
def test_fresh_results(case):
    holds("fresh", case)


@given(focused_cases("M2"))
@example(D19)
@example(D18)
def test_makespan(case):
    holds("makespan", case)


@given(focused_cases("M3"))
@example(D17)
@example(case(calls(bash("cat big.log")), calls(read(".spill/toolu_001.txt")), files=("big.log",)))
def test_reads_page(case):
    holds("reads_page", case)


# ---- the course keeps some of the promises -------------------------------------------------
COURSE_KEEPS = [inv for inv in INVARIANTS if inv.course]


@given(focused_cases())
@example(D23)
@example(D9)
@example(D18)
@example(D20)
@example(D22)
def test_the_course_keeps_its_promises(case):
    """One run, every promise the course keeps (see Invariant.course), on the course preset."""
    run = case.run(Switches.course())
    broken = {inv.name: reason for inv in COURSE_KEEPS if (reason := inv.check(run))}
    assert broken == {}


COURSE_RULES = st.one_of(
    st.just(RuleSet(course=True)),
    st.builds(
        RuleSet,
        deny_list=st.lists(st.sampled_from(DENY_LIST), min_size=1, unique=True).map(tuple),
        default=st.sampled_from(["allow", "ask"]),
    ),
)


@given(cases(rules=COURSE_RULES))
@example(D4)
def test_the_course_keeps_its_own_deny_list(case):
    """With the course's own rules (a substring deny list) deny dominance holds in the course;
    with production rule strings its whole-string matching lets compounds through (D11)."""
    holds("deny_dominance", case, Switches.course())


# ---- the generators ------------------------------------------------------------------------
@given(focused_cases())
def test_generated_cases_are_small_and_end_with_a_text_turn(case):
    turns = [t for step in case.script if (t := turn_of(step)) is not None]
    assert 1 <= len(turns) <= 8 and len(case.script) <= 8  # a fault adds at most one step
    assert all(sum(b["type"] == "tool_use" for b in t.blocks) <= 4 for t in turns)
    assert all(b["type"] == "text" for b in turns[-1].blocks)
    assert all(b.get("id") is None for t in turns for b in t.blocks)  # ids come later


@given(faulty_scripts())
def test_a_transient_fault_comes_before_the_same_turn_and_a_cut_replaces_it(script):
    for step, following in itertools.pairwise(script):
        if isinstance(step, Turn | CutOff):
            continue
        # An HTTP error, an error event or a drop: asked again, the model says the same turn.
        assert isinstance(following, Turn)
        assert following == (turn_of(step) or following)
    assert isinstance(turn_of(script[-1]), Turn)


@given(scripts())
def test_a_script_is_replayable_with_deterministic_ids(script):
    first, second = Case(script=script).run(), Case(script=script).run()
    assert first.api.requests == second.api.requests
