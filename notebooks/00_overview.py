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
# # 00 · 总览：一个循环，和挂在它外面的东西 / Overview: one loop, and what hangs outside it
#
# > 一句话本质：它敢在你机器上动手，靠的不是更聪明，是传送带外面挂着的三层可拆卸装置。（本章 · 定位）
#
# > *It dares to act on your machine not because it is smarter, but because of the detachable
# > layers hung outside the conveyor belt.*
#
# 循环保持极小（**M1 传送带**），能力挂进一张号码簿（**M2 转接号码簿**，一批活算一**托盘**），检查挂成一排
# 扫码口（**M3 扫码口**），闸门（**M4 门禁**）和扩展逻辑挂在传送带边的插线口上（**M5 插线口**）。
#
# The loop stays minimal (M1, the belt); capabilities go into a number book (M2, calls carried
# on trays), checks become a row of scanners (M3), gates (M4) and extensions hang on sockets
# beside the belt (M5). Each later notebook takes one mechanism: its code, the harness stepped
# turn by turn, one switch flipped, the two runs side by side with the break marked.
#
# **怎么用 / How to use.** 每个问题先写下你的预测（`prediction = ...`），再运行 `check(...)`：
# 先比较，后揭晓。Predict first, then run `check(...)`: it compares, then reveals.
# `LANG = "en"` 切换成英文视图 / switches the views to English.

# %%
from lab.chapter.experiment import load_all, run_experiment
from lab.notebook import claims, html, mechanism_map, panorama
from lab.classroom.predict import check
from lab.views.report import switches_view

LANG = "zh"
outcomes = [run_experiment(e) for e in load_all()]

# %% [markdown]
# ## 全景：一次调用的路径 / The panorama: one call's path
#
# 传送带 → 托盘 → 扫码口 → 门禁与插线口 → 执行 → 结果 → 回到传送带。每个实验的断点（两次运行的第一处
# 分歧）亮在它发生的地方——位置是从运行里读出来的，不是写死的。
#
# Belt → trays → the chain of checks → gates and sockets → run → result → back to the belt. Each
# red badge is an experiment, placed where its two runs first part ways (read off the runs, not
# written down). The same picture opens `lab report --html FILE`, the page for the projector.

# %%
panorama(outcomes, LANG)

# %% [markdown]
# ## 五个机制，从代码生成 / The five mechanisms, drawn from the code
#
# 模块的文档字符串、检查链的顺序、门禁的顺序、钩子事件、开关和实验文件，每次运行时重新读取。虚线标出
# 循环为了够到每一层而调用的方法：循环本身不点名任何检查、门禁或钩子。
#
# Module docstrings, the chain's order, the gates' order, the hook events, the switches and the
# experiment files, read each time this runs. The dashed lines name the calls the loop makes to
# reach each layer: the loop itself names no check, gate or hook.

# %%
mechanism_map(LANG)

# %% [markdown]
# ## 开关板 / The switchboard
#
# `Switches()` 是参考实现：所有保护都开着。每个开关只破坏一条保证；它的故障、机制、实验写在开关自己身上。
# `Switches.course()` 是固定提交（f9e8b28）的教学版。`Switches()` is the reference harness, every
# protection on; each flag breaks one guarantee. `Switches.course()` is the course as pinned.
#
# **问题 C.1 / Question C.1.** 看开关板之前先预测：教学版（`Switches.course()`）与参考实现有几个开关不同？
# Before you look at the switchboard: How many switches does the course preset flip away from the
# reference harness? *(一个整数 / an integer)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
html(switches_view(LANG))

# %%
check("C.1", prediction, LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 本章的论断，当场测量 / The chapter's claims, measured now
#
# 证据等级沿用本章：【一】固定提交的课程代码，【二】官方文档，【三】课程作者对闭源源码的解读；其余标为
# 「超出本章」并写明出处。Evidence grades as the seed gives them: 【一】 course code at f9e8b28,
# 【二】 official documentation, 【三】 the course author's reading of closed source; anything else
# is "beyond the seed", with its source.

# %% tags=["skip-in-class"]
claims(outcomes, LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 笔记本 / The notebooks
#
# | 笔记本 / notebook | 内容 / what you will see |
# |---|---|
# | `01_conveyor_belt_M1` | M1 传送带：续轮判据看内容块，不看 `stop_reason`（D1, D1b） |
# | `02_dispatch_table_M2` | M2 转接号码簿 + 托盘：第三处契约、坏名字、托盘（D7, D8, D18, D27, D19） |
# | `03_chain_of_checks_M3` | M3 扫码口：便宜的检查在前，人的时间在最后；读文件与上限（D9, D17） |
# | `04_gates_M4` | M4 门禁：拒绝 → 询问 → 放行；硬拒绝只管 shell；工作区的墙；复合命令（D4, D26, D10, D11） |
# | `05_sockets_M5` | M5 插线口：审计漏记、钩子只能收紧、阻断钩子压过放行规则、沉默不等于批准、退出防护（D12–D16, D24, D25） |
# | `06_pairing_D3` | 配对义务：每个 tool_use 都欠一条 tool_result（D3, D23） |
# | `07_hypothesis_hunt` | hypothesis 自己找到故障并缩到最小脚本 / finds a fault by itself |
# | `08_real_harnesses` | 别家的 harness 接到假 API 上：tool runner 在野外重演 D1 / other harnesses against the fake API |
# | `09_course_beside_production` | §8 教学版与生产版的距离、§10 四条批判性边界、§12 验收问答（运行代码作答） |
#
# 练习 / Exercises: `lab check m1_lost_call --init`，再 `lab check m1_lost_call`（每个机制一道，m1…m5，检查隐藏 / one per mechanism, m1…m5, hidden checks）。
