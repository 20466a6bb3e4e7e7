"""The teacher's claims table: every "where it runs" reference exists, and its counts add up."""

from __future__ import annotations

import re
import shlex
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from lab.chapter.disputes import DISPUTED
from lab.cli.parser import build_parser
from lab.kernel.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
TABLE = ROOT / "docs" / "teacher" / "claims.md"
ROW = re.compile(r"^\| ([MB]\d*\.\d+) \| (.+) \| (【[一二三]】|—) \| (.+) \| (.+) \|$")
STATUSES = ("faithful", "partly", "absent", "disputed")


@dataclass(frozen=True)
class Claim:
    id: str
    quote: str
    grade: str
    where: tuple[str, ...]  # the `…` references of the "where it runs" cell
    status: str
    why: str  # after the status's dash; empty for a faithful claim


def claims(text: str) -> list[Claim]:
    """The table's rows, in order."""
    found = []
    for line in text.splitlines():
        if m := ROW.match(line):
            status, _, why = m[5].partition(" — ")
            found.append(
                Claim(m[1], m[2], m[3], tuple(re.findall(r"`([^`]+)`", m[4])), status, why)
            )
    return found


def experiment(ref: str) -> str | None:
    number, suffix = re.fullmatch(r"D(\d+)([a-z]?)", ref).groups()  # type: ignore[union-attr]
    if list((ROOT / "experiments").glob(f"d{int(number):02d}{suffix}_*.py")):
        return None
    return f"no experiment {ref} in experiments/"


def notebook(ref: str) -> str | None:
    number, words = re.fullmatch(r"nb(\d\d): (.+)", ref).groups()  # type: ignore[union-attr]
    files = list((ROOT / "notebooks").glob(f"{number}_*.py"))
    if not files:
        return f"no notebook {number}"
    return (
        None if words in files[0].read_text(encoding="utf-8") else f"{files[0].name} lacks {words}"
    )


def command(ref: str) -> str | None:
    try:
        build_parser().parse_args(shlex.split(ref)[1:])
    except (UsageError, SystemExit) as error:
        return f"{ref} does not parse: {error}"
    return None


def test_function(ref: str) -> str | None:
    path, name = ref.split("::")
    file = ROOT / path
    if not file.is_file():
        return f"no file {path}"
    return None if f"def {name}(" in file.read_text(encoding="utf-8") else f"{path} has no {name}"


test_function.__test__ = False  # type: ignore[attr-defined]  # a resolver, not a test

# Each form a reference may take, and how to check that it exists.
FORMS = {
    re.compile(r"D\d+[a-z]?"): experiment,
    re.compile(r"nb\d\d: .+"): notebook,
    re.compile(r"lab \S.*"): command,
    re.compile(r"tests/\S+\.py::\w+"): test_function,
}


def broken(ref: str) -> str | None:
    """Why `ref` names nothing, or None when it exists."""
    for form, check in FORMS.items():
        if form.fullmatch(ref):
            return check(ref)
    return f"not a reference form: {ref}"


TABLE_CLAIMS = claims(TABLE.read_text(encoding="utf-8"))


def test_the_table_holds_the_chapter_s_claims_with_unique_ids():
    ids = [c.id for c in TABLE_CLAIMS]
    assert len(ids) >= 57
    assert len(set(ids)) == len(ids)


@pytest.mark.parametrize("claim", TABLE_CLAIMS, ids=lambda c: c.id)
def test_every_reference_exists(claim):
    assert [why for ref in claim.where if (why := broken(ref))] == []


@pytest.mark.parametrize("claim", TABLE_CLAIMS, ids=lambda c: c.id)
def test_status_is_known_and_anything_not_faithful_says_why(claim):
    assert claim.status in STATUSES
    assert claim.quote.startswith("「") and claim.quote.endswith("」")
    if claim.status == "faithful":
        assert claim.where and not claim.why
    else:
        assert len(claim.why) > 20
    if claim.status != "absent":
        assert claim.where, "a claim the lab shows names where"


@pytest.mark.parametrize(
    "ref",
    [
        "D99",
        "D9z",
        "nb05: 这段话不在笔记本里",
        "nb42: 代码",
        "lab nosuchcommand",
        "lab show",
        "lab run --nosuchflag",
        "tests/test_hooks.py::test_no_such_test",
        "tests/no_such_file.py::test_x",
        "notebook 05",
    ],
)
def test_a_made_up_reference_is_caught(ref):
    assert broken(ref) is not None


def test_the_counts_at_the_end_are_the_table_s():
    counts = Counter(c.status for c in TABLE_CLAIMS)
    told = ", ".join(f"{counts[s]} {s}" for s in STATUSES)
    assert f"{len(TABLE_CLAIMS)} claims: {told}." in TABLE.read_text(encoding="utf-8")


# The word that names each disputed claim of lab/chapter/disputes.py in the chapter's text.
DISPUTED_WORDS = {"front_half": "代工"}


@pytest.mark.parametrize("slot", sorted(DISPUTED))
def test_a_claim_disputes_py_holds_is_marked_disputed(slot):
    word = DISPUTED_WORDS[slot]
    assert word in DISPUTED[slot].seed
    quoted = [c for c in TABLE_CLAIMS if word in c.quote]
    assert quoted, f"the table does not quote the disputed claim {slot}"
    assert {c.status for c in quoted} == {"disputed"}
    assert all("disputes.py" in c.why or "M3.7" in c.why for c in quoted)
