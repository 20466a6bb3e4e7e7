"""A scenario (script, world, prompt) and one run of it under a given set of switches.

`run_scenario` wires the real SDK client, the fake API, the world and the harness, and
returns a `Run`: the trace, the final messages and world, and what the API saw.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lab.harness.layers import Layers
from lab.harness.loop import Harness
from lab.harness.tools import ToolRegistry
from lab.model import ApiError, FakeMessagesAPI, Responder, ScriptedModel, Turn, make_client
from lab.switches import Switches
from lab.trace import Trace
from lab.world import World, course_tools


@dataclass(frozen=True)
class Scenario:
    """What the model says (a list of turns or a responder), to whom, in which world."""

    script: Sequence[Turn | ApiError] | Responder
    prompt: str = "Please help with the files in the workspace."
    files: Mapping[str, str] = field(default_factory=dict)
    stream: bool = False
    max_turns: int = 12


@dataclass
class Run:
    """Everything one run leaves behind; observables are queries over it."""

    scenario: Scenario
    switches: Switches
    trace: Trace
    messages: list[dict[str, Any]]
    world: World
    initial_files: dict[str, str]
    api: FakeMessagesAPI
    model: ScriptedModel
    ended: str


def run_scenario(scenario: Scenario, switches: Switches | None = None) -> Run:
    switches = switches or Switches()
    world = World.create(dict(scenario.files))
    initial = world.snapshot()
    model = ScriptedModel(scenario.script)
    api = FakeMessagesAPI(model)
    trace = Trace()
    registry = ToolRegistry(course_tools(world))
    layers = Layers(registry, trace, world.clock, switches)
    harness = Harness(
        make_client(api),
        layers,
        switches=switches,
        stream=scenario.stream,
        max_turns=scenario.max_turns,
    )
    ended = harness.run(scenario.prompt)
    return Run(scenario, switches, trace, harness.messages, world, initial, api, model, ended)
