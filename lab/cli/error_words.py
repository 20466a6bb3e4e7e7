"""The lines `lab` prints on stderr (errors, an interrupt, a bug) in the reader's language.

The lab raises its errors in English with a stable shape; in Chinese each line is matched here,
at the one place that prints it (lab/cli/dispatch.py), and what is data (a path, an id, a flag,
a value, a list of known names, Python's own message) is carried across unchanged. A line no
pattern knows stays English (tests/test_zh_cli.py finds those).
"""

from __future__ import annotations

import re

PREFIX = {"en": "lab: error: ", "zh": "lab：错误："}
INTERRUPTED = {"en": "lab: interrupted", "zh": "lab：已中断"}
BUG = {
    "en": "lab: internal error (a bug in the lab): {what}; traceback in {path}",
    "zh": "lab：内部错误（实验室自身的缺陷）：{what}；回溯信息在 {path}",
}

# The operating system's reasons (strerror), as the C library's Chinese messages read them.
REASONS = {
    "No space left on device": "设备上没有空间",
    "Permission denied": "权限不够",
    "Read-only file system": "只读文件系统",
    "No such file or directory": "没有那个文件或目录",
    "Is a directory": "是一个目录",
    "Not a directory": "不是目录",
    "File exists": "文件已存在",
    "Input/output error": "输入/输出错误",
    "Address already in use": "地址已在使用",
    "Cannot assign requested address": "无法指定被请求的地址",
    "Broken pipe": "断开的管道",
}
ACCEPTED = {
    "true/false, yes/no, on/off or 1/0": "true/false、yes/no、on/off 或 1/0",
    "a whole number": "整数",
}


def _rules(table: list[tuple[str, str]]) -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(pattern), chinese) for pattern, chinese in table]


# English shape (a regex; named groups are carried across) → Chinese. A group named `inner`
# (or `inner2`) is itself a message: it is translated too, and the line is known only if it is.
# The first pattern that matches the whole line wins: specific shapes before general ones.
LINES = _rules(
    [
        # argparse's own messages (Python 3.11 to 3.13)
        (r"the following arguments are required: (?P<args>.+)", "缺少必需的参数：{args}"),
        (r"unrecognized arguments: (?P<args>.*)", "无法识别的参数：{args}"),
        (r"argument (?P<arg>\S+): (?P<inner>.+)", "参数 {arg}：{inner}"),
        (
            r"invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)",
            "无效的选择：{value}（可选：{choices}）",
        ),
        (r"expected one argument", "需要一个值"),
        (r"expected at most one argument", "最多只能有一个值"),
        (r"expected at least one argument", "至少需要一个值"),
        (r"expected (?P<n>\d+) arguments?", "需要 {n} 个值"),
        (r"not allowed with argument (?P<other>\S+)", "不能和参数 {other} 同时使用"),
        (r"one of the arguments (?P<args>.+) is required", "参数 {args} 之中必须给出一个"),
        (r"invalid (?P<type>\S+) value: (?P<value>.+)", "无效的 {type} 值：{value}"),
        (
            r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)",
            "有歧义的选项：{option} 可能是 {matches}",
        ),
        (r"ignored explicit argument (?P<value>.+)", "忽略了显式给出的值 {value}"),
        # the values argparse reads through the lab's types (lab/errors.py, lab/switches.py, …)
        (r"(?P<text>.+) is not a whole number", "{text} 不是整数"),
        (r"(?P<value>-?\d+) is less than 1", "{value} 小于 1"),
        (r"(?P<text>.+) is not a port number \(0-65535\)", "{text} 不是端口号（0-65535）"),
        (r"(?P<text>.+) is not a port number", "{text} 不是端口号"),
        (r"(?P<text>.+): expected NAME=VALUE", "{text}：应写成 NAME=VALUE"),
        (
            r"unknown switch (?P<name>.+?); known switches: (?P<known>.+)",
            "未知的开关 {name}；已知的开关：{known}",
        ),
        (
            r"switch (?P<name>\S+): (?P<text>.+) is not a (?P<type>\w+); use (?P<accepted>.+)",
            "开关 {name}：{text} 不是 {type}；请用 {accepted}",
        ),
        # the command line as a whole (lab/cli/parser.py, lab/cli/dispatch.py)
        (r"--version takes nothing else", "--version 不能和别的参数一起用"),
        (r"name a command", "请指定一个命令"),
        (r"cannot write to stdout: (?P<reason>.+)", "无法写入 stdout：{reason}"),
        (r"stdout is closed; nothing can be printed", "stdout 已关闭；什么都打印不出来"),
        # output files (lab/cli/output.py, lab/cli/searches.py, lab/cli/teacher.py)
        (
            r"(?P<where>.+): is a folder; name a file inside it",
            "{where}：这是一个文件夹；请指定其中的一个文件",
        ),
        (r"(?P<where>.+): is not a regular file", "{where}：不是普通文件"),
        (
            r"(?P<where>.+): the file name must end in (?P<suffixes>.+)",
            "{where}：文件名必须以 {suffixes} 结尾",
        ),
        (r"(?P<where>.+): no folder (?P<folder>.+)", "{where}：文件夹 {folder} 不存在"),
        (
            r"(?P<where>.+): cannot write in (?P<folder>.+?): (?P<reason>.+)",
            "{where}：无法在 {folder} 里写入：{reason}",
        ),
        (r"(?P<where>.+): the file is not writable", "{where}：这个文件不可写"),
        (
            r"(?P<where>.+): the file exists; pass --force to overwrite it",
            "{where}：文件已存在；要覆盖请加 --force",
        ),
        (r"(?P<path>.+) exists; pass --force to overwrite it", "{path} 已存在；要覆盖请加 --force"),
        (r"(?P<path>.+) is a file; name a folder", "{path} 是一个文件；请指定一个文件夹"),
        (
            r"(?P<path>.+) exists; name another folder \(nothing was written\)",
            "{path} 已存在；请换一个文件夹（什么都没有写）",
        ),
        (r"(?P<path>.+) is not a folder", "{path} 不是文件夹"),
        (
            r"no CJK font found for the worksheet \(on Debian: (?P<command>.+)\)",
            "找不到练习单要用的 CJK 字体（Debian 上：{command}）",
        ),
        (
            r"the worksheet needs fpdf2: (?P<command>.+) \(or (?P<other>.+)\)",
            "练习单需要 fpdf2：{command}（或 {other}）",
        ),
        # lab run / show / hunt / check / live (lab/cli/commands.py, lab/exercises.py, lab/live.py)
        (
            r"--predict asks questions on the terminal; it cannot go with --json",
            "--predict 要在终端上提问；不能和 --json 一起用",
        ),
        (
            r"--list shows the checks; it cannot go with --init or --file",
            "--list 只列出检查；不能和 --init 或 --file 一起用",
        ),
        (
            r"name an exercise \((?P<known>.+)\) or use --list",
            "请指定一个练习（{known}），或者用 --list",
        ),
        (
            r"unknown invariant (?P<name>.+?); known invariants: (?P<known>.+)",
            "未知的不变式 {name}；已知的不变式：{known}",
        ),
        (
            r"unknown exercise (?P<name>.+?); exercises: (?P<known>.+)",
            "未知的练习 {name}；练习有：{known}",
        ),
        (
            r"(?P<path>.+) exists: `lab check (?P<id>\S+)` checks it; remove it to start over",
            "{path} 已存在：`lab check {id}` 检查的就是它；要从头开始请先删掉它",
        ),
        (
            r"(?P<path>.+) is a folder; name the exercise's file \((?P<file>.+)\)",
            "{path} 是一个文件夹；请指定练习的文件（{file}）",
        ),
        (r"(?P<path>.+): no such file", "{path}：没有这个文件"),
        (
            r"--human (?P<text>.+): answers are y or n, separated by commas; not (?P<wrong>.+)",
            "--human {text}：回答只能是 y 或 n，用逗号隔开；不能是 {wrong}",
        ),
        (
            r"live mode needs ANTHROPIC_API_KEY in the environment",
            "live 模式需要环境变量 ANTHROPIC_API_KEY",
        ),
        (r"cannot reach the model: (?P<why>.+)", "连不上模型：{why}"),
        # experiments (lab/experiment.py)
        (r"experiment folder (?P<folder>.+) does not exist", "实验文件夹 {folder} 不存在"),
        (
            r"(?P<path>.+) is a file, not a folder of experiment files",
            "{path} 是一个文件，不是放实验文件的文件夹",
        ),
        (
            r"experiment folder (?P<folder>.+) holds no experiment file \(\*\.py\)",
            "实验文件夹 {folder} 里没有实验文件（*.py）",
        ),
        (
            r"unknown experiment id (?P<id>.+?); known ids: (?P<known>.+)",
            "未知的实验 id {id}；已知的 id：{known}",
        ),
        (r"(?P<where>.+?:\d+): syntax error: (?P<why>.+)", "{where}：语法错误：{why}"),
        (
            r"(?P<where>.+?:\d+): defines no EXPERIMENT = Experiment\(\.\.\.\)",
            "{where}：没有定义 EXPERIMENT = Experiment(...)",
        ),
        (
            r"(?P<where>.+?:\d+): EXPERIMENT is a (?P<kind>\S+), not an Experiment\(\.\.\.\)",
            "{where}：EXPERIMENT 是 {kind}，不是 Experiment(...)",
        ),
        # lab probe / lab serve (lab/cli/probe.py, lab/probe/targets.py, lab/probe/serve.py)
        (
            r"name the targets one way: TARGET \.\.\., --all or --cmd COMMAND",
            "目标只能用一种方式给出：TARGET ...、--all 或 --cmd COMMAND",
        ),
        (
            r"--call goes with --cmd \(built-in targets declare their own call\)",
            "--call 只能配 --cmd（内置目标自带它们的调用）",
        ),
        (
            r"--deny-call goes with --cmd \(built-in targets declare their own rules\)",
            "--deny-call 只能配 --cmd（内置目标自带它们的规则）",
        ),
        (
            r"--final-call goes with --cmd \(built-in targets declare their own\)",
            "--final-call 只能配 --cmd（内置目标自带它们的结束工具）",
        ),
        (r"--fuzz needs one target", "--fuzz 只能配一个目标"),
        (
            r"(?P<flag>\S+) (?P<text>.+?): expected TOOL=JSON, e\.g\. (?P<example>.+)",
            "{flag} {text}：应写成 TOOL=JSON，例如 {example}",
        ),
        (
            r"(?P<flag>\S+) (?P<text>.+?): the JSON does not parse: (?P<why>.+)",
            "{flag} {text}：JSON 解析不了：{why}",
        ),
        (
            r"(?P<flag>\S+) (?P<text>.+?): the JSON must be an object",
            "{flag} {text}：JSON 必须是一个对象",
        ),
        (r"--cmd: the command is empty", "--cmd：命令是空的"),
        (
            r"unknown target (?P<name>.+?); known targets: (?P<known>.+)",
            "未知的目标 {name}；已知的目标：{known}",
        ),
        (
            r"unknown case (?P<name>.+?); known cases: (?P<known>.+)",
            "未知的用例 {name}；已知的用例：{known}",
        ),
        (
            r"(?P<path>.+): defines no SCRIPT = \[turn\(\.\.\.\), \.\.\.\]",
            "{path}：没有定义 SCRIPT = [turn(...), ...]",
        ),
        (r"(?P<id>.+): no such script file", "{id}：没有这个脚本文件"),
        (
            r"--call goes with a probe case id \(P1, P2, \.\.\.\)",
            "--call 只能配探测用例 id（P1、P2 ……）",
        ),
        (
            r"(?P<inner>.+) \(or a probe case P1, P1s, \.\.\., or a FILE\.py\)",
            "{inner}（或者探测用例 P1、P1s ……，或者一个 FILE.py）",
        ),
        (
            r"(?P<id>\S+)'s script is a responder: it cannot be served alone",
            "{id} 的脚本是一个应答函数：不能单独提供",
        ),
        (
            r"two HTTP faults in a row: each must precede a turn",
            "连着两个 HTTP 故障：每个故障后面都必须跟一轮回答",
        ),
        (r"a script ends with a turn", "脚本必须以一轮回答结尾"),
        (r"not a script step: (?P<step>.+)", "不是脚本的一步：{step}"),
        # a path, flag or place, then a message or the system's reason: last, the most general
        (
            r"(?P<where>.+?): (?P<reason>" + "|".join(map(re.escape, REASONS)) + ")",
            "{where}：{reason}",
        ),
        (r"(?P<where>[^\s:]+(?::\d+)?): (?P<inner>.+)", "{where}：{inner}"),
    ]
)
CARRIED = {"reason": REASONS, "accepted": ACCEPTED}  # groups read through a table of their own
SEE_HELP = re.compile(r"(?P<inner>.+) \(see '(?P<prog>[^']+) --help'\)")


def line_in_zh(line: str) -> str | None:
    """One message in Chinese, or None when no pattern knows it."""
    if found := SEE_HELP.fullmatch(line):
        inner = line_in_zh(found["inner"])
        return None if inner is None else f"{inner}（见 '{found['prog']} --help'）"
    for pattern, chinese in LINES:
        if (found := pattern.fullmatch(line)) is None:
            continue
        values = dict(found.groupdict())
        for name, value in values.items():
            if name.startswith("inner"):
                values[name] = line_in_zh(value)  # type: ignore[assignment]
            elif name in CARRIED:
                values[name] = CARRIED[name].get(value, value)
            elif name == "suffixes":
                values[name] = value.replace(" or ", " 或 ")
        if None not in values.values():
            return chinese.format(**values)
    return None


def error_line(line: str, lang: str) -> str:
    """`lab: error: LINE` as printed in `lang` (a line no pattern knows stays as it is)."""
    if lang == "zh" and (chinese := line_in_zh(line)) is not None:
        return PREFIX["zh"] + chinese
    return PREFIX[lang] + line
