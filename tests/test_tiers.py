"""The suite's two tiers: the README's command runs the quick one, `-m slow` the process-heavy
proofs, and .ci/run runs both, quick first, every time (tests/conftest.py marks the slow tier)."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()
CI = (ROOT / ".ci" / "run").read_text()
QUICK = ".venv/bin/python -m pytest --nbmake tests notebooks"
SLOW = ".venv/bin/python -m pytest --nbmake -m slow tests notebooks"


@pytest.fixture
def conftest(pytestconfig: pytest.Config) -> ModuleType:
    """tests/conftest.py as pytest loaded it (`import conftest` may find notebooks' one)."""
    mine = ROOT / "tests" / "conftest.py"
    (found,) = [
        plugin
        for plugin in pytestconfig.pluginmanager.get_plugins()
        if isinstance(plugin, ModuleType) and getattr(plugin, "__file__", None) == str(mine)
    ]
    return found


def notebook_tiers() -> set[str]:
    """notebooks/conftest.py's slow notebooks (read, not imported: it is the notebooks' plugin)."""
    source = (ROOT / "notebooks" / "conftest.py").read_text()
    return set(re.findall(r'"(\d\d_\w+\.py)"', source.split("SLOW = ", 1)[1].split("\n", 1)[0]))


def test_the_slow_marker_is_registered_and_left_out_by_default():
    pytest_options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]
    options = pytest_options["ini_options"]
    assert options["markers"] == ["slow: process-heavy proofs, run by .ci/run after the quick tier"]
    assert options["addopts"].endswith("-m 'not slow'")


def test_the_readme_names_both_tiers_and_ci_runs_them_quick_first():
    assert f"{QUICK}\n```" in README  # the quick start's second command
    assert f"`{SLOW}`" in README
    lines = [line.strip() for line in CI.splitlines()]
    quick, slow = lines.index(QUICK), lines.index(SLOW)
    matrix = lines.index('.venv/bin/python tests/matrix_check.py --json "$probe_all"')
    assert quick < slow < matrix  # the README's command, then the slow tier, then CI's own steps


def test_the_shared_probes_three_readers_are_in_one_tier(conftest):
    """tests/shared_probe.py runs once per session: its readers must run in the same one."""
    assert {"test_probe_all.py", "test_peers.py"} <= conftest.SLOW_FILES
    assert "08_real_harnesses.py" in notebook_tiers()


def test_every_file_the_tiers_name_exists(conftest):
    tests = {p.name for p in (ROOT / "tests").glob("test_*.py")}
    notebooks = {p.name for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.py")}
    assert conftest.SLOW_FILES <= tests
    assert set(conftest.NEEDS_PACKAGES) <= tests
    assert set(conftest.HEAVY_FIRST) <= tests | notebooks
    assert notebook_tiers() <= notebooks


def test_ci_probes_the_matrix_once_and_names_the_file_for_the_slow_tier():
    probes = [line for line in CI.splitlines() if "lab probe --all" in line and "#" not in line]
    assert len(probes) == 1 and "--json" in probes[0]
    assert 'export LAB_PROBE_ALL_JSON="$probe_all"' in CI
    assert '.venv/bin/python tests/matrix_check.py --json "$probe_all"' in CI
