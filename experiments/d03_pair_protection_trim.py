"""D3 · M3: the history trimmer cuts between a tool_use and its tool_result (the seed's D3)."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D3",
    mechanism="M3",
    title={
        "en": "Pair protection off: trimming the history orphans a tool_result",
        "zh": "关掉 tool_use/tool_result 配对保护：裁剪历史时把一对拆散",
    },
    takeaway={
        "en": "Trim in pairs: a kept tool_result must keep its tool_use, or the API rejects "
        "the trimmed history.",
        "zh": "配对义务在裁剪时同样成立：留下的工具结果必须带上它的工具调用，否则裁剪后的历史被 API 拒绝。",
    },
    grade="二",
    source="seed §7 (the prototype's D3, pairs_intact True → False); the Messages "
    "API's pairing rule is official documentation; the course's s08 compaction "
    "keeps pairs 【一】",
    flips={"pair_protection": False},
    scenario=Scenario(
        prompt="Read the three chapters, one at a time.",
        files={"ch1.txt": "one\n", "ch2.txt": "two\n", "ch3.txt": "three\n"},
        keep_last=3,  # an odd window: the kept tail opens on a tool_result message
        script=[
            turn(tool_use("read_file", {"path": "ch1.txt"})),
            turn(tool_use("read_file", {"path": "ch2.txt"})),
            turn(tool_use("read_file", {"path": "ch3.txt"})),
            turn(text("All three chapters read.")),
        ],
    ),
    expect={"pairs_intact": (True, False), "api_rejected": (False, True)},
)
