"""D23 · M3: a denied call gets no tool_result, and the API rejects the next request."""

from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D23",
    mechanism="M3",
    title={
        "en": "Pair protection off: a denied call is left without its tool_result",
        "zh": "关掉配对保护：被拒的调用没有补结果，配对义务落空",
    },
    takeaway={
        "en": "A denial is a result too: every tool_use owes a tool_result, or the history "
        "is invalid and the API rejects the next request.",
        "zh": "被拒也要补一条结果：这是执行层留给记忆层的配对义务，少一条，历史就不再合法，下一次请求被 API 拒绝。",
    },
    grade="一",
    source="seed §6, the third of s03's measured details: a denied call still gets "
    '"Permission denied." as its result; the API\'s 400 is official '
    "documentation",
    flips={"pair_protection": False},
    scenario=Scenario(
        prompt="Clean up the workspace.",
        files={"notes.txt": "keep me\n", "tmp/cache.bin": "0101\n"},
        permissions=Permissions(deny=["Bash(rm *)"]),
        script=[
            turn(
                text("Let me look, then clear the cache."),
                tool_use("bash", {"command": "ls"}),
                tool_use("bash", {"command": "rm -rf tmp"}),
            ),
            turn(text("Removing the cache was denied, so I left it in place.")),
        ],
    ),
    expect={"pairs_intact": (True, False), "api_rejected": (False, True)},
)
