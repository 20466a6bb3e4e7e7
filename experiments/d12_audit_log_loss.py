"""D12 · M5: with the course's short-circuit, denied calls never reach the audit log."""

from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn


def audit_log(payload):
    """Records every call it sees; returns nothing, so it never blocks."""
    return None


EXPERIMENT = Experiment(
    id="D12",
    mechanism="M5",
    title={
        "en": "Course hook semantics: denied calls vanish from the audit log",
        "zh": "教学版钩子语义：短路让被拒的调用在审计日志里消失",
    },
    takeaway={
        "en": "A shared socket has a price: when permission is just the first callback and "
        "the first answer short-circuits, the blocked calls are exactly the ones never logged.",
        "zh": "共用扩展点的代价：权限只是第一个回调且就地短路，被挡下的那一次恰恰在日志里消失。",
    },
    grade="一",
    source="seed §7, the first of s04's measured flaws: permission_hook short-circuits "
    "before log_hook",
    flips={"course_hook_semantics": True},
    scenario=Scenario(
        prompt="Free some disk space.",
        files={"big.log": "x" * 100 + "\n", "notes.txt": "keep\n"},
        permissions=Permissions(deny=["Bash(rm *)", "Bash(sudo *)"]),
        hooks=[("PreToolUse", audit_log)],
        script=[
            turn(
                tool_use("bash", {"command": "ls"}),
                tool_use("bash", {"command": "rm big.log"}),
                tool_use("bash", {"command": "sudo rm -rf /var/log"}),
            ),
            turn(text("Both removals were denied.")),
        ],
    ),
    expect={"denied_calls_logged": (2, 0)},
)
