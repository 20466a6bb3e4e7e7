"""D8 · M2: the schema<->signature contract goes unchecked and fails on first use."""

from lab.experiment import Experiment
from lab.harness.tools import Tool
from lab.model import text, tool_use, turn
from lab.scenario import Scenario


def word_count_tool(world):
    """A tool whose schema says `file_path` while its handler takes `path`."""

    def word_count(path: str) -> str:
        return str(len(world.fs.read(world.resolve(path)).split()))

    schema = {
        "type": "object",
        "properties": {"file_path": {"type": "string"}},
        "required": ["file_path"],
    }
    return [Tool("word_count", "Count the words in a file.", schema, word_count)]


EXPERIMENT = Experiment(
    id="D8",
    mechanism="M2",
    title={
        "en": "The implicit third contract goes unchecked at registration",
        "zh": "注册时不检查隐含的第三处契约（schema 属性名 ↔ 形参名）",
    },
    takeaway={
        "en": "Adding a tool touches three places, not two: check the schema against the "
        "handler's signature when it registers, not when the model first calls it.",
        "zh": "加一个工具改的是三处而不是两处：签名契约要在注册时检查，而不是等模型第一次调用时炸。",
    },
    flips={"contract_checked": False},
    scenario=Scenario(
        prompt="How many words are in essay.txt?",
        files={"essay.txt": "agents need a harness\n"},
        tools=word_count_tool,
        script=[
            turn(tool_use("word_count", {"file_path": "essay.txt"})),
            turn(text("I could not count the words.")),
        ],
    ),
    expect={"contract_errors_at_registration": (1, 0), "tool_calls_failed": (0, 1)},
)
