"""What the simulated world says back (its shell's errors, the five tools' replies) and Python's
error messages, in Chinese beside the exact text: the wire text stays as sent, a zh reader gets
its meaning in brackets after it.

The shapes are finite: the shell (lab/world/shell*.py) prints coreutils' wording, the tools
(lab/world/toolbox.py) a handful of replies, and a handler that raises becomes `Error: TypeError:
…`. A line no shape knows is data (a file's content, a listing) and gets no gloss.
tests/test_output_words.py makes the shell produce each message and checks it is known here.
"""

from __future__ import annotations

import re
from collections.abc import Callable

# The OS's reasons, as the shell prints them after the last ": ".
WHY = {
    "No such file or directory": "没有那个文件或目录",
    "Is a directory": "是一个目录",
    "Not a directory": "不是目录",
    "Permission denied": "权限不够",
    "Read-only file system": "只读文件系统",
    "Directory not empty": "目录不是空的",
    "File exists": "文件已存在",
    "command not found": "找不到这个命令",
}
# What coreutils could not do: `rm: cannot remove 'x': …`.
CANNOT = {
    "remove": "删除",
    "delete": "删除",
    "access": "访问",
    "touch": "创建",
    "create directory": "创建目录",
    "open": "打开",
}
# Python's exception types that a tool's handler or a hook may raise.
PYTHON_TYPES = {
    "TypeError": "类型错误",
    "KeyError": "键错误",
    "ValueError": "值错误",
    "AttributeError": "属性错误",
    "IndexError": "下标越界",
    "RuntimeError": "运行时错误",
    "ZeroDivisionError": "除以零",
    "FileNotFoundError": "找不到文件",
    "PermissionError": "权限不够",
    "OSError": "系统错误",
}

Shape = tuple[re.Pattern[str], Callable[[re.Match[str]], str]]
WHYS = "|".join(map(re.escape, WHY))


def shapes(*pairs: tuple[str, Callable[[re.Match[str]], str]]) -> list[Shape]:
    return [(re.compile(pattern), make) for pattern, make in pairs]


# What a command says went wrong (after "cmd: "), in coreutils' and bash's words.
COMMAND: list[Shape] = shapes(
    # `bash: cd: x: …`: who speaks, then what it says (it may quote another command)
    (r"^([a-z]+): (.+)$", lambda m: f"{m[1]}：{said}" if (said := command_said(m[2])) else ""),
    (
        r"^cannot (remove|delete|access|touch|create directory|open) '(.+)'(?: for reading)?: "
        r"(.+)$",
        lambda m: f"无法{CANNOT[m[1]]} '{m[2]}'：{WHY.get(m[3], m[3])}",
    ),
    (
        r"^refusing to remove '\.' or '\.\.' directory: skipping '(.+)'$",
        lambda m: f"不删除 '.' 或 '..' 目录：跳过 '{m[1]}'",
    ),
    (rf"^(.+): ({WHYS})$", lambda m: f"{m[1]}：{WHY[m[2]]}"),
    (rf"^({WHYS})$", lambda m: WHY[m[1]]),
    (r"^-c: line 1: (.+)$", lambda m: f"-c：第 1 行：{command_said(m[1])}"),
    (
        r"^unexpected EOF while looking for matching `(.)'$",
        lambda m: f"找与 {m[1]} 配对的引号时，命令已经结束了",
    ),
    (r"^syntax error: unexpected end of file$", lambda m: "语法错误：命令意外结束"),
    (r"^missing operand$", lambda m: "缺少操作对象"),
    (r"^missing file operand$", lambda m: "缺少文件操作对象"),
    (r"^invalid option -- '(.)'$", lambda m: f"无效的选项 -- '{m[1]}'"),
    (r"^option requires an argument -- '(.)'$", lambda m: f"选项 -- '{m[1]}' 需要一个参数"),
    (r"^-c: option requires an argument$", lambda m: "-c 选项需要一个参数"),
    (r"^invalid number of lines: '(.*)'$", lambda m: f"无效的行数：'{m[1]}'"),
    (r"^invalid time interval '(.*)'$", lambda m: f"无效的时间间隔 '{m[1]}'"),
    (r"^too many arguments$", lambda m: "参数太多"),
    (r"^maximum nesting level exceeded$", lambda m: "超过了最大嵌套层数"),
    (r"^missing argument to `(.+)'$", lambda m: f"{m[1]} 缺少参数"),
    (r"^Unknown argument to -type: (.+)$", lambda m: f"-type 的参数不认识：{m[1]}"),
    (r"^unknown predicate `(.+)'$", lambda m: f"不认识的条件 {m[1]}"),
    (r"^invalid regular expression: (.+)$", lambda m: f"无效的正则表达式：{m[1]}"),
    (r"^usage: (.+)$", lambda m: f"用法：{m[1]}"),
)

# What Python says when a call does not fit its function, or a key is missing.
PYTHON: list[Shape] = shapes(
    (
        r"^(\S+\(\)) got an unexpected keyword argument '(.+)'$",
        lambda m: f"{m[1]} 收到了一个它没有的关键字参数 '{m[2]}'",
    ),
    (
        r"^(\S+\(\)) missing (\d+) required (positional|keyword-only) arguments?: (.+)$",
        lambda m: (
            f"{m[1]} 缺少 {m[2]} 个必需的{'位置' if m[3] == 'positional' else '仅限关键字'}"
            f"参数：{m[4].replace(' and ', ' 和 ')}"
        ),
    ),
    (
        r'^can only concatenate str \(not "(.+)"\) to str$',
        lambda m: f"str 只能和 str 拼接，这里拼上的是 {m[1]}",
    ),
    (
        r"^(\S+\(\)) takes (\d+) positional arguments? but (\d+) (?:was|were) given$",
        lambda m: f"{m[1]} 只接受 {m[2]} 个位置参数，却收到了 {m[3]} 个",
    ),
)

# The lab's own KeyError (lab/harness/checks.py): the dispatch table has no such name.
KEY: list[Shape] = shapes(
    (r"""^"no handler for tool '(.+)'"$""", lambda m: f"号码簿里没有工具 '{m[1]}' 的处理函数"),
)


# What `lab compare` adds to a crash's message (lab/chapter/compare.py).
UNANSWERED = re.compile(r"^(.+) \((\d+) calls? unanswered\)$")


def python_said(type_name: str, message: str) -> str:
    """`TypeError: f() got …` in Chinese: the type's name and its meaning, then the message's
    (a KeyError's message is the missing key, repr'd)."""
    if cut := UNANSWERED.match(message):
        return f"{python_said(type_name, cut[1])}（{cut[2]} 个调用没有得到回答）"
    head = f"{type_name}（{PYTHON_TYPES[type_name]}）" if type_name in PYTHON_TYPES else type_name
    if type_name == "KeyError":  # its message is the key, repr'd; the lab's own says more
        said = said_by(KEY, message)
        return f"{head}：{said or f'没有键 {message}'}"
    return f"{head}：{said_by(PYTHON, message) or command_said(message) or message}"


# The five tools' replies and the bash tool's notes (lab/world/toolbox.py), and the harness's
# wrapping of a refusal (`Error: …`, lab/harness/tools.py).
TOOL: list[Shape] = shapes(
    (r"^\(exit status (\d+)\)$", lambda m: f"退出状态 {m[1]}：命令失败了"),
    (r"^\(no output\)$", lambda m: "命令没有输出"),
    (r"^\(no matches\)$", lambda m: "没有匹配的文件"),
    (r"^\.\.\. \((\d+) more lines\)$", lambda m: f"……后面还有 {m[1]} 行"),
    (r"^File not found: (.+)$", lambda m: f"找不到文件：{m[1]}"),
    (r"^Is a directory: (.+)$", lambda m: f"这是一个目录：{m[1]}"),
    (r"^old_text is empty$", lambda m: "old_text 是空的"),
    (r"^old_text not found in (.+)$", lambda m: f"{m[1]} 里找不到 old_text"),
    (r"^limit must not be negative \(got (.+)\)$", lambda m: f"limit 不能是负数（收到 {m[1]}）"),
    (r"^Wrote (\d+) bytes to (.+)$", lambda m: f"向 {m[2]} 写入了 {m[1]} 个字符"),
    (r"^Edited (.+)$", lambda m: f"改好了 {m[1]}"),
    (r"^Dangerous command blocked$", lambda m: "危险命令被拦下"),
    # the harness's result cap (lab/harness/results.py)
    (
        r"^\[Partial view: the first (\d+) of (\d+) characters\.\]$",
        lambda m: f"只给出了前 {m[1]} 个字符，一共 {m[2]} 个",
    ),
    (
        r"^\[Output too large \((\d+) characters\)\. Full output saved to (.+)\]$",
        lambda m: f"输出太大（{m[1]} 个字符），完整输出存到了 {m[2]}",
    ),
    (
        r"^\[Output too large \((\d+) characters\); not saved: (.+)\]$",
        lambda m: f"输出太大（{m[1]} 个字符），没能存下来：{line_said(m[2]) or m[2]}",
    ),
    (r"^(\w+Error): (.+)$", lambda m: python_said(m[1], m[2])),
    (r"^Error: (.+)$", lambda m: f"错误：{line_said(m[1]) or m[1]}"),
    (r"^(.+)$", lambda m: command_said(m[1])),  # the shell's complaints: `rm: cannot remove …`
)


def said_by(table: list[Shape], text: str) -> str:
    """`text` in Chinese by the first shape of `table` that matches it whole and knows its
    parts; "" if none."""
    for pattern, make in table:
        if (found := pattern.match(text)) and (said := make(found)):
            return said
    return ""


def command_said(text: str) -> str:
    return said_by(COMMAND, text)


def line_said(line: str) -> str:
    """One line of a tool's output in Chinese; "" when it is data (no shape knows it)."""
    return said_by(TOOL, line)


def gloss(output: str, lang: str) -> str:
    """What follows a tool's output (or a crash's message) in `lang`: in zh, the Chinese of each
    line a shape knows, in brackets; else nothing."""
    if lang != "zh":
        return ""
    said = [s for s in map(line_said, output.strip().splitlines()) if s]
    return f"（{'；'.join(said)}）" if said else ""
