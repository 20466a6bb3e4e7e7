"""`lab probe --junit FILE.xml`: the matrix as JUnit XML, so any CI shows it.

One testsuite per target, one testcase per cell (classname the target, name the case and its
title). A `fail` is a <failure> (its evidence the text), `not reached` an <error>, `n/a` a
<skipped>; every testcase carries its grade, mode and reason as <properties>, which is how
`non-strict` and `info` show: passed, with the grade said.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

from lab.probe.bench import Cell
from lab.probe.grades import FAIL, NOT_REACHED, POLICY
from lab.probe.target import Target
from lab.views.probe_matrix import reproduce


def testcase(cell: Cell, target: Target) -> ET.Element:
    element = ET.Element(
        "testcase",
        classname=cell.target,
        name=f"{cell.case} {cell.title}".strip(),
        time="0",
    )
    properties = ET.SubElement(element, "properties")
    facts = {"grade": cell.verdict.kind, "because": cell.verdict.because, "mode": cell.mode}
    if cell.other is not None:
        facts["other mode"] = f"{cell.other.mode}: {cell.other.verdict.kind}"
    for name, value in facts.items():
        if value:
            ET.SubElement(properties, "property", name=name, value=value)
    tag = POLICY[cell.verdict.kind].junit
    if tag is not None:
        outcome = ET.SubElement(element, tag, message=cell.verdict.because)
        lines = list(cell.verdict.evidence)
        if cell.verdict.kind == FAIL:
            lines.append("reproduce: " + reproduce(cell, target))
        outcome.text = "\n".join(lines)
    return element


def junit_xml(targets: Sequence[Target], cells: Sequence[Cell]) -> str:
    """The whole matrix as one JUnit XML document."""
    suites = ET.Element("testsuites", name="lab probe")
    for target in targets:
        mine = [c for c in cells if c.target == target.name]
        suite = ET.SubElement(
            suites,
            "testsuite",
            name=target.name,
            tests=str(len(mine)),
            failures=str(sum(c.verdict.kind == FAIL for c in mine)),
            errors=str(sum(c.verdict.kind == NOT_REACHED for c in mine)),
            skipped=str(sum(POLICY[c.verdict.kind].junit == "skipped" for c in mine)),
        )
        suite.extend(testcase(cell, target) for cell in mine)
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, "unicode") + "\n"
