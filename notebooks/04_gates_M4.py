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
# # 04 · M4 门禁：权限，和工作区的墙 / The permission gates, and the workspace wall
#
# > **类比**　门口三道门禁按固定次序开：第一道是焊死的铁门（硬拒绝），第二道是对讲机（问一下），第三道才
# > 是敞开的门。先碰到哪道就按哪道办——铁门永远排在可以对讲的那道前面。（本章 §6）
#
# > **顺序不变式**　硬拒绝 → 需询问 → 放行，先匹配到哪一档就按哪一档办，规则写得多细都不改变先后。……
# > 一条宽的拒绝规则会盖住更窄的放行规则，放行无法在拒绝上开洞【二】。因果在于：拒绝是不可协商的，同意是
# > 可协商的；若把可协商的排前面，一句「同意」就能把整张拒绝表架空。（本章 §6）
#
# > 教学版的三条实测细节【一】……硬拒绝表只对 shell 工具生效……引入权限管线的同时，撤掉了文件工具原有的硬边界。
# > ……装门禁那天，原来那堵墙被换成了一句问话——这是「引入机制反而放松了约束」的最干净的样本。
#
# *Analogy.* Three gates open in a fixed order: a welded iron door (deny), an intercom (ask), the
# open door (allow). *Invariant.* deny → ask → allow, first match decides; an allow cannot punch a
# hole in a deny 【二】. When the course added the gates (s03) its file tools lost the workspace
# wall 【一】: the wall became an intercom.

# %%
from lab.harness.permissions import Gates, course_permissions
from lab.notebook import Pair, Stepper, code, experiment, outcome, side_by_side, sides, verdict
from lab.classroom.predict import check

LANG = "zh"

# %% [markdown]
# ## 代码 / The code

# %%
code(Gates.judge, Gates.first_gate, highlight="for gate in self.order.gates")

# %% [markdown] tags=["skip-in-class"]
# 教学版的门禁（s03）：只对 bash 生效的子串拒绝表，两条询问规则，一个 y/N。
# The course's gates: a bash-only substring deny list, two ask rules, a y/N.

# %% tags=["skip-in-class"]
code(course_permissions)

# %% [markdown]
# ## 一次走一轮（D4）/ One turn at a time (D4)
#
# 「整理一下构建产物」。模型先列文件，然后想彻底清理：`rm -rf /`。这次回放里的人无人值守，对什么都答 `y`。
# "Tidy up the build output": the model lists the files, then wants `rm -rf /`. The human in this
# replay is unattended and answers `y` to anything.
#
# **问题 M4.1 / Question M4.1.** 参考实现里，哪一道门拦下 `rm -rf /`？ Which gate stops it?
# *(硬拒绝、需询问、放行 / deny / ask / allow)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
from IPython.display import display

door = Stepper(experiment("D4").scenario, lang=LANG)
for _ in range(3):  # every turn shown: turn 2 is where a gate decides on `rm -rf /`
    display(door.step())

# %%
check("M4.1", prediction, LANG)

# %% [markdown]
# ## 拨动开关：人工审批先于硬拒绝表 / Flip the switch: the human before the deny list
#
# **问题 M4.2 / Question M4.2.** 门禁顺序倒置（人工审批先于硬拒绝表）、人答了「y」：拒绝表上的 `rm -rf /`
# 执行了吗？ With the human asked before the deny list, and an unattended 'y': does the
# deny-listed `rm -rf /` run? *(是、否 / True / False)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
pair = Pair.of(experiment("D4"), lang=LANG)
pair.step()
pair.step()
pair.step()

# %%
check("M4.2", prediction, LANG)

# %%
verdict(outcome("D4"), LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 硬拒绝只管 shell（D26）/ The deny list guards bash only (D26)
#
# > 教学版的三条实测细节【一】……1. 硬拒绝表只对 shell 工具生效：第一道闸门被「仅当工具是 bash」包住，文件类工具
# > 越界只会落到第二道闸门，变成「问一下」。同一道门禁，不是对所有活都开。（本章 §6）
#
# 拒绝规则同时覆盖 `rm` 和改写 `.env`。模型先 `rm .env`，再换文件工具 `write_file` 改写 `.env`；人照旧对什么
# 都答 `y`。参考实现的拒绝对每个工具都生效；`deny_rules_cover_every_tool=False` 是教学版的样子：拒绝只对
# bash 查，文件工具落到「问一下」，一声 `y` 就写了进去。（教学版自己的拒绝表里没有 `.env` 这一条：这里的规则是
# 实验的，机制是教学版的。）
#
# The deny rules cover `rm` and rewriting `.env`. The model tries `rm .env`, then rewrites `.env`
# with the file tool; the human still answers `y`. In the reference harness a deny rule binds
# every tool; with `deny_rules_cover_every_tool=False`, the course's way, the deny list is checked
# for bash only and the file tool falls through to a question that one `y` answers. (The rules
# are the experiment's: the course's own deny list has no `.env` entry; the mechanism is the
# course's.)

# %% tags=["skip-in-class"]
d26 = outcome("D26")
side_by_side(
    d26.before, d26.after, (sides(LANG)[0], "deny_rules_cover_every_tool=False"), [2], LANG
)

# %% tags=["skip-in-class"]
verdict(d26, LANG)

# %% [markdown]
# ## 墙（D10）/ The wall (D10)
#
# 模型读 `/etc/passwd`。参考实现保留了工作区的墙；`workspace_wall=False` 是固定提交（f9e8b28）的教学版 s03
# 的样子：文件工具不再调用 `safe_path`。The model reads `/etc/passwd`; the reference keeps the
# workspace wall, `workspace_wall=False` is the course's s03 as pinned (f9e8b28): its file tools
# no longer call `safe_path`.
#
# **问题 M4.3 / Question M4.3.** 有墙时，这次读取在哪一道扫码口被挡下？ With the wall, at which stage?
# *(一个阶段名：号码簿查名、结构校验、工具自校验、前置钩子、权限判定 / a stage name)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("M4.3", prediction, LANG)

# %%
d10 = outcome("D10")
side_by_side(d10.before, d10.after, (sides(LANG)[0], "workspace_wall=False"), [1], LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 复合命令（D11）/ Compound commands (D11)
#
# 一条 `ls && rm -rf src`：整串匹配时，放行规则 `Bash(ls *)` 把整条命令放了过去；逐段判定时，`rm` 那一段命中拒绝。
# Matched as one string, the allow rule `Bash(ls *)` lets the whole line through; judged part by
# part, the `rm` part meets the deny rule. 字符串匹配不是安全边界（笔记本 09，§10-2）。

# %% tags=["skip-in-class"]
d11 = outcome("D11")
side_by_side(d11.before, d11.after, (sides(LANG)[0], "split_compound_commands=False"), [1], LANG)

# %% [markdown] tags=["skip-in-class"]
# ### 启动告警：横跨操作符的规则被忽略 / The start-up warning: a rule across an operator is ignored
#
# > 官方对产品也是同口径：shell 规则匹配的是模型写出的命令文本，同一程序换种写法即失配，官方甚至对会被复合命令绕过的写法直接忽略并在启动时告警【二】。
#
# 运行代码（本实验室对这句话的建模）：参考实现逐段判定复合命令，所以写成横跨 `|` 的拒绝规则 `Bash(* | sh)` 哪一段
# 都匹配不上。它不假装生效：harness 启动时（第 0 轮，第一次调用模型之前）告警并忽略它。模型的 `echo ls | sh`
# 照样执行：文本规则不是边界，边界是沙箱（D28）。
#
# By running code (the lab's model of this sentence): the reference judges a compound command part
# by part, so a deny rule written across `|`, `Bash(* | sh)`, can match no part. It does not pretend
# to work: the harness warns and ignores it at start-up (turn 0, before the first model call). The
# model's `echo ls | sh` still runs: a text rule is no boundary, the sandbox is (D28).

# %% tags=["skip-in-class"]
from lab.harness.permissions import Permissions
from lab.model import text, tool_use, turn
from lab.notebook import turn_view
from lab.kernel.scenario import Scenario, run_scenario

piped = Scenario(
    [turn(tool_use("bash", {"command": "echo ls | sh"})), turn(text("ok"))],
    files={"notes.txt": "keep me\n"},
    permissions=Permissions(deny=["Bash(rm *)", "Bash(* | sh)"]),
)
turn_view(run_scenario(piped), LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 规则写得多细都不改变先后 / Specificity never reorders the gates
#
# > 规则写得多细都不改变先后
#
# 运行代码：一条宽的拒绝规则 `Bash(rm *)`，一条窄得多的放行规则 `Bash(rm notes.txt)`，恰好点名这次要删的文件。
# 窄的放行排不到宽的拒绝前面：拒绝先判定，文件还在。
# By running code: a broad deny `Bash(rm *)` and a far narrower allow `Bash(rm notes.txt)` naming
# the very file. The narrower allow does not jump the broad deny: deny decides, the file stays.

# %% tags=["skip-in-class"]
from lab.harness.permissions import Permissions
from lab.model import text, tool_use, turn
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.trace import GateDecision

narrow = Scenario(
    [turn(tool_use("bash", {"command": "rm notes.txt"})), turn(text("ok"))],
    files={"notes.txt": "keep me\n"},
    permissions=Permissions(deny=["Bash(rm *)"], allow=["Bash(rm notes.txt)"]),
)
run = run_scenario(narrow)
[(e.gate, e.decision) for e in run.trace.of(GateDecision)], run.world.fs.exists("notes.txt")

# %% [markdown]
# ## 口播落点 / Takeaway
#
# > **不可协商的拒绝，必须排在可协商的同意前面。**
# > The non-negotiable deny comes before the negotiable yes.
#
# **练习 / Exercise:** `lab check m4_rule_set` — 为门禁写一套规则。
