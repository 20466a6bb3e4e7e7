"""Mutated harnesses (a Switch flipped) break the promise the switch is about, judged from the
run's Record; the deny oracle's own reading finds the harness that matches whole lines."""

from __future__ import annotations

from hypothesis import Phase, find, settings

from lab.kernel import promises
from lab.kernel.runner import run_scenario
from lab.kernel.scenario import Scenario
from lab.kernel.switches import Switches
from lab.model import cut_off, overloaded, text, tool_use, turn
from lab.testing import Case
from lab.testing.strategies import focused_cases

READ = tool_use("read_file", {"path": "notes.txt"})
FILES = {"notes.txt": "hello\n", "src/app.py": "x\n"}


def test_a_trusting_loop_breaks_continuation_on_a_real_run():
    scenario = Scenario([turn(READ, stop_reason="end_turn"), turn(text("done."))], files=FILES)
    assert promises.continuation(run_scenario(scenario).record) is None
    broken = run_scenario(scenario, Switches(trust_stop_reason=True)).record
    assert "declared end_turn" in str(promises.continuation(broken))


def test_a_loop_that_runs_cut_calls_breaks_the_cut_promise():
    scenario = Scenario([cut_off(turn(READ), keep_chars=20), turn(text("done."))], files=FILES)
    assert promises.cut_calls_not_run(run_scenario(scenario).record) is None
    mutant = run_scenario(scenario, Switches(execute_truncated_calls=True)).record
    assert promises.cut_calls_not_run(mutant) is not None


def test_a_loop_that_never_retries_breaks_the_retry_promise():
    scenario = Scenario([overloaded(), turn(text("done."))])
    assert promises.retried(run_scenario(scenario).record, patience=5) is None
    mutant = run_scenario(scenario, Switches(retry_transient_errors=False)).record
    assert promises.retried(mutant, patience=5) is not None


def test_a_property_search_catches_a_harness_that_matches_whole_lines():
    """The deny oracle reads the rules itself: a harness that judges a compound command as a
    whole (the course's split_compound_commands=False) is found by a search over generated
    cases, where the harness's own matcher would have agreed with it."""
    mutant = Switches(split_compound_commands=False)

    def breaks(case: Case) -> bool:
        return promises.deny_dominance(case.run(mutant).record) is not None

    # Derandomized and not shrunk: the same search every run, and it stops at the first case
    # that breaks (a smaller one would prove nothing more); find's own budget of 2000 cases.
    search = settings(
        max_examples=2000, derandomize=True, database=None, deadline=None, phases=[Phase.generate]
    )
    found = find(focused_cases("M4"), breaks, settings=search)
    assert breaks(found)
    assert promises.deny_dominance(found.run(Switches()).record) is None
