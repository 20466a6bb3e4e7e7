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
# # 09 · 教学版与生产版的距离、批判性边界、验收问答 / The course beside production, the critical boundaries, the acceptance questions
#
# 本章 §8、§10 与 §12。The seed's §8, §10 and §12.
#
# > 教学版砍掉了什么、为什么砍了仍然成立——每条都是结构性结论。……一句话：教学版省掉的都是规模才逼出来的
# > 东西；留下的恰恰是任何规模下都不变的骨架——判据看事实、能力长在表里、检查有次序、扩展不进循环。
#
# *What the course leaves out is what only scale forces; what it keeps is the skeleton that holds
# at any scale: the criterion reads the fact, capabilities grow in the table, checks have an order,
# extensions stay out of the loop.*

# %%
from dataclasses import replace

from lab.chapter.compare import as_the_course
from lab.harness.permissions import Permissions
from lab.notebook import course_view, ends_view, experiment, outcome, side_by_side, sides, verdict
from lab.classroom.predict import check
from lab.kernel.scenario import run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import GateDecision, HumanAsked, ToolCallSeen, ToolExecuted

LANG = "zh"

# %% [markdown]
# ## §8 教学版旁边的生产版 / The course beside production
#
# `Switches.course()` 是固定提交（f9e8b28）的课程：每个开关都写着课程的取值和理由，这张表从开关本身读出来。
# `Switches.course()` is the course as pinned; each switch carries the course's value and why.

# %%
course_view(LANG)

# %% [markdown] tags=["skip-in-class"]
# `lab compare course` 把教学版开关拨动的每个实验在两边都跑一遍。这里是其中一个：钩子语义（D12），两边并排。
# 教学版一栏用的是教学版自己的一切：它的开关、它 s03 的规则、它的四个事件五个回调
# （`as_the_course`），不是实验自带的规则。
# `lab compare course` runs every experiment whose switch the course flips; here is one of them. The
# course's column is the course as it is: its switches, its s03 rules, its four events and five
# callbacks (`as_the_course`), not the experiment's own rules.

# %% tags=["skip-in-class"]
d12 = experiment("D12")
reference, course = run_scenario(d12.scenario, Switches()), as_the_course(d12.scenario)
side_by_side(reference, course, sides(LANG), [1], LANG)

# %% [markdown]
# ## §10 四条批判性边界 / The four critical boundaries
#
# > 1. 「加一个工具只改两处」不可外推。第三处签名契约是隐含的；产品侧的工具注册代价没有任何公开证据
#
# *"Adding a tool touches two places" does not extrapolate: the third, the signature contract, is
# implicit.* — 运行代码 / by running code (D8; §12-2 below runs the course's side):

# %%
verdict(outcome("D8"), LANG)

# %% [markdown]
# > 2. 闸门的字符串匹配不是安全边界。课程自己说明那张表只用来说明闸门位置、不能视为安全边界【二】；官方对产品
# > 也是同口径：shell 规则匹配的是模型写出的命令文本，同一程序换种写法即失配……需要不依赖命令文本的强制，应交给
# > 权限系统与系统级沙箱。
#
# *String matching at the gate is no security boundary.* — 运行代码 / by running code (D28): four
# removals of files outside the workspace, each spelled differently, against command-text rules:
# the prefix rule `Bash(rm *)` judged part by part, plus the course's substring deny list and its
# ask rule on `"rm "`. 规则拦下了其中两条（`/bin/rm` 和 `bash -c 'rm …'` 都含 `"rm "`，命中询问规则，人答了
# 「不」）；`&&` 后面的 `find -delete` 和藏在变量里的 `rm` 过了所有规则。The rules catch two (both hold
# `"rm "`, meet the ask rule, and the human says no); `find -delete` after `&&` and a variable
# holding `rm` pass every rule. 每条命令的门禁裁决，从运行里读出 / each command's gate decision, read
# off the run without the sandbox:

# %% tags=["skip-in-class"]
d28 = outcome("D28")
commands = {e.call_id: e.input["command"] for e in d28.after.trace.of(ToolCallSeen)}
gates = {e.call_id: f"{e.gate} → {e.decision}" for e in d28.after.trace.of(GateDecision)}
{commands[call]: gates[call] for call in commands}

# %% [markdown] tags=["skip-in-class"]
# 只有沙箱兜住了另外两条：不管规则怎么说，工作区外一律不可写。左边是参考实现（有沙箱），右边没有沙箱。
# Only the sandbox holds the other two: whatever the rules say, nothing outside the workspace is
# writable. Left, the reference harness (sandboxed); right, no sandbox.

# %% tags=["skip-in-class"]
sandboxed = "参考实现（有沙箱）" if LANG == "zh" else "reference harness (sandbox)"
side_by_side(d28.before, d28.after, (sandboxed, "shell_sandbox=False"), [1], LANG)

# %% tags=["skip-in-class"]
verdict(d28, LANG)

# %% [markdown]
# > 3. 引入机制可能放松既有约束。权限管线落地的同时，文件工具的硬路径边界被拆除（五处调用清零）——评价新机制要
# > 看净效应，不能只数加了什么、不数拆了什么。
#
# *Introducing a mechanism can loosen an existing constraint.* 这一条就是本章的验收问题 3，下面 §12-3 运行代码
# 作答。It is the seed's acceptance question 3, answered by running code in §12-3 below.
#
# > 4. 两套 harness 分解不同构。课程把 harness 拆成五元（工具、知识、观测、行动接口、权限），官方术语表是三元
# > （工具、上下文管理、执行环境）加能力清单——课程的「权限」在官方口径里只是能力之一。引用时必须并列标注并以
# > 官方为准。
#
# *The two decompositions are not isomorphic; cite them side by side, the official one as the
# reference.* 两边并列，各注出处，不逐项对应——本章说二者「不同构」，一边的某一项在另一边没有对应项。A
# terminology comparison, not something code can demonstrate; the two lists stand side by side,
# not mapped item to item:
#
# | 课程的五元（课程正文，经本章 §10-4） / the course's five | 官方术语表：三元加能力清单【二】（经本章 §10-4，以此为准） / the official glossary's three, plus a list of capabilities |
# |---|---|
# | 工具、知识、观测、行动接口、权限 / tools, knowledge, observation, action interface, permissions | 工具、上下文管理、执行环境；另列能力清单，课程的「权限」在这里只是能力之一 / tools, context management, execution environment; a separate list of capabilities, where the course's "permissions" is one capability among others |

# %% [markdown]
# ## §12 验收问答——运行代码作答 / The acceptance questions, answered by running code
#
# 本章的四个验收问题，每一个都由代码作答：先写预测，再运行。The seed's four acceptance questions, each
# answered by the lab's runs: predict first, then run.
#
# ### §12-1　为什么续轮判据要看内容块，不看停止标记？ / Why read the content, not the stop marker?
#
# 三件事，三次运行。其一，声明会滞后于事实：D1 里有一轮声明 `end_turn`，内容块里却已排着活（笔记本 01 的
# M1.1）。其二，教学版按什么判定？把 D1 的对话放到 `Switches.course()` 下，看它执行了哪些调用。其三，信标记的
# 版本会怎样——先预测。
# Three points, three runs: the declaration lags (D1, notebook 01's M1.1); what the course judges
# by (D1's conversation under `Switches.course()`: which calls does it run?); and what the loop
# that trusts the marker does — predict first.

# %%
d1 = outcome("D1")
course_d1 = as_the_course(d1.experiment.scenario)
{
    "Switches.course().trust_stop_reason": Switches.course().trust_stop_reason,
    ("教学版下执行了的调用" if LANG == "zh" else "calls run under the course"): [
        e.call_id for e in course_d1.trace.of(ToolExecuted)
    ],
}

# %% [markdown]
# **问题 A.1 / Question A.1.** 在本章的 D1 里，信停止标记的循环丢了几件活？ In the chapter's D1, how many
# calls does the loop that trusts the stop marker lose? *(一个整数 / an integer)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("A.1", prediction, LANG)

# %% [markdown] tags=["skip-in-class"]
# 本章的答案 / The seed's answer:
#
# > 停止标记是声明，内容块是事实；流式输出下声明会滞后于事实【三，带归属：课程作者拆过闭源源码后指出】。仓库固定
# > 提交四章全部按内容块判定【一】；原型 D1 实测：信标记的版本会在标记失真的那一轮提前收工，丢掉已排好的活。

# %%
side_by_side(d1.before, d1.after, (sides(LANG)[0], "trust_stop_reason=True"), [2], LANG)

# %% [markdown]
# ### §12-2　加一个工具到底要改几处？ / How many places does adding a tool touch?
#
# **问题 A.2 / Question A.2.** 加一个能用的工具，一共有几处必须写对？ For a new tool to work, how many
# places must be right? *(一个整数 / an integer)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("A.2", prediction, LANG)

# %% [markdown] tags=["skip-in-class"]
# 本章的答案 / The seed's answer:
#
# > 显式两处（schema 一条、处理函数映射一行）＋隐式一处：处理函数形参名必须与 schema 属性名逐字一致，否则按
# > 关键字展开的调用直接失败【一】。
#
# 运行代码：D8 的工具两处都登记了，名字却对不上（schema 写 `file_path`，函数收 `path`）。参考实现在注册时就拒绝它；
# 教学版不检查，按关键字展开的调用在第一次调用时直接失败，运行就此崩溃。
# By running code: D8's tool is entered in both places, but its names disagree. The reference
# harness refuses it at registration; the course does not check, and the keyword call fails the
# first time it runs, ending the run.

# %%
d8 = outcome("D8")
course_d8 = as_the_course(d8.experiment.scenario)
ends_view(zip(sides(LANG), (d8.before, course_d8), strict=True), LANG)

# %% [markdown]
# ### §12-3　引入权限管线时，教学版发生了什么「倒退」？ / What regressed when the course added the gates?
#
# **问题 A.3 / Question A.3.** 教学版（`Switches.course()`）下读 `/etc/passwd`，挡在前面的是什么：墙，还是
# 一句问人？ Under the course preset, what stands in front of a read of `/etc/passwd`: the wall,
# or a question? *(墙、问一句、什么都没有 / wall / question / nothing)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("A.3", prediction, LANG)

# %% [markdown] tags=["skip-in-class"]
# 本章的答案 / The seed's answer:
#
# > 文件工具原有的工作区硬边界（越界直接报错）被整体拆除，越界降级为「问一下用户」——硬墙变成了对讲机。教训是
# > 评价新机制要看净效应：门禁加上了，墙却拆了。
#
# 运行代码，看净效应：同一次越界读取，参考实现（有墙）和教学版（固定提交 f9e8b28 的 s03，墙已拆）并排。这次回放里
# 的人答了 `y`，教学版就把 `/etc/passwd` 读给了模型。
# By running code, the net effect: the same read, the reference harness (the wall) beside the
# course as pinned (s03 at f9e8b28, no wall). The human in this replay answers `y`, and the course
# hands `/etc/passwd` to the model.

# %%
d10 = outcome("D10")
course_d10 = as_the_course(d10.experiment.scenario)
side_by_side(d10.before, course_d10, sides(LANG), [1], LANG)

# %% [markdown]
# ### §12-4　为什么说钩子「只能收紧，不能放松」？ / Why can hooks only tighten, never loosen?
#
# 四次运行：钩子的放行遇上拒绝规则（D15，先预测）、遇上询问规则；阻断钩子遇上放行规则（D24）；钩子一言不发
# （D25）。Four runs: a hook's allow against a deny rule (D15, predict first) and against an ask
# rule; a blocking hook against an allow rule (D24); a hook that says nothing (D25).
#
# **问题 A.4 / Question A.4.** 钩子对 `rm -rf src` 说 allow、拒绝规则覆盖 `rm`：参考实现里丢了几个文件？
# A hook says allow, a deny rule covers `rm`: how many files does the reference harness lose?
# *(一个整数 / an integer)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("A.4", prediction, LANG)

# %% [markdown] tags=["skip-in-class"]
# 本章的答案 / The seed's answer:
#
# > 官方口径：钩子放行绕不过拒绝/询问规则；而阻断型钩子在权限求值之前就停住调用，压得过放行规则【二】。要硬性
# > 放行或拒绝，官方指定用权限系统，钩子沉默也不等于批准。
#
# 询问规则也一样：把 D15 的拒绝规则换成一条询问规则，人答「不」。钩子说了 allow，参考实现照样问人。
# An ask rule too: D15 with its deny rule turned into an ask rule, and a human who says no. The
# hook said allow; the reference harness still asks.

# %%
d15 = outcome("D15")
asks_instead = replace(
    d15.experiment.scenario, permissions=Permissions(ask=["Bash(rm *)"]), human=["n"]
)
hook_allow_vs_ask = run_scenario(asks_instead, Switches())
[(e.question, e.answer) for e in hook_allow_vs_ask.trace.of(HumanAsked)]

# %% [markdown] tags=["skip-in-class"]
# 阻断钩子压过放行规则（D24），钩子沉默不等于批准（D25）：
# A blocking hook beats an allow rule (D24); hook silence is not approval (D25):

# %% tags=["skip-in-class"]
verdict(outcome("D24"), LANG)

# %% tags=["skip-in-class"]
verdict(outcome("D25"), LANG)
