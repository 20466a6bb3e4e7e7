"""`lab --help` in Chinese: every help text of the parser (kept in English where it is declared)
and argparse's own words, English → Chinese, applied to a built parser by `in_chinese`.

A text with no entry stays English; tests/test_zh_cli.py walks every subparser and fails on one,
so a new option cannot go untranslated. Ids, flags, metavars, file names and code stay as they are.
"""

from __future__ import annotations

import argparse
import re
import unicodedata
from collections.abc import Iterator

from lab.cli.parser import EXIT_CODES as EXIT_CODES_EN

# argparse's own words: the group titles, and the prefix of the usage line.
TITLES = {"positional arguments": "位置参数", "options": "选项"}
USAGE = ("usage: ", "用法：")
HEADINGS = re.compile(rf"^({'|'.join(TITLES.values())}):$", re.MULTILINE)  # argparse adds ":"

EXIT_CODES = """\
退出码：
  0    每个实验都复现了预期的退化（或命令完成了它的工作）
  1    有实验没有复现，或有不变式被打破（`lab probe`：某个目标声称守住
       的用例判为 fail）
  2    用法或输入错误：选项或取值不对、未知的 id、有问题的实验文件（或
       它的代码运行时抛出异常）、文件夹不存在、输出文件无法写入（在任何
       工作开始之前检查）、stdout 已关闭或已满；一行说明是什么、在哪里
  3    实验室内部错误，即缺陷：一行说明，完整的回溯写进临时文件夹里的
       一个文件
  4    `lab probe --cmd`、`lab serve CASE`：程序在某个用例上没有被触达（它
       从没拿到脚本的回答：脚本缺失、导入时崩溃、卡住、路径不对）；各个
       等级对应的退出码见 lab/probe/grades.py
  130  被中断（Ctrl-C）
  管道被关上时（`lab run | head -3`）安静地以 0 结束。
"""

HELP = {
    # lab
    "harness-lab: break one guarantee at a time.": "harness-lab：一次打破一条保证。",
    "show this help message and exit": "显示本帮助并退出",
    "print the version and exit": "打印版本号并退出",
    # the commands
    "list the experiments": "列出实验",
    "run experiments, print before→after": "运行实验，打印改动前→改动后",
    "show baseline and degraded runs": "并排显示基线运行和退化运行",
    "the reference harness vs a preset": "参考实现对照一个预设",
    "every switch and the fault it injects": "每个开关和它注入的故障",
    "the harness's parts and the switch that chose each": "harness 的部件，以及选中每个部件的开关",
    "flip each switch alone, check every invariant": "逐个单独拨动开关，检查每一条不变式",
    "the smallest script that breaks an invariant": "打破某条不变式的最小脚本",
    "every experiment on one page": "所有实验汇成一页",
    "check a student's exercise (hidden checks, hints)": "检查学生的练习（隐藏的检查、提示）",
    "write the notebooks' sources into a folder": "把笔记本的源文件写进一个文件夹",
    "the reference harness with a real model, tools simulated": (
        "用真实模型运行参考实现，工具是模拟的"
    ),
    "install a peer that pip cannot bring": "安装 pip 装不了的第三方 harness",
    "install a peer into the lab's own folder": "把第三方 harness 装进实验室自己的文件夹",
    "run the conformance cases against a harness (yours, a peer, the lab's own)": (
        "对一个 harness 运行一致性用例（你自己的、第三方的、实验室自带的）"
    ),
    "serve an experiment's or a probe case's script on 127.0.0.1": (
        "在 127.0.0.1 上提供一个实验或探测用例的脚本"
    ),
    "the notebooks' questions as a printable PDF": "把笔记本里的问题做成可打印的 PDF",
    "write the teacher's kit (lesson plan, answer key, claims, worksheets) into a folder": (
        "把教师包（教案、答案、本章论断表、练习单）写进一个文件夹"
    ),
    # options shared by several commands
    "output language (default: zh when LAB_LANG=zh or the locale is Chinese, else en)": (
        "输出语言（默认：LAB_LANG=zh 或 locale 是中文时为 zh，否则为 en）"
    ),
    "load the experiments from this folder instead": "改从这个文件夹加载实验",
    "print only JSON on stdout": "stdout 上只打印 JSON",
    "change the baseline switches (repeatable); a boolean takes true/false, yes/no, on/off or "
    "1/0": "改动基线的开关（可重复）；布尔值写 true/false、yes/no、on/off 或 1/0",
    # run, parts, hunt, report, check, notebooks, live
    "experiment ids (default: all)": "实验 id（默认：全部）",
    "ask for each observable's after value first": "先让你预测每个观测量改动后的值",
    "the parts of a preset": "一个预设的部件",
    "what a preset swaps (+/−)": "一个预设换掉了什么（+/−）",
    "the switch to flip": "要拨动的开关",
    "only this invariant": "只查这一条不变式",
    "write the experiment file here": "把实验文件写到这里",
    "overwrite FILE if it exists": "FILE 已存在时覆盖它",
    "write it here": "写到这里",
    "write the projector slides here instead: one experiment per screen, ←/→ to move": (
        "改为把投影幻灯片写到这里：一屏一个实验，用 ←/→ 翻页"
    ),
    "e.g. m4_rule_set": "例如 m4_rule_set",
    "the student's file": "学生的文件",
    "copy the exercise's starter into this folder (or to --file) to edit": (
        "把练习的起始文件复制到当前文件夹（或 --file 处）来编辑"
    ),
    "every exercise (or EXERCISE's) and its checks": "每个练习（或 EXERCISE 这一个）和它的检查",
    "where to write them (default: ./notebooks)": "写到哪里（默认：./notebooks）",
    "the students' edition: the Markdown in this language only (default: zh when LAB_LANG=zh "
    "or the locale is Chinese, else both)": (
        "学生版：Markdown 只保留这一种语言"
        "（默认：LAB_LANG=zh 或中文 locale 时为 zh，否则两种都保留）"
    ),
    "what to ask the model": "要问模型的话",
    "the human's answers in order, y or n": "用户依次给出的回答，y 或 n",
    # probe
    "Run probe cases against a target and print each case's grade (kept, fail, non-strict, "
    "info, n/a, not reached) with the evidence. TARGET is a built-in name (lab-reference, "
    "lab-course, the peers); --cmd runs any program with the prompt as its last argument. "
    "`lab probe merge FILE.json ...` joins the --json outputs of the shards of one run "
    "(--shard K/N) into the run's matrix, exit status and outputs. "
    "Exit 0: nothing claimed reads fail; 1: a claimed case reads fail; 2: a usage error; 4: a "
    "--cmd program was not reached.": (
        "对一个目标运行探测用例，打印每个用例的评定（kept、fail、non-strict、info、n/a、"
        "not reached）和证据。TARGET 是内置的名字（lab-reference、lab-course、各个第三方 "
        "harness）；--cmd 运行任意程序，提示词是它的最后一个参数。`lab probe merge FILE.json ...` "
        "把同一次运行各分片（--shard K/N）的 --json 输出合成这次运行的矩阵、退出码和各种输出。"
        "退出码 0：声称守住的用例没有一个判为 fail；1：有声称守住的用例判为 fail；2：用法错误；"
        "4：某个 --cmd 程序没有被触达。"
    ),
    "The environment of a --cmd program holds only: PATH (the lab's Python first), HOME, TMPDIR "
    "(a fresh scratch folder's), LANG=C.UTF-8, ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (a fake "
    "key), OPENAI_BASE_URL (the same server's /v1, for a program on the Chat Completions wire), "
    "OPENAI_API_KEY (the same fake key), LAB_PROBE_STREAM (0 or 1: the answer mode to use, when "
    "a case needs one), LAB_PROBE_THINKING=1, LAB_PROBE_SERVER_TOOL=1 and LAB_PROBE_IMAGE_TOOL=1 "
    "(in the cases that ask: turn extended thinking on, declare a server tool such as a web "
    "search, offer a read_image tool), LAB_PROBE_APPROVE=all and LAB_PROBE_HUMAN_LOG (the "
    "permission contract), "
    "PYTHONDONTWRITEBYTECODE=1, DO_NOT_TRACK=1, LITELLM_OFFLINE_MODE=true and "
    "LITELLM_LOCAL_MODEL_COST_MAP=True (no network tries at start). Add its own switches with "
    "--env NAME=VALUE. A program that ignores ANTHROPIC_BASE_URL reads a config file in its HOME "
    "instead: write one from the program itself, or wrap it in a script that does (docs: the "
    "README's `lab probe --cmd` section).": (
        "--cmd 程序的环境里只有：PATH（lab 的 Python 在最前）、HOME、TMPDIR（一个新的临时文件夹）、"
        "LANG=C.UTF-8、ANTHROPIC_BASE_URL、ANTHROPIC_API_KEY（假的密钥）、"
        "OPENAI_BASE_URL（同一个服务器的 /v1，给说 Chat Completions 线路的程序）、"
        "OPENAI_API_KEY（同一个假的密钥）、"
        "LAB_PROBE_STREAM（0 或 1：用例需要时该用的回答模式）、"
        "LAB_PROBE_THINKING=1、LAB_PROBE_SERVER_TOOL=1 和 LAB_PROBE_IMAGE_TOOL=1（只在要求它们的"
        "用例里设置：打开扩展思考、声明一个服务端工具（比如网页搜索）、提供一个 read_image 工具）、"
        "LAB_PROBE_APPROVE=all 和 LAB_PROBE_HUMAN_LOG（权限契约）、"
        "PYTHONDONTWRITEBYTECODE=1、DO_NOT_TRACK=1、LITELLM_OFFLINE_MODE=true 和 "
        "LITELLM_LOCAL_MODEL_COST_MAP=True（启动时不去连网）。"
        "它自己的开关用 --env NAME=VALUE 加上。"
        "不读 ANTHROPIC_BASE_URL 的程序改读 HOME 里的配置文件：由程序自己写一个，或者用一个先写好"
        "它的脚本把程序包起来（见 README 的 `lab probe --cmd` 一节）。"
    ),
    "probe this program (split like a shell; it must exist: see the variables below)": (
        "探测这个程序（按 shell 的规则切分；程序必须存在：它拿到的变量见下）"
    ),
    "set this variable for the program (repeatable): a harness's own switches": (
        "给程序设这个变量（可重复）：harness 自己的开关"
    ),
    "run only the K-th of N shares of the matrix (CI job matrices); join the shards' --json "
    "outputs with `lab probe merge`": (
        "只跑矩阵 N 份中的第 K 份（CI 的作业矩阵）；各分片的 --json 输出用 `lab probe merge` 合并"
    ),
    "seconds a trial's program may stay idle (no CPU, no request) before it is stopped "
    "(default 60; a busy program is stopped at 5 times that)": (
        "一次试验里程序可以空闲（不用 CPU、不发请求）多少秒，超过就停下（默认 60；一直在忙的程序"
        "到它的 5 倍时停下）"
    ),
    "built-in target names (see --all)": "内置目标的名字（见 --all）",
    "every built-in target: the matrix": "每个内置目标：整张矩阵",
    "the permission contract: a call of a tool that asks --cmd's human and that its own rules "
    "deny (P11, P23); the probe sets LAB_PROBE_APPROVE=all and LAB_PROBE_HUMAN_LOG": (
        "权限契约：一个会去问 --cmd 的用户、又被它自己的规则拒绝的工具调用（P11、P23）；"
        "探测会设置 LAB_PROBE_APPROVE=all 和 LAB_PROBE_HUMAN_LOG"
    ),
    'for --cmd: the harness ends through its own tool (e.g. final_answer={"answer": "done."}); '
    "the script's last answer calls it": (
        '用于 --cmd：harness 通过它自己的工具结束（例如 final_answer={"answer": "done."}）；'
        "脚本的最后一个回答调用它"
    ),
    "only these cases": "只跑这些用例",
    "judge the targets on this wire: the Messages API (anthropic) or Chat Completions (openai) "
    "(default: a built-in target's own; a --cmd program's is read from the path of its first "
    "request)": (
        "在这条线路上评判目标：Messages API（anthropic）或 Chat Completions（openai）"
        "（默认：内置目标用它自己声明的；--cmd 程序的线路从它第一个请求的路径读出）"
    ),
    "write the matrix as JUnit XML for CI": "把矩阵写成给 CI 用的 JUnit XML",
    "print the matrix as Markdown": "把矩阵打印成 Markdown",
    "write an HTML report": "写出 HTML 报告",
    "N generated scripts; print the smallest breaker": "生成 N 个脚本；打印能打破承诺的最小那个",
    "trials at once (default: three per core)": "同时进行的试验数（默认：每个核三个）",
    "start every program afresh (no warm Python starts)": "每个程序都从头启动（不用预热的 Python）",
    "for --cmd: fork a `python SCRIPT.py` or `python -m MODULE` run by the lab's own interpreter "
    "from a warm parent, as the built-in targets start (same verdicts, faster)": (
        "配 --cmd 用：若 `python SCRIPT.py` 或 `python -m MODULE` 由实验室自己的解释器运行，"
        "就从一个预热的父进程 fork 出来，和内置目标的启动方式一样（判定相同，更快）"
    ),
    # serve
    "Serve the fake Messages API and Chat Completions API on 127.0.0.1. The first four lines "
    "printed are `export ANTHROPIC_BASE_URL=...`, `export ANTHROPIC_API_KEY=...`, `export "
    "OPENAI_BASE_URL=...` and `export OPENAI_API_KEY=...`, to paste into the harness's "
    "shell; every request is logged with the fake's verdict; the run's verdict (for a probe "
    "case: graded, with its evidence and whether the canary came back) is printed when the "
    "server stops (Ctrl-C, or --until-done).": (
        "在 127.0.0.1 上提供假的 Messages API 和 Chat Completions API。最先打印的四行是 "
        "`export ANTHROPIC_BASE_URL=...`、`export ANTHROPIC_API_KEY=...`、`export "
        "OPENAI_BASE_URL=...` 和 `export OPENAI_API_KEY=...`，粘贴到 harness 的 shell "
        "里；每个请求连同假 API 的判定一起记下；服务停下时（Ctrl-C，或 --until-done）打印这次"
        "运行的判定（探测用例：评定、证据，以及金丝雀有没有回来）。"
    ),
    "an experiment id (D1), a probe case id (P1) or a script file (SCRIPT = [...]); none: "
    "answer every request with a short text": (
        "实验 id（D1）、探测用例 id（P1）或脚本文件（SCRIPT = [...]）；不给：每个请求都用一段"
        "短文本回答"
    ),
    "port (default: any free one)": "端口（默认：任一空闲端口）",
    "after the export lines, JSON lines": "在几行 export 之后输出 JSON 行",
    "stop once the whole script has been answered and the harness hung up, or when the harness "
    "went quiet (--idle)": (
        "整个脚本都回答完、harness 也断开了，或 harness 安静下来（--idle）时停止"
    ),
    "with --until-done: stop when S seconds pass without a request, once one came (default 30)": (
        "配合 --until-done：收到过请求之后，S 秒内没有新请求就停止（默认 30）"
    ),
    "once the script was answered to its end, play it from the top (its fault again) to the "
    "next conversation, with a verdict per run": (
        "脚本回答到结尾后，对下一次对话从头再放一遍（故障也再来一次），每次运行各给一个判定"
    ),
    # worksheet, kit
    "write the PDF here": "把 PDF 写到这里",
    "where to write it (default: ./teacher)": "写到哪里（默认：./teacher）",
}

# Texts that carry a default or a list computed at start-up: the value is carried across as is.
PATTERNS: list[tuple[re.Pattern[str], str]] = [
    (
        re.compile(r"generated cases per switch \(default: (?P<n>\d+)\)"),
        "每个开关生成的用例数（默认：{n}）",
    ),
    (
        re.compile(r"generated cases to try \(default: (?P<n>\d+)\)"),
        "要尝试的生成用例数（默认：{n}）",
    ),
    (
        re.compile(r"worker processes \(default: (?P<n>\d+), the cores up to 4\)"),
        "工作进程数（默认：{n}，即核数，最多 4）",
    ),
    (re.compile(r"model name \(default: (?P<model>\S+)\)"), "模型名（默认：{model}）"),
    (re.compile(r"turn limit \(default: (?P<n>\d+)\)"), "轮数上限（默认：{n}）"),
    (re.compile(r"one of: (?P<names>.+)"), "以下之一：{names}"),
    (
        re.compile(
            r"the harmless call the probe asks --cmd for \(default: (?P<call>.+); \{dir\} stands "
            r"for the scratch folder\)"
        ),
        "探测要 --cmd 发出的那个无害调用（默认：{call}；{{dir}} 代表临时工作文件夹）",
    ),
    (
        re.compile(r"for a probe case: the call \(default (?P<call>.+)\)"),
        "用于探测用例：要发出的调用（默认 {call}）",
    ),
]


def help_in_zh(text: str) -> str | None:
    """`text` in Chinese, or None when the table has no entry for it."""
    if text in HELP:
        return HELP[text]
    if text == EXIT_CODES_EN:
        return EXIT_CODES
    for pattern, chinese in PATTERNS:
        if found := pattern.fullmatch(text):
            return chinese.format(**found.groupdict())
    return None


def argparse_words_in_zh(text: str) -> str:
    """A usage line or a whole help with argparse's own words in Chinese: 「用法：」 for "usage: "
    (the usage's next lines moved one column left: the Chinese is one column narrower on a
    terminal) and 「选项：」 for "options:"."""
    english, chinese = USAGE
    if not text.startswith(english):
        return text
    usage, blank, rest = text.removeprefix(english).partition("\n\n")
    usage = re.sub(r"\n ", "\n", usage)
    rest = HEADINGS.sub(r"\1：", rest)
    return chinese + usage + blank + rest


def parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    """`parser` and every subparser under it, each once."""
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for command in dict.fromkeys(action.choices.values()):  # an alias: the same parser
                yield from parsers(command)


def help_texts(parser: argparse.ArgumentParser) -> list[tuple[object, str, str]]:
    """Every (holder, attribute, text) that `--help` of `parser` or a subparser shows; the
    option a parent parser shares with several commands appears once per command."""
    found: list[tuple[object, str, str]] = []
    for each in parsers(parser):
        for attribute in ("description", "epilog"):
            if text := getattr(each, attribute):
                found.append((each, attribute, text))
        found += [(group, "title", group.title) for group in each._action_groups if group.title]
        for action in each._actions:
            if action.help and action.help != argparse.SUPPRESS:
                found.append((action, "help", action.help))
            if isinstance(action, argparse._SubParsersAction):
                found += [(c, "help", c.help) for c in action._choices_actions if c.help]
    return found


def cells(text: str) -> int:
    """Columns `text` takes on a terminal: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


# What a line may break between: one Chinese character or a run of anything else but spaces,
# with the opening marks before it and the closing marks after it (none starts or ends a line).
OPENING, CLOSING = "（「“", "）」”，。、；：？！"
WIDE = "\u2e80-\u9fff\u3000-\u303f\uff00-\uffef"
PIECES = re.compile(
    rf"[{OPENING}]*(?:(?![{OPENING}{CLOSING}])[{WIDE}]|[^\s{WIDE}]+)[{CLOSING}]*"
    rf"|[{OPENING}{CLOSING}]| "
)


def wrapped(text: str, width: int) -> list[str]:
    """`text` in lines of at most `width` columns (textwrap counts characters, and a Chinese
    one is two columns wide): a line may break between two Chinese characters, never next to
    a mark that belongs to a word."""
    lines = [""]
    for piece in PIECES.findall(" ".join(text.split())):
        line = lines[-1]
        if line and piece != " " and cells(line + piece) > width:
            lines[-1] = line.rstrip()
            lines.append(piece)
        elif line or piece != " ":
            lines[-1] = line + piece
    return lines


class ChineseHelp(argparse.HelpFormatter):
    """argparse's formatter with Chinese lines wrapped by their width on a terminal."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrapped(text, width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "\n".join(indent + line for line in wrapped(text, width - len(indent)))


class ChineseRawDescription(argparse.RawDescriptionHelpFormatter):
    """The same for a parser whose description and epilog are laid out by hand."""

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrapped(text, width)


FORMATTERS: dict[object, type[argparse.HelpFormatter]] = {  # argparse's → the Chinese one
    argparse.HelpFormatter: ChineseHelp,
    argparse.RawDescriptionHelpFormatter: ChineseRawDescription,
}


def in_chinese(parser: argparse.ArgumentParser) -> None:
    """Switch every help text of `parser` and its subparsers to Chinese where the table has it,
    and their usage prefix (lab/cli/parser.py's Parser reads `lang`)."""
    for each in parsers(parser):
        each.lang = "zh"  # type: ignore[attr-defined]
        if (formatter := FORMATTERS.get(each.formatter_class)) is not None:
            each.formatter_class = formatter
    for holder, attribute, text in help_texts(parser):
        chinese = TITLES.get(text) if attribute == "title" else help_in_zh(text)
        if chinese is not None:
            # argparse %-formats a help text: a literal % in the Chinese must not be read as one
            escaped = chinese.replace("%", "%%") if attribute == "help" else chinese
            setattr(holder, attribute, escaped)
