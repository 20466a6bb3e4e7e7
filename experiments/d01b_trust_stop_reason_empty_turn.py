"""D1b · M1: the declaration says tool_use, the content holds none: an empty result turn."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D1b",
    mechanism="M1",
    title={
        "en": "Trusting stop_reason the other way: tool_use declared, no tool block sent",
        "zh": "续轮判据信声明的反向失真：声明 tool_use，内容块里却没有工具调用",
    },
    takeaway={
        "en": "A loop that believes the declaration sends an empty result turn, and the API "
        "rejects it; the content fact says there is nothing to run.",
        "zh": "续轮判据信了声明，循环就发出一条空的结果消息，被 API 拒绝；内容块这个事实说明本轮手里没活。",
    },
    grade="beyond",
    source="beyond the seed: real streams declare tool_use with no tool block "
    "(earendil-works/pi #9681, askui/python-sdk #278); the API's empty-content "
    "400",
    flips={"trust_stop_reason": True},
    scenario=Scenario(
        prompt="How many lines does notes.txt have?",
        files={"notes.txt": "one\ntwo\nthree\n"},
        stream=True,
        script=[
            turn(text("Let me count."), tool_use("bash", {"command": "wc -l notes.txt"})),
            # Seen in real streams: the declaration says tool_use, yet no tool block came.
            turn(text("It has 3 lines."), stop_reason="tool_use"),
        ],
    ),
    expect={"api_rejected": (False, True), "turns": (2, 3)},
)
