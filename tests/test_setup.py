"""A Scenario is a script beside a Setup's fields; the harness is built from the Setup alone."""

from __future__ import annotations

from dataclasses import MISSING, fields

from lab.harness.permissions import Permissions
from lab.model import text, turn
from lab.model.client import make_client
from lab.model.fake_api import FakeMessagesAPI
from lab.model.script import ScriptedModel
from lab.scenario import Scenario, Setup, build_harness, run_safely
from lab.switches import Switches
from lab.world import World


def test_a_scenario_holds_the_script_and_the_setups_fields_with_the_same_defaults():
    setup = {f.name: f for f in fields(Setup)}
    scenario = {f.name: f for f in fields(Scenario)}
    assert set(scenario) - set(setup) == {"script"}
    assert set(setup) - set(scenario) == {"model"}  # a scripted run needs no model name
    for name in set(setup) & set(scenario):
        a, b = setup[name], scenario[name]
        assert a.type == b.type, name
        if a.default is not MISSING or b.default is not MISSING:
            assert a.default == b.default, name
        if a.default_factory is not MISSING:
            assert a.default_factory() == b.default_factory(), name  # type: ignore[misc]


def test_the_setup_of_a_scenario_carries_every_field_but_the_script():
    perms = Permissions(deny=["Bash(rm *)"])
    scenario = Scenario([turn(text("hi"))], prompt="go", files={"a": "b"}, permissions=perms)
    setup = scenario.setup
    assert (setup.prompt, dict(setup.files), setup.permissions) == ("go", {"a": "b"}, perms)


def test_a_harness_is_wired_from_a_setup_without_any_script():
    setup = Setup(prompt="hello", model="claude-other", max_turns=3)
    world = World.create({})
    api = FakeMessagesAPI(ScriptedModel([turn(text("hi"))]))
    harness = build_harness(setup, Switches(), world, make_client(api))
    assert run_safely(harness, setup.prompt) == "done"
    assert api.requests[0]["model"] == "claude-other"
    assert harness.max_turns == 3
