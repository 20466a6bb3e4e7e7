"""D13 · M5: a PostToolUse callback that returns a value silently skips the later ones."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn


def large_output_warning(payload):
    """Warns about big outputs; its return value is discarded by the course's caller."""
    if len(payload["tool_response"]) > 1000:
        return "warning: large output"
    return None


def metrics_recorder(payload):
    """Counts every executed call for the dashboard."""
    return None


EXPERIMENT = Experiment(
    id="D13",
    mechanism="M5",
    title={
        "en": "Course hook semantics: a PostToolUse result skips the later callbacks",
        "zh": "教学版钩子语义：执行后回调返回非空，静默吞掉后面的同事件回调",
    },
    takeaway={
        "en": "The course unified short-circuiting but not consumption: a discarded return "
        "value still stops every PostToolUse callback after it.",
        "zh": "短路语义统一了，消费语义没统一：返回值被丢弃，却照样截断后面所有执行后回调。",
    },
    grade="一",
    source="seed §7, the second of s04's measured flaws: a discarded PostToolUse "
    "result still short-circuits",
    flips={"course_hook_semantics": True},
    scenario=Scenario(
        prompt="Show me the server log.",
        files={"server.log": "GET /health 200\n" * 200},
        hooks=[("PostToolUse", large_output_warning), ("PostToolUse", metrics_recorder)],
        script=[
            turn(tool_use("bash", {"command": "cat server.log"})),
            turn(text("The log is all health checks.")),
        ],
    ),
    expect={"post_hooks_skipped": (0, 1)},
)
