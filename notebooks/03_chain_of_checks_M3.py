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
# # 03 · M3 扫码口：执行前的校验链 / The chain of checks
#
# > **类比**　活件上机器前要过一排扫码口：先看外形对不对（结构合法），再看这台机器认不认它（语义合法），
# > 再看今天允不允许上机（许可），全过了才通电。越便宜、越不可协商的检查排越前面。（本章 §5）
#
# > **顺序不变式**　结构校验 → 工具自校验 → 前置钩子 → 权限判定 → 真正执行——外形合法先于语义合法，语义
# > 合法先于是否许可，许可先于动手。……「要不要问人」是唯一要付出人类时间的一步，必须放到最后。（本章 §5）
#
# > 教学版只实现了这条链的后两段【一】，前半段不是不存在，是被外部件代工了……这条链上还有一个「机制之间互相踩」
# > 的反直觉样本【三，课程作者拆过闭源源码后指出：产品给工具结果配了「过大就溢写到磁盘」的上限，唯独读文件工具
# > 把它设为无限——否则会出现「读到大文件 → 结果被溢写成一个路径 → 模型再去读那个路径 → 再次溢写」的自噬死循环】。
#
# *Analogy.* Before a job goes onto the machine it passes a row of scanners: shape, then meaning,
# then permission; only then the power. *Invariant.* Structure → the tool's own check → hooks →
# permission → execution. What is stable is the order, not the number of stages. The course
# implements only the last two stages 【一】; the read tool is exempt from the size cap 【三】.
#
# **本实验室读法不同**　有分歧：本章说扫码链的前半段「被外部件代工」（SDK
# 替它扛了外形检查）；本实验室读课程代码得出不同结论：没有任何外部件按 schema 检查
# tool_use 的输入。SDK 只解析 JSON、从不校验（被截断的 {"path":
# "/tm 变成 {}，不报错：D21），API 只对设了 strict: true 的工具按
# schema 约束输入，而课程的工具都没设。所以不合法的调用先过门禁，再在
# handler(**block.input) 里炸掉（D8、D9b）。
#
# *The lab reads this claim differently.* disputed: the chapter says the front half of
# the chain is done by an outside part (被外部件代工: the SDK checks the shape); the lab reads the
# course code differently: no outside part checks a tool_use input against its schema. The SDK
# parses the JSON and never validates it (a cut {"path": "/tm becomes {}, no error: D21), and the
# API holds an input to the schema only for a tool with strict: true, which the course's tools do
# not set. So a malformed call meets the gates, then handler(**block.input) raises (D8, D9b).

# %%
from lab.harness.checks import GATE_FIRST, ORDER, CheckChain, ChecksFirst, GatesFirst
from lab.harness.results import ResultCaps
from lab.notebook import Pair, Stepper, code, experiment, outcome, side_by_side, sides, timeline, verdict
from lab.classroom.predict import check

LANG = "zh"

# %% [markdown]
# ## 代码 / The code
#
# 顺序只写在一个地方；开关 `validate_before_gate` 换成 `GATE_FIRST`。The order lives in one place.

# %% tags=["skip-in-class"]
ORDER, GATE_FIRST

# %%
code(ChecksFirst, GatesFirst, CheckChain.judge, highlight="stages =")

# %% [markdown] tags=["skip-in-class"]
# ## 稳定的是顺序，不是段数 / What is stable is the order, not the number of stages
#
# > 注意稳定的是顺序，不是段数
#
# 运行代码：参考实现的链有六段，教学版只有四段（没有自己的前半段，见上面的分歧说明），段数不同；可教学版还在的每一段，
# 先后次序都和参考实现一样。
# By running code: the reference chain has six stages, the course's four; every stage the course
# keeps stands in the reference's order.

# %% tags=["skip-in-class"]
from lab.cli.parts_command import assemble
from lab.kernel.switches import Switches

reference_chain = assemble(Switches(), "").chain
course_chain = assemble(Switches.course(), "").chain
same_order = [s for s in reference_chain if s in course_chain] == course_chain
reference_chain, course_chain, len(reference_chain), len(course_chain), same_order

# %% [markdown]
# ## 一次走一轮（D9）/ One turn at a time (D9)
#
# 模型用三个 `write_file` 保存会议纪要：第一个缺 `content`，第二个把数字当成 `content`，第三个没问题。
# 权限对每个走到门禁的调用都问人（`default="ask"`），人对所有问题都答「是」。
#
# Three `write_file` calls: one lacks `content`, one passes a number, one is fine. Every call that
# reaches the gate costs the human a question; the human says yes to all.
#
# **问题 M3.1 / Question M3.1.** 参考实现里，两个格式错误的调用在哪一道扫码口被挡下？
# Where are the two malformed calls stopped?
# *(一个阶段名：号码簿查名、结构校验、工具自校验、前置钩子、权限判定 / a stage name)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
chain = Stepper(experiment("D9").scenario, lang=LANG)
chain.step()
chain.step()

# %%
check("M3.1", prediction, LANG)

# %% [markdown]
# ## 拨动开关：许可排到结构校验前面 / Flip the switch: the gate before validation
#
# **问题 M3.2 / Question M3.2.** 关于那些本来就格式错误的调用，人分别要回答几个问题：校验在前时，许可在前时？
# How many questions about malformed calls does the human answer, validation first and gate
# first? *(两个整数 / two integers)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
pair = Pair.of(experiment("D9"), lang=LANG)
pair.step()

# %%
check("M3.2", prediction, LANG)

# %%
verdict(outcome("D9"), LANG)

# %% [markdown]
# ## 自噬的保护（D17）/ A protection that feeds on itself (D17)
#
# 超过上限的结果被溢写到文件，模型拿到预览和文件路径。读文件工具豁免（它分页）。
# A result over the cap spills to a file; the read tool is exempt (it pages instead).

# %%
code(ResultCaps.result, highlight="exempt")

# %% [markdown]
# **问题 M3.3 / Question M3.3.** 读文件工具不豁免时，读一个大文件会产生几个溢写文件、浪费几轮去追读它们？
# With the read tool not exempt, how many spill files, and how many turns spent chasing them?
# *(两个整数 / two integers)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("M3.3", prediction, LANG)

# %% tags=["skip-in-class"]
d17 = outcome("D17")
side_by_side(d17.before, d17.after, (sides(LANG)[0], "read_exempt_from_cap=False"), [1, 2], LANG)

# %% tags=["skip-in-class"]
timeline(d17.after, "read_exempt_from_cap=False", LANG)

# %% [markdown]
# ## 口播落点 / Takeaway
#
# > **越便宜的检查排越前面，人的时间放在最后。**
# > The cheaper the check, the earlier it stands; the human's time comes last.
#
# 在这条链上任何地方被挡下的调用，仍欠模型一条结果：笔记本 `06_pairing_D3`。
# **练习 / Exercise:** `lab check m3_chain_order` — 给扫码口排序。
