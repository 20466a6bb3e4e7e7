"""The lines `lab` prints on stderr (errors, an interrupt, a bug) in the reader's language.

The lab raises its errors in English with a stable shape; in Chinese each line is matched here,
at the one place that prints it (lab/cli/dispatch.py), and what is data (a path, an id, a flag,
a value, a list of known names, Python's own message) is carried across unchanged. A line no
entry knows stays English (tests/test_zh_cli.py finds those).
"""

from __future__ import annotations

import re

# An error's prefix (InputError.prefix) in Chinese; a malformed file's lines have none, they start
# with FILE:LINE as a compiler's do.
PREFIX = {"lab: error: ": "lab：错误：", "": ""}
BUG = {
    "en": "lab: internal error (a bug in the lab): {what}; traceback in {path}",
    "zh": "lab：内部错误（实验室自身的缺陷）：{what}；回溯信息在 {path}",
}

# The operating system's reasons (strerror), as the C library's Chinese messages read them; one
# not here is the system's own data and stays as it is.
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
}

# Whole messages (and parts of one) that carry no value.
PHRASES = {
    # argparse's own
    "expected one argument": "需要一个值",
    "expected at most one argument": "最多只能有一个值",
    "expected at least one argument": "至少需要一个值",
    # the command line as a whole (lab/cli/parser.py, lab/cli/dispatch.py)
    "--version takes nothing else": "--version 不能和别的参数一起用",
    "name a command": "请指定一个命令",
    "stdout is closed; nothing can be printed": "stdout 已关闭；什么都打印不出来",
    # values (lab/kernel/switches.py, lab/chapter/file_checks.py): what a value must be
    "true/false, yes/no, on/off or 1/0": "true/false、yes/no、on/off 或 1/0",
    "a whole number": "整数",
    "a list of turns or a responder function": "由 turn(...) 组成的列表，或一个应答函数",
    "a string": "字符串",
    "a mapping of paths (str) to contents (str)": "路径（str）到内容（str）的映射",
    "True or False": "True 或 False",
    "a whole number ≥ 1": "≥ 1 的整数",
    "None or a whole number ≥ 1": "None 或 ≥ 1 的整数",
    "a Permissions(...)": "一个 Permissions(...)",
    "a list of 'y'/'n' answers or a function of the question": (
        "由 'y'/'n' 组成的回答列表，或一个以问题为参数的函数"
    ),
    "a function of the world that returns a list of Tool": (
        "一个以 world 为参数、返回 Tool 列表的函数"
    ),
    # lab run / check / live (lab/cli/commands.py, lab/kernel/live.py)
    "--predict asks questions on the terminal; it cannot go with --json": (
        "--predict 要在终端上提问；不能和 --json 一起用"
    ),
    "--list shows the checks; it cannot go with --init or --file": (
        "--list 只列出检查；不能和 --init 或 --file 一起用"
    ),
    "live mode needs ANTHROPIC_API_KEY in the environment": (
        "live 模式需要环境变量 ANTHROPIC_API_KEY"
    ),
    # an experiment file's declaration (lab/chapter/experiment.py, lab/chapter/file_checks.py)
    "source must be one non-empty line": "source 必须是非空的一行",
    "observables must map names to functions of a Run": (
        "observables 必须把名字映射到以 Run 为参数的函数"
    ),
    "expects nothing": "expect 是空的：什么都没有预期",
    "flips no switch": "flips 没有拨动任何开关",
    "defines no EXPERIMENT = Experiment(...)": "没有定义 EXPERIMENT = Experiment(...)",
    # lab probe / lab serve (lab/cli/probe_commands.py, lab/probe/targets.py, lab/probe/serve.py)
    "name the targets one way: TARGET ..., --all or --cmd COMMAND": (
        "目标只能用一种方式给出：TARGET ...、--all 或 --cmd COMMAND"
    ),
    "--call goes with --cmd (built-in targets declare their own call)": (
        "--call 只能配 --cmd（内置目标自带它们的调用）"
    ),
    "--deny-call goes with --cmd (built-in targets declare their own rules)": (
        "--deny-call 只能配 --cmd（内置目标自带它们的规则）"
    ),
    "--final-call goes with --cmd (built-in targets declare their own)": (
        "--final-call 只能配 --cmd（内置目标自带它们的结束工具）"
    ),
    "--warm goes with --cmd, not with --cold (built-in targets start warm)": (
        "--warm 只能配 --cmd，不能配 --cold（内置目标本来就预热启动）"
    ),
    "--fuzz needs one target": "--fuzz 只能配一个目标",
    "--cmd: the command is empty": "--cmd：命令是空的",
    "--call goes with a probe case id (P1, P2, ...)": "--call 只能配探测用例 id（P1、P2 ……）",
    "two HTTP faults in a row: each must precede a turn": (
        "连着两个 HTTP 故障：每个故障后面都必须跟一轮回答"
    ),
    "a script ends with a turn": "脚本必须以一轮回答结尾",
}


def _shapes(table: list[tuple[str, str]]) -> list[tuple[re.Pattern[str], str]]:
    return [(re.compile(pattern), chinese) for pattern, chinese in table]


# An English shape (a regex; its named groups are carried across) → Chinese. A group named
# `inner…` is itself a message, translated in turn: the line is known only if it is. `reason` is
# read through REASONS, `either` has its "or" translated. The first shape that matches the whole
# line wins: specific shapes before general ones.
SHAPES = _shapes(
    [
        # argparse's own messages (Python 3.11 to 3.13)
        (r"the following arguments are required: (?P<args>.+)", "缺少必需的参数：{args}"),
        (r"unrecognized arguments: (?P<args>.*)", "无法识别的参数：{args}"),
        (r"argument (?P<arg>\S+): (?P<inner>.+)", "参数 {arg}：{inner}"),
        (
            r"invalid choice: (?P<value>.+?) \(choose from (?P<choices>.+)\)",
            "无效的选择：{value}（可选：{choices}）",
        ),
        (r"expected (?P<n>\d+) arguments?", "需要 {n} 个值"),
        (r"not allowed with argument (?P<other>\S+)", "不能和参数 {other} 同时使用"),
        (r"one of the arguments (?P<args>.+) is required", "参数 {args} 之中必须给出一个"),
        (r"invalid (?P<type>\S+) value: (?P<value>.+)", "无效的 {type} 值：{value}"),
        (
            r"ambiguous option: (?P<option>\S+) could match (?P<matches>.+)",
            "有歧义的选项：{option} 可能是 {matches}",
        ),
        (r"ignored explicit argument (?P<value>.+)", "忽略了显式给出的值 {value}"),
        # the values argparse reads through the lab's types (lab/kernel/errors.py,
        # lab/kernel/switches.py, …)
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
            r"switch (?P<name>\S+): (?P<text>.+) is not a (?P<type>\w+); use (?P<inner>.+)",
            "开关 {name}：{text} 不是 {type}；请用 {inner}",
        ),
        (r"cannot write to stdout: (?P<reason>.+)", "无法写入 stdout：{reason}"),
        # output files (lab/cli/output.py, lab/cli/searches.py, lab/cli/teacher.py)
        (
            r"(?P<where>.+): is a folder; name a file inside it",
            "{where}：这是一个文件夹；请指定其中的一个文件",
        ),
        (r"(?P<where>.+): is not a regular file", "{where}：不是普通文件"),
        (
            r"(?P<where>.+): the file name must end in (?P<either>.+)",
            "{where}：文件名必须以 {either} 结尾",
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
        # lab hunt / check / live (lab/cli/commands.py, lab/classroom/exercises.py,
        # lab/kernel/live.py)
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
        (r"cannot reach the model: (?P<why>.+)", "连不上模型：{why}"),
        # experiments and their files (lab/chapter/experiment.py, lab/chapter/file_checks.py)
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
        (r"syntax error: (?P<why>.+)", "语法错误：{why}"),
        (
            r"EXPERIMENT is a (?P<kind>\S+), not an Experiment\(\.\.\.\)",
            "EXPERIMENT 是 {kind}，不是 Experiment(...)",
        ),
        (
            r"id (?P<id>.+) is not like 'D1', 'D1b' or 'D4h2'",
            "id {id} 不是 'D1'、'D1b' 或 'D4h2' 这样的写法",
        ),
        (
            r"(?P<field>mechanism|grade) (?P<value>.+) is not one of (?P<known>.+)",
            "{field} {value} 不是 {known} 之一",
        ),
        (
            r"(?P<field>title|takeaway) needs both 'en' and 'zh' texts",
            "{field} 需要 'en' 和 'zh' 两种文本",
        ),
        (
            r"flips is (?P<value>.*); write \{switch_name: value\}",
            "flips 是 {value}；请写成 {{switch_name: value}}",
        ),
        (r"flips unknown switch (?P<name>.+)", "flips 里有未知的开关 {name}"),
        (
            r"flips (?P<name>\S+) to (?P<value>.+), not a (?P<type>\w+)",
            "flips 把 {name} 设成了 {value}，它不是 {type}",
        ),
        (r"scenario is a (?P<kind>\S+), not a Scenario", "scenario 是 {kind}，不是 Scenario"),
        (
            r"expect is (?P<value>.*); write \{observable: \(before, after\)\}",
            "expect 是 {value}；请写成 {{observable: (before, after)}}",
        ),
        (r"expects unknown observable (?P<name>.+)", "expect 里有未知的观测量 {name}"),
        (
            r"expect\[(?P<name>.+)\] is (?P<pair>.+), not a \(before, after\) pair",
            "expect[{name}] 是 {pair}，不是 (before, after) 二元组",
        ),
        (
            r"hooks is (?P<value>.*); it must be a list of \(event, function\) pairs, "
            r"events: (?P<events>.+)",
            "hooks 是 {value}；它必须是 (event, function) 二元组的列表，event 可以是：{events}",
        ),
        (
            r"permissions (?P<kind>deny|ask|allow) is (?P<value>.*); it must be a list of rules",
            "permissions {kind} 是 {value}；它必须是规则的列表",
        ),
        (
            r"(?P<field>\w+) is (?P<value>.*); it must be (?P<inner>.+)",
            "{field} 是 {value}；要求：{inner}",
        ),
        (
            r"script step (?P<step>.+) is not a (?P<either>.+); build turns with turn\(\.\.\.\)",
            "脚本的一步 {step} 不是 {either}；请用 turn(...) 写出每一轮",
        ),
        (
            r"tool_use (?P<name>.+?): input (?P<value>.+) is not a mapping like "
            r"\{'command': 'ls'\}",
            "tool_use {name}：input {value} 不是 {{'command': 'ls'}} 这样的映射",
        ),
        (
            r"tool_use (?P<name>.+?): raw_json is only streamed; set stream=True on the Scenario",
            "tool_use {name}：raw_json 只在流式时发出；请在 Scenario 上设置 stream=True",
        ),
        (
            r"permissions (?P<kind>deny|ask|allow): permission rule (?P<rule>.+): "
            r"expected Tool or Tool\(specifier\)",
            "permissions {kind}：权限规则 {rule}：应写成 Tool 或 Tool(specifier)",
        ),
        (
            r"permissions default (?P<value>.+) is not allow, ask or deny",
            "permissions default {value} 不是 allow、ask 或 deny",
        ),
        # lab probe / lab serve (lab/probe/targets.py, lab/probe/serve.py, lab/probe/bench.py)
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
            r"(?P<inner>.+) \(or a probe case P1, P1s, \.\.\., or a FILE\.py\)",
            "{inner}（或者探测用例 P1、P1s ……，或者一个 FILE.py）",
        ),
        (
            r"(?P<id>\S+)'s script is a responder: it cannot be served alone",
            "{id} 的脚本是一个应答函数：不能单独提供",
        ),
        (r"not a script step: (?P<step>.+)", "不是脚本的一步：{step}"),
        # a place (a file, FILE:LINE, a flag and its value), then what is wrong there: the most
        # general, last
        (
            r"(?P<where>.+?): (?P<reason>" + "|".join(map(re.escape, REASONS)) + ")",
            "{where}：{reason}",
        ),
        (
            r"(?P<where>.+?:\d+): (?P<error>[A-Z]\w*(?:Error|Exception|Exit)\b.*)",
            "{where}：代码抛出了 {error}",
        ),
        (r"(?P<where>.+?:\d+): (?P<inner>.+)", "{where}：{inner}"),
        (r"(?P<where>[^\s:]+): (?P<inner>.+)", "{where}：{inner}"),
    ]
)
SEE_HELP = re.compile(r"(?P<inner>.+) \(see '(?P<prog>[^']+) --help'\)")


def line_in_zh(line: str) -> str | None:
    """One message in Chinese, or None when no entry knows it."""
    if line in PHRASES:
        return PHRASES[line]
    if found := SEE_HELP.fullmatch(line):
        inner = line_in_zh(found["inner"])
        return None if inner is None else f"{inner}（见 '{found['prog']} --help'）"
    for pattern, chinese in SHAPES:
        if found := pattern.fullmatch(line):
            values = {name: carried(name, value) for name, value in found.groupdict().items()}
            if None not in values.values():
                return chinese.format(**values)
    return None


def carried(name: str, value: str) -> str | None:
    """A matched group as the Chinese line carries it (None: an inner message no entry knows)."""
    if name.startswith("inner"):
        return line_in_zh(value)
    if name == "reason":
        return REASONS.get(value, value)
    if name == "either":
        return value.replace(" or ", " 或 ")
    return value


def error_line(prefix: str, line: str, lang: str) -> str:
    """An error's line as printed in `lang`: its prefix and the message (a message no entry
    knows stays English, prefix and all)."""
    if lang == "zh" and (chinese := line_in_zh(line)) is not None:
        return PREFIX.get(prefix, prefix) + chinese
    return prefix + line
