"""D20 · M1: without a retry policy one 529 ends a run that the reference harness finishes."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import overloaded, text, tool_use, turn

EXPERIMENT = Experiment(
    id="D20",
    mechanism="M1",
    grade="beyond",
    source="beyond the seed: the Messages API's 529 overloaded_error and retry-after; the SDK's own retries",
    title={
        "en": "No retry: one 529 overloaded_error kills the run",
        "zh": "不重试：一次 529 过载就让整轮任务夭折",
    },
    takeaway={
        "en": "A 529 says the API is busy, not that the request is wrong: wait (on the clock "
        "the harness owns, honouring retry-after) and ask again, up to a cap. A conveyor belt "
        "that stops at the first hiccup finishes nothing.",
        "zh": "529 只说明 API 正忙，不说明请求有错：等一等（用 harness 自己掌管的时钟，遵守 "
        "retry-after）再问一次，次数有上限。传送带一遇小故障就停，什么活也干不完。",
    },
    flips={"retry_transient_errors": False},
    scenario=Scenario(
        prompt="What is in the workspace?",
        files={"notes.txt": "keep me\n", "src/app.py": "print('hi')\n"},
        script=[
            turn(text("Let me look."), tool_use("bash", {"command": "ls"})),
            overloaded(),  # the API is busy for a moment: the next call gets a 529
            turn(text("The workspace holds notes.txt and src/.")),
        ],
    ),
    expect={"run_completed": (True, False), "model_retries": (1, 0)},
)
