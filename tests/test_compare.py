"""`lab compare course` runs each experiment under the course's switches and the course's own
rules; a row that degrades only with the experiment's own rules says so."""

from __future__ import annotations

from dataclasses import replace

import pytest

from lab.chapter.compare import Row, compare, in_preset
from lab.chapter.course_rules import DENY_LIST, REVISION_MARK, revision_dependent
from lab.chapter.disputes import DISPUTED_FRONT_HALF
from lab.chapter.experiment import load_all
from lab.harness.permissions import Permissions, course_permissions
from lab.kernel.observables import (
    human_prompts,
    human_prompts_for_invalid_calls,
    ran_denied_by_rule,
)
from lab.kernel.scenario import run_scenario
from lab.kernel.switches import Switches, switch_info
from lab.views.compare_table import WORDS, verdict

EXPERIMENTS = {e.id: e for e in load_all()}
COURSE = Switches.course()


def rows_of(ident: str) -> dict[str, Row]:
    return {row.observable: row for row in compare("course", [EXPERIMENTS[ident]])}


def test_d26_degrades_only_with_its_own_edit_env_deny_rule():
    row = rows_of("D26")["ran_denied_by_rule"]
    assert (row.reference, row.preset, row.own_rules) == (False, False, True)
    assert not row.as_degraded and row.as_degraded_own_rules
    assert verdict(row, WORDS["en"]) == "own rules only"
    # The course's rules hold no rule on a file tool's path inside the workspace.
    course = replace(EXPERIMENTS["D26"].scenario, permissions=course_permissions())
    assert ran_denied_by_rule(run_scenario(course, COURSE)) is False


def test_d9_under_the_course_s_rules_asks_the_human_nothing():
    """The course has no default question: only its two rules ask, and no D9 call meets one."""
    rows = rows_of("D9")
    invalid = rows["human_prompts_for_invalid_calls"]
    assert invalid.preset == 0 and not invalid.as_degraded
    assert rows["human_prompts"].preset == 0
    assert invalid.own_rules > 0  # D9's own default="ask" is what makes the course ask
    course = replace(EXPERIMENTS["D9"].scenario, permissions=course_permissions())
    run = run_scenario(course, COURSE)
    assert human_prompts(run) == human_prompts_for_invalid_calls(run) == 0


def test_a_row_the_course_s_rules_keep_reads_yes():
    (row,) = rows_of("D12").values()
    assert row.as_degraded and row.as_degraded_own_rules
    assert verdict(row, WORDS["en"]) == "yes" and verdict(row, WORDS["zh"]) == "是"


@pytest.mark.parametrize("ident", ["D10", "D21"])
def test_rows_on_a_revision_dependent_switch_are_marked(ident):
    assert all(row.revision_dependent for row in rows_of(ident).values())
    assert all(verdict(row, WORDS["en"]).endswith(" †") for row in rows_of(ident).values())


def test_only_experiments_whose_flips_the_course_makes_are_compared():
    flipped = COURSE.differences()
    assert in_preset(EXPERIMENTS["D26"], flipped)
    assert not in_preset(EXPERIMENTS["D4"], flipped)  # the course keeps deny before ask
    assert not in_preset(EXPERIMENTS["D1"], flipped)
    assert compare("course", [EXPERIMENTS["D4"]]) == []


def test_the_course_rule_set_is_s03_s():
    rules = course_permissions()
    assert rules.default == "allow" and rules.denial == "Permission denied."
    assert len(rules.deny) == len(DENY_LIST) == 7 and "> /dev/sda" in DENY_LIST
    assert [r.text for r in rules.ask] == [
        "Writing outside workspace",
        "Potentially destructive command",
    ]
    assert rules != Permissions()


def test_revision_dependent_course_facts_are_marked_in_the_switch_notes():
    marked = revision_dependent()
    assert set(marked) == {"trust_stop_reason", "execute_truncated_calls", "workspace_wall"}
    assert all(note.startswith(REVISION_MARK) for note in marked.values())
    assert "safe_path" in marked["workspace_wall"] and "f9e8b28" in marked["workspace_wall"]
    assert "validate_before_gate" not in marked


def test_the_course_note_of_the_front_half_states_the_dispute_in_both_languages():
    note = switch_info("own_front_checks")["course_why"]
    assert note == DISPUTED_FRONT_HALF.en and note.startswith("disputed:")
    assert "被外部件代工" in note and "被外部件代工" in DISPUTED_FRONT_HALF.zh
    assert "strict" in note and "schema" in note and "handler(**block.input)" in note


def test_a_course_run_that_crashed_reads_crashed_not_no():
    """Issue 30: under the course preset D9's run crashes with three calls unanswered."""
    rows = list(rows_of("D9").values())
    assert all(row.crashed for row in rows)
    assert "TypeError" in rows[0].preset_detail and "3 calls unanswered" in rows[0].preset_detail
    words = WORDS["zh"]
    assert {verdict(row, words) for row in rows} == {"崩溃了"}
    # a crash the experiment itself expects (D8's run_completed False) still reads as degraded
    d8 = rows_of("D8")["run_completed"]
    assert d8.crashed and verdict(d8, WORDS["en"]) == "yes"
