"""`lab show` explains the break: the first divergence lands on the real break in every
experiment, and the transcript says what happened to every call, hook, context and file."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from lab.chapter.experiment import load_all, run_experiment
from lab.cli import COMMANDS, build_parser
from lab.views.transcript import Line, first_divergence, lines_of

EXPERIMENTS = load_all()
OUTCOMES = {e.id: run_experiment(e) for e in EXPERIMENTS}

# Where each experiment breaks, read off the chapter: (turn, the unit — a call id, "head" or
# "tail" —, a phrase of the baseline's marked line, a phrase of the degraded one's; None where
# that side has no such line).
BREAKS = {
    "D1": (2, "toolu_002", "▸ toolu_002 bash down the chain", "never looked at: dropped"),
    "D1b": (2, "tail", "run ended: done", "goes on with an empty tool_result message"),
    "D3": (4, "head", "history trimmed: 2 messages removed", "history trimmed: 3 messages"),
    "D4": (2, "toolu_002", "gate deny → deny", "human asked"),
    "D7": (1, "toolu_002", "✗ known_tool: Unknown tool: check_disk", "run ended: crash"),
    "D8": (0, "head", "refused word_count", None),
    "D9": (1, "toolu_001", None, "human asked"),
    "D9b": (1, "toolu_001", "✗ validation", "human asked"),
    "D10": (1, "toolu_001", "✗ tool_check: Path escapes workspace", "human asked"),
    "D11": (1, "toolu_001", "gate deny → deny", "gate allow → allow"),
    "D12": (1, "toolu_002", "hook PreToolUse/audit_log → None", "audit_log skipped"),
    "D13": (1, "toolu_001", "metrics_recorder → None", "metrics_recorder skipped"),
    "D14": (0, "head", "the prompt + context “Team convention", "the prompt alone"),
    "D15": (1, "toolu_001", "gate deny → deny", "gate hook → allow"),
    "D16": (2, "tail", "hook Stop/double_check → None", "'decision': 'block'"),
    "D17": (1, "toolu_001", "tool_result: id,value", "spilled 50272 chars"),
    "D18": (1, "tail", "tray [toolu_001] 0s→1s", "tray [toolu_001 toolu_002] in parallel"),
    "D19": (1, "tail", "in parallel", "tray [toolu_001] 0s→1s"),
    "D20": (2, "head", "retry 1 after 1s on the virtual clock", "✗ API 529 overloaded_error"),
    "D21": (1, "toolu_001", "✗ complete_input: the input was cut off", "gate default → allow"),
    "D22": (1, "head", "partial answer (text, tool_use) dropped", "KEPT in the history"),
    "D23": (1, "toolu_002", "tool_result [is_error]", "no tool_result was sent for this call"),
    "D24": (
        1,
        "toolu_001",
        "hook PreToolUse/protect_src → {'permissionDecision': 'deny'",
        "gate allow",
    ),
    "D25": (1, "toolu_001", "human asked", "a PreToolUse hook allowed it, nobody was asked"),
    "D26": (2, "toolu_002", "gate deny → deny (deny rule Edit(.env))", "human asked"),
    "D27": (1, "tail", "in parallel", "tray [toolu_001] 0s→1s"),
    "D28": (1, "toolu_001", "cannot delete '/etc/hosts': Read-only file system", "ran 0s→2s"),
    "D29": (1, "head", "thinking: sent back unchanged", "thinking: STRIPPED from the turn"),
}


def plain(line: Line | None) -> str | None:
    return None if line is None else line.text.plain


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.id)
def test_the_first_divergence_is_one_unit_that_really_differs(experiment):
    outcome = OUTCOMES[experiment.id]
    split = first_divergence(outcome.before, outcome.after)
    assert split is not None, "the two runs look the same: the break is not shown"
    marked = [line for line in (split.left, split.right) if line is not None]
    assert marked and all(line.unit == split.unit for line in marked)
    if split.left and split.right:
        assert split.left.key != split.right.key


@pytest.mark.parametrize("experiment", EXPERIMENTS, ids=lambda e: e.id)
def test_the_first_divergence_is_the_chapter_s_break(experiment):
    if experiment.id not in BREAKS:
        pytest.fail(f"{experiment.id}: add where it breaks to BREAKS")
    turn, unit, left, right = BREAKS[experiment.id]
    outcome = OUTCOMES[experiment.id]
    split = first_divergence(outcome.before, outcome.after)
    assert (split.turn, split.unit[2]) == (turn, unit)
    for phrase, line in ((left, split.left), (right, split.right)):
        if phrase is None:
            assert line is None
        else:
            assert phrase in plain(line)


def show(*argv: str, width: int = 120) -> str:
    """`lab show ...` as printed into a plain console `width` columns wide."""
    out = io.StringIO()
    args = build_parser().parse_args(["show", *argv])
    assert COMMANDS["show"](args, Console(file=out, width=width, color_system=None)) == 0
    return out.getvalue()


def test_show_marks_the_break_on_both_runs_and_names_it_at_the_top():
    text = show("D12")
    assert text.count("◀ first divergence") == 2
    head = text.split("baseline (the reference harness)\nstart")[0]
    assert "first divergence at turn 1" in head and "audit_log skipped" in head


@pytest.mark.parametrize("id", ["D12", "D13"])
def test_show_names_the_skipped_hooks(id):
    assert "skipped:" in show(id) and "answered first" in show(id)


def test_show_d14_differs_where_the_context_goes():
    text = show("D14")
    assert "first message to the model: the prompt + context “Team convention" in text
    assert "the prompt alone (a UserPromptSubmit hook answered; its answer was dropped)" in text


def test_show_names_every_lost_file_including_the_system_ones():
    text = show("D4")
    assert "virtual disk: 2 files lost: /workspace/build/main.o, /workspace/src/main.c" in text
    sandboxed = show("D28")  # without the sandbox the system files go too, and are named
    assert "/etc/hosts, /etc/passwd" in sandboxed
    assert "virtual disk: no file lost" in text


def test_every_call_line_names_its_call_when_the_answer_holds_several():
    lines = lines_of(OUTCOMES["D12"].before)
    call_lines = [line for line in lines if line.unit[2].startswith("toolu_")]
    assert call_lines
    for line in call_lines:
        assert line.text.plain.lstrip("▸ ").startswith(line.unit[2]), line.text.plain


def test_a_dropped_call_and_a_missing_result_say_so():
    assert "✗ toolu_002 bash never looked at: dropped" in show("D1")
    denied = next(
        e.id
        for e in EXPERIMENTS
        if e.flips == {"pair_protection": False} and not e.scenario.keep_last
    )
    assert "no tool_result was sent for this call" in show(denied)


def test_tool_results_are_wrapped_never_cut():
    text = show("D17", width=80)
    assert "[Partial view: the first 30000 of 50272 characters.]" in text
    assert "2504,6270016" in text  # the last row of the page the read tool returned
    assert "…" not in "".join(line for line in text.splitlines() if "tool_result" in line)


def test_show_in_chinese_is_chinese_throughout():
    text = show("D4", "--lang", "zh")
    for english in (
        "baseline",
        "degraded",
        "turn ",
        "model called",
        "down the chain",
        "first divergence",
        "virtual disk",
        "run ended",
        "the loop goes on",
        "switch:",
        "takeaway",
    ):
        assert english not in text, english
    for chinese in (
        "第一处分歧在第 2 轮",
        "基线",
        "退化",
        "第 2 轮",
        "虚拟磁盘：丢失 2 个文件",
        "改动：",
    ):
        assert chinese in text, chinese
    assert "ran_deny_listed" in text and "files_lost" in text  # observable names stay
