"""The cases that need a feature turned on, and the cut the parser cannot read: thinking sent back
in a tool loop (P24, P25), pause_turn in a server tool's loop (P18), an image from a tool (P26),
a streamed call cut where its JSON cannot be parsed (P10s). A program that keeps each is kept,
one that breaks it gets the row's grade, one that never turns the feature on reads n/a; and any
cell quotes the 400 of a request the API refused (a tool whose schema is not JSON Schema)."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

from lab.model.script import ModelRequest, thinking, turn
from lab.probe.bench import probe_pairs
from lab.probe.catalogue import BY_ID
from lab.probe.conversation import Conversation, Stage, declares_server_tool
from lab.probe.grades import FAIL, KEPT, NA, NON_STRICT
from lab.probe.targets import command_target
from lab.probe.verdict import verdict
from lab.views.probe_matrix import reproduce

AGENTS = Path(__file__).parent / "agents"
DROPPED = "Expected `thinking` or `redacted_thinking`, but found `text`"
BAD_SCHEMA = "tools.0.custom.input_schema: JSON schema is invalid"


def hand(mode: str):
    return command_target(f"{sys.executable} {AGENTS / 'hand_loop.py'} --mode {mode}")


# (case, hand_loop's mode, the grade, a line its verdict (reason or evidence) must hold)
EXPECTED = [
    ("P24", "thinking", KEPT, "the thinking block came back first and unchanged"),
    ("P25", "thinking", KEPT, "the redacted_thinking block came back first and unchanged"),
    ("P24", "nothought", FAIL, DROPPED),
    ("P25", "nothought", FAIL, DROPPED),
    ("P24", "adaptive", NON_STRICT, "the thinking block was dropped"),
    ("P24", "careful", NA, "the program never asked for thinking"),
    ("P25", "careful", NA, "the program never asked for thinking"),
    ("P18", "thinking", KEPT, "the paused turn sent back unchanged"),
    ("P18", "careful", NA, "no request declares a server tool"),
    ("P26", "thinking", KEPT, "tool_result toolu_p26_01 '' + image image/png (96 base64 chars)"),
    ("P26", "astext", NON_STRICT, "the picture never came back as an image"),
    ("P26", "mislabel", FAIL, "Image does not match the provided media type image/jpeg"),
    ("P26", "careful", NA, "the program offers no read_image tool"),
    ("P10s", "streaming", KEPT, "the cut call was not run"),
    ("P10s", "careful", NA, "P10s needs a streamed one"),
    # P20's own evidence names no rejection: the cell quotes the 400 all the same.
    ("P20", "badschema", FAIL, "rejected: request #1 POST /v1/messages → 400 "),
    ("P1b", "badschema", FAIL, BAD_SCHEMA),
]


@pytest.fixture(scope="module")
def cells():
    pairs = [(hand(mode), BY_ID[case]) for case, mode, _, _ in EXPECTED]
    return {(c.target, c.case): c for c in probe_pairs(pairs)}


@pytest.mark.parametrize(("case", "mode", "kind", "line"), EXPECTED)
def test_each_case_grades_the_program_by_its_table(cells, case, mode, kind, line):
    cell = cells[(hand(mode).name, case)]
    said = "\n".join((cell.verdict.because, *cell.verdict.evidence))
    assert cell.verdict.kind == kind, said
    assert line in said


# Each row of the new tables decides a cell above: a table without it gives one another grade or
# another reason.
ROWS = [
    ("P24", "never_asked_for_thinking"),
    ("P24", "rejected"),
    ("P24", "thought_changed"),
    ("P25", "never_asked_for_thinking"),
    ("P25", "rejected"),
    ("P26", "no_image_tool"),
    ("P26", "rejected"),
    ("P26", "image_lost"),
    ("P18", "no_server_tool"),
]


@pytest.mark.parametrize(("case", "row"), ROWS)
def test_every_new_row_decides_a_cell(cells, case, row):
    table = BY_ID[case]
    assert row in [rule.name for rule in table.rules]
    without = replace(table, rules=tuple(r for r in table.rules if r.name != row))
    changed = []
    for id, mode, _, _ in EXPECTED:
        cell = cells[(hand(mode).name, id)]
        if id == case and cell.trial is not None:
            said, got = verdict(table, cell.trial), verdict(without, cell.trial)
            if (got.kind, got.because) != (said.kind, said.because):
                changed.append(mode)
    assert changed, f"{case} without {row} grades every cell the same"


def test_a_refused_schema_is_quoted_with_the_apis_text(cells):
    cell = cells[(hand("badschema").name, "P20")]
    quoted = [line for line in cell.verdict.evidence if line.startswith("rejected: ")]
    assert len(quoted) == 1 and BAD_SCHEMA in quoted[0]


def test_a_cell_reproduced_by_hand_asks_for_the_feature_and_names_the_cases_files(cells):
    line = reproduce(cells[(hand("mislabel").name, "P26")], hand("mislabel"))
    assert "lab serve P26 (in a folder with notes.txt and notes.png)" in line
    assert "LAB_PROBE_IMAGE_TOOL=1" in line
    assert "LAB_PROBE_THINKING" not in line


def test_the_cases_ask_for_their_feature_and_no_other_case_does():
    asked = {case.id: dict(case.asks) for case in BY_ID.values() if case.asks}
    assert asked == {
        "P18": {"LAB_PROBE_SERVER_TOOL": "1"},
        "P24": {"LAB_PROBE_THINKING": "1"},
        "P25": {"LAB_PROBE_THINKING": "1"},
        "P26": {"LAB_PROBE_IMAGE_TOOL": "1"},
    }


# ---- the script answers as the real API would: thinking only when asked, a pause only in a loop
def request(thinking_mode: str = "disabled", tools: list | None = None) -> ModelRequest:
    messages = [{"role": "user", "content": "[m] go"}]
    return ModelRequest(0, messages, tools or [], None, False, thinking_mode)


@pytest.mark.parametrize(
    ("mode", "thought"), [("enabled", True), ("adaptive", True), ("disabled", False)]
)
def test_a_stage_that_needs_thinking_answers_without_it_a_request_that_did_not_ask(mode, thought):
    plain = turn("I will read the notes.")
    stage = Stage(turn(thinking("why"), *plain.blocks), needs="thinking", instead=plain)
    answer = Conversation([stage], "[m]")(request(mode))
    assert any(b["type"] == "thinking" for b in answer.blocks) is thought


def test_a_server_tool_is_a_tool_the_api_runs_not_a_custom_or_client_tool():
    assert declares_server_tool([{"type": "web_search_20250305", "name": "web_search"}])
    assert declares_server_tool([{"type": "web_fetch_20250910", "name": "web_fetch"}])
    assert not declares_server_tool([{"name": "read_file", "input_schema": {}}])
    assert not declares_server_tool([{"type": "custom", "name": "read_file"}])
    assert not declares_server_tool([{"type": "bash_20250124", "name": "bash"}])
    assert not declares_server_tool("not a list")
