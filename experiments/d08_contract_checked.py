"""D8 · M2: the schema<->signature contract goes unchecked, and the course blows up on first use."""

from lab.chapter.experiment import Experiment
from lab.harness.tools import Tool
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn


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
        "en": "The implicit third contract goes unchecked, and the dispatch has no try",
        "zh": "注册时不查第三处契约（schema 属性名 ↔ 形参名），分发又没有 try：运行时直接炸",
    },
    takeaway={
        "en": "Adding a tool touches three places, not two: check the schema against the "
        "handler's signature when it registers. The course checks nowhere and calls "
        "handler(**input) without a try, so the first call ends the whole run.",
        "zh": "加一个工具改的是三处而不是两处：签名契约要在注册时检查。教学版哪里都不查，"
        "handler(**input) 外面也没有 try，名字对不上，第一次调用就让整个循环炸掉。",
    },
    grade="一",
    source="seed §4: 'two places' is three (the keyword expansion "
    "handler(**block.input) at f9e8b28); the course's dispatch has no try, so "
    "the TypeError ends the program",
    flips={"contract_checked": False, "handler_errors_become_results": False},
    scenario=Scenario(
        prompt="How many words are in essay.txt?",
        files={"essay.txt": "agents need a harness\n"},
        tools=word_count_tool,
        script=[
            turn(tool_use("word_count", {"file_path": "essay.txt"})),
            turn(text("I could not count the words.")),
        ],
    ),
    expect={"contract_errors_at_registration": (1, 0), "run_completed": (True, False)},
)
