"""D22 · M3: a stream fails after a tool_use block; keeping the partial answer breaks pairing."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import stream_error, text, tool_use, turn

LOOK = turn(
    text("Let me read the notes first."),
    tool_use("read_file", {"path": "notes.txt"}),
    tool_use("bash", {"command": "wc -l notes.txt"}),
)

EXPERIMENT = Experiment(
    id="D22",
    mechanism="M3",
    grade="beyond",
    source="beyond the seed: the API's mid-stream error event and the pairing rule of the Messages API",
    title={
        "en": "Keeping the partial answer of a failed stream leaves a tool_use without result",
        "zh": "保留流式失败的半截回答：留下一个没有结果的工具调用",
    },
    takeaway={
        "en": "A stream that fails mid-answer delivered a draft, not an answer: drop it and ask "
        "again. Kept in the history, its tool_use is owed a tool_result that no one sends, and "
        "the API rejects the next request.",
        "zh": "流式中途失败时到手的是草稿，不是回答：丢掉它，重新再问。留在历史里，"
        "它的工具调用就欠下一条没人补的结果（配对义务），下一次请求被 API 拒绝。",
    },
    flips={"keep_partial_answers": True},
    scenario=Scenario(
        prompt="What do the notes say?",
        files={"notes.txt": "keep me\n"},
        stream=True,
        script=[
            stream_error(LOOK, after_blocks=2),  # the text and read_file arrive, then: error
            LOOK,  # asked again, the model answers in full
            turn(text("The notes say: keep me.")),
        ],
    ),
    expect={"pairs_intact": (True, False), "api_rejected": (False, True)},
)
