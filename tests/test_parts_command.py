"""`lab parts`: the assembled harness and the course's swaps, read from the built harness."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from lab.chapter.disputes import DISPUTED_FRONT_HALF
from lab.cli.parts_command import TITLES, assemble
from lab.harness.parts import part_name, slots
from lab.harness.switchboard import TABLE
from lab.kernel.switches import Switches
from lab.views.parts_view import diff_view, parts_view


def render(renderable, width: int = 80) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_lab_parts_names_every_slot_with_its_reference_part_and_switch(lab):
    code, out, err = lab("parts")
    assert code == 0 and err == ""
    for switch, (slot, good, _bad) in TABLE.items():
        assert re.search(rf"{slot}\s+{part_name(good)}\s+{switch}=", out), switch
    assert "✗" not in out.split("chain of checks")[0].split("\n", 3)[-1]  # nothing faulty
    assert "known_tool → complete_input → validation → tool_check → hooks → permission" in out
    assert "deny → ask → allow → default" in out


def test_a_flipped_switch_shows_its_faulty_part(lab):
    code, out, _ = lab("parts", "--switch", "gate_order_correct=false")
    assert code == 0
    assert re.search(r"gate_order\s+✗ AskFirst\s+gate_order_correct=False", out)
    assert "ask → deny → allow → default" in out  # read from the assembled gates


def test_the_course_preset_has_no_check_of_its_own_before_the_handler(lab):
    code, out, _ = lab("parts", "--preset", "course")
    assert code == 0
    assert re.search(r"front_half\s+✗ NoFrontHalf\s+own_front_checks=False", out)
    assert "chain of checks: known_tool → complete_input → hooks\n" in out
    flat = " ".join(out.split())
    # the chapter's four events and five callbacks, permission the first PreToolUse one
    assert (
        "4 events, 5 callbacks: UserPromptSubmit: context_inject_hook · PreToolUse: "
        "permission_hook, log_hook · PostToolUse: large_output_hook · Stop: summary_hook"
    ) in flat


def test_the_diff_lists_exactly_what_the_course_swaps():
    reference = assemble(Switches(), "reference")
    course = assemble(Switches.course(), "course")
    text = render(diff_view(reference, course))
    flipped = Switches.course().differences()
    swapped = {TABLE[name][0] for name in flipped}
    assert f"{len(swapped)} of {len(slots())} slots swapped" in text
    for name in flipped:
        _slot, good, bad = TABLE[name]
        assert f"− {part_name(good)}\n" in text and f"+ {part_name(bad)}   {name}=" in text
    assert DISPUTED_FRONT_HALF.en in " ".join(text.split())  # the dispute, said where shown
    assert "被外部件代工" in text
    assert "− chain of checks:" in text and "+ chain of checks:" in text
    assert "  gates:" in text  # the course keeps deny → ask → allow


def test_the_reference_diffed_against_itself_swaps_nothing():
    reference = assemble(Switches(), "the reference")
    assert "swaps nothing" in render(diff_view(reference, reference))


@pytest.mark.parametrize("args", [(), ("--preset", "course"), ("--diff", "course")])
def test_every_view_fits_80_columns_in_both_languages(args, monkeypatch, capsys):
    from lab.cli import main

    monkeypatch.setenv("COLUMNS", "80")
    for lang in ("en", "zh"):
        assert main(["parts", *args, "--lang", lang]) == 0
        out = capsys.readouterr().out
        assert out and max(Console().measure(line).maximum for line in out.splitlines()) <= 80
        assert "…" not in out  # nothing cut off


def test_zh_labels_are_chinese_and_part_names_stay_code(lab):
    code, out, _ = lab("parts", "--diff", "course", "--lang", "zh")
    assert code == 0
    assert TITLES["zh"]["course"] in out and "扫码链" in out
    assert "".join(DISPUTED_FRONT_HALF.zh.split()) in "".join(out.split())
    assert "+ NoFrontHalf" in out and "+ BashOnly" in out
    assert "the course" not in out  # no English prose: a part's docstring is shown in en only


def test_preset_and_diff_exclude_each_other(lab):
    code, _, err = lab("parts", "--preset", "course", "--diff", "course")
    assert code == 2 and "not allowed with" in err


def test_the_views_render_without_a_terminal():
    text = render(parts_view(assemble(Switches(), "t")), width=80)
    assert text.count("\n") > len(slots())
