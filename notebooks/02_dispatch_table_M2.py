# ---
# jupyter:
#   jupytext:
#     text_representation:
#       extension: .py
#       format_name: percent
#       format_version: '1.3'
#   kernelspec:
#     display_name: Python 3
#     language: python
#     name: python3
# ---

# %% [markdown]
# # 02 · M2 转接号码簿与托盘 / The dispatch table, and its trays
#
# > **类比**　师傅会用的机器越来越多，但传送带不需要认识任何一台——它只按转接号码簿查号：活上写着名字，簿
# > 上名字对着处理函数，查到就转过去。一批活算一托盘，教学版的托盘是一件一件上的。（本章 §4）
#
# > **不变式**　工具能力的增长发生在表里，不发生在循环里。……「只改两处」其实是三处耦合【一】。……调用方式是
# > 按关键字展开（`handler(**block.input)`），于是 schema 的属性名必须与处理函数的形参名逐字一致——名字对不
# > 上，运行时直接炸。……查不到名字时回退为一句「未知工具」字符串而不是抛异常，循环因此对坏名字免疫【一】。
#
# > 托盘的真实分布：教学版没有批次并行——多个工具调用严格按模型给出的原始顺序逐个执行，全章无线程池、无异步、
# > 无并发原语【一】……产品侧则是另一回事【三，课程作者拆过闭源源码后指出：工具调用被切成连续的批次，批内并行且
# > 有并发上限、批间严格有序；能否并行由本次调用的实参判定，而非工具的读写属性——同一个 shell 工具，列目录可并行、
# > 删除不可并行，而某些会写状态的工具反而可并行，因为每次写的是不同文件】。
#
# *Analogy.* The belt knows no machine: it looks the job's name up in the number book and puts the
# call through. A batch of jobs is a tray; the course's trays carry one job at a time.
# *Invariant.* Capabilities grow in the table, not the loop. "Two places" are three: the schema's
# property names must equal the handler's parameters. An unknown name comes back as a result, so
# the loop is immune to bad names. In production calls go in consecutive trays, and whether a call
# may share one is decided by **its input** 【三】.

# %%
from lab.harness.batching import PerInput, PerTool, Trays
from lab.harness.tools import ToolRegistry, contract_mismatch, invoke
from lab.notebook import Pair, code, experiment, outcome, side_by_side, sides, tray_chart, verdict
from lab.classroom.predict import check

LANG = "zh"

# %% [markdown]
# ## 代码 / The code
#
# 注册时检查第三处契约（开关 `contract_checked`）；分发把工具的每一种失败都变成结果，而不是异常。
# Registration checks the third contract; dispatch turns every failure into a result.

# %%
code(ToolRegistry.register, contract_mismatch, invoke, highlight="mismatch")

# %% [markdown] tags=["skip-in-class"]
# ### 从 s01 到 s02：号码簿取代硬编码 / From s01 to s02: the table replaces the hard-coded call
#
# > s01 的执行行是硬编码的 `run_bash(...)`；s02 起改成「按名字查表、以实参展开调用」，此后课程再未变过【一】。
#
# 运行代码：两章用的是同一个循环 `run_course`，变的只是执行一次调用的那一行（`lab/chapter/course_steps.py`）。
# s01 只给模型一个 bash，什么调用都当命令跑；s02 按名字查号码簿，以实参展开调用，查不到就回一句 `Unknown: <name>`。
#
# By running code: both chapters run the same loop, `run_course`; only the line that runs one call
# changes (`lab/chapter/course_steps.py`). s01 offers bash alone and runs every call as a command; s02 looks
# the name up in the table and expands the input into the handler's arguments, and an unknown name
# gets `Unknown: <name>` back.

# %% tags=["skip-in-class"]
from IPython.display import display

from lab.chapter.course_steps import chapter_tools, run_course, s01_step, s02_step
from lab.model import text, tool_use, turn
from lab.notebook import course_run_view
from lab.world import World

code(s01_step, s02_step)

# %% tags=["skip-in-class"]
offered = {ch: [t.name for t in chapter_tools(ch, World.create())] for ch in ("s01", "s02")}
looked_up = run_course(
    "s02",
    [
        turn(tool_use("read_file", {"path": "notes.txt"}), tool_use("check_disk", {})),
        turn(text("The notes say: keep me.")),
    ],
    World.create({"notes.txt": "keep me\n"}),
)
display(offered)
course_run_view(looked_up, LANG)

# %% [markdown] tags=["skip-in-class"]
# 托盘：`cut` 把连续的安全调用放在一起，不安全的调用单独一盘；`is_safe` 问的是**这次调用的实参**。
# `cut` gathers consecutive safe calls; `is_safe` asks about *this call's input*.

# %% tags=["skip-in-class"]
code(PerInput, PerTool, Trays.cut, highlight="concurrency_safe")

# %% [markdown] tags=["skip-in-class"]
# ## 号码簿里查不到的名字（D7）/ A name not in the book (D7)
#
# 模型调用了一个没人提供的 `check_disk`。参考实现回一条 `is_error` 结果，接着处理其余调用；
# `unknown_tool_result=False` 时查表抛异常，运行在回答中途崩溃。

# %% tags=["skip-in-class"]
d7 = outcome("D7")
side_by_side(d7.before, d7.after, (sides(LANG)[0], "unknown_tool_result=False"), [1], LANG)

# %% [markdown]
# ## 第三处契约（D8）/ The third contract (D8)
#
# 一个 schema 写 `file_path`、处理函数却收 `path` 的工具。
# A tool whose schema says `file_path` while its handler takes `path`.
#
# **问题 M2.1 / Question M2.1.** 契约受检查时，这个坏工具在什么时候失败？
# With the contract checked, when does this tool fail?
# *(注册时、第一次调用时 / at registration / at the first call)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("M2.1", prediction, LANG)

# %%
d8 = outcome("D8")
side_by_side(d8.before, d8.after, (sides(LANG)[0], "contract_checked=False"), [0, 1], LANG)

# %% [markdown]
# ## 托盘按实参判定（D18）/ Trays decided by the call's input (D18)
#
# 模型在同一个回答里先 `rm notes.txt`，再 `cat notes.txt` 确认它没了。`rm` 不是只读，单独一盘。
# `concurrency_from_input=False` 时按工具判定（「bash 是安全的」，因为 `ls`、`cat` 安全），`rm` 和 `cat`
# 挤进同一个并行托盘。
#
# **问题 M2.3 / Question M2.3.** 按工具判定时，`cat notes.txt` 还能读到 `rm` 刚删掉的那个文件的内容吗？
# With concurrency decided per tool, does `cat notes.txt` still print the file that `rm` has just
# deleted? *(是、否 / True / False)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
pair = Pair.of(experiment("D18"), lang=LANG)
pair.step()

# %%
check("M2.3", prediction, LANG)

# %%
reference, per_tool = pair.finish()
tray_chart(reference, per_tool, titles=[sides(LANG)[0], "concurrency_from_input=False"], lang=LANG)

# %%
verdict(outcome("D18"), LANG)

# %% [markdown]
# ## 托盘的收益（D19）/ Trays earn their keep (D19)
#
# **问题 M2.2 / Question M2.2.** 八次各耗 1 虚拟秒的独立读取：有并行托盘、没有并行托盘，各要几秒？
# Eight independent one-second reads: how long with parallel trays, and without? *(两个数 / two
# numbers)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("M2.2", prediction, LANG)

# %%
d19 = outcome("D19")
tray_chart(d19.before, d19.after, titles=[sides(LANG)[0], "parallel_batches=False"], lang=LANG)

# %% [markdown] tags=["skip-in-class"]
# 右边（`parallel_batches=False`）就是教学版：它的托盘一件一件上。课程材料自己在这一点上前后不一：
# The right-hand side is the course, whose trays carry one call at a time; the course's own
# material disagrees with itself on this:
#
# > 但仓库的章节索引表把「并发」列为该章关键概念，与代码和该章自身说明直接矛盾【一】。顺带一笔：课程前一章的结尾
# > 以提问方式抛出「几个工具同时跑会不会互相踩」，课程后一章给出的答案其实是「不存在同时」。
#
# *The repository's chapter index lists "concurrency" as a key concept of the chapter, against
# its code and its own text 【一】; the question "do tools running together step on each other?"
# is answered, a chapter later, by "nothing runs together".*

# %% [markdown] tags=["skip-in-class"]
# ## 会写的工具也能同托盘（D27）/ Writes may share a tray too (D27)
#
# 反过来也成立。课程作者拆过闭源源码后指出【三】：「某些会写状态的工具反而可并行，因为每次写的是不同文件」。
# `save_note` 每次把一条笔记写进以内容摘要命名的新文件，模型一次存四条。参考实现按实参判定，四次写入同在一盘；
# `concurrency_from_input=False` 按工具的读写属性判定（「它会写」），四次各占一盘。
#
# The other way round: a tool that writes may still share a tray when each call writes a different
# file 【三】. `save_note` writes each note to a file named for its text; the model saves four.
# Decided by the call's input, the four writes share one tray; decided per tool ("it writes"),
# each runs alone.

# %% tags=["skip-in-class"]
d27 = outcome("D27")
tray_chart(d27.before, d27.after, titles=[sides(LANG)[0], "concurrency_from_input=False"], lang=LANG)

# %% tags=["skip-in-class"]
verdict(d27, LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 托盘的并发上限 / The tray's concurrency cap
#
# 本章【三】：批内并行「且有并发上限」。参考实现的上限是 `MAX_PARALLEL`（生产文档的默认值 10，超出本章）。十二次互不相干的
# 读取：同一个托盘装不下，切成两个连续的托盘，前一个满十件、后一个两件，批间严格有序。
# Seed 【三】: parallel inside a batch, *with a concurrency cap*. Twelve independent reads do not fit
# one tray: two consecutive trays, ten and two, strictly one after the other.

# %% tags=["skip-in-class"]
from lab.harness.batching import MAX_PARALLEL
from lab.model import text, tool_use, turn
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import BatchRan

twelve = {f"ch{i}.md": f"# {i}\n" for i in range(1, 13)}
reads = Scenario(
    [turn(*(tool_use("read_file", {"path": name}) for name in twelve)), turn(text("ok"))],
    files=twelve,
)
trays = run_scenario(reads, Switches()).trace.of(BatchRan)
MAX_PARALLEL, [(len(t.call_ids), t.parallel, t.started, t.finished) for t in trays]

# %% [markdown]
# ## 口播落点 / Takeaway
#
# > **加一个工具，改的是号码簿，不是传送带。**
# > Adding a tool changes the number book, not the belt.
#
# **练习 / Exercise:** `lab check m2_word_count` — 往号码簿里加一个三处对齐的工具。
