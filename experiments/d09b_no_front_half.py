"""D9b · M3: the course's chain of two stages; a malformed call meets the gates, then the handler."""

from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D9b",
    mechanism="M3",
    title={
        "en": "No front half of its own: the course's chain of two stages (gates, then the handler)",
        "zh": "没有自己的前半段：教学版只有后两段（先过门禁，再交给处理函数）",
    },
    takeaway={
        "en": "Without a front half of its own, the human is asked about calls that were "
        "malformed anyway, and the handler is the first to find out.",
        "zh": "没有自己的前半段，人要审批本来就不合法的调用，最先发现问题的是处理函数。",
    },
    grade="一",
    source="seed §5: 教学版只实现了这条链的后两段【一】 (the front half: the lab reads the "
    "code differently from the chapter, see own_front_checks' course note)",
    flips={"own_front_checks": False},
    scenario=Scenario(
        prompt="Save the meeting notes.",
        # D9's conversation: every call that reaches the gate asks (the course's own rules
        # would ask about none of them; `lab compare course` shows that reading too).
        permissions=Permissions(default="ask"),
        human=["y", "y", "y"],
        script=[
            turn(
                tool_use("write_file", {"path": "notes.md"}),  # content missing
                tool_use("write_file", {"path": "notes.md", "content": 42}),  # wrong type
                tool_use("write_file", {"path": "notes.md", "content": "# Notes\n"}),
            ),
            turn(text("Saved.")),
        ],
    ),
    expect={"human_prompts_for_invalid_calls": (0, 2), "human_prompts": (1, 3)},
)
