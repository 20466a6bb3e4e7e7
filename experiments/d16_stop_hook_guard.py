"""D16 · M1/M5: no Stop-hook guard; a Stop hook keeps the loop going to the turn limit."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, turn


def double_check(payload):
    """Asks for one more pass, relying on the harness's stop_hook_active flag to stop."""
    if payload.get("stop_hook_active"):
        return None
    return {"decision": "block", "reason": "Double-check your answer before stopping."}


EXPERIMENT = Experiment(
    id="D16",
    mechanism="M5",
    title={
        "en": "No Stop-hook guard: the exit can be vetoed forever",
        "zh": "没有退出钩子防护：收工可以被无限否决",
    },
    takeaway={
        "en": "The exit is not the loop's decision alone, so the loop needs a guard: a flag "
        "that says a Stop hook is already steering, and a cap on consecutive blocks.",
        "zh": "退出不是循环一个人说了算，所以要有防护：标志位说明退出钩子已接管，再加连续阻止的上限。",
    },
    grade="三",
    source="seed §7: a flag marks a turn a Stop hook already took over (the course "
    "author's reading); the course has no guard 【一】; the cap of 8 (v2.1.143) is "
    "beyond the seed",
    flips={"stop_hook_guard": False},
    scenario=Scenario(
        prompt="Is 7 prime?",
        hooks=[("Stop", double_check)],
        max_turns=12,
        script=lambda request: turn(text("Yes, 7 is prime.")),
    ),
    expect={"turns": (2, 12), "ended_by_limit": (False, True)},
)
