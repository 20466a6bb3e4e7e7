"""Live mode: the reference harness driven by a real model, acting only on the simulated world.

The model is real (any Anthropic-compatible endpoint); the tools are not: every command it
chooses runs in the virtual shell over the virtual disk, so nothing reaches the host.
"""

from __future__ import annotations

import os

import anthropic

from lab.harness.loop import Harness
from lab.harness.permissions import course_permissions
from lab.scenario import Scenario, build_harness
from lab.switches import Switches
from lab.world import World

DEMO_FILES = {
    "README.md": "# demo\nA small project for the agent to explore.\n",
    "src/app.py": "def main():\n    print('hello')\n",
    "notes/todo.txt": "- write tests\n- tidy the build\n",
}
DEFAULT_MODEL = "claude-sonnet-4-5"


class LiveError(Exception):
    """Live mode cannot start: one readable line saying why."""


def live_client() -> anthropic.Anthropic:
    """A real client from the environment (ANTHROPIC_API_KEY, optional ANTHROPIC_BASE_URL)."""
    if not os.environ.get("ANTHROPIC_API_KEY"):
        raise LiveError("live mode needs ANTHROPIC_API_KEY in the environment")
    return anthropic.Anthropic(max_retries=2)


def live_run(
    prompt: str,
    client: anthropic.Anthropic,
    *,
    model: str = DEFAULT_MODEL,
    switches: Switches | None = None,
    human: tuple[str, ...] = (),
    max_turns: int = 12,
) -> tuple[Harness, World]:
    """Run `prompt` against a real model on a fresh virtual world; returns the harness and world."""
    scenario = Scenario(
        script=[],  # unused: the model is real
        prompt=prompt,
        files=DEMO_FILES,
        stream=True,
        max_turns=max_turns,
        permissions=course_permissions(),
        human=human,
    )
    world = World.create(dict(scenario.files))
    harness = build_harness(scenario, switches or Switches(), world, client)
    harness.model = model
    try:
        harness.run(prompt)  # API errors (a bad key, an overload) end the run, in the trace
    except anthropic.APIConnectionError as error:
        raise LiveError(f"cannot reach the model: {error}") from None
    return harness, world
