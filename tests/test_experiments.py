"""Every experiment reproduces its expected before→after; malformed files fail readably."""

from __future__ import annotations

import re
import textwrap

import pytest

from lab.chapter.experiment import ExperimentError, load_all, load_file, run_experiment, select

EXPERIMENTS = load_all()


def test_the_seed_experiments_are_present():
    assert {"D1"} <= {e.id for e in EXPERIMENTS}


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.id)
def test_expected_before_and_after(experiment):
    outcome = run_experiment(experiment)
    for row in outcome.rows:
        assert (row.before, row.after) == (row.expected_before, row.expected_after), row.observable
    # The flip must matter: the baseline and the degraded run differ in at least one observable.
    assert any(row.before != row.after for row in outcome.rows)


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.id)
def test_bilingual_texts(experiment):
    assert experiment.title["en"] and experiment.title["zh"]
    assert any("\u4e00" <= ch <= "\u9fff" for ch in experiment.takeaway["zh"])


def write(tmp_path, body: str):
    path = tmp_path / "d99_bad.py"
    path.write_text(textwrap.dedent(body))
    return path


@pytest.mark.parametrize(
    ("body", "fragment"),
    [
        ("EXPERIMENT = (\n", "syntax error"),
        ("X = 1\n", "defines no EXPERIMENT"),
        ("import nothing_here\n", "ModuleNotFoundError"),
        (
            """
            from lab.chapter.experiment import Experiment
            from lab.kernel.scenario import Scenario
            EXPERIMENT = Experiment(
                id="D99", mechanism="M9", title={"en": "t"}, takeaway={"en": "t", "zh": "t"},
                flips={"no_such_switch": True}, scenario=Scenario([]), expect={"nothing": (1, 2)},
            )
            """,
            "flips unknown switch 'no_such_switch'",
        ),
    ],
)
def test_malformed_file_gives_one_readable_line(tmp_path, body, fragment):
    path = write(tmp_path, body)
    with pytest.raises(ExperimentError) as caught:
        load_file(path)
    lines = caught.value.lines  # one readable line per problem, each FILE:LINE: what
    assert lines and all(re.match(rf"{re.escape(str(path))}:\d+: \S", line) for line in lines)
    assert any(fragment in line for line in lines)


def test_unknown_id_names_the_known_ids():
    with pytest.raises(ExperimentError, match="unknown experiment id 'D42'; known ids: D1"):
        select(EXPERIMENTS, ["D42"])
