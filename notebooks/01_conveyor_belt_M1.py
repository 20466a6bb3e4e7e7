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
# # 01 · M1 传送带：循环与续轮判据 / The conveyor belt: the loop and its continue test
#
# > **类比**　传送带只做一件事：把活送到师傅手边，接住他递回的东西。它每转一圈都做同一个验活动作——看他
# > 手里还有没有活。有，就继续转；没有，才考虑收工。注意它看的是手里，不是师傅嘴上说自己干没干完。（本章 §3）
#
# > **不变式**　循环体只回答一个问题——本轮响应的内容块里还有没有工具调用。有就执行并把结果作为新消息追
# > 回去，没有就退出。这个判据是本地可直接观察的结构事实；而停止标记是模型/传输层给出的声明。二者在流式
# > 输出下可能不同步：内容块里已经排好了工具调用，标记却报了结束——信声明，活就丢了【三，课程作者拆过闭源源码后
# > 指出，产品不把停止标记当续轮的唯一依据，而是另设一个独立标志位，流式过程中一旦收到工具调用块就置真，理由
# > 正是声明会滞后于事实】。（本章 §3）
#
# *Analogy.* The belt brings the work to the craftsman and takes back what he hands over; every
# turn it checks whether there is still work **in his hands** — not what he says about being done.
# *Invariant.* The loop asks one question: does this answer's content hold a `tool_use` block?
# That is a fact the harness observes; `stop_reason` is a declaration, and while streaming the two
# can disagree. The course's pinned code reads the content in all four chapters 【一】; its web
# site still shows an older revision that tests `stop_reason` — the same course, both criteria.

# %%
from lab.harness.loop import ContentTest, DeclaredStopReason, Harness
from lab.harness.model_call import ask
from lab.notebook import Pair, Stepper, code, experiment, outcome, side_by_side, sides, timeline, verdict
from lab.classroom.predict import check

LANG = "zh"

# %% [markdown]
# ## 代码 / The code
#
# `Harness.step` 是一轮；续轮判据 `holds_tool_calls` 是一个部件：`ContentTest`，旁边是开关 `trust_stop_reason` 换上的坏部件 `DeclaredStopReason`。
# `Harness.step` is one turn; the continue test `holds_tool_calls` is a part, `ContentTest`, and
# beside it the faulty `DeclaredStopReason` the switch `trust_stop_reason` puts in its place.

# %%
code(Harness.step, ContentTest, DeclaredStopReason, highlight="holds_tool_calls")

# %% [markdown] tags=["skip-in-class"]
# 内容事实在流到达时就被记下：`tool_use` 块一开始，`tool_use_seen` 就置真，不管消息最后声明什么。
# The content fact is raised while the stream arrives, the moment a `tool_use` block starts.

# %% tags=["skip-in-class"]
code(ask, highlight="tool_use_seen = True")

# %% [markdown]
# ## 一次走一轮 / One turn at a time
#
# D1 的场景：模型被要求总结一份报告，其中有一个回答带着流式失真。每个 `step()` 走一轮：一次模型调用和它
# 的工具调用——读每一轮时看模型的块、它声明的 stop_reason、每个调用在扫码口的经过、发回的 tool_result。
#
# D1's scenario: the model summarises a report, and one of its answers carries the streaming
# distortion. Each `step()` runs one turn: read the blocks, the declared stop_reason, each call
# down the chain and the result sent back.

# %%
d1 = experiment("D1")
belt = Stepper(d1.scenario, lang=LANG)
belt.step()

# %% [markdown]
# **问题 M1.1 / Question M1.1.** 往下走之前先预测：哪一轮的声明与内容块不一致？
# Before stepping on: which turn's declaration disagrees with its content? *(轮次编号 / a turn number)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("M1.1", prediction, LANG)

# %%
belt.step()

# %%
belt.step()

# %% tags=["skip-in-class"]
timeline(belt.finish(), sides(LANG)[0], LANG)

# %% [markdown]
# ## 拨动开关：信声明 / Flip the switch: trust the declaration
#
# `Pair.of(d1)` 把同一个场景走两遍：参考实现，和 `trust_stop_reason=True`。两次运行第一次分道扬镳的那一行
# 在两边都标上 ◀。`Pair.of(d1)` steps the scenario twice and marks the first line where they part.
#
# **问题 M1.2 / Question M1.2.** 信声明的循环里，`toolu_002`（`cat report.md`）会怎样？
# In the trusting loop, what becomes of `toolu_002`? *(执行了、被拦下、被丢弃 / ran / stopped / dropped)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
pair = Pair.of(d1, lang=LANG)
pair.step()

# %%
pair.step()

# %%
check("M1.2", prediction, LANG)

# %%
reference, trusting = pair.finish()
timeline(trusting, "trust_stop_reason=True", LANG)

# %% tags=["skip-in-class"]
verdict(outcome("D1"), LANG)

# %% [markdown]
# ### 反方向的失真（D1b）/ The other disagreement (D1b)
#
# 真实的流也会反过来：声明 `tool_use`，内容里却没有工具块。信声明的循环执行零个调用，发回一条空的结果消息。
# Real streams also declare `tool_use` with no tool block; the trusting loop sends an empty result.
#
# **问题 M1.3 / Question M1.3.** 信声明的循环一共调用模型几次，最后一次得到什么 HTTP 状态码？
# How many model calls does the trusting loop make, and what HTTP status ends it? *(两个整数 / two
# integers, e.g. (5, 200))*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("M1.3", prediction, LANG)

# %%
d1b = outcome("D1b")
side_by_side(d1b.before, d1b.after, (sides(LANG)[0], "trust_stop_reason=True"), [2, 3], LANG)

# %% [markdown] tags=["skip-in-class"]
# ### 超出本章：丢掉的思考（D29）/ Beyond the chapter: dropped thinking (D29)
#
# 传送带把模型的回答原样追加进历史，再发回去。开启扩展思考时，这不只是好习惯：工具循环里的助手轮次必须以它的
# 思考块开头、一字不改地送回（每块带一个 API 会校验的签名）。`keep_thinking_blocks=False` 只留文本和工具调用，
# 下一次请求就被 API 以 400 拒收——看第 2 轮。
#
# The belt appends the model's answer to the history as it came and sends it back. With extended
# thinking on, that is a rule of the API: the assistant turn of a tool loop goes back starting with
# its thinking blocks, unchanged (each carries a signature the API checks). With
# `keep_thinking_blocks=False` only text and tool calls go back, and the next request gets the
# API's 400: see turn 2.

# %% tags=["skip-in-class"]
d29 = outcome("D29")
side_by_side(d29.before, d29.after, (sides(LANG)[0], "keep_thinking_blocks=False"), [1, 2], LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 裸循环：什么都敢执行 / The bare loop runs whatever it is asked
#
# > 其一，它什么都敢执行——一条删库命令和一条列目录命令在它眼里没有区别。（本章 §1）
#
# 运行代码：教学版 s01 的循环（`lab/chapter/course_steps.py` 按课程的事实写成的小模型），没有扫码口、没有门禁、没有插线口。
# 模型先要列目录，再要删掉 `src`：两条命令走的是同一行 `run_bash(...)`，而 `run_bash` 自己只拒绝几个固定的字符串，
# `rm -rf src` 不在其中。删掉的是虚拟磁盘上的文件，不碰你的机器。
#
# By running code: the course's s01 loop (a small model written from the course's facts,
# `lab/chapter/course_steps.py`) with no chain of checks, no gates and no sockets. The model lists the
# workspace, then deletes `src`: both go through the same line, `run_bash(...)`, whose own few
# refusals are fixed strings that `rm -rf src` does not hold. What is lost is on the virtual disk,
# never the host.

# %% tags=["skip-in-class"]
from lab.chapter.course_steps import run_bash, run_course, s01_step
from lab.model import text, tool_use, turn
from lab.notebook import course_run_view
from lab.world import World

code(s01_step, run_bash)

# %% tags=["skip-in-class"]
bare = run_course(
    "s01",
    [
        turn(tool_use("bash", {"command": "ls"}), tool_use("bash", {"command": "rm -rf src"})),
        turn(text("Listed the workspace, and removed src.")),
    ],
    World.create({"src/app.py": "print('hi')\n", "notes.txt": "keep me\n"}),
)
course_run_view(bare, LANG)

# %% [markdown]
# ## 口播落点 / Takeaway
#
# > **停止标记是声明，内容块是事实；信声明就会丢活。**
# > `stop_reason` is a declaration, the content blocks are the fact: trust the declaration and
# > work is lost.
#
# 第二条续轮通道：没有工具调用时，循环还要问退出插线口能不能停——收工不是循环一个人说了算（笔记本 05，D16）。
# The Stop socket is a second way to keep the belt turning (notebook 05, D16).
#
# **练习 / Exercise:** `lab check m1_lost_call` — 写一段脚本，让信声明的循环丢掉读报告的活。
