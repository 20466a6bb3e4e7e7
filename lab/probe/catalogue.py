"""Every probe case in one list, P1-P23 in order then P10s, P24-P26, and by id (the cases:
lab/probe/cases/)."""

from __future__ import annotations

from lab.probe.cases import CASES, Case

__all__ = ["BY_ID", "CASES", "CORE_CASES", "MORE_CASES"]

BY_ID: dict[str, Case] = {case.id: case for case in CASES}
CORE_CASES: list[Case] = CASES[:14]  # P1-P12: the seed's mechanisms and the API's first faults
MORE_CASES: list[Case] = CASES[14:]  # P13-P26: the turn re-sent, stop reasons, thinking, images
