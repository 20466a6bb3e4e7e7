"""D1 · M1: the loop trusts the declared stop_reason, and a streamed tool call is lost."""

from lab.chapter.experiment import Experiment
from lab.kernel.observables import ran
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D1",
    mechanism="M1",
    title={
        "en": "The continue test falls back to trusting stop_reason",
        "zh": "循环判据退回「信 stop_reason」",
    },
    takeaway={
        "en": "stop_reason is a declaration, the content blocks are the fact; "
        "trust the declaration and work is lost.",
        "zh": "停止标记是声明，内容块是事实；信声明就会丢活。",
    },
    grade="三",
    source="seed §3: production keeps its own flag, set when a tool_use block streams "
    "in, because the declaration lags the fact; s01-s04 decide by content 【一】, "
    "and the degraded loop is the course web site's older revision; the "
    "prototype's D1",
    flips={"trust_stop_reason": True},
    scenario=Scenario(
        prompt="Summarise the quarterly report in the workspace.",
        files={
            "data/sales.csv": "region,total\nnorth,120\nsouth,95\n",
            "report.md": "# Q3\nUp 8%.\n",
        },
        stream=True,
        script=[
            turn(text("Let me look around first."), tool_use("bash", {"command": "ls"})),
            # The streaming distortion: the content holds a tool call, the declaration lags.
            turn(
                text("Now the report itself."),
                tool_use("bash", {"command": "cat report.md"}),
                stop_reason="end_turn",
            ),
            turn(text("The report says revenue is up 8% in Q3.")),
        ],
    ),
    observables={"ran_late_tool": ran("bash", command="cat report.md")},
    expect={"ran_late_tool": (True, False), "tool_calls_dropped": (0, 1)},
)
