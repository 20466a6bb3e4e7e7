"""Typed through the faces: a student's own file, checked by mypy, sees the lab's names with their
types, including those `lab.model` and `lab.testing` load lazily (an `Any` would pass anything)."""

from __future__ import annotations

import re
import subprocess
import sys
import textwrap
from pathlib import Path

GOOD = """
from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions, course_permissions
from lab.model import ApiError, Step, rate_limited, text, tool_use, turn
from lab.kernel.scenario import Scenario, Setup
from lab.kernel.switches import Switches
from lab.testing import INVARIANTS, Case, RuleSet

script: list[Step] = [
    rate_limited(0.5),
    turn(text("A look first."), tool_use("bash", {"command": "ls"})),
    turn(text("Done.")),
]
EXPERIMENT = Experiment(
    id="D99",
    mechanism="M4",
    title={"en": "a title", "zh": "标题"},
    takeaway={"en": "a takeaway", "zh": "要点"},
    flips={"gate_order_correct": False},
    scenario=Scenario(script=script, permissions=course_permissions(), human=["y"]),
    expect={"files_lost": (0, 0)},
)
setup: Setup = Scenario(script=script, permissions=Permissions(deny=["Bash(rm *)"])).setup
switches: Switches = Switches.course()
fault: ApiError = rate_limited(1.0)
case = Case(script=tuple(script), rules=RuleSet(default="ask"))
names: list[str] = [invariant.name for invariant in INVARIANTS]
"""

# Each line is one mistake the type checker must catch; the marker says which face it goes through.
BAD = """
from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.model import rate_limited, text, turn
from lab.kernel.scenario import Scenario
from lab.kernel.switches import Switches
from lab.testing import Case, RuleSet

Scenario(script=12345)  # BAD lab.kernel.scenario
turn(text(12345))  # BAD lab.model
rate_limited("soon")  # BAD lab.model
Case(script=12345)  # BAD lab.testing
RuleSet(default=3)  # BAD lab.testing
Permissions(default="maybe")  # BAD lab.harness.permissions
Switches(trust_stop_reason="yes")  # BAD lab.kernel.switches
Experiment(id="D99", mechanism="M4", scenario="a scenario")  # BAD lab.chapter.experiment
"""


# mypy's default settings, except that it reads only the lab's own modules: every other package
# (the SDK's 3,000 modules, rich, pydantic, ...) counts as untyped, which took nine tenths of a
# cold run. The faces' parameters are the lab's own types, so the verdicts are the same (checked
# against the default settings when this was chosen); a face typed through another package would
# become Any and its BAD line would go unflagged: the test fails rather than passes.
MYPY_INI = """\
[mypy]
follow_imports = skip
[mypy-lab.*]
follow_imports = normal
"""


def mypy(folder: Path, *files: str) -> str:
    """mypy's report on `files` in `folder`, following only the lab's modules, a fresh cache."""
    (folder / "mypy.ini").write_text(MYPY_INI, encoding="utf-8")
    command = [sys.executable, "-m", "mypy", "--config-file", "mypy.ini", "--cache-dir", ".cache"]
    done = subprocess.run(
        [*command, "--no-error-summary", *files], cwd=folder, capture_output=True, text=True
    )
    return done.stdout + done.stderr


def test_mypy_sees_the_dsl_with_its_types_through_every_face(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(textwrap.dedent(GOOD), encoding="utf-8")
    (tmp_path / "bad.py").write_text(textwrap.dedent(BAD), encoding="utf-8")
    report = mypy(tmp_path, "good.py", "bad.py")
    errors = re.findall(r"^(\w+\.py):(\d+): error: .*$", report, flags=re.MULTILINE)
    assert not [e for e in errors if e[0] == "good.py"], report  # the DSL used well passes
    assert "import-untyped" not in report and "import-not-found" not in report, report
    lines = textwrap.dedent(BAD).splitlines()
    wanted = {n for n, line in enumerate(lines, 1) if "# BAD" in line}
    flagged = {int(n) for file, n in errors if file == "bad.py"}
    missed = [lines[n - 1] for n in sorted(wanted - flagged)]
    assert not missed, f"mypy let these through:\n{missed}\n{report}"
    assert 'Argument "script" to "Scenario" has incompatible type "int"' in report
