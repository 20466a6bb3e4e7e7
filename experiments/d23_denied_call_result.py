"""D3 · M3: a denied call gets no tool_result, and the API rejects the next request."""

from lab.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.model import text, tool_use, turn
from lab.scenario import Scenario

EXPERIMENT = Experiment(
    id="D3",
    mechanism="M3",
    title={
        "en": "Pair protection off: a denied call is left without its tool_result",
        "zh": "关掉 tool_use/tool_result 配对保护：被拒的调用没有补结果",
    },
    takeaway={
        "en": "A denial is a result too: every tool_use owes a tool_result, or the history "
        "is invalid and the API rejects the next request.",
        "zh": "被拒也要补一条结果：每个工具调用都欠一条结果，否则历史不再合法，下一次请求被 API 拒绝。",
    },
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
