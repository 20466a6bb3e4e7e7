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
# # 08 · 真实的 harness 上测试台 / Real harnesses on the bench
#
# > 停止标记是声明，内容块是事实；信声明就会丢活。
#
# 前面的笔记本只评判实验室自己的 harness。可大家真正在用的，是别人写的：SDK 自带的 tool runner、
# 各种智能体框架、生产环境的命令行工具。`lab probe` 把它们放上同一个测试台：实验室扮演**模型**——
# 它的假 Messages API 开在 127.0.0.1 上，说真实的 JSON 和 SSE；被测的 harness 是插座另一端的一个
# 程序，在临时目录里、只有回环网卡的网络命名空间里运行。每个编号用例挑起一个本章或 API 点名的故障，
# 判决只看线上传了什么、程序的退出码和一个金丝雀字符串：`notes.txt` 里的金丝雀出现在某个调用的
# `tool_result` 里，这个调用才算真的执行了。
#
# Every notebook so far judged the lab's own harness. The harnesses people build on are somebody
# else's: an SDK's tool runner, agent frameworks, a production CLI. `lab probe` puts them on the
# same bench. The lab plays the *model*: its fake Messages API on 127.0.0.1, real JSON and SSE. The
# harness under test is a program at the other end of the socket, in a scratch folder, inside a
# network namespace that holds nothing but loopback. Each numbered case provokes one fault the seed
# or the API names, and the verdict comes only from the wire, the exit status and a canary: a call
# *ran* when the canary string of `notes.txt` came back in its `tool_result`.

# %%
from lab.notebook import outcome, timeline, verdict
from lab.notebook import probe_inline as bench
from lab.classroom.predict import check

LANG = "zh"

# %% [markdown]
# ## 用例 / The cases
#
# 编号固定，每个都对应本章的一条保证（M1–M4）或 API 的一个事实，一个脚本，一条「守住」的规则。
# Fixed ids, each tied to a guarantee of the seed (M1–M4) or a fact of the API: one script, one
# rule for "kept".

# %%
bench.cases()

# %% [markdown]
# ## 矩阵 / The matrix
#
# 本章的两个教训放到每一个内置目标上：P1/P1s 就是 D1（工具调用块却声明 `end_turn`，JSON 与流式各一次），
# P4 是 D3 讲的配对义务——这一次，回答里的工具 JSON 根本读不出来；P5（一个回答里两个调用）和 P11
# （拒绝规则对上一个什么都说好的人）留到最后一节。完整的用例见 `lab probe --all` 和 README 里实测的矩阵。
#
# The seed's two lessons on every built-in target: P1/P1s are D1 (a tool call declared `end_turn`,
# as JSON and streamed); P4 is the pairing obligation of D3, under an answer whose tool JSON cannot
# be read; P5 (two calls in one answer) and P11 (a deny rule against a human who says yes) wait for
# the last section. All the cases: `lab probe --all`, and the matrix measured in the README.

# %%
result = bench.probe("--all", "--case", "P1", "P1s", "P4", "P5", "P11")
bench.matrix(result)

# %% [markdown]
# ## 野外的 D1 / D1 in the wild
#
# > 二者在流式输出下可能不同步：内容块里已经排好了工具调用，标记却报了结束——信声明，活就丢了【三，课程作者
# > 拆过闭源源码后指出，产品不把停止标记当续轮的唯一依据……理由正是声明会滞后于事实】。（本章 §3）
#
# 左边：anthropic SDK 自带的 tool runner（`client.beta.messages.tool_runner(...)`，默认设置）跑 P1s，
# 一个请求一行，是假 API 看到的样子。右边：实验室的 D1，打开 `trust_stop_reason` 的 harness，一轮一格。
#
# Left: the anthropic SDK's own tool runner (default settings) on P1s, request by request as the
# fake saw them. Right: the lab's D1, its harness with `trust_stop_reason=True`, turn by turn.
#
# **问题 R.1 / Question R.1.** tool runner 在 P1s 上一共发了几个请求？ How many requests did the tool
# runner send on P1s? *(一个整数 / a number)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("R.1", prediction, LANG, result=result)

# %%
runner = bench.cell(result, "anthropic-tool-runner", "P1s")
d1 = outcome("D1")
bench.beside(
    ("anthropic-tool-runner · P1s", bench.wire(runner)),
    ("lab D1 · trust_stop_reason=True", timeline(d1.after)),
)

# %%
verdict(d1, LANG)

# %% [markdown]
# 线上是同一个回答——一个 tool_use 块，消息却声明 `end_turn`——结局也一样：调用被丢掉，运行像活干完了
# 一样结束。Same answer on the wire — a tool_use block in a message that declares `end_turn` —
# same fate: the call is dropped, and the run ends as if the work were done.
#
# **问题 R.2 / Question R.2.** 实验室的哪一个开关让它自己的 harness 做出同样的事？ Which switch of the
# lab makes its own harness do the same? *(一个开关名 / a switch name)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("R.2", prediction, LANG)

# %% [markdown]
# **问题 R.3 / Question R.3.** 丢掉那个调用之后，tool runner 的程序以什么退出码结束？ With what exit
# status did the tool runner's program end, once the call was dropped? *(一个整数 / a number)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("R.3", prediction, LANG, result=result)

# %% [markdown]
# ## 配对义务 / The pairing obligation
#
# > 每一个工具调用都必须有一条结果与之成对，否则历史不再合法
#
# P4 那一行：回答里的工具 JSON 读不出来时，有的 harness 直接崩溃，有的把没回答的 tool_use 留在历史里，
# 下一个请求就被拒绝；守住它的办法只有两种——给它一条 `is_error` 结果，或者丢掉这个回答重新问。
# 每个格子的证据（哪个请求、假 API 的 400 原文、退出码）见 `lab probe TARGET --case P4` 或 `--report`。
#
# The P4 row: when an answer's tool JSON cannot be read, some harnesses crash and some leave the
# tool_use unanswered in the history, so the next request is rejected. There are only two ways to
# keep it: answer the call with an `is_error` result, or drop the answer and ask again. Each cell's
# evidence (which request, the fake's exact 400, the exit status): `lab probe TARGET --case P4`.

# %%
bench.wire(bench.cell(result, "lab-reference", "P4"))

# %% [markdown]
# ## 骨架不随规模变 / The skeleton does not change with scale
#
# > 教学版省掉的都是规模才逼出来的东西；留下的恰恰是任何规模下都不变的骨架——判据看事实、能力长在表里、检查有次序、扩展不进循环。
#
# 测试台量的正是这副骨架：判据看事实（P1、P1s、P1b）、能力长在表里（P2、P3）、每个调用都有结果（P4、
# P5、P8、P9、P10）、拒绝先于同意（P11）。同一把尺子，量实验室、量教学版，也量别人的软件。
#
# The bench measures exactly that skeleton: decide by the facts (P1, P1s, P1b), capabilities live in
# the table (P2, P3), every call gets its result (P4, P5, P8, P9, P10), deny before yes (P11). One
# ruler for the lab, for the course, and for everyone else's software.
