"""D7 · M2: an unknown tool name raises instead of becoming a result; the run crashes."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D7",
    mechanism="M2",
    title={
        "en": "An unknown tool name crashes the dispatch instead of returning a result",
        "zh": "查不到名字时抛异常，而不是回退成一条「未知工具」结果",
    },
    takeaway={
        "en": "The dispatch table answers a bad name with a result, so the loop is immune to "
        "whatever names the model invents.",
        "zh": "号码簿查不到名字就回一句「未知工具」，循环因此对模型编造的名字免疫。",
    },
    grade="一",
    source='seed §4: s02 answers an unknown name with the string "Unknown: <name>", '
    "never an exception",
    flips={"unknown_tool_result": False},
    scenario=Scenario(
        prompt="Check the disk and then list the files.",
        files={"notes.txt": "hello\n"},
        script=[
            turn(
                tool_use("bash", {"command": "ls"}),
                tool_use("check_disk", {"device": "/dev/sda"}),  # never offered: invented
                tool_use("bash", {"command": "cat notes.txt"}),
            ),
            turn(text("There is no check_disk tool; the files are listed above.")),
        ],
    ),
    expect={"run_completed": (True, False), "tool_calls_executed": (2, 1)},
)
