"""D19 · M2: no parallel trays; eight independent reads take eight times as long."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

CHAPTERS = {f"ch{i}.md": f"# Chapter {i}\n" for i in range(1, 9)}

EXPERIMENT = Experiment(
    id="D19",
    mechanism="M2",
    title={
        "en": "No parallel trays: independent reads run one after another",
        "zh": "没有托盘并行：互不相干的读取也一件一件地上",
    },
    takeaway={
        "en": "Consecutive trays keep the model's order and still let safe calls overlap: "
        "eight one-second reads take one second, not eight.",
        "zh": "连续的托盘既保住模型给出的顺序，又让安全的调用重叠：八次各一秒的读取只需一秒。",
    },
    grade="三",
    source="seed §4: production cuts the calls into consecutive batches, parallel inside "
    "【三】, the course runs one call at a time 【一】; the time saved is the lab's own "
    "measure on the virtual clock",
    flips={"parallel_batches": False},
    scenario=Scenario(
        prompt="Read all eight chapters.",
        files=CHAPTERS,
        script=[
            turn(*(tool_use("read_file", {"path": name}) for name in CHAPTERS)),
            turn(text("All eight chapters read.")),
        ],
    ),
    expect={"makespan_s": (1.0, 8.0)},
)
