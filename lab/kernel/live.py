"""Live mode: the reference harness driven by a real model, acting only on the simulated world.

The model is real (any Anthropic-compatible endpoint); the tools are not: every command it
chooses runs in the virtual shell over the virtual disk, so nothing reaches the host. The
retry policy is the one the lab teaches: the client's own retries are off (max_retries=0), so
every transient fault reaches the harness, which waits on the real clock and traces each retry.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from lab.harness.permissions import course_permissions
from lab.harness.retry import Wait, real_wait
from lab.kernel.errors import InputError
from lab.kernel.runner import wire
from lab.kernel.scenario import Setup
from lab.kernel.switches import Switches
from lab.world import World

if TYPE_CHECKING:
    import anthropic

    from lab.harness.loop import Harness

DEMO_FILES = {
    "README.md": "# demo\nA small project for the agent to explore.\n",
    "src/app.py": "def main():\n    print('hello')\n",
    "notes/todo.txt": "- write tests\n- tidy the build\n",
}
DEFAULT_MODEL = "claude-sonnet-4-5"
ANSWERS = ("y", "n")
NO_ANSWER_LEFT = "no answer left → deny"  # what the transcript shows once the list is used up


class LiveError(InputError):
    """Live mode cannot start: one readable line saying why."""


def human_answers(text: str) -> tuple[str, ...]:
    """`y,n,y` as the human's answers; anything but y or n is refused."""
    answers = tuple(a.strip().lower() for a in text.split(",") if a.strip())
    wrong = [a for a in answers if a not in ANSWERS]
    if wrong:
        raise LiveError(
            f"--human {text!r}: answers are y or n, separated by commas; not {wrong[0]!r}"
        )
    return answers


def answering(answers: Sequence[str]) -> Callable[[str], str]:
    """The human's answers in order; once they run out, every question is denied and the
    transcript says so."""
    left = list(answers)

    def answer(question: str) -> str:
        return left.pop(0) if left else NO_ANSWER_LEFT

    return answer


def live_client() -> anthropic.Anthropic:
    """A real client from the environment (ANTHROPIC_API_KEY, optional ANTHROPIC_BASE_URL), its
    own retries off: the harness's retry policy (lab/harness/retry.py) answers every fault."""
    if not os.environ.get("ANTHROPIC_API_KEY"):
        raise LiveError("live mode needs ANTHROPIC_API_KEY in the environment")
    import anthropic

    return anthropic.Anthropic(max_retries=0)


def live_run(
    prompt: str,
    client: anthropic.Anthropic,
    *,
    model: str = DEFAULT_MODEL,
    switches: Switches | None = None,
    human: Sequence[str] = (),
    max_turns: int = 12,
    wait: Wait = real_wait,
) -> tuple[Harness, World]:
    """Run `prompt` against a real model on a fresh virtual world; returns the harness and world.
    A retry waits on the real clock (`wait`): a real model is not on the world's virtual one."""
    import anthropic

    setup = Setup(
        prompt=prompt,
        files=DEMO_FILES,
        stream=True,
        max_turns=max_turns,
        permissions=course_permissions(),
        human=answering(human),
        model=model,
    )
    wired = wire(setup, switches, client=client, wait=wait)
    try:
        wired.harness.run(prompt)  # API errors (a bad key, an overload) end the run, in the trace
    except anthropic.APIConnectionError as error:
        raise LiveError(f"cannot reach the model: {error}") from None
    return wired.harness, wired.world
