"""Every probe case in one list: P1-P12 (cases.py) and P13-P23 (more_cases.py), by id."""

from __future__ import annotations

from lab.probe.cases import CORE_CASES, Case
from lab.probe.more_cases import MORE_CASES

__all__ = ["BY_ID", "CASES"]

CASES: list[Case] = [*CORE_CASES, *MORE_CASES]
BY_ID = {case.id: case for case in CASES}
