"""D10 · M4: no workspace wall; leaving the workspace only asks the human."""

from lab.chapter.experiment import Experiment
from lab.harness.permissions import course_permissions
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D10",
    mechanism="M4",
    title={
        "en": "The workspace wall is replaced by a question",
        "zh": "工作区硬边界被拆，越界只剩一句「问一下」",
    },
    takeaway={
        "en": "Adding the gates removed the wall: judge a new mechanism by its net effect, "
        "counting what it took away as well as what it added.",
        "zh": "装门禁那天拆了墙：评价新机制要看净效应，既数加了什么，也数拆了什么。",
    },
    grade="一",
    source="seed §6 and §10-3: safe_path is called 5 times in s02 and 0 times in s03 at the "
    "pinned commit f9e8b28 (other s03 revisions still call it); leaving the workspace became "
    "a question",
    flips={"workspace_wall": False},
    scenario=Scenario(
        prompt="Which users exist on this machine?",
        permissions=course_permissions(),  # outside the workspace -> ask
        human=["y"],
        script=[
            turn(tool_use("read_file", {"path": "/etc/passwd"})),
            turn(text("Here are the users.")),
        ],
    ),
    expect={"outside_reads": (0, 1), "human_prompts": (0, 1)},
)
