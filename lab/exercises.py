"""Exercises with hidden checks: the student edits a starter file (`lab check ID --init` copies it
into the current folder; a checkout also has them in exercises/), `lab check ID` runs it against
scenarios the student does not see and says pass or fail with a hint.

One exercise per mechanism. A check returns None when it passes, else a hint that points at the
idea without giving the answer away; `lab check --list` shows the teacher what each one checks.
The solutions are written nowhere but in the tests.
"""

from __future__ import annotations

import importlib.util
import traceback
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

from lab.harness.checks import order_part
from lab.harness.permissions import Permissions
from lab.harness.tools import ContractError, Tool, ToolRegistry
from lab.model import text, tool_use, turn
from lab.model.script import Turn
from lab.observables import files_lost, tool_calls_dropped
from lab.runner import run_scenario
from lab.scenario import Run, Scenario
from lab.switches import Switches
from lab.trace import (
    ApiRejected,
    CheckFailed,
    HumanAsked,
    ModelCalled,
    RunEnded,
    StopContinued,
    ToolExecuted,
)
from lab.world import World


def starters_dir() -> Path:
    """Installed: lab/starters inside the package; from a checkout: ./exercises."""
    package = Path(__file__).resolve().parent
    shipped = package / "starters"
    return shipped if shipped.is_dir() else package.parent / "exercises"


class ExerciseError(Exception):
    """An unknown exercise or a starter file that is not there: a usage error."""


@dataclass(frozen=True)
class Check:
    name: str  # what must be true, as the student reads it
    teacher: str  # how it is checked, for `lab check --list`
    run: Callable[[ModuleType], str | None]  # None: passed; else the hint


@dataclass(frozen=True)
class Exercise:
    id: str
    mechanism: str
    file: str  # the starter file's name (in exercises/, and in the wheel's lab/starters)
    defines: str  # the name the student's file must define
    title: Mapping[str, str]
    checks: tuple[Check, ...]


def run_with(
    scenario: Scenario, switches: Switches, adjust: Callable[[Any], None] | None = None
) -> Run:
    """One run of `scenario`, after `adjust(harness)` has changed a part of the harness."""
    return run_scenario(scenario, switches, adjust)


def executed(run: Run, name: str, **input_has: Any) -> list[ToolExecuted]:
    return [
        e
        for e in run.trace.of(ToolExecuted)
        if e.name == name and all(v in str(e.input.get(k, "")) for k, v in input_has.items())
    ]


# -- M1 · the belt: a script that makes the trusting loop lose work ---------------------------
def belt_scenario(module: ModuleType) -> Scenario:
    return Scenario(
        prompt="Summarise report.md.",
        files={"report.md": "# Q3\nrevenue up 4%\n", "notes.txt": "draft\n"},
        script=list(module.SCRIPT),
    )


def reads_report(run: Run) -> bool:
    return bool(
        executed(run, "bash", command="report.md") or executed(run, "read_file", path="report.md")
    )


def m1_is_a_script(module: ModuleType) -> str | None:
    script = module.SCRIPT
    if not isinstance(script, list | tuple) or not all(isinstance(t, Turn) for t in script):
        return "SCRIPT must be a list of turn(...) steps."
    return None


def m1_reference_reads(module: ModuleType) -> str | None:
    run = run_scenario(belt_scenario(module), Switches())
    if run.ended != "done" or run.trace.of(ApiRejected):
        return f"On the reference harness the run ended '{run.ended}': keep the conversation legal."
    if tool_calls_dropped(run) or not reads_report(run):
        return "The reference loop must still read report.md: keep the call that reads it."
    return None


def m1_trusting_loses(module: ModuleType) -> str | None:
    run = run_scenario(belt_scenario(module), Switches(trust_stop_reason=True))
    if tool_calls_dropped(run) == 0:
        return (
            "The trusting loop dropped no call. What exactly does it read to decide whether to go "
            "on, and can an answer say one thing while holding another? (notebook 01; "
            "`lab notebooks` writes the notebooks out)"
        )
    if reads_report(run):
        return "The trusting loop lost a call, but not the one that reads report.md."
    return None


# -- M2 · the number book: a tool whose three places agree ------------------------------------
ESSAY = "agents need a harness and a loop\n"  # 7 words


def tool_scenario(module: ModuleType, input: dict[str, Any]) -> Scenario:
    return Scenario(
        prompt="How many words are in essay.txt?",
        files={"essay.txt": ESSAY},
        tools=lambda world: [module.make_tool(world)],
        script=[turn(tool_use("word_count", input)), turn(text("That is the count."))],
    )


def m2_registers(module: ModuleType) -> str | None:
    tool = module.make_tool(World.create())
    if not isinstance(tool, Tool) or tool.name != "word_count":
        return "make_tool(world) must return a Tool named 'word_count'."
    try:
        ToolRegistry().register(tool)
    except ContractError as error:
        return f"The dispatch table refused it: {error}."
    return None


def m2_counts(module: ModuleType) -> str | None:
    run = run_scenario(tool_scenario(module, {"path": "essay.txt"}), Switches())
    done = executed(run, "word_count")
    if not done:
        stopped = run.trace.of(CheckFailed)
        why = f" It stopped at {stopped[0].stage}: {stopped[0].reason}" if stopped else ""
        return f'The model called word_count {{"path": "essay.txt"}} and it never ran.{why}'
    if done[0].is_error or done[0].output.strip() != str(len(ESSAY.split())):
        return f"word_count answered {done[0].output!r}: count the words of the file at path."
    return None


def m2_validates(module: ModuleType) -> str | None:
    run = run_scenario(tool_scenario(module, {}), Switches())
    if not any(e.stage == "validation" for e in run.trace.of(CheckFailed)):
        return "A call with no path got past validation: what does the schema promise?"
    return None


# -- M3 · the scanners: the order of the chain --------------------------------------------------
STAGES = ("hooks", "known_tool", "permission", "tool_check", "validation")


def guard_env(payload: dict[str, Any]) -> str | None:
    """A team hook: nothing may write the secrets file."""
    if payload["tool_input"].get("path") == ".env":
        return "no writes to .env"
    return None


def chain_run(module: ModuleType) -> tuple[Run, list[str]]:
    """Six calls of every kind of wrong, and one good one, through the student's order."""
    reached: list[str] = []

    def record(payload: dict[str, Any]) -> None:
        reached.append(payload["tool_use_id"])

    scenario = Scenario(
        prompt="Save the meeting notes.",
        files={"draft.md": "old\n"},
        permissions=Permissions(default="ask"),
        human=lambda question: "y",
        hooks=[("PreToolUse", record), ("PreToolUse", guard_env)],
        script=[
            turn(
                tool_use("write_file", {"path": "notes.md"}),
                tool_use("write_file", {"path": "notes.md", "content": 42}),
                tool_use("check_disk", {}),
                tool_use("edit_file", {"path": "gone.md", "old_text": "a", "new_text": "b"}),
                tool_use("write_file", {"path": ".env", "content": "KEY=1"}),
                tool_use("write_file", {"path": "notes.md", "content": "decisions"}),
            ),
            turn(text("Saved.")),
        ],
    )

    from lab.harness.parts import Parts  # the parts name the SDK's types: imported on use

    # The student's order is a part of the harness, passed in like any other.
    parts = Parts(chain_order=order_part("YourOrder", list(module.ORDER)))
    return run_scenario(scenario, parts=parts), reached


def m3_names_every_stage(module: ModuleType) -> str | None:
    if sorted(module.ORDER) != sorted(STAGES):
        return f"ORDER must name each of these once (alphabetically): {', '.join(STAGES)}."
    return None


def m3_runs(module: ModuleType) -> str | None:
    run, _ = chain_run(module)
    if run.ended != "done":
        detail = run.trace.of(RunEnded)[-1].detail
        return (
            f"The run ended '{run.ended}' ({detail}): some stage met a call "
            "it cannot judge yet. What must be known about a call before its input can be read?"
        )
    return None


def m3_hooks_see_only_sound_calls(module: ModuleType) -> str | None:
    run, reached = chain_run(module)
    if run.ended != "done":
        return "Make the run complete first."
    if set(reached) - {"toolu_005", "toolu_006"}:
        return (
            f"{len(set(reached) - {'toolu_005', 'toolu_006'})} malformed or impossible call(s) "
            "reached the hooks. Hooks can be slow or remote: what is cheap to rule out first?"
        )
    return None


def m3_human_last(module: ModuleType) -> str | None:
    run, _ = chain_run(module)
    asked = len(run.trace.of(HumanAsked))
    if run.ended == "done" and asked != 1:
        return (
            f"The human answered {asked} questions; only one call deserved one. Whose time is the "
            "most expensive in the chain?"
        )
    return None if run.ended == "done" else "Make the run complete first."


# -- M4 · the gates: a rule set ----------------------------------------------------------------
def rules_run(module: ModuleType) -> Run:
    scenario = Scenario(
        prompt="Tidy the project and update the notes.",
        files={"src/app.py": "print('hi')\n", "build/app.o": "\x7fELF\n", "notes.txt": "v1\n"},
        permissions=module.RULES,
        human=lambda question: "n",
        script=[
            turn(
                tool_use("bash", {"command": "ls"}), tool_use("bash", {"command": "cat notes.txt"})
            ),
            turn(tool_use("bash", {"command": "rm -rf build"})),
            turn(tool_use("bash", {"command": "ls && rm -rf src"})),
            turn(tool_use("write_file", {"path": "notes.txt", "content": "v2\n"})),
            turn(text("Done.")),
        ],
    )
    return run_scenario(scenario, Switches())


def m4_is_rules(module: ModuleType) -> str | None:
    if not isinstance(module.RULES, Permissions):
        return "RULES must be a Permissions(deny=..., ask=..., allow=..., default=...)."
    return None


def m4_reads_freely(module: ModuleType) -> str | None:
    run = rules_run(module)
    ran = {e.input.get("command") for e in run.trace.of(ToolExecuted)}
    asked = {e.call_id for e in run.trace.of(HumanAsked)}
    if not {"ls", "cat notes.txt"} <= ran or {"toolu_001", "toolu_002"} & asked:
        return "Listing and reading files must run without a question to the human."
    return None


def m4_nothing_deleted(module: ModuleType) -> str | None:
    run = rules_run(module)
    if files_lost(run):
        return (
            f"{files_lost(run)} file(s) were deleted. Which list is evaluated first, and is a "
            "command with && judged as one string or part by part?"
        )
    return None


def m4_writes_ask(module: ModuleType) -> str | None:
    run = rules_run(module)
    asked = [e for e in run.trace.of(HumanAsked) if e.call_id == "toolu_005"]
    if not asked or executed(run, "write_file"):
        return "Changing a file must put the question to the human (who says no here)."
    return None


# -- M5 · the sockets: a Stop hook that lets go ------------------------------------------------
def stop_run(module: ModuleType) -> Run:
    scenario = Scenario(
        prompt="Fix the typo in README.md.",
        hooks=[("Stop", module.double_check)],
        script=lambda request: turn(text("All done.")),
    )
    return run_scenario(scenario, Switches())


def m5_one_more_pass(module: ModuleType) -> str | None:
    if not stop_run(module).trace.of(StopContinued):
        return (
            "Your hook never kept the loop going. A blocking Stop hook returns "
            '{"decision": "block", "reason": "..."}.'
        )
    return None


def m5_lets_go(module: ModuleType) -> str | None:
    run = stop_run(module)
    blocks = len(run.trace.of(StopContinued))
    if blocks != 1 or run.ended != "done":
        return (
            f"Your hook blocked {blocks} times in a row and the run took "
            f"{len(run.trace.of(ModelCalled))} model calls: only the harness's cap stopped it. "
            "Read everything the Stop payload tells your hook."
        )
    return None


EXERCISES: dict[str, Exercise] = {
    e.id: e
    for e in [
        Exercise(
            "m1_lost_call",
            "M1",
            "m1_lost_call.py",
            "SCRIPT",
            {
                "en": "Write a script that makes a loop trusting stop_reason lose the read",
                "zh": "写一段脚本，让「信 stop_reason」的循环丢掉读报告的那件活",
            },
            (
                Check("SCRIPT is a list of turns", "isinstance Turn", m1_is_a_script),
                Check(
                    "the reference loop reads report.md, the API accepts every request",
                    "reference run: ended done, no 400, nothing dropped, a call read report.md",
                    m1_reference_reads,
                ),
                Check(
                    "a loop that trusts stop_reason loses that read",
                    "trust_stop_reason=True: tool_calls_dropped >= 1 and report.md never read",
                    m1_trusting_loses,
                ),
            ),
        ),
        Exercise(
            "m2_word_count",
            "M2",
            "m2_word_count.py",
            "make_tool",
            {
                "en": "Add a word_count tool to the number book: all three places agree",
                "zh": "往号码簿里加一个 word_count 工具：三处（schema、处理函数、签名）要对齐",
            },
            (
                Check(
                    "the dispatch table accepts it with its contract checked",
                    "ToolRegistry().register(make_tool(world))",
                    m2_registers,
                ),
                Check(
                    "it counts the words of the file the model names",
                    'model calls word_count {"path": "essay.txt"}; output == "7", not is_error',
                    m2_counts,
                ),
                Check(
                    "a call without a path is stopped at validation",
                    "model calls word_count {}; a CheckFailed at stage validation",
                    m2_validates,
                ),
            ),
        ),
        Exercise(
            "m3_chain_order",
            "M3",
            "m3_chain_order.py",
            "ORDER",
            {
                "en": "Put the scanners of the chain of checks in order",
                "zh": "给扫码口排序：执行前的校验链",
            },
            (
                Check(
                    "ORDER names each stage once",
                    "sorted(ORDER) == the five stages",
                    m3_names_every_stage,
                ),
                Check(
                    "every call gets through the chain without crashing the run",
                    "six bad calls + one good, chain reordered by ORDER: run ends done",
                    m3_runs,
                ),
                Check(
                    "only well-formed, possible calls reach the hooks",
                    "a recording PreToolUse hook sees only toolu_005 (.env) and toolu_006",
                    m3_hooks_see_only_sound_calls,
                ),
                Check(
                    "the human is asked only about the call every other stage lets through",
                    "default ask, human says y: exactly one HumanAsked",
                    m3_human_last,
                ),
            ),
        ),
        Exercise(
            "m4_rule_set",
            "M4",
            "m4_rule_set.py",
            "RULES",
            {
                "en": "Write the rule set for the gates: deny, ask, allow",
                "zh": "为门禁写规则：拒绝、询问、放行",
            },
            (
                Check("RULES is a Permissions", "isinstance Permissions", m4_is_rules),
                Check(
                    "listing and reading run without a question",
                    "ls and cat notes.txt execute, no HumanAsked for them",
                    m4_reads_freely,
                ),
                Check(
                    "nothing is deleted, not even inside a compound command",
                    "rm -rf build and ls && rm -rf src: files_lost == 0 (human says n)",
                    m4_nothing_deleted,
                ),
                Check(
                    "changing a file asks the human first",
                    "write_file notes.txt: HumanAsked for it, never executed (human says n)",
                    m4_writes_ask,
                ),
            ),
        ),
        Exercise(
            "m5_stop_hook",
            "M5",
            "m5_stop_hook.py",
            "double_check",
            {
                "en": "Plug a Stop hook into the socket that asks for one more pass, then lets go",
                "zh": "往插线口插一个退出钩子：要求再检查一遍，然后放手",
            },
            (
                Check(
                    "it sends the loop round once more",
                    "reference harness, a model that only says 'All done.': >= 1 StopContinued",
                    m5_one_more_pass,
                ),
                Check(
                    "it lets the loop stop by itself, before the harness's cap",
                    "exactly 1 StopContinued and the run ends done (2 model calls)",
                    m5_lets_go,
                ),
            ),
        ),
    ]
}


# -- checking a student's file ------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    check: Check
    hint: str | None  # None: passed

    @property
    def passed(self) -> bool:
        return self.hint is None


def starter_path(exercise: Exercise, here: Path | None = None) -> Path:
    """The student's copy: ./FILE (what `--init` wrote) or ./exercises/FILE (a checkout) if
    there is one, else the lab's own starter."""
    here = here or Path.cwd()
    for local in (here / exercise.file, here / "exercises" / exercise.file):
        if local.is_file():
            return local
    return starters_dir() / exercise.file


def is_own_starter(path: Path) -> bool:
    """Whether `path` is the lab's shipped starter (a student checks a copy of it)."""
    return path.resolve().parent == starters_dir().resolve()


def init(id: str, target: Path) -> Path:
    """Copy the exercise's starter to `target` (never over an existing file); returns it."""
    exercise = exercise_named(id)
    if target.exists():
        raise ExerciseError(f"{target} exists: `lab check {id}` checks it; remove it to start over")
    try:
        with open(target, "x", encoding="utf-8") as file:
            file.write((starters_dir() / exercise.file).read_text(encoding="utf-8"))
    except OSError as error:
        raise ExerciseError(f"{target}: {error.strerror or error}") from None
    return target


def exercise_named(id: str) -> Exercise:
    if id not in EXERCISES:
        raise ExerciseError(f"unknown exercise {id!r}; exercises: {', '.join(EXERCISES)}")
    return EXERCISES[id]


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"lab_exercise_{path.stem}", path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def where(error: BaseException, path: Path) -> str:
    """file:line of the student's own code in a traceback, if it is there."""
    if isinstance(error, SyntaxError):
        return f"{path}:{error.lineno}"
    frames = [f for f in traceback.extract_tb(error.__traceback__) if Path(f.filename) == path]
    return f"{path}:{frames[-1].lineno}" if frames else str(path)


def check(id: str, path: Path | None = None) -> list[Result]:
    """Run every check of the exercise on the student's file; each passes or gives a hint."""
    exercise = exercise_named(id)
    path = (path or starter_path(exercise)).resolve()
    if path.is_dir():
        raise ExerciseError(f"{path} is a folder; name the exercise's file ({exercise.file})")
    if not path.is_file():
        raise ExerciseError(f"{path}: no such file")
    try:
        module = load(path)
    except Exception as error:
        hint: str | None = (
            f"your file does not load: {where(error, path)}: {type(error).__name__}: {error}"
        )
        return [Result(Check("the file loads", "import", lambda m: None), hint)]
    if not hasattr(module, exercise.defines):
        missing = f"your file must define {exercise.defines}"
        return [Result(Check("the file defines it", "hasattr", lambda m: None), missing)]
    results = []
    for item in exercise.checks:
        try:
            hint = item.run(module)
        except Exception as error:  # the student's code raised inside a check
            hint = f"your code raised {type(error).__name__}: {error} ({where(error, path)})"
        results.append(Result(item, hint))
    return results
