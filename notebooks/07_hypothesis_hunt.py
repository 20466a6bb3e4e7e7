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
# # 07 · hypothesis 自己把故障找出来 / Hypothesis hunts a fault down by itself
#
# 前面的笔记本都用手写的场景，早就知道该往哪儿看。这里没有人写场景。`lab/testing` 把参考实现的承诺写成
# 具名的不变式（每个都是对一次运行的查询），hypothesis 生成整段对话（工具调用、文件、规则、人的回答、钩子），
# 在一组开关下运行，检查每一条不变式；一旦有一条被打破，就把对话缩到仍然打破它的最小形式。
#
# Every notebook so far used a hand-written scenario. Here nobody writes one: the reference
# harness's promises are named invariants (不变式), hypothesis generates whole conversations, runs
# each under a set of switches, checks every invariant, and shrinks a breaking conversation to the
# smallest one that still breaks it. The search is derandomized and bounded: the same every run.

# %%
from lab.notebook import Pair, case_view, code, finding_view, invariants_view, matrix_view
from lab.classroom.predict import check
from lab.kernel.switches import Switches
from lab.testing import BY_NAME
from lab.testing.search import hunt, kill_matrix, search

LANG = "zh"

# %% [markdown]
# ## 承诺 / The promises
#
# 倒数第二列说教学版（`Switches.course()`）是否也守住这条承诺。The last column but one: does the
# course keep it too?

# %%
invariants_view(LANG)

# %% [markdown]
# 「续轮判据」（`continuation_only_on_tool_use`）那一行，教学版是「部分守住」。这**不是**说教学版信停止标记：本章 §12-Q1 说仓库固定提交
# 四章全部按内容块判定【一】，教学版的 `trust_stop_reason` 和参考实现一样。这条承诺比判据本身多两句——退出钩子
# 最多否决 8 次，调用执行途中不崩溃——教学版两句都不守：它没有退出防护（`stop_hook_guard`，D16），处理函数的
# 异常也不变成结果（`handler_errors_become_results`）。下面的杀伤矩阵里，看是哪些开关打破了它。
#
# The course's "in part" on `continuation_only_on_tool_use` does **not** mean it trusts the stop marker: §12-Q1 says all
# four chapters at the pinned commit judge by the content 【一】, and the course's
# `trust_stop_reason` is the reference's. The promise says two things more — a Stop hook vetoes at
# most 8 times, and no crash while the calls run — and the course keeps neither (no Stop guard,
# D16; handler errors are not turned into results). The kill matrix below shows which switches
# break it.

# %%
course = Switches.course()
{
    name: getattr(course, name)
    for name in ("trust_stop_reason", "stop_hook_guard", "handler_errors_become_results")
}

# %%
code(BY_NAME["containment"].check)

# %% [markdown]
# ## 参考实现守住它们 / The reference harness keeps them

# %%
clean = search(Switches(), examples=30, shrinks=0)
sorted(clean) or "no invariant broken / 没有不变式被打破"

# %% [markdown]
# ## 追猎：拆掉墙 / The hunt: take the wall down
#
# `hunt` 拨动一个开关，寻找打破任何一条不变式的最小用例。这里是 `workspace_wall`：s03 加门禁时拆掉的那堵墙。
# `hunt` flips one switch and searches for the smallest breaking case; here the wall s03 dropped.

# %%
finding = hunt("workspace_wall", examples=40, shrinks=60)
finding_view(finding, LANG)

# %%
case_view(finding.case, lang=LANG)

# %% [markdown]
# 它是找到的，不是写出来的；和笔记本 04 里手写的 D10 比一比。It was found, not written: compare D10.
#
# **问题 H.1 / Question H.1.** 这个用例放到参考实现上，还会守住同一条不变式吗？换句话说，故障在开关里（是）
# 还是在用例里（否）？ On the reference harness, does the same case keep the promise?
# *(是、否 / True / False)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("H.1", prediction, LANG, finding=finding)

# %%
pair = Pair(finding.case.scenario(), Switches(), Switches(workspace_wall=False), LANG)
pair.finish()
pair.view()

# %% [markdown]
# ## 杀伤矩阵 / The kill matrix
#
# 每个开关单独拨动，对照每一条不变式：✗ 表示 hypothesis 找到了打破它的用例。这里每个开关只试 15 个用例
# （`lab matrix` 试 100 个），十几秒跑完。预算决定能抓到多少：没被抓到的开关不等于没有故障，只是这点预算
# 没碰上打破它的对话。Every switch flipped alone against every invariant, on a small budget: 15
# cases a switch (`lab matrix` tries 100), a dozen seconds. The budget decides what is caught: a
# switch left uncaught is not thereby harmless; this budget just never met a conversation that
# breaks it.
#
# **问题 H.2 / Question H.2.** D1 的开关 `trust_stop_reason` 会被 `continuation`（M1 的承诺）抓住吗？
# Does `continuation`, M1's promise, catch D1's switch `trust_stop_reason`? *(是、否 / True / False)*
#
# **问题 H.3 / Question H.3.** 参考实现那一行有几个 ✗？ How many ✗ on the reference harness's row?
# *(一个整数 / an integer)*

# %%
prediction_h2 = ...  # ✎ 你的预测 / your prediction (H.2)
prediction_h3 = ...  # ✎ 你的预测 / your prediction (H.3)

# %%
matrix = kill_matrix(examples=15, shrinks=3)
matrix_view(matrix)

# %% [markdown]
# 这点预算抓到了几个开关，漏了哪些？上面追猎的 `workspace_wall` 在不在被抓到的里面？
# How many switches did this budget catch, which did it miss, and is the hunted `workspace_wall`
# among the caught?

# %%
missed = [row.switch for row in matrix.rows if not row.caught]
f"{matrix.caught} / {len(matrix.rows)} caught", missed, "workspace_wall" not in missed

# %%
check("H.2", prediction_h2, LANG, matrix=matrix)

# %%
check("H.3", prediction_h3, LANG, matrix=matrix)

# %% [markdown]
# ## 落点 / Takeaway
#
# 不变式是对每一次运行都成立的一句承诺。hypothesis 是不知疲倦的学生，去试没人想到的对话，把打破承诺的最小
# 那一段带回来。An invariant is a promise stated once for every run; hypothesis tries the
# conversations nobody thought of and brings back the smallest one that breaks it.
