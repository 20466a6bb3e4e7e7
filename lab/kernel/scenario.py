"""A scenario (what the model says, and how the harness is set up) and one run of it.

A `Setup` is how the harness is set up: tools, rules, human, hooks, the world's files, the
prompt. A `Scenario` is a Setup plus a script (what the model does); `build_harness`
takes only the Setup, so a live run or `lab probe` wires a harness without a script.
`wire` sets the harness up on a fresh world and wires it to its model (the fake API behind the
real SDK, with a Tap writing the run's Record, or a client it is given) without running it;
`run_scenario` runs a wired harness to its end and returns a `Run`: the trace, the final
messages and world, what the API saw, and the run's Record (lab/kernel/record.py).
lab/kernel/runner.py is the one entry that runs anything, this included.
"""

from __future__ import annotations

__all__ = ["Run", "Scenario", "Setup", "run_scenario"]  # the students' DSL: Scenario, Setup

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from lab.harness.hooks import Hook
from lab.harness.permissions import Human, Permissions
from lab.harness.tools import ContractError, Tool, ToolRegistry
from lab.harness.walls import walled_tools
from lab.kernel.record import Ending, Ran, Record, Request, Tap, WatchedModel
from lab.kernel.switches import Switches
from lab.kernel.trace import EndReason, RunEnded, ToolExecuted, ToolRefused, Trace
from lab.model import Responder, ScriptedModel, Step
from lab.world import World

if TYPE_CHECKING:  # the SDK is imported only when a run starts: writing a scenario is quick
    import anthropic

    from lab.harness.loop import Harness
    from lab.harness.parts import Parts
    from lab.harness.retry import Wait
    from lab.model.fake_api import FakeMessagesAPI


def no_extra_tools(world: World) -> list[Tool]:
    """The default: the course's five tools and nothing more."""
    return []


@dataclass(frozen=True, kw_only=True)  # keywords only: a Scenario's one positional is its script
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
    thinking: int | None = None  # a thinking budget (tokens) the harness asks for; None: off
    # Tools the API runs itself (a web search): declared in `tools`, never dispatched here.
    server_tools: Sequence[dict[str, Any]] = ()


@dataclass(frozen=True)
class Scenario(Setup):
    """What the model says (a list of turns or a responder) plus how the harness is set up: a
    Setup with a script. `Scenario(script, prompt=..., files=...)`: the script is its one
    positional field, the Setup's fields are keywords (declared once, in Setup)."""

    script: Sequence[Step] | Responder

    @property
    def setup(self) -> Setup:
        """How the harness is set up for this scenario (everything but the script)."""
        return Setup(**{f.name: getattr(self, f.name) for f in fields(Setup)})


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
    record: Record | None = None  # what crossed the wire (None: a Run put together by hand)


def tools_for(world: World, switches: Switches) -> list[Tool]:
    """The course's five tools on `world`, behind the wall and in the sandbox the switches
    choose."""
    parts = parts_of(switches)
    return walled_tools(world, parts.wall, parts.shell)


def parts_of(switches: Switches) -> Parts:
    """The parts the switchboard chooses for `switches` (imported when a harness is built:
    the loop's parts name the SDK's types)."""
    from lab.harness.switchboard import parts_for

    return parts_for(switches)


def build_harness(
    setup: Setup,
    switches: Switches,
    world: World,
    client: anthropic.Anthropic,
    wait: Wait | None = None,
    parts: Parts | None = None,
) -> Harness:
    """The harness a setup describes, wired to `client` (fake or real) and acting on `world`,
    built from `parts` (by default, the parts the switches choose); its retries wait on the
    world's virtual clock unless `wait` says otherwise (a real model is waited for with
    `lab.harness.retry.real_wait`)."""
    from lab.harness.layers import Layers  # it names the SDK's types, and the loop uses the SDK
    from lab.harness.loop import Harness

    parts = parts or parts_of(switches)
    trace = Trace()
    registry = ToolRegistry(contract=parts.contract)
    for tool in [*walled_tools(world, parts.wall, parts.shell), *setup.tools(world)]:
        try:
            registry.register(tool)
        except ContractError as error:  # refused at registration: visible, and the run goes on
            trace.emit(ToolRefused(0, tool.name, str(error)))
    layers = Layers(
        registry,
        trace,
        world,
        parts,
        permissions=setup.permissions,
        human=Human(setup.human),
        hooks=setup.hooks,
        keep_last=setup.keep_last,
    )
    return Harness(
        client,
        layers,
        parts.loop(),
        model=setup.model,
        stream=setup.stream,
        max_turns=setup.max_turns,
        thinking=setup.thinking,
        server_tools=setup.server_tools,
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


@dataclass
class Wired:
    """The lab's harness set up on a world and wired to its model, not yet run."""

    setup: Setup
    switches: Switches
    harness: Harness
    world: World
    initial: dict[str, str]
    model: ScriptedModel | None = None  # None: a real model, or one behind a URL
    api: FakeMessagesAPI | None = None
    tap: Tap | None = None

    def run(self, prompt: str | None = None) -> EndReason:
        """Run to the end; a crash ends the run (an outcome to measure, not a lab bug)."""
        return run_safely(self.harness, self.setup.prompt if prompt is None else prompt)

    def record(self) -> Record:
        """The run's record, as far as it went."""
        h = self.harness
        requests = list(self.tap.requests) if self.tap else []
        return lab_record(self.setup, h.trace, h.messages, self.world, self.initial, requests)

    def finish(self, scenario: Scenario) -> Run:
        """The Run the scenario's observables and invariants read."""
        h = self.harness
        assert h.ended is not None and self.api is not None and self.model is not None
        return Run(
            scenario,
            self.switches,
            h.trace,
            h.messages,
            self.world,
            self.initial,
            self.api,
            self.model,
            h.ended,
            self.record(),
        )


def lab_record(
    setup: Setup,
    trace: Trace,
    history: list[dict[str, Any]],
    world: World,
    initial: dict[str, str],
    requests: Sequence[Request] = (),
) -> Record:
    """The Record of a run of the lab's harness: the tap's requests, and what its trace says
    ran and how it ended."""
    end = trace.last(RunEnded)
    reason = end.reason if end else "running"
    return Record(
        requests=requests,
        ending=Ending(reason, reason == "crash", end.detail if end else ""),
        ran=[Ran(e.call_id, e.name, e.input) for e in trace.of(ToolExecuted)],
        files_before=initial,
        files_after=world.snapshot(),
        deny=deny_texts(setup),
        workspace=world.workspace,
        answer_limit=setup.max_turns,
        history=history,
    )


def record_of(run: Run) -> Record:
    """The run's Record; a Run put together by hand gets one from its trace (no requests)."""
    if run.record is not None:
        return run.record
    return lab_record(run.scenario.setup, run.trace, run.messages, run.world, run.initial_files)


def deny_texts(setup: Setup) -> tuple[str, ...]:
    """The deny rules as text (a rule object shows its text), for the promises' own reading."""
    return tuple(r if isinstance(r, str) else r.text for r in setup.permissions.deny)


def wire(
    setup: Setup,
    switches: Switches | None = None,
    *,
    script: Sequence[Step] | Responder | None = None,
    client: anthropic.Anthropic | None = None,
    wait: Wait | None = None,
    parts: Parts | None = None,
) -> Wired:
    """The lab's harness for `setup`, on a fresh world, talking to the fake API playing `script`
    (through the real SDK, in process) or to `client` (a real model, a loopback URL); built
    from `parts` when given, else from the parts the switches choose."""
    switches = switches or Switches()
    world = World.create(dict(setup.files))
    initial = world.snapshot()
    if client is not None:
        harness = build_harness(setup, switches, world, client, wait, parts)
        return Wired(setup, switches, harness, world, initial)
    from lab.model.client import make_client
    from lab.model.fake_api import FakeMessagesAPI

    model = WatchedModel(script if script is not None else [])
    api = FakeMessagesAPI(model)
    tap = Tap(api, clock=lambda: world.clock.now)  # the harness waits on the virtual clock
    harness = build_harness(setup, switches, world, make_client(tap), wait, parts)
    return Wired(setup, switches, harness, world, initial, model, api, tap)


def run_scenario(
    scenario: Scenario,
    switches: Switches | None = None,
    adjust: Callable[[Harness], object] | None = None,
    *,
    parts: Parts | None = None,
) -> Run:
    """One run of the scenario's script through the real SDK against the fake API, with the
    harness built from `parts` when given (the M3 exercise passes its chain order so); `adjust`
    (when given) changes a part of the harness before it runs (the exercises' checks)."""
    wired = wire(scenario.setup, switches, script=scenario.script, parts=parts)
    if adjust is not None:
        adjust(wired.harness)
    wired.run(scenario.prompt)
    return wired.finish(scenario)
