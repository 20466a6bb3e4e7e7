"""A generated scenario as plain data: it shrinks well, prints readably and becomes a Scenario.

Files, hooks, extra tools and human policies are held by their catalog names (catalog.py), so a
case can always be written back out as Python source.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from lab.harness.permissions import Permissions, Rule, contains, course_permissions
from lab.kernel.scenario import Run, Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.model import Fault, Step, turn_of
from lab.testing import catalog

THINKING_BUDGET = 1024  # the API's smallest budget


@dataclass(frozen=True)
class RuleSet:
    """Permission rules as data: production rule strings, the course's substring deny list,
    the default when nothing matches, or exactly the course's own gates (`course=True`)."""

    deny: tuple[str, ...] = ()
    ask: tuple[str, ...] = ()
    allow: tuple[str, ...] = ()
    deny_list: tuple[str, ...] = ()  # substrings of a bash command, as the course matches them
    default: Literal["allow", "ask", "deny"] = "allow"
    course: bool = False

    def permissions(self) -> Permissions:
        if self.course:
            return course_permissions()
        deny: list[str | Rule] = [*self.deny, *contains(*self.deny_list)]
        return Permissions(deny=deny, ask=self.ask, allow=self.allow, default=self.default)

    @property
    def size(self) -> int:
        lists = len(self.deny) + len(self.ask) + len(self.allow) + len(self.deny_list)
        return lists + (self.default != "allow") + self.course

    def __bool__(self) -> bool:
        return self.course or self.size > 0


@dataclass(frozen=True)
class Case:
    """One generated scenario. `script` always ends with a text-only turn (maybe inside a
    fault step), so a run completes unless a fault ends it."""

    script: tuple[Step, ...]
    files: tuple[str, ...] = ()  # catalog file names (their contents are catalog.FILES)
    rules: RuleSet = RuleSet()
    human: tuple[str, ...] | str = ()  # answers in order, or a catalog policy name
    hooks: tuple[str, ...] = ()  # catalog hook names, in registration order
    tools: tuple[str, ...] = ()  # catalog tool names
    keep_last: int | None = None
    stream: bool = False
    max_turns: int = 12
    thinking: bool = False  # the harness asks for thinking (a budget of THINKING_BUDGET)

    @property
    def has_stop_hook(self) -> bool:
        return any(catalog.HOOKS[name].event == "Stop" for name in self.hooks)

    @property
    def padding(self) -> int:
        """Extra copies of the final turn: a Stop hook may ask the model to go on."""
        return max(0, self.max_turns - len(self.script)) if self.has_stop_hook else 0

    def scenario(self) -> Scenario:
        human = catalog.POLICIES[self.human] if isinstance(self.human, str) else self.human
        return Scenario(
            script=[*self.script, *[self.script[-1]] * self.padding],
            files={name: catalog.FILES[name] for name in self.files},
            stream=self.stream,
            max_turns=self.max_turns,
            permissions=self.rules.permissions(),
            human=human,
            hooks=catalog.hooks(*self.hooks),
            keep_last=self.keep_last,
            tools=catalog.extra_tools(*self.tools),
            thinking=THINKING_BUDGET if self.thinking else None,
        )

    def run(self, switches: Switches | None = None) -> Run:
        return run_scenario(self.scenario(), switches)

    @property
    def calls(self) -> int:
        turns = [t for step in self.script if (t := turn_of(step)) is not None]
        return sum(1 for t in turns for b in t.blocks if b["type"] == "tool_use")

    @property
    def faults(self) -> int:
        return sum(isinstance(step, Fault) for step in self.script)

    @property
    def size(self) -> int:
        """How big a counterexample is: turns, tool calls and every extra ingredient."""
        answers = 1 if isinstance(self.human, str) else len(self.human)
        return (
            len(self.script)
            + self.calls
            + self.faults
            + self.rules.size
            + answers
            + len(self.hooks)
            + len(self.tools)
            + len(self.files)
            + (self.keep_last is not None)
            + self.stream
            + self.thinking
        )
