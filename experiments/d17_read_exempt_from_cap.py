"""D17 · M3: the read tool is not exempt from the size cap; reading spills, forever."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import ModelRequest, text, tool_use, turn

CHASES = 3  # a patient model follows the harness's pointer this many times, then gives up


def chase_the_pointer(request: ModelRequest):
    """Reads big.csv; whenever a result points to a saved file, reads that file instead."""
    last = request.messages[-1]["content"]
    if isinstance(last, str):
        return turn(tool_use("read_file", {"path": "big.csv"}))
    pointer = last[0]["content"].rpartition("saved to ")[2].rstrip("]")
    chases = sum(1 for m in request.messages if m["role"] == "user") - 1
    if "saved to " in last[0]["content"] and chases <= CHASES:
        return turn(tool_use("read_file", {"path": pointer}))
    return turn(text("I have what I need from the file."))


EXPERIMENT = Experiment(
    id="D17",
    mechanism="M3",
    title={
        "en": "The read tool is not exempt from the result-size cap",
        "zh": "扫码口的溢写上限没有豁免读文件工具",
    },
    takeaway={
        "en": "A protection can become a loop generator: spilling a read to a file that the "
        "model then reads spills again, so the read tool pages instead.",
        "zh": "保护落到读文件上变成递归发生器：读到大文件→溢写成路径→再读那个路径→再次溢写。",
    },
    grade="三",
    source="seed §5: the read tool's cap is unbounded, or reading a spill spills again "
    "(the course author's reading); the 30,000-character cap is production "
    "documentation beyond the seed",
    flips={"read_exempt_from_cap": False},
    scenario=Scenario(
        prompt="What columns does big.csv have?",
        files={"big.csv": "id,value\n" + "".join(f"{i},{i * i}\n" for i in range(4000))},
        script=chase_the_pointer,
    ),
    expect={"spill_files": (0, 4), "wasted_turns": (0, 3)},
)
