"""D25 · M5: hooks that said nothing are read as an allow; the human is never asked."""

from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn


def audit_log(payload):
    """Records every call it sees; answers nothing, so it approves nothing."""
    return None


EXPERIMENT = Experiment(
    id="D25",
    mechanism="M5",
    title={
        "en": "Hook silence read as approval: the question to the human is skipped",
        "zh": "把钩子的沉默当成批准：本该问人的那一问被跳过了",
    },
    takeaway={
        "en": "A hook that says nothing approves nothing: the call goes on to the permission "
        "system, which still asks. To allow or deny for certain, use the permission rules.",
        "zh": "钩子沉默不等于批准：调用照样交给权限系统，该问人的照样问。"
        "要硬性放行或拒绝，用权限规则，而不是钩子。",
    },
    grade="二",
    source="seed §7: the official guidance: use the permission system to allow or deny, and "
    "hook silence is not approval",
    flips={"silence_is_approval": True},
    scenario=Scenario(
        prompt="Tidy the workspace.",
        files={"notes.txt": "keep me\n", "draft.txt": "old draft\n"},
        permissions=Permissions(default="ask"),  # nothing is allowed without a question
        human=["n"],
        hooks=[("PreToolUse", audit_log)],
        script=[
            turn(tool_use("bash", {"command": "rm notes.txt"})),
            turn(text("Tidied.")),
        ],
    ),
    expect={"human_prompts": (1, 0), "files_lost": (0, 1)},
)
