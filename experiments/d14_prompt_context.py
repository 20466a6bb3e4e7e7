"""D14 · M5: the UserPromptSubmit hook's context is discarded; nothing is injected."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, turn


def style_guide(payload):
    """Documented as "inject context": returns the team's conventions for the model."""
    return "Team convention: answers cite the file they come from."


EXPERIMENT = Experiment(
    id="D14",
    mechanism="M5",
    title={
        "en": "Course hook semantics: the context hook injects nothing",
        "zh": "教学版钩子语义：「注入上下文」的输入提交回调什么也没注入",
    },
    takeaway={
        "en": "Documentation promised context injection; the caller discards the return "
        "value: check what a socket's result is used for, not what its name says.",
        "zh": "文档承诺注入上下文，调用方却丢弃返回值：看插线口的返回值被谁消费，而不是看它叫什么。",
    },
    grade="一",
    source='seed §7, the third of s04\'s measured flaws: the "inject context" hook only prints',
    flips={"course_hook_semantics": True},
    scenario=Scenario(
        prompt="What does the README say?",
        hooks=[("UserPromptSubmit", style_guide)],
        script=[turn(text("It says hello."))],
    ),
    expect={"context_injected": (True, False)},
)
