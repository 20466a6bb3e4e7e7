"""The simulated world's and Python's messages get their Chinese beside them (output_words)."""

from __future__ import annotations

import pytest

from lab.harness.tools import invoke
from lab.views import output_words
from lab.world import World
from lab.world.toolbox import course_tools

# Commands that make the simulated shell complain, one complaint each (or more).
FAILING_COMMANDS = [
    "rm /etc/passwd",
    "rm missing.txt",
    "rm docs",
    "rm",
    "rm -rf .",
    "rm -x notes.txt",
    "cat missing.txt",
    "cat docs",
    "ls missing",
    "mkdir notes.txt",
    "mkdir",
    "touch",
    "touch nowhere/new.txt",
    "grep",
    "grep '[' notes.txt",
    "grep x missing.txt",
    "grep x docs",
    "head -n",
    "head -n x notes.txt",
    "sleep",
    "sleep soon",
    "cd missing",
    "cd notes.txt",
    "cd a b",
    "frobnicate",
    "./missing.sh",
    "bash -c",
    "find missing",
    "find . -size 3",
    "find . -type q",
    "find . -name",
    "find /etc -delete",
    "echo 'open",
    "echo hi > docs",
    "echo hi > /etc/passwd",
]


def world() -> World:
    return World.create({"/workspace/notes.txt": "one\ntwo\n", "/workspace/docs/a.md": "# a\n"})


@pytest.mark.parametrize("command", FAILING_COMMANDS)
def test_every_complaint_of_the_shell_is_said_in_chinese(command):
    result = world().run_shell(command, sandboxed=True)  # outside the workspace is read-only
    complaints = [line for line in result.output.splitlines() if line.strip()]
    assert result.status != 0 and complaints, command  # the command really failed
    for line in complaints:
        assert output_words.line_said(line), f"{command!r}: no Chinese for {line!r}"


@pytest.mark.parametrize(
    ("said", "chinese"),
    [
        (
            "rm: cannot remove '/etc/passwd': Read-only file system",
            "rm：无法删除 '/etc/passwd'：只读文件系统",
        ),
        ("cat: missing.txt: No such file or directory", "cat：missing.txt：没有那个文件或目录"),
        ("bash: frobnicate: command not found", "bash：frobnicate：找不到这个命令"),
        (
            "find: cannot delete '/etc/hosts': Read-only file system",
            "find：无法删除 '/etc/hosts'：只读文件系统",
        ),
        ("rm: missing operand", "rm：缺少操作对象"),
        ("(exit status 1)", "退出状态 1：命令失败了"),
        ("File not found: a b.txt", "找不到文件：a b.txt"),
        ("Wrote 12 bytes to /workspace/x y.txt", "向 /workspace/x y.txt 写入了 12 个字符"),
        (
            "Error: TypeError: word_count() got an unexpected keyword argument 'file_path'",
            "错误：TypeError（类型错误）：word_count() 收到了一个它没有的关键字参数 'file_path'",
        ),
        (
            "TypeError: write() missing 1 required positional argument: 'content'",
            "TypeError（类型错误）：write() 缺少 1 个必需的位置参数：'content'",
        ),
        ("KeyError: 'no_such_tool'", "KeyError（键错误）：没有键 'no_such_tool'"),
        (
            "TypeError: f() missing 1 required positional argument: 'content' (3 calls unanswered)",
            "TypeError（类型错误）：f() 缺少 1 个必需的位置参数：'content'（3 个调用没有得到回答）",
        ),
        (
            'TypeError: can only concatenate str (not "int") to str',
            "TypeError（类型错误）：str 只能和 str 拼接，这里拼上的是 int",
        ),
        (
            "[Output too large (5000 characters). Full output saved to /workspace/.spill/t.txt]",
            "输出太大（5000 个字符），完整输出存到了 /workspace/.spill/t.txt",
        ),
        (
            "[Output too large (5000 characters); not saved: /workspace/.spill: Not a directory]",
            "输出太大（5000 个字符），没能存下来：/workspace/.spill：不是目录",
        ),
        (
            "[Partial view: the first 2000 of 9000 characters.]",
            "只给出了前 2000 个字符，一共 9000 个",
        ),
    ],
)
def test_a_message_is_said_with_its_data_unchanged(said, chinese):
    assert output_words.line_said(said) == chinese


@pytest.mark.parametrize(
    "data", ["notes.txt", "one two three", "note: buy milk", "Error log: none", "(draft)"]
)
def test_data_gets_no_gloss(data):
    """A file's content or a listing is the world's data, not a message: no Chinese is made up."""
    assert output_words.gloss(data, "zh") == ""


def test_english_readers_get_no_gloss():
    assert output_words.gloss("rm: missing operand", "en") == ""


def test_every_tool_reply_is_said_in_chinese():
    """The five tools' replies and refusals, made by calling them (the harness's `Error: …`)."""
    tools = {t.name: t for t in course_tools(world())}
    calls = [
        ("read_file", {"path": "missing.txt"}),
        ("read_file", {"path": "docs"}),
        ("read_file", {"path": "notes.txt", "limit": -1}),
        ("read_file", {"path": "notes.txt", "limit": 1}),
        ("write_file", {"path": "new.txt", "content": "hi"}),
        ("edit_file", {"path": "notes.txt", "old_text": "", "new_text": "x"}),
        ("edit_file", {"path": "notes.txt", "old_text": "zzz", "new_text": "x"}),
        ("edit_file", {"path": "notes.txt", "old_text": "one", "new_text": "1"}),
        ("glob", {"pattern": "*.nothing"}),
        ("bash", {"command": "true"}),
    ]
    for name, arguments in calls:
        output, _ = invoke(tools[name], arguments)
        last = output.splitlines()[-1]
        assert output_words.line_said(last), f"{name} {arguments}: no Chinese for {last!r}"
