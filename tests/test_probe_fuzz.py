"""`lab probe --fuzz`: it shrinks as far as the same search in process, however slow a trial
is, and it shows its progress (examples run, the smallest breaker so far) on stderr."""

from __future__ import annotations

import json
import time

import pytest
from hypothesis.internal.conjecture import engine

from lab.probe import fuzz as fuzzing
from lab.probe.targets import builtin
from lab.views.probe_fuzz import StderrProgress, fuzz_json, nothing_found

TRIAL_SECONDS = 30.0  # what the fake clock advances per trial: a slow harness on a busy machine


def trusting(generated) -> list[tuple[str, str]]:
    """The wire invariants a loop that trusts stop_reason and never sets is_error breaks."""
    problems = []
    for kinds, declared, _ in generated:
        if "unknown" in kinds or "invalid" in kinds:
            problems.append(("unknown_tool_answered", "no is_error"))
        if declared == "end_turn" and "call" in kinds:
            problems.append(("continuation", "a call declared end_turn was never answered"))
    return problems


class SlowClock:
    """time as the hypothesis engine sees it, where each trial takes TRIAL_SECONDS."""

    def __init__(self) -> None:
        self.now = time.perf_counter()

    def perf_counter(self) -> float:
        return self.now

    def __getattr__(self, name: str):
        return getattr(time, name)


@pytest.fixture
def slow_trials(monkeypatch):
    """Trials judged by `trusting`, each one TRIAL_SECONDS on the engine's clock; their count."""
    clock, runs = SlowClock(), []

    def trial(generated, target, timeout, warm):
        clock.now += TRIAL_SECONDS
        runs.append(generated)
        return trusting(generated)

    monkeypatch.setattr(engine, "time", clock)
    monkeypatch.setattr(fuzzing, "problems_of", trial)
    return runs


def in_process_smallest(examples: int):
    """The same search with the predicate in process (no trial, no clock): the reference."""
    from hypothesis import HealthCheck, Phase, find, settings

    rules = settings(
        max_examples=examples,
        database=None,
        derandomize=True,
        deadline=None,
        phases=[Phase.generate, Phase.shrink],
        suppress_health_check=list(HealthCheck),
    )
    return find(fuzzing.scripts(), lambda g: bool(trusting(g)), settings=rules)


@pytest.mark.parametrize("examples", [5, 50])
def test_slow_trials_shrink_as_far_as_the_search_in_process(slow_trials, examples):
    found, trials = fuzzing.fuzz(builtin()["lab-course"], examples, timeout=60, cold=True)
    assert found is not None
    assert found.generated == in_process_smallest(examples)
    assert fuzzing.size(found.generated) == (1, 1)
    assert trials == len(slow_trials) <= examples + fuzzing.SHRINKS


def test_progress_reports_each_example_and_the_smallest_breaker_so_far(slow_trials):
    seen: list[tuple[int, tuple | None]] = []
    found, trials = fuzzing.fuzz(
        builtin()["lab-course"],
        20,
        timeout=60,
        cold=True,
        on_trial=lambda n, best: seen.append((n, best.generated if best else None)),
    )
    assert [n for n, _ in seen] == list(range(1, trials + 1))
    sizes = [fuzzing.size(best) for _, best in seen if best is not None]
    assert sizes == sorted(sizes, reverse=True)  # never worse than before
    assert fuzzing.size(seen[-1][1]) == fuzzing.size(found.generated)


def test_progress_on_stderr_is_a_line_per_new_breaker_and_per_tenth_example(capsys):
    progress = StderrProgress()
    big = fuzzing.Found(((("call", "unknown"), "end_turn", True),), [("continuation", "x")])
    small = fuzzing.Found(((("unknown",), None, False),), [("unknown_tool_answered", "y")])
    for n, best in [(1, None), (2, big), (3, big), (4, small), (10, small)]:
        progress(n, best)
    progress.end()
    assert capsys.readouterr().err.splitlines() == [
        "fuzz: 1 example(s) run; no breaker yet",
        "fuzz: 2 example(s) run; smallest breaker so far: 1 answer(s), 3 block(s) (continuation)",
        "fuzz: 4 example(s) run; smallest breaker so far: 1 answer(s), 1 block(s) "
        "(unknown_tool_answered)",
        "fuzz: 10 example(s) run; smallest breaker so far: 1 answer(s), 1 block(s) "
        "(unknown_tool_answered)",
    ]


def test_the_result_in_json_is_one_object_with_the_script_or_found_null():
    found = fuzzing.Found(((("unknown",), None, False),), [("unknown_tool_answered", "y")])
    assert json.loads(fuzz_json("t", 7, None, None)) == {"target": "t", "trials": 7, "found": None}
    record = json.loads(fuzz_json("t", 7, found, "SCRIPT = []\n"))
    assert record == {
        "target": "t",
        "trials": 7,
        "problems": [["unknown_tool_answered", "y"]],
        "script": "SCRIPT = []\n",
    }
    assert nothing_found("t", 7) == "t: none of 7 generated scripts broke a wire invariant"


# ---------------------------------------------------------------- examples per second
