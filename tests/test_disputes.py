"""One story per claim: a claim the lab marks disputed is said the lab's way wherever it appears,
and nothing states the chapter's reading of it as a fact (issue 30)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from lab.chapter.disputes import DISPUTED, DISPUTED_FRONT_HALF
from lab.kernel.switches import switch_info
from lab.views.switch_words import course_why

ROOT = Path(__file__).resolve().parent.parent
# Where the class meets the chapter's claims: the README, notebooks, experiments, the lab's code.
PLACES = [
    ROOT / "README.md",
    *sorted((ROOT / "notebooks").glob("*.py")),
    *sorted((ROOT / "experiments").glob("*.py")),
    *sorted(p for p in (ROOT / "lab").rglob("*.py") if p.name != "disputes.py"),
]
# The words that name the front-half claim wherever it appears.
MENTIONS = {"front_half": ("代工", "外部件")}


def flat(text: str) -> str:
    """Text without line breaks, comment marks or quote marks: a wrapped sentence reads whole."""
    text = re.sub(r"^\s*#\s?>?\s?", "", text, flags=re.M)
    return "".join(text.split())


@pytest.mark.parametrize("name", sorted(DISPUTED))
def test_no_place_states_the_disputed_reading_as_a_fact(name):
    for path in PLACES:
        text = path.read_text(encoding="utf-8")
        for phrase in DISPUTED[name].contradictions:
            assert phrase not in text, f"{path.relative_to(ROOT)} says {phrase!r}"


@pytest.mark.parametrize("name", sorted(DISPUTED))
def test_every_place_that_names_the_claim_says_it_is_disputed(name):
    dispute = DISPUTED[name]
    named = [p for p in PLACES if any(w in p.read_text(encoding="utf-8") for w in MENTIONS[name])]
    assert len(named) >= 3  # the README, notebook 03, the switch's note at least
    for path in named:
        text = path.read_text(encoding="utf-8")
        # the lab's text itself, the name that prints it, or (code and the README's prose)
        # the word and where the text lives
        said = (
            flat(dispute.zh) in flat(text)
            or flat(dispute.en) in flat(text)
            or "DISPUTED_FRONT_HALF" in text
            or ("disputed" in text and "lab/chapter/disputes.py" in text)
        )
        if path.name == "README.md":  # prose of its own: in both languages
            said = said and "本实验室的读法不同" in text
        assert said, f"{path.relative_to(ROOT)} names the claim without the lab's reading"


def test_notebook_03_says_the_dispute_in_both_languages():
    text = flat((ROOT / "notebooks" / "03_chain_of_checks_M3.py").read_text(encoding="utf-8"))
    assert flat(DISPUTED_FRONT_HALF.zh) in text and flat(DISPUTED_FRONT_HALF.en) in text


def test_the_course_note_says_it_in_both_languages():
    english = switch_info("own_front_checks")["course_why"]
    assert english == DISPUTED_FRONT_HALF.en
    assert course_why("own_front_checks", english, "zh") == DISPUTED_FRONT_HALF.zh
