"""D9 · M3: the permission gate runs before validation; the human is asked about junk."""

from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D9",
    mechanism="M3",
    title={
        "en": "The gates run before validation: the human is asked about malformed calls",
        "zh": "扫码口顺序颠倒：许可段排到了结构校验前面，人被问到不合法的调用",
    },
    takeaway={
        "en": "Cheap, non-negotiable checks first, the human's time last: nobody should be "
        "asked about a call that was malformed anyway.",
        "zh": "越便宜的检查排越前面，人的时间放在最后：不该让人审批一个本来就不合法的调用。",
    },
    grade="三",
    source="seed §5: shape → the tool's check → hooks → permission → run (the course "
    "author's reading of closed source); the course has no front half at all: D9b",
    flips={"validate_before_gate": False},
    scenario=Scenario(
        prompt="Save the meeting notes.",
        # Every call that reaches the gate asks. The course's own rules would ask about none
        # of these calls (no default question): `lab compare course` shows both readings.
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
