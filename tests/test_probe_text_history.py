"""A history written as text that names no call id (smolagents writes back a failed step as
"Error: ..." only): the probe places the request past the failed call and reads the error as an
answer in text, not as a call silently lost."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from lab.model import ModelRequest, overloaded, tool_use, turn
from lab.probe.bench import probe_pairs
from lab.probe.catalogue import BY_ID
from lab.probe.conversation import Conversation, Stage
from lab.probe.targets import command_target

AGENTS = Path(__file__).parent / "agents"
FINAL = ("final_answer", '{"answer": "done."}')
BAD = tool_use("read_file", {"path": 12345}, id="toolu_bad")
LAST = "All the work is done."


def request(messages: list) -> ModelRequest:
    return ModelRequest(0, messages, [], None, False)


def prompt(*more: str) -> list:
    return [{"role": "user", "content": "\n".join(["[probe] go", *more])}]


def test_a_text_history_whose_user_text_grew_stands_past_a_call_it_never_names():
    talk = Conversation([Stage(turn(BAD)), Stage(turn(LAST))], marker="[probe]")
    assert talk(request(prompt())) == turn(BAD)
    assert talk(request(prompt())) == turn(BAD)  # the same request again: no answer yet
    grew = prompt("Error: Argument path has type 'integer' but should be 'string'")
    assert talk(request(grew)) == turn(LAST)
    assert [(p.stage, p.kind) for p in talk.log] == [(0, "answer"), (0, "answer"), (1, "answer")]


def test_growth_after_a_fault_or_in_a_history_of_blocks_moves_nothing():
    # After a fault the healthy answer is still due: a harness's error text does not skip it.
    talk = Conversation([Stage(turn(BAD), fault=overloaded()), Stage(turn(LAST))], "[probe]")
    talk(request(prompt()))
    assert talk(request(prompt("Error: overloaded, trying again"))) == turn(BAD)
    # A history with tool blocks is placed by its ids only.
    talk = Conversation([Stage(turn(BAD)), Stage(turn(LAST))], marker="[probe]")
    talk(request(prompt()))
    blocks = [
        *prompt("and some more text"),
        {"role": "assistant", "content": [tool_use("read_file", {}, id="toolu_other")]},
        {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "toolu_other"}]},
    ]
    assert talk(request(blocks)) == turn(BAD)


@pytest.fixture(scope="module")
def cells():
    # Warm, as test_probe.py runs text_history.py: its warm and cold runs read the same
    # (test_probe.py's test_a_warm_start_changes_no_verdict_and_no_evidence).
    program = f"{sys.executable} {AGENTS / 'text_history.py'} --errors-without-ids"
    target = command_target(program, final=FINAL, warm=True)
    found = probe_pairs([(target, BY_ID["P2"]), (target, BY_ID["P3"])])
    return {c.case: c for c in found}


@pytest.mark.parametrize("case", ["P2", "P3"])
def test_an_error_answered_as_text_without_an_id_is_non_strict_not_lost(cells, case):
    verdict = cells[case].verdict
    assert verdict.kind == "non-strict", verdict
    assert verdict.because.endswith("was answered as text without is_error"), verdict
    assert any(line.startswith("request #2 answers ") for line in verdict.evidence), verdict
    assert cells[case].trial is not None and cells[case].trial.exit.clean
