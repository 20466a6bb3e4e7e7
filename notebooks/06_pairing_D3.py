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
# # 06 · 配对义务：每个 tool_use 都欠一条 tool_result / The pairing obligation
#
# > 教学版的三条实测细节【一】……被拒也要补一条结果：拒绝路径不是跳过了事，而是先补一条内容为「拒绝」的工具结果
# > 再继续。这就是执行层为记忆层留下的配对义务——每一个工具调用都必须有一条结果与之成对，否则历史不再合法（详见
# > ③ 记忆管理 的 D3 实验）。（本章 §6）
#
# > == D3 · 关掉 tool_use/tool_result 配对保护 ==
# > 改动：Switches.pair_protection = False
# > 退化：pairs_intact  True  →  False
#
# （配套原型的实际运行输出，本章 §7 / the prototype's printed run, quoted by the seed）
#
# A denied call is not simply skipped: a result saying "denied" is appended first 【一】. Every
# tool call is answered by exactly one result in the very next message, or the history is no
# longer legal and the API refuses it. The seed's D3 (the prototype's) is about trimming the
# history: a `tool_use` and its `tool_result` are kept or dropped together. D23 is the lab's own:
# the denied call.

# %%
from lab.harness.pairing import Pairing, PairsBroken, PairsKept
from lab.notebook import Pair, code, experiment, html, outcome, side_by_side, sides, verdict
from lab.kernel.observables import pairs_intact
from lab.classroom.predict import check
from lab.views.report import messages_view

LANG = "zh"

# %% [markdown]
# ## 代码 / The code
#
# 被挡下的调用欠的那条结果，以及成对裁剪。The result owed to a stopped call, and trimming in pairs:

# %%
code(PairsKept, PairsBroken, Pairing, highlight="self.pairs")

# %% tags=["skip-in-class"]
code(pairs_intact)

# %% [markdown]
# ## 被拒的调用（D23）/ The denied call (D23)
#
# 「清理工作区」，拒绝规则覆盖 `rm`。模型先列文件，并在同一个回答里试图删掉缓存。
# "Clean up the workspace", with a deny rule for `rm`; in one answer the model lists and removes.
#
# **问题 P.2 / Question P.2.** 参考实现给被拒的调用发回的结果标了 `is_error` 吗？ Does the reference
# harness mark the result it sends for a denied call `is_error`? *(是、否 / True / False)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("P.2", prediction, LANG)

# %% [markdown]
# **问题 P.1 / Question P.1.** 关掉配对保护后，API 拒绝请求时点名的是哪个调用？
# With pair protection off, which call does the API's 400 name? *(一个调用编号 / a call id)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
pair = Pair.of(experiment("D23"), lang=LANG)
pair.step()
pair.step()

# %%
check("P.1", prediction, LANG)

# %%
protected, unprotected = pair.finish()
rejected = "API 拒收的那段历史" if LANG == "zh" else "the history the API rejected"
html(messages_view(unprotected.messages, rejected, LANG))

# %% [markdown]
# ## 成对裁剪（D3）/ Trimming in pairs (D3)
#
# 每次调用前把历史裁到最后 3 条消息（`keep_last=3`），一个奇数窗口：保留的尾部从一条 `tool_result` 消息开始。
# The history is trimmed to the last 3 messages before each call: an odd window whose tail opens on
# a `tool_result` message.
#
# **问题 P.3 / Question P.3.** 没有保护时，第 4 轮发出的历史里，哪个调用的结果留下了、它的 tool_use 却被裁掉？
# Unprotected, whose result is kept in turn 4 while its tool_use was trimmed? *(一个调用编号 / a call id)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("P.3", prediction, LANG)

# %%
d3 = outcome("D3")
side_by_side(d3.before, d3.after, (sides(LANG)[0], "pair_protection=False"), [4], LANG)

# %% tags=["skip-in-class"]
sent = "第 4 轮发出的历史（没有保护）" if LANG == "zh" else "sent in turn 4, unprotected"
html(messages_view(d3.after.api.requests[-1]["messages"], sent, LANG))

# %% tags=["skip-in-class"]
verdict(d3, LANG)

# %% [markdown]
# ## 口播落点 / Takeaway
#
# > **被拒也要补一条结果。**
# > A denial is a result too: every `tool_use` owes a `tool_result`.
