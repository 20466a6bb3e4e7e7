"""The switchboard: the reference preset, the course preset, and each flag's documentation.

Every flag documents its mechanism, the experiments that flip it and the module of its parts;
these tests hold the documentation to the source (tests/test_switchboard.py: the one reader).
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

from lab.chapter.experiment import MECHANISMS, load_all
from lab.kernel.switches import Switches, switch_info, switch_names, switch_types

ROOT = Path(__file__).resolve().parent.parent
LAB = ROOT / "lab"
EXPERIMENTS = {e.id: e for e in load_all()}
NAMES = switch_names()

# Flags whose *default* is False: True is the fault (the protection is "not trusting", etc.).
FAULT_WHEN_TRUE = {
    "trust_stop_reason",
    "hooks_may_loosen",
    "silence_is_approval",
    "course_hook_semantics",
    "execute_truncated_calls",
    "keep_partial_answers",
}

# The course (s01-s04, pinned at f9e8b28): its documented gaps, nothing more.
COURSE_GAPS = {
    "contract_checked": False,
    "handler_errors_become_results": False,  # handler(**block.input) has no try
    "execute_truncated_calls": True,  # s01 runs every tool_use block, stop_reason unread
    "parallel_batches": False,
    "validate_before_gate": False,  # nothing checks the shape before the gates
    "own_front_checks": False,  # only the last two stages of the chain (seed §5 【一】)
    "deny_rules_cover_every_tool": False,  # `if block.name == "bash"` around the deny list
    "workspace_wall": False,
    "shell_sandbox": False,
    "course_hook_semantics": True,
    "stop_hook_guard": False,
}
GRADES = {"一", "二", "三", "beyond"}


def listed(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def test_the_reference_preset_has_every_protection_on():
    reference = Switches()
    for name in NAMES:
        protected = name not in FAULT_WHEN_TRUE
        assert getattr(reference, name) is protected, name
    assert reference.differences() == {}


def test_the_flag_set_is_the_documented_one():
    assert set(NAMES) == FAULT_WHEN_TRUE | {
        "retry_transient_errors",
        "keep_thinking_blocks",
        "unknown_tool_result",
        "contract_checked",
        "handler_errors_become_results",
        "parallel_batches",
        "concurrency_from_input",
        "validate_before_gate",
        "own_front_checks",
        "read_exempt_from_cap",
        "pair_protection",
        "gate_order_correct",
        "deny_rules_cover_every_tool",
        "workspace_wall",
        "split_compound_commands",
        "shell_sandbox",
        "hooks_before_rules",
        "stop_hook_guard",
    }


def test_the_course_preset_differs_exactly_in_the_course_gaps():
    course = Switches.course()
    assert course.differences() == COURSE_GAPS
    assert {n for n in NAMES if getattr(course, n) != getattr(Switches(), n)} == set(COURSE_GAPS)
    assert Switches().differences(course) == {n: not v for n, v in COURSE_GAPS.items()}


def test_flipped_returns_a_changed_copy():
    reference = Switches()
    flipped = reference.flipped(workspace_wall=False, trust_stop_reason=True)
    assert flipped.differences() == {"workspace_wall": False, "trust_stop_reason": True}
    assert reference.differences() == {}  # the original is untouched (frozen)
    with pytest.raises(AttributeError):
        reference.workspace_wall = False  # type: ignore[misc]


def test_flipping_an_unknown_switch_raises_a_key_error_naming_the_known_ones():
    with pytest.raises(KeyError) as caught:
        Switches().flipped(bogus=1)
    message = caught.value.args[0]
    assert "bogus" in message
    for name in NAMES:
        assert name in message


def test_an_unknown_switch_flips_nothing_even_beside_known_ones():
    with pytest.raises(KeyError):
        Switches().flipped(workspace_wall=False, bogus=1)


@pytest.mark.parametrize("name", NAMES)
def test_every_flag_has_complete_metadata(name):
    info = switch_info(name)
    texts = {"mechanism", "experiments", "reader", "fault", "course_why", "grade", "source"}
    assert set(info) == texts | {"course"}
    assert info["grade"] in GRADES and "\n" not in info["source"]
    assert all(isinstance(info[k], str) and info[k].strip() for k in texts)
    # The course value, held to this file's own list of the course's gaps (Switches.course() is
    # built from these values, so comparing the two would prove nothing).
    assert info["course"] == COURSE_GAPS.get(name, getattr(Switches(), name)), name
    assert isinstance(info["course"], switch_types()[name]), name
    for mechanism in info["mechanism"].split("/"):
        assert mechanism in MECHANISMS and re.fullmatch(r"M[1-5]", mechanism)
    # The fault describes the flipped state: "Off: ..." for protections that default on.
    assert info["fault"].startswith("Off") is (name not in FAULT_WHEN_TRUE)


@pytest.mark.parametrize("name", NAMES)
def test_every_flag_names_experiments_that_exist_and_flip_it(name):
    info = switch_info(name)
    ids = listed(info["experiments"])
    assert ids, name
    for experiment_id in ids:
        assert experiment_id in EXPERIMENTS, f"{name} names missing experiment {experiment_id}"
        experiment = EXPERIMENTS[experiment_id]
        assert name in experiment.flips, f"{experiment_id} does not flip {name}"
        assert experiment.flips[name] != getattr(Switches(), name)
        assert experiment.mechanism in info["mechanism"].split("/")


def test_every_experiment_is_listed_on_the_flags_it_flips():
    for experiment in EXPERIMENTS.values():
        for name in experiment.flips:
            assert experiment.id in listed(switch_info(name)["experiments"]), (experiment.id, name)


def test_the_switch_dataclass_is_frozen_and_every_field_is_a_flag():
    assert Switches.__dataclass_params__.frozen  # type: ignore[attr-defined]
    assert all(f.metadata for f in fields(Switches))
