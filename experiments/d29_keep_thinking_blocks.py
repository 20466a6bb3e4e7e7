"""D29 · M1: the harness drops the thinking blocks when it sends a turn back; the API says 400."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, thinking, tool_use, turn

EXPERIMENT = Experiment(
    id="D29",
    mechanism="M1",
    grade="beyond",
    source="beyond the seed: the Messages API's extended-thinking rule: with thinking on, the "
    "assistant turn a tool loop continues goes back starting with its thinking blocks, "
    "unchanged (each carries a signature the API checks); the course never asks for thinking",
    title={
        "en": "Dropped thinking: the turn sent back without its thinking blocks is refused",
        "zh": "丢掉的思考：送回去的助手轮次少了思考块，API 拒收",
    },
    takeaway={
        "en": "With thinking on, the history is the model's own record: the assistant turn of "
        "a tool loop goes back with its thinking blocks first and unchanged. A harness that "
        "keeps only text and tool calls gets the API's 400 on the very next request.",
        "zh": "开启思考后，历史是模型自己的记录：工具循环里的助手轮次必须原样送回，"
        "思考块排在最前、一字不改。只留文本和工具调用的 harness，下一次请求就吃到 API 的 400。",
    },
    flips={"keep_thinking_blocks": False},
    scenario=Scenario(
        prompt="What do the notes say?",
        files={"notes.txt": "keep me\n"},
        stream=True,
        thinking=1024,  # the harness asks for thinking: every answer starts with a signed block
        script=[
            turn(
                thinking("The user wants the notes: read notes.txt before answering."),
                tool_use("read_file", {"path": "notes.txt"}),
            ),
            turn(text("The notes say: keep me.")),
        ],
    ),
    expect={"api_rejected": (False, True), "run_completed": (True, False)},
)
