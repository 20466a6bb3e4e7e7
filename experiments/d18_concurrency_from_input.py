"""D18 · M2: concurrency decided by the tool; `rm` and `cat` share a parallel tray."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

EXPERIMENT = Experiment(
    id="D18",
    mechanism="M2",
    title={
        "en": "Concurrency decided by the tool instead of the call's input",
        "zh": "托盘按工具判定能否并行，而不是按本次调用的实参",
    },
    takeaway={
        "en": "`bash ls` may run in parallel, `bash rm x` may not: safety belongs to the "
        "call's input. Judged by the tool, `rm notes.txt` and `cat notes.txt` share a tray, "
        "and cat returns the old content of a file the earlier rm should have removed.",
        "zh": "同一个 shell 工具，列目录可并行、删除不可并行：能否同托盘看本次调用的实参。"
        "按工具判定，rm 和 cat 同托盘并行，cat 读到的是前面那条 rm 本该删掉的旧内容。",
    },
    grade="三",
    source="seed §4: whether a call may run in parallel is decided by its input, not "
    "the tool (the course author's reading)",
    flips={"concurrency_from_input": False},
    scenario=Scenario(
        prompt="Retire notes.txt and confirm it is gone.",
        files={"notes.txt": "old notes\n"},
        script=[
            turn(
                tool_use("bash", {"command": "rm notes.txt"}),
                tool_use("bash", {"command": "cat notes.txt"}),
            ),
            turn(text("notes.txt is retired.")),
        ],
    ),
    expect={"stale_reads": (0, 1)},
)
