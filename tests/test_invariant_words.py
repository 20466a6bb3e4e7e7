"""Every message an invariant's check (lab/testing/invariants.py) or a promise's judge
(lab/kernel/promises.py) can say has its Chinese in lab/views/invariant_words.py, the Chinese is
the one meant, and it keeps the message's data (call ids, JSON inputs, paths) as written.

A new message without a shape fails test_every_message_a_check_can_say_has_its_chinese: the
messages are read from the checks' source, not listed by hand.
"""

from __future__ import annotations

import ast
import inspect
from collections.abc import Iterator

import pytest

from lab.kernel import promises
from lab.kernel.switches import Switches
from lab.model import CutOff, overloaded, text, tool_use, turn
from lab.testing import BY_NAME, Case, RuleSet, invariants
from lab.views.invariant_words import SHAPES, chinese, reason_in_chinese

# Functions whose strings are parts of a message, not messages: the message each part sits in.
PARTS = {
    "what_changed": "request #7 sends #6's answer back: {}",
    "unknown": "{} got no result",
    "invalid": "{} got a result without is_error",
}
# A formatted value's source -> a sample of what it holds (else "toolu_07" for an id, "7").
SAMPLES = {
    "calls": "['toolu_07', 'toolu_08']",
    "answered": "['toolu_08', 'toolu_07']",
    "results": "['toolu_07']",
    "said": "nothing",
    "show_call(event)": 'toolu_07 write_file {"path": "/etc/x", "content": "x; y"}',
    "shown": '{"command": "rm -rf src"}',
    "use.get('input')": "{'path': 7}",
    "use.get('name')": "read_file",
    "why": "unknown tool check_disk (toolu_07)",
    "got": "no result",
    "changed": "toolu_07's input changed; 1 of its 2 text block(s) dropped",
    "where": "request #7 splits #6's answer",
    "declared": "declared 'end_turn'",
    "stopped[asked.call_id]": "validation",
    "path": "/etc/x",
    "strays[0]": "/etc/hosts",
    "event.path": "/workspace/.spill/toolu_07.txt",
    "', '.join(record.new_files)": "denied.canary, notes.txt",
    "what": "overloaded_error: Overloaded",
}
# The same name holding something else in one function.
IN_FUNCTION = {
    ("no_crash", "problem"): "the run crashed (exit 1)",
    ("contract_checked", "problem"): "tool 'wc': handler parameters ['path'] are not in the schema",
    ("pairing", "problem"): "messages.3 calls ['toolu_07']; the next message answers nothing",
    ("ends_once_within_limit", "calls"): "13",
    ("every_hook_runs", "where"): " for toolu_07",
    ("every_hook_runs", "event"): "PreToolUse",
}


def sample(function: str, value: ast.FormattedValue) -> str:
    source = ast.unparse(value.value)
    default = "toolu_07" if "id" in source else "7"
    said = IN_FUNCTION.get((function, source), SAMPLES.get(source, default))
    return repr(said) if value.conversion == ord("r") else said


def own_nodes(function: ast.FunctionDef) -> Iterator[ast.AST]:
    """The function's nodes, not those of the functions defined inside it."""
    nested = (ast.FunctionDef, ast.Lambda)
    stack: list[ast.AST] = [node for node in function.body if not isinstance(node, nested)]
    while stack:
        node = stack.pop()
        yield node
        stack += [c for c in ast.iter_child_nodes(node) if not isinstance(c, nested)]


def strings(value: ast.expr) -> list[ast.expr]:
    """The strings an expression may be: `a or f"..."`, `"" if x else f"..."`, a string."""
    if isinstance(value, ast.BoolOp):
        return [s for v in value.values for s in strings(v)]
    if isinstance(value, ast.IfExp):
        return strings(value.body) + strings(value.orelse)
    is_text = isinstance(value, ast.Constant) and isinstance(value.value, str)
    return [value] if is_text or isinstance(value, ast.JoinedStr) else []


def filled(function: str, node: ast.expr) -> str:
    if isinstance(node, ast.Constant):
        return node.value
    assert isinstance(node, ast.JoinedStr)
    return "".join(
        v.value if isinstance(v, ast.Constant) else sample(function, v) for v in node.values
    )


def messages() -> list[tuple[str, str]]:
    """(function, a message it can say with samples for its data) for every judge, i.e. every
    function returning `str | None`, and every part of a message (PARTS)."""
    found = []
    for module in (invariants, promises):
        for function in ast.walk(ast.parse(inspect.getsource(module))):
            if not isinstance(function, ast.FunctionDef):
                continue
            judge = function.returns is not None and ast.unparse(function.returns) == "str | None"
            if not judge and function.name not in PARTS:
                continue
            nodes = []
            for node in own_nodes(function):
                if isinstance(node, ast.Return) and node.value is not None:
                    nodes += strings(node.value)
                appended = isinstance(node, ast.Call) and ast.unparse(node.func) == "said.append"
                if appended and function.name in PARTS:
                    nodes += strings(node.args[0])
            for node in nodes:
                if said := filled(function.name, node):  # "" is a part's "nothing to say"
                    found.append((function.name, PARTS.get(function.name, "{}").format(said)))
    return found


MESSAGES = messages()


def test_the_messages_are_read_from_every_check_and_judge():
    """The walk finds them all: a broken walk would pass the test below on nothing."""
    functions = {function for function, _ in MESSAGES}
    judges = {"unknown_tool_answered", "invalid_input_answered"}  # theirs come from PARTS
    assert {j.__name__ for j in promises.PROMISES.values()} - judges <= functions
    own = {"retried", "deny_dominance"}  # these say what promises.py's judge says
    assert {inv.check.__name__ for inv in invariants.INVARIANTS} - own <= functions
    assert {"history_problem", *PARTS} <= functions
    assert len(MESSAGES) >= 50 and len(SHAPES) >= 45


@pytest.mark.parametrize(("function", "message"), MESSAGES, ids=[f for f, _ in MESSAGES])
def test_every_message_a_check_can_say_has_its_chinese(function, message):
    said = reason_in_chinese(message)
    assert said.startswith("（") and said.endswith("）"), f"{function}: {message!r} has no shape"
    assert not any(word in said for word in (" the ", " was ", " is ", " and ")), said


# Messages copied from real runs: each hunt of `matrix_row(switch, examples=25, shrinks=30)`
# for every switch, then the exact Chinese the student reads.
REAL = {
    "request #2's answer called bash (toolu_002, declared end_turn) and no later request the "
    "API took answers it": "请求 #2 的回答调用了 bash（toolu_002，声明的是 end_turn），"
    "之后 API 收下的请求里没有一个回答它",
    "request #2 was rejected: 400 invalid_request_error: messages.2: all messages must have "
    "non-empty content except for the optional final assistant message": "请求 #2 被 API 拒收："
    "400 invalid_request_error（API 的原话见引号里）",
    "a overloaded_error: Overloaded ended the run after 0 of 5 retries": "overloaded_error: "
    "Overloaded 只重试了 0 次（应重试 5 次）就结束了运行",
    "request #2 sends #1's answer back: 1 of its 1 thinking block(s) dropped": "请求 #2 回传 #1 "
    "的回答时改了它：它的 1 个 thinking 块丢了 1 个",
    "the harness crashed: KeyError: \"no handler for tool 'check_disk'\"": "harness 崩溃了："
    "KeyError（键错误）：号码簿里没有工具 'check_disk' 的处理函数",
    "tool 'word_count': schema properties ['file_path'] are not handler parameters; handler "
    "parameters ['path'] are not in the schema, yet it was registered and offered to the model": (
        "工具 'word_count'：schema 的属性 ['file_path'] 不是处理函数的形参；处理函数的形参 "
        "['path'] 不在 schema 里，它却照样注册并提供给了模型"
    ),
    "turn 1: the tools took 4 s; production's trays take 1 s": "第 1 轮：工具用了 4 秒；"
    "按生产版的托盘切法应是 1 秒",
    "bash (toolu_001) ran, though max_tokens cut its input": "bash（toolu_001）执行了，"
    "尽管它的输入被 max_tokens 截断了",
    "the human was asked about toolu_001, whose input is invalid": "为 toolu_001 问了用户，"
    "可它的输入不合格",
    "the read toolu_002 was spilled to /workspace/.spill/toolu_002.txt": "读文件调用 toolu_002 "
    "被溢写到了 /workspace/.spill/toolu_002.txt",
    "request #1: messages.1 is no answer the API finished": "请求 #1：messages.1 不是 API "
    "完整送达的任何一条回答",
    'toolu_001 bash {"command": "ls && rm -rf src"} ran although \'Bash(rm *)\' denies it': (
        'toolu_001 bash {"command": "ls && rm -rf src"} 执行了，'
        "尽管拒绝规则 'Bash(rm *)' 不许它执行"
    ),
    'toolu_002 read_file {"path": "/etc/passwd"} reached outside the workspace': (
        '文件工具调用 toolu_002 read_file {"path": "/etc/passwd"} 越出了工作区'
    ),
    'toolu_001 bash {"command": "ls && rm -rf src"} executed with hooks; without hooks the '
    "gates refuse it": 'toolu_001 bash {"command": "ls && rm -rf src"} 在有钩子时执行了；'
    "没有钩子时门禁会拒绝它",
    "the PreToolUse hook auto_approve never ran for toolu_001": "PreToolUse 钩子 auto_approve "
    "没有为 toolu_001 运行",
    "the context from style_guide ('Team convention: answers cite the file they come from.') "
    "never reached the model": "style_guide 给的上下文（'Team convention: answers cite the "
    "file they come from.'）没有送到模型",
    "a Stop hook blocked 12 times; the cap is 8": "退出钩子（Stop）阻断了 12 次；上限是 8 次",
}


@pytest.mark.parametrize("message", list(REAL))
def test_a_real_message_reads_as_meant_in_chinese(message):
    assert chinese(message) == REAL[message]
    assert reason_in_chinese(message) == f"（{REAL[message]}）"


DONE = turn(text("Done."))


def bash(command: str) -> dict:
    return tool_use("bash", {"command": command})


RM = RuleSet(deny=("Bash(rm *)",), ask=("Bash(rm *)",))
COURSE = RuleSet(course=True)
WALL = turn(
    tool_use("read_file", {"path": "notes.txt"}), tool_use("read_file", {"path": "/etc/passwd"})
)
# (switch flipped, the invariant it breaks, the case the hunt found) -> the message in REAL
BROKEN = [
    (
        "gate_order_correct",
        "deny_dominance",
        Case((turn(bash("ls && rm -rf src")), DONE), rules=RM, human=("y",)),
    ),
    (
        "hooks_may_loosen",
        "tighten",
        Case(
            (turn(bash("ls && rm -rf src")), DONE), rules=RM, human=("y",), hooks=("auto_approve",)
        ),
    ),
    (
        "pair_protection",
        "pairing_in_call_order",
        Case((turn(bash("ls")), DONE), rules=RuleSet(default="ask")),
    ),
    ("workspace_wall", "containment", Case((WALL, DONE), rules=COURSE, human=("y",))),
    (
        "execute_truncated_calls",
        "cut_calls_refused",
        Case((CutOff(turn(bash("ls")), keep_chars=16), DONE), stream=True),
    ),
    (
        "keep_thinking_blocks",
        "whole_answers",
        Case((turn(bash("ls")), DONE), hooks=("double_check",), thinking=True),
    ),
    (
        "retry_transient_errors",
        "retried",
        Case((turn(bash("ls")), overloaded(), DONE), files=("notes.txt",), stream=True),
    ),
    ("contract_checked", "contract", Case((DONE,), tools=("word_count",))),
    (
        "stop_hook_guard",
        "continuation_only_on_tool_use",
        Case((DONE,), rules=COURSE, hooks=("double_check",)),
    ),
    (
        "course_hook_semantics",
        "context",
        Case((DONE,), rules=COURSE, hooks=("audit_log", "style_guide")),
    ),
]


@pytest.mark.parametrize(("switch", "name", "case"), BROKEN, ids=[b[0] for b in BROKEN])
def test_a_broken_harness_says_a_message_of_the_table(switch, name, case):
    """The table's messages are what the checks say today on a harness with a fault."""
    switches = Switches().flipped(**{switch: not getattr(Switches(), switch)})
    reason = BY_NAME[name].check(case.run(switches))
    assert reason in REAL, reason
    assert BY_NAME[name].check(case.run()) is None  # the reference keeps it: the fault did it


@pytest.mark.parametrize(
    ("message", "data"),
    [
        (
            'toolu_002 read_file {"path": "/etc/passwd"} listed /etc/hosts, outside the workspace',
            ["toolu_002", '{"path": "/etc/passwd"}', "/etc/hosts"],
        ),
        (
            "/workspace/a.txt differs from a serial replay: 'x vs y' vs None",
            ["/workspace/a.txt", "'x vs y'", "None"],
        ),
        (
            'toolu_07 edit_file {"path": "a; b", "old": "x"} returned \'ok, fine\', alone it '
            'gives "it\'s gone"',
            ['toolu_07 edit_file {"path": "a; b", "old": "x"}', "'ok, fine'", '"it\'s gone"'],
        ),
        (
            "request #4 sends #2's answer back: toolu_03 renamed read_file → cat; toolu_04 missing",
            ["#4", "#2", "toolu_03", "read_file → cat", "toolu_04"],
        ),
    ],
)
def test_the_data_stays_as_written_inside_the_chinese(message, data):
    said = chinese(message)
    assert said is not None
    for part in data:
        assert part in said, (part, said)
    assert said.count("'x vs y'") == message.count("'x vs y'")  # the repr caught whole


def test_composites_say_their_inner_part_and_an_unknown_one_says_nothing():
    assert (
        chinese("the harness crashed: the run crashed (exit 1)")
        == "harness 崩溃了：运行崩溃了（exit 1）"
    )
    said = chinese("request #3: messages.2 calls ['toolu_01']; the next message answers nothing")
    assert said == "请求 #3：messages.2 调用了 ['toolu_01']；下一条消息什么也没回答"
    said = chinese("unknown tool check_disk (toolu_01) got a result without is_error")
    assert said == "未知工具 check_disk（toolu_01），得到的结果却没有标 is_error"
    # the stage a cheap check stops at, in the chapter's words
    said = chinese("the human was asked about toolu_01, which validation stops")
    assert said == "为 toolu_01 问了用户，可「结构校验」这一关本来就会拦下它"
    assert chinese("request #2 was rejected: overloaded") == "请求 #2 被 API 拒收：overloaded"
    for unknown in ("request #3: a problem nobody wrote", "a message nobody wrote"):
        assert chinese(unknown) is None and reason_in_chinese(unknown) == ""
    assert reason_in_chinese("request #2 sends #1's answer back: a change nobody wrote") == ""
