"""CI probes the whole matrix once (`lab probe --all --json FILE`, .ci/run) and names FILE in
LAB_PROBE_ALL_JSON: the tests that read the shared slice's verdicts take them from it, cut down
to the slice, and never start a probe of their own (tests/shared_probe.py)."""

from __future__ import annotations

import json

import pytest
import shared_probe
from shared_probe import SLICE


def whole_run(cases: list[str]) -> dict:
    """A `lab probe --all --json` result's shape, two targets over `cases`."""
    targets = ["lab-reference", "peer"]
    return {
        "isolation": "netns",
        "grades": ["pass", "fail"],
        "targets": [{"name": t, "about": "", "versions": {}, "missing": None} for t in targets],
        "cases": [{"id": case, "title": case} for case in cases],
        "cells": [
            {"target": t, "case": case, "verdict": "pass" if t == targets[0] else "fail"}
            for t in targets
            for case in cases
        ],
    }


def test_the_slice_is_read_from_the_file_ci_names(tmp_path, tmp_path_factory, monkeypatch):
    path = tmp_path / "all.json"
    path.write_text(json.dumps(whole_run(["P0", *SLICE, "P99"])))
    monkeypatch.setenv(shared_probe.ALL_JSON, str(path))
    monkeypatch.setattr(shared_probe, "run", lambda folder: pytest.fail("probed a second time"))
    # Its notebook file goes to this test's folder, not the session's.
    monkeypatch.setattr(shared_probe, "session_folder", lambda factory: tmp_path)
    result = shared_probe.verdicts(tmp_path_factory)
    assert [case["id"] for case in result["cases"]] == list(SLICE)
    assert {(c["target"], c["case"]) for c in result["cells"]} == {
        (t, case) for t in ("lab-reference", "peer") for case in SLICE
    }
    assert result["targets"] == whole_run([])["targets"]
    # Notebook 08's file: the slice's command and that result.
    saved = json.loads(shared_probe.shared_file(tmp_path_factory).read_text())
    assert saved == {"args": list(shared_probe.ARGS), "result": result}


def test_a_file_without_the_slice_is_refused(tmp_path, tmp_path_factory, monkeypatch):
    path = tmp_path / "some.json"
    path.write_text(json.dumps(whole_run(["P1"])))
    monkeypatch.setenv(shared_probe.ALL_JSON, str(path))
    with pytest.raises(AssertionError, match="lacks cases"):
        shared_probe.verdicts(tmp_path_factory)
