"""D24 · M5: the hooks are consulted after the rules; an allow rule outranks a blocking hook."""

from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn


def protect_src(payload):
    """The team's guard: no shell command may touch src/."""
    command = str(payload["tool_input"].get("command", ""))
    if payload["tool_name"] == "bash" and "src" in command:
        return {"permissionDecision": "deny", "permissionDecisionReason": "src/ is protected"}
    return None


EXPERIMENT = Experiment(
    id="D24",
    mechanism="M5",
    title={
        "en": "Hooks consulted after the rules: an allow rule beats a blocking hook",
        "zh": "插线口排到了门禁之后：一条放行规则压过了阻断钩子",
    },
    takeaway={
        "en": "A blocking hook stops the call before the rules are read, so it beats any allow "
        "rule; a hook consulted only when the rules have no answer protects nothing they allow.",
        "zh": "阻断型钩子在权限规则求值之前就把调用停住，所以压得过放行规则；"
        "只在规则没有答案时才问的钩子，护不住规则已经放行的活。",
    },
    grade="二",
    source="seed §7: a hook that exits blocking stops the call before the permission rules, "
    "so it beats allow rules (official permissions docs)",
    flips={"hooks_before_rules": False},
    scenario=Scenario(
        prompt="Clean up: the build output and the old sources can go.",
        files={"src/app.py": "print('hi')\n", "src/util.py": "X = 1\n", "build/app.o": "\x7fELF\n"},
        permissions=Permissions(allow=["Bash(rm *)"], default="ask"),  # cleanups allowed
        hooks=[("PreToolUse", protect_src)],
        script=[
            turn(tool_use("bash", {"command": "rm -rf src"})),
            turn(text("The old sources are gone.")),
        ],
    ),
    expect={"files_lost": (0, 2), "tool_calls_executed": (0, 1)},
)
