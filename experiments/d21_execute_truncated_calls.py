"""D21 · M3: a tool call cut by max_tokens runs with what the SDK made of it."""

from lab.chapter.experiment import Experiment
from lab.kernel.scenario import Scenario
from lab.model import cut_off, text, tool_use, turn
from lab.testing.catalog import extra_tools

PREVIEW = {"path": "/workspace", "keep": ["src", "docs"], "dry_run": True}

EXPERIMENT = Experiment(
    id="D21",
    mechanism="M3",
    grade="beyond",
    source="beyond the seed: the max_tokens stop reason and anthropic 2.16's lenient parse of "
    "cut tool JSON; the course runs such a call at f9e8b28, where s01 never reads stop_reason "
    "(a revision that tests it stops at max_tokens)",
    title={
        "en": "The truncated call: max_tokens cuts a dry run's safety flag, and it runs for real",
        "zh": "被截断的调用：max_tokens 截掉了演练开关，清理就真的执行了",
    },
    takeaway={
        "en": "The SDK parses a cut tool input leniently: a cut value is dropped, the complete "
        "fields are kept. What arrived is not the call the model made; answer it with an "
        "is_error result saying why, never run it.",
        "zh": "SDK 对被截断的工具输入是宽松解析的：截断的值被丢掉，完整的字段留下。"
        "到手的不是模型发出的那个调用；要补一条 is_error 结果说明原因，绝不能执行它。",
    },
    flips={"execute_truncated_calls": True},
    scenario=Scenario(
        prompt="Show me what a cleanup would remove, but do not remove anything yet.",
        files={
            "src/app.py": "print('hi')\n",
            "docs/guide.md": "# guide\n",
            "build/app.bin": "0101\n",
            "build/cache.db": "cache\n",
            "notes.txt": "keep me\n",
        },
        stream=True,
        tools=extra_tools("clean_workspace"),
        script=[
            # The input JSON stops at '..."dry_run": tr': the SDK keeps path and keep only.
            cut_off(
                turn(text("A dry run first."), tool_use("clean_workspace", PREVIEW)), keep_chars=61
            ),
            turn(text("The dry run, in full."), tool_use("clean_workspace", PREVIEW)),
            turn(text("A cleanup would remove build/ and notes.txt; say the word and I will.")),
        ],
    ),
    expect={"ran_truncated_call": (False, True), "files_lost": (0, 3)},
)
