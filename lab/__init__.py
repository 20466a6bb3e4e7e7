"""harness-lab: a fault-injection teaching lab for AI-agent harnesses.

The names most readers need, from one place:

    from lab import Scenario, Switches, run, text, tool_use, turn

    script = [turn(tool_use("bash", {"command": "ls"}), stop_reason="end_turn"), turn(text("ok"))]
    before = run(Scenario(script), Switches())  # the reference harness runs the ls
    after = run(Scenario(script), Switches(trust_stop_reason=True))  # trusting the stop: dropped

Switches     the switchboard: `Switches()` is the reference harness, each flag breaks one guarantee
Scenario     what the model says (a script of turns) and how the harness is set up
turn, text, tool_use   the words a script is written in
run          one entry for any harness: the lab's own, a function, a program; one record each
Experiment   one switch flip, one scenario, the observables and their expected before→after
FakeMessagesAPI        the scripted Messages API the real SDK talks to (`lab serve` serves it)
run_wire, assert_wire  a harness function run in process on the fake API, its wire judged

Each name is loaded on first use (PEP 562, lab/lazy.py): `import lab` and `lab --help` stay
quick. The type checker reads them from the `TYPE_CHECKING` imports below, so each keeps its type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lab.lazy import lazy_exports

__version__ = "0.1.0"

if TYPE_CHECKING:  # never run: where the type checker finds each name below
    from lab.chapter.experiment import Experiment
    from lab.kernel.runner import run
    from lab.kernel.scenario import Scenario
    from lab.kernel.switches import Switches
    from lab.model.fake_api import FakeMessagesAPI
    from lab.model.script import text, tool_use, turn
    from lab.testing.wire import assert_wire, run_wire

# A list written out, not computed: type checkers and linters read `__all__` as it is written.
__all__ = [
    "Experiment",
    "FakeMessagesAPI",
    "Scenario",
    "Switches",
    "assert_wire",
    "run",
    "run_wire",
    "text",
    "tool_use",
    "turn",
]

# module -> the names it defines, for the run time (tests/test_layout.py checks that this table,
# the imports above and `__all__` name the same things)
MODULES = {
    "lab.kernel.switches": ("Switches",),
    "lab.kernel.scenario": ("Scenario",),
    "lab.model.script": ("text", "tool_use", "turn"),
    "lab.kernel.runner": ("run",),
    "lab.chapter.experiment": ("Experiment",),
    "lab.model.fake_api": ("FakeMessagesAPI",),
    "lab.testing.wire": ("assert_wire", "run_wire"),
}
EXPORTS = {name: module.removeprefix("lab.") for module, names in MODULES.items() for name in names}
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
