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
# 种子 §8、§10 与 §12。The seed's §8, §10 and §12.
#
# > 教学版砍掉了什么、为什么砍了仍然成立——每条都是结构性结论。……一句话：教学版省掉的都是规模才逼出来的
# > 东西；留下的恰恰是任何规模下都不变的骨架——判据看事实、能力长在表里、检查有次序、扩展不进循环。
#
# *What the course leaves out is what only scale forces; what it keeps is the skeleton that holds
# at any scale: the criterion reads the fact, capabilities grow in the table, checks have an order,
# extensions stay out of the loop.*

# %%
from lab.notebook import course_view, experiment, outcome, side_by_side, verdict
from lab.predict import check
from lab.scenario import run_scenario
from lab.switches import Switches

LANG = "zh"

# %% [markdown]
# ## §8 教学版旁边的生产版 / The course beside production
#
# `Switches.course()` 是固定提交（f9e8b28）的课程：每个开关都写着课程的取值和理由，这张表从开关本身读出来。
# `Switches.course()` is the course as pinned; each switch carries the course's value and why.

# %%
course_view(LANG)

# %% [markdown]
# `lab compare course` 把教学版开关拨动的每个实验在两边都跑一遍。这里是其中一个：钩子语义（D12），两边并排。
# `lab compare course` runs every experiment whose switch the course flips; here is one of them.

# %%
d12 = experiment("D12")
side_by_side(
    run_scenario(d12.scenario, Switches()),
    run_scenario(d12.scenario, Switches.course()),
    ("reference harness", "Switches.course()"),
    [1],
    LANG,
)

# %% [markdown]
# ## §10 四条批判性边界 / The four critical boundaries
#
# > 1. 「加一个工具只改两处」不可外推。第三处签名契约是隐含的；产品侧的工具注册代价没有任何公开证据
#
# *"Adding a tool touches two places" does not extrapolate: the third, the signature contract, is
# implicit.* — 运行代码 / by running code (D8):

# %%
verdict(outcome("D8"), LANG)

# %% [markdown]
# > 2. 闸门的字符串匹配不是安全边界。课程自己说明那张表只用来说明闸门位置、不能视为安全边界【二】；官方对产品
# > 也是同口径：shell 规则匹配的是模型写出的命令文本，同一程序换种写法即失配……需要不依赖命令文本的强制，应交给
# > 权限系统与系统级沙箱。
#
# *String matching at the gate is no security boundary.* — 运行代码 / by running code: four
# removals spelled past the command-text rules (`find -delete` after `&&`, a variable holding `rm`,
# `/bin/rm`, `bash -c`), with and without the sandbox that refuses writes outside the workspace
# whatever the rules say (D28).

# %%
d28 = outcome("D28")
side_by_side(d28.before, d28.after, ("reference harness (sandbox)", "shell_sandbox=False"), [1], LANG)

# %%
verdict(d28, LANG)

# %% [markdown]
# > 3. 引入机制可能放松既有约束。权限管线落地的同时，文件工具的硬路径边界被拆除（五处调用清零）——评价新机制要
# > 看净效应，不能只数加了什么、不数拆了什么。
#
# *Introducing a mechanism can loosen an existing constraint.* — 运行代码 / by running code,
# question C.2 below.
#
# **问题 C.2 / Question C.2.** 在教学版（`Switches.course()`）下，读 `/etc/passwd` 被什么挡住：墙（wall），
# 还是一句问人（question）？ Under the course preset, what stands in the way of reading
# `/etc/passwd`: the wall or a question? *(wall / question / nothing)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("C.2", prediction, LANG)

# %% [markdown]
# > 4. 两套 harness 分解不同构。课程把 harness 拆成五元（工具、知识、观测、行动接口、权限），官方术语表是三元
# > （工具、上下文管理、执行环境）加能力清单——课程的「权限」在官方口径里只是能力之一。引用时必须并列标注并以
# > 官方为准。
#
# *The two decompositions are not isomorphic.* — 这一条是术语对照，不是代码能运行出来的论断（官方术语表）/
# a terminology comparison, not something code can demonstrate:
#
# | 课程五元 / course (five) | 官方三元 / official (three) + capabilities |
# |---|---|
# | 工具 tools | 工具 tools |
# | 知识 knowledge、观测 observation | 上下文管理 context management |
# | 行动接口 action interface | 执行环境 execution environment |
# | 权限 permissions | 能力之一 one of the capabilities |

# %% [markdown]
# ## §12 验收问答——运行代码作答 / The acceptance questions, answered by running code
#
# 种子的四个验收问题。每一个先写预测，再由代码算出答案。The seed's four acceptance questions; each
# answer below is computed by running the lab, not written down.
#
# **A.1　为什么续轮判据要看内容块，不看停止标记？** Why does the continue test read the content, not
# `stop_reason`? 运行代码：在种子的 D1 里，信停止标记的循环丢了几件活？ By running code: how many calls
# does the trusting loop lose in the seed's D1? *(一个整数 / an integer)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("A.1", prediction, LANG)

# %% [markdown]
# **A.2　加一个工具到底要改几处？** How many places does adding a tool touch? 运行代码：显式的两处，加上注册表
# 在 D8 里替你检查的那一处。 By running code: the explicit ones plus what the registry checks in D8.
# *(一个整数 / an integer)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("A.2", prediction, LANG)

# %% [markdown]
# **A.3　引入权限管线时，教学版发生了什么「倒退」？** What regressed when the course added the permission
# pipeline? 运行代码：教学版下读工作区外的文件，挡在前面的是什么？ By running code: under the course, what
# stands in front of a read outside the workspace? *(wall / question / nothing)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("A.3", prediction, LANG)

# %% [markdown]
# **A.4　为什么说钩子「只能收紧，不能放松」？** Why can hooks only tighten? 运行代码：钩子对 `rm -rf src`
# 说 allow、拒绝规则覆盖 `rm`，参考实现里丢了几个文件？ By running code: a hook says allow, a deny rule
# covers `rm`: how many files does the reference harness lose? *(一个整数 / an integer)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("A.4", prediction, LANG)
