"""A scenario (script, world, prompt) and one run of it under a given set of switches.

`run_scenario` wires the real SDK client, the fake API, the world and the harness, and
returns a `Run`: the trace, the final messages and world, and what the API saw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lab.harness.hooks import Hook
from lab.harness.layers import Layers
from lab.harness.loop import Harness
from lab.harness.permissions import Human, Permissions
from lab.harness.tools import ContractError, Tool, ToolRegistry
from lab.model import ApiError, FakeMessagesAPI, Responder, ScriptedModel, Turn, make_client
from lab.switches import Switches
from lab.trace import ToolRefused, Trace
from lab.world import World, course_tools


@dataclass(frozen=True)
class Scenario:
    """What the model says (a list of turns or a responder), to whom, in which world."""

    script: Sequence[Turn | ApiError] | Responder
    prompt: str = "Please help with the files in the workspace."
    files: Mapping[str, str] = field(default_factory=dict)
    stream: bool = False
    max_turns: int = 12
    permissions: Permissions = field(default_factory=Permissions)
    human: Sequence[str] | Callable[[str], str] = ()  # the scripted human's answers
    hooks: Sequence[tuple[str, Hook]] = ()  # (event, callback) in registration order
    keep_last: int | None = None  # trim the history to the last N messages before each call
    tools: Callable[[World], list[Tool]] = lambda world: []  # extra tools beside the course's


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
    registry = ToolRegistry(check_contract=switches.contract_checked)
    for tool in [*course_tools(world, wall=switches.workspace_wall), *scenario.tools(world)]:
        try:
            registry.register(tool)
        except ContractError as error:  # refused at registration: visible, and the run goes on
            trace.emit(ToolRefused(0, tool.name, str(error)))
    layers = Layers(
        registry,
        trace,
        world,
        switches,
        permissions=scenario.permissions,
        human=Human(scenario.human),
        hooks=scenario.hooks,
        keep_last=scenario.keep_last,
    )
    harness = Harness(
        make_client(api),
        layers,
        switches=switches,
        stream=scenario.stream,
        max_turns=scenario.max_turns,
    )
    try:
        ended = harness.run(scenario.prompt)
    except Exception as error:  # a crashing harness is an outcome to measure, not a lab failure
        harness.end("crash", f"{type(error).__name__}: {error}")
        ended = "crash"
    return Run(scenario, switches, trace, harness.messages, world, initial, api, model, ended)
