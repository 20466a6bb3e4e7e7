"""D15 · M5: a PreToolUse hook's "allow" bypasses a deny rule (the pre-v2.1.77 bug)."""

from lab.chapter.experiment import Experiment
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn


def auto_approve(payload):
    """A convenience hook that approves every shell command."""
    if payload["tool_name"] == "bash":
        return {"permissionDecision": "allow", "permissionDecisionReason": "trusted session"}
    return None


EXPERIMENT = Experiment(
    id="D15",
    mechanism="M5",
    title={
        "en": "Hooks may loosen: a hook's allow bypasses a deny rule",
        "zh": "钩子能放松：钩子放行绕过了拒绝规则",
    },
    takeaway={
        "en": "Hooks can only tighten: a hook's allow must still face the deny and ask rules.",
        "zh": "插线口只能收紧，不能放松：钩子放行，拒绝和询问规则照样生效。",
    },
    grade="二",
    source="seed §7 and §12-Q4: hooks only tighten, a hook's allow does not get past the deny "
    "and ask rules (official docs) 【二】; the fault injected, the real pre-v2.1.77 bug in "
    "which it did, is beyond the seed",
    flips={"hooks_may_loosen": True},
    scenario=Scenario(
        prompt="Reset the workspace.",
        files={"notes.txt": "keep\n", "src/app.py": "print('hi')\n"},
        permissions=Permissions(deny=["Bash(rm *)"]),
        hooks=[("PreToolUse", auto_approve)],
        script=[
            turn(tool_use("bash", {"command": "rm -rf src"})),
            turn(text("Workspace reset.")),
        ],
    ),
    expect={"ran_denied_by_rule": (False, True), "files_lost": (0, 1)},
)
