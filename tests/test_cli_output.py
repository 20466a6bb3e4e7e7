"""What the commands print: nothing cut short at 80/100/120 columns, tool results wrapped in
full, `lab switches`, and the JSON of show, compare and switches (the README's schemas)."""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.cells import cell_len

from lab.chapter.experiment import load_all, run_experiment, select
from lab.kernel.switches import Switches, switch_info, switch_names
from lab.kernel.trace import ResultAppended
from lab.views.transcript import WORDS

EXPERIMENTS = load_all()
WIDTHS = [80, 100, 120]


def squash(text: str) -> str:
    """Without any whitespace: text wrapped over several lines compares equal to the original."""
    return "".join(text.split())


def cells_of_column(out: str, column: int) -> dict[str, str]:
    """Each table row's text in one column, joined over its wrapped lines, by experiment id."""
    found: dict[str, str] = {}
    current = None
    for line in out.splitlines():
        if not line.startswith("│"):
            continue
        parts = line.split("│")
        if parts[1].strip():
            current = parts[1].strip()
            found[current] = ""
        found[current] += parts[column]
    return found


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("width", WIDTHS)
def test_list_cuts_nothing_at_common_widths(lab, monkeypatch, width, lang):
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, err = lab("list", "--lang", lang)
    assert (code, err) == (0, "")
    assert "…" not in out
    assert max(cell_len(line.rstrip()) for line in out.splitlines()) <= width
    texts = cells_of_column(out, 3)
    assert set(texts) == {e.id for e in EXPERIMENTS}
    for e in EXPERIMENTS:
        assert squash(texts[e.id]) == squash(e.title[lang] + e.takeaway[lang]), e.id


@pytest.mark.parametrize("ident", ["D4", "D9", "D17"])
def test_show_prints_every_tool_result_in_full_wrapped_at_any_width(lab, monkeypatch, ident):
    (experiment,) = select(EXPERIMENTS, [ident])
    outcome = run_experiment(experiment)
    results = [
        e.content for run in (outcome.before, outcome.after) for e in run.trace.of(ResultAppended)
    ]
    assert results
    for width in (80, 200):
        monkeypatch.setenv("COLUMNS", str(width))
        code, out, _ = lab("show", ident)
        assert code == 0
        assert max(cell_len(line.rstrip()) for line in out.splitlines()) <= width
        shown = squash(out.replace(WORDS["en"]["mark"], ""))  # the break's mark, appended
        for content in results:
            assert squash(content) in shown, content[:80]


def test_switches_prints_every_switch_with_its_values_and_fault(lab, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, err = lab("switches")
    assert (code, err) == (0, "")
    for name in switch_names():
        assert name in out
        assert squash(switch_info(name)["fault"]) in squash(out)
    for column in ("mechanism", "reference", "course", "fault it injects"):
        assert column in out


def test_switches_json(lab):
    code, out, _ = lab("switches", "--json")
    assert code == 0
    switches = json.loads(out)
    assert [s["name"] for s in switches] == switch_names()
    reference, course = Switches(), Switches.course()
    for s in switches:
        assert s["reference"] == getattr(reference, s["name"])
        assert s["course"] == getattr(course, s["name"])
        assert set(s) == {
            "name",
            "mechanism",
            "grade",
            "reference",
            "course",
            "course_why",
            "experiments",
            "reader",
            "fault",
        }


def test_show_json_has_the_verdict_and_both_runs(lab):
    code, out, _ = lab("show", "D3", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["id"] == "D3" and report["reproduced"] is True and report["error"] is None
    baseline, degraded = report["runs"]["baseline"], report["runs"]["degraded"]
    assert baseline["ended"] == "done"
    assert any(e["event"] == "ApiRejected" for e in degraded["events"])
    assert not any(e["event"] == "ApiRejected" for e in baseline["events"])
    assert all({"event", "turn"} <= set(e) for e in baseline["events"])
    assert baseline["messages"][0]["role"] == "user"


def test_compare_json_matches_the_table(lab):
    code, out, _ = lab("compare", "course", "--json")
    assert code == 0
    report = json.loads(out)
    assert report["preset"] == "course" and report["flips"] == Switches.course().differences()
    _, table, _ = lab("compare", "course")
    shown = {m.group(1) for line in table.splitlines() if (m := re.match(r"^ ?(D\d+\w*) ", line))}
    assert shown and {row["id"] for row in report["rows"]} == shown
    assert set(report["rows"][0]) == {
        "id",
        "observable",
        "reference",
        "course",
        "own_rules",
        "as_degraded",
        "as_degraded_own_rules",
        "revision_dependent",
        "course_ended",
    }
    ended = {row["id"]: row["course_ended"] for row in report["rows"]}
    assert ended["D9"]["reason"] == "crash" and "TypeError" in ended["D9"]["detail"]
    assert ended["D12"] == {"reason": "done", "detail": ""}
    rows = {(row["id"], row["observable"]): row for row in report["rows"]}
    d26 = rows[("D26", "ran_denied_by_rule")]
    assert (d26["course"], d26["own_rules"], d26["as_degraded"]) == (False, True, False)
    assert d26["as_degraded_own_rules"] is True and d26["revision_dependent"] is False
    assert rows[("D10", "outside_reads")]["revision_dependent"] is True
    assert set(report["revision_dependent"]) == {
        "trust_stop_reason",
        "execute_truncated_calls",
        "workspace_wall",
    }
    # D9: the course crashes on the first malformed call instead of asking about both
    d9 = rows[("D9", "human_prompts_for_invalid_calls")]
    assert d9["as_degraded"] is False and d9["as_degraded_own_rules"] is False


def words(text: str) -> set[str]:
    return set(re.findall(r"[\w.-]+", text))


def vocabulary(view) -> set[str]:
    """Every word a stacked-or-table view can print, each whole: both layouts, unwrapped."""
    from rich.console import Console

    found: set[str] = set()
    for layout in (view.wide, view.narrow):
        console = Console(width=2000, file=io.StringIO(), color_system=None)
        console.print(layout)
        found |= words(console.file.getvalue())
    return found


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("argv", [["switches"], ["check", "--list"]], ids=" ".join)
def test_tables_stack_at_narrow_widths_and_split_no_word(lab, monkeypatch, width, argv):
    from lab.views.exercise_results import list_view
    from lab.views.report import switches_view

    view = switches_view() if argv == ["switches"] else list_view()
    monkeypatch.setenv("COLUMNS", str(width))
    code, out, _ = lab(*argv)
    assert code == 0
    assert max(cell_len(line) for line in out.splitlines()) <= width
    split = words(out) - vocabulary(view)  # a fragment such as `stop_reas` + `on`
    assert split == set(), sorted(split)[:10]
    # Stacked, a switch takes about six lines (name, facts, a wrapped fault, a blank).
    budget = {"switches": 6 * len(switch_names()) + 10, "check": 110}[argv[0]]
    assert len(out.splitlines()) < budget


def test_a_word_split_is_caught():
    from lab.views.report import switches_view

    known = vocabulary(switches_view())
    assert "stop_reason" in known and {"stop_reas", "on"} - known == {"stop_reas"}


@pytest.mark.parametrize(
    "argv",
    [["list"], ["run", "D1"], ["show", "D4"], ["switches"], ["check", "--list"],
     ["compare", "course"], ["check", "m1_lost_call"]],
    ids=" ".join,
)  # fmt: skip
def test_no_line_carries_trailing_padding_off_a_terminal(lab, monkeypatch, argv):
    monkeypatch.setenv("COLUMNS", "120")
    _, out, _ = lab(*argv)
    padded = [line for line in out.splitlines() if line != line.rstrip()]
    assert out.strip() and padded == [], padded[:3]
