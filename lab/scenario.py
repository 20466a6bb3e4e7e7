"""A scenario (what the model says, and how the harness is set up) and one run of it.

A `Setup` is how the harness is set up: tools, rules, human, hooks, the world's files, the
prompt. A `Scenario` is a script (what the model does) plus a Setup's fields; `build_harness`
takes only the Setup, so a live run or `lab probe` wires a harness without a script.
`run_scenario` wires the real SDK client, the fake API, the world and the harness, and
returns a `Run`: the trace, the final messages and world, and what the API saw.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from lab.harness.hooks import Hook
from lab.harness.permissions import Human, Permissions
from lab.harness.tools import ContractError, Tool, ToolRegistry
from lab.model import ApiError, Responder, ScriptedModel, Turn
from lab.switches import Switches
from lab.trace import EndReason, ToolRefused, Trace
from lab.world import NoWall, WorkspaceWall, World, course_tools

if TYPE_CHECKING:  # the SDK is imported only when a run starts: writing a scenario is quick
    import anthropic

    from lab.harness.loop import Harness
    from lab.harness.retry import Wait
    from lab.model.fake_api import FakeMessagesAPI


def no_extra_tools(world: World) -> list[Tool]:
    """The default: the course's five tools and nothing more."""
    return []


@dataclass(frozen=True)
class Setup:
    """How the harness is set up, whoever the model is: the prompt, the world's files, tools,
    rules, the human and the hooks."""

    prompt: str = "Please help with the files in the workspace."
    files: Mapping[str, str] = field(default_factory=dict)
    stream: bool = False
    max_turns: int = 12
    permissions: Permissions = field(default_factory=Permissions)
    human: Sequence[str] | Callable[[str], str] = ()  # the scripted human's answers
    hooks: Sequence[tuple[str, Hook]] = ()  # (event, callback) in registration order
    keep_last: int | None = None  # trim the history to the last N messages before each call
    tools: Callable[[World], list[Tool]] = no_extra_tools  # tools beside the course's five
    model: str = "claude-lab-1"  # the model name the harness asks for


@dataclass(frozen=True)
class Scenario:
    """What the model says (a list of turns or a responder), to whom, in which world: a script
    beside a Setup's fields (`setup` hands them over)."""

    script: Sequence[Turn | ApiError] | Responder
    prompt: str = "Please help with the files in the workspace."
    files: Mapping[str, str] = field(default_factory=dict)
    stream: bool = False
    max_turns: int = 12
    permissions: Permissions = field(default_factory=Permissions)
    human: Sequence[str] | Callable[[str], str] = ()  # the scripted human's answers
    hooks: Sequence[tuple[str, Hook]] = ()  # (event, callback) in registration order
    keep_last: int | None = None  # trim the history to the last N messages before each call
    tools: Callable[[World], list[Tool]] = no_extra_tools  # tools beside the course's five

    @property
    def setup(self) -> Setup:
        """How the harness is set up for this scenario (everything but the script)."""
        shared = {f.name for f in fields(Setup)} & {f.name for f in fields(Scenario)}
        return Setup(**{name: getattr(self, name) for name in shared})


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
    ended: EndReason


def tools_for(world: World, switches: Switches) -> list[Tool]:
    """The course's five tools on `world`: the file tools behind the workspace wall, bash in
    the sandbox, unless either is switched off."""
    wall = WorkspaceWall(world) if switches.workspace_wall else NoWall()
    return course_tools(world, wall=wall, sandbox=switches.shell_sandbox)


def build_harness(
    setup: Setup,
    switches: Switches,
    world: World,
    client: anthropic.Anthropic,
    wait: Wait | None = None,
) -> Harness:
    """The harness a setup describes, wired to `client` (fake or real) and acting on `world`;
    its retries wait on the world's virtual clock unless `wait` says otherwise (a real model
    is waited for with `lab.harness.retry.real_wait`)."""
    from lab.harness.layers import Layers  # it names the SDK's types, and the loop uses the SDK
    from lab.harness.loop import Harness

    trace = Trace()
    registry = ToolRegistry(check_contract=switches.contract_checked)
    for tool in [*tools_for(world, switches), *setup.tools(world)]:
        try:
            registry.register(tool)
        except ContractError as error:  # refused at registration: visible, and the run goes on
            trace.emit(ToolRefused(0, tool.name, str(error)))
    layers = Layers(
        registry,
        trace,
        world,
        switches,
        permissions=setup.permissions,
        human=Human(setup.human),
        hooks=setup.hooks,
        keep_last=setup.keep_last,
    )
    return Harness(
        client,
        layers,
        model=setup.model,
        stream=setup.stream,
        max_turns=setup.max_turns,
        wait=wait,
    )


def safely(harness: Harness, action: Callable[[], object]) -> None:
    """Do `action` (run or step); a crash ends the run: an outcome to measure, not a lab bug."""
    try:
        action()
    except Exception as error:
        harness.end("crash", f"{type(error).__name__}: {error}")


def run_safely(harness: Harness, prompt: str) -> EndReason:
    """Run to the end; returns why the run ended ("crash" included)."""
    safely(harness, lambda: harness.run(prompt))
    assert harness.ended is not None
    return harness.ended


def run_scenario(scenario: Scenario, switches: Switches | None = None) -> Run:
    """One run of the scenario's script through the real SDK against the fake API."""
    from lab.model.client import make_client
    from lab.model.fake_api import FakeMessagesAPI

    switches = switches or Switches()
    world = World.create(dict(scenario.files))
    initial = world.snapshot()
    model = ScriptedModel(scenario.script)
    api = FakeMessagesAPI(model)
    harness = build_harness(scenario.setup, switches, world, make_client(api))
    ended = run_safely(harness, scenario.prompt)
    return Run(
        scenario, switches, harness.trace, harness.messages, world, initial, api, model, ended
    )
