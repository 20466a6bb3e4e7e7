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
# # 05 · M5 插线口：钩子 / The hook sockets
#
# > **类比**　传送带边留了一排插线口，每种活的前后都能插装置。装置按插上的顺序依次通电，第一个说「停」的
# > 就地断电——后面的装置这一趟就不跑了。插线口能加装置，换不了传送带的锁芯。（本章 §7）
#
# > **不变式**　事件名 → 回调列表，按注册顺序逐个调用，第一个返回非空的就地短路。前置事件返回非空＝拦下
# > 这次工具调用；退出事件返回非空＝把循环拽回去再跑一轮；另两类事件（输入提交、执行后）的返回值在调用方被
# > 丢弃【一】。
#
# > **安全不变量**（官方口径，比「钩子能拦」重要得多）【二】：官方权限文档明写钩子的决定不能绕过权限规则——
# > 钩子放行，拒绝规则照样拦、询问规则照样问；反向却成立——一个以阻断方式退出的钩子在权限规则求值之前就把调用
# > 停住，因此它压得过放行规则。合起来是一条干净的对称不变量：插线口只能收紧，不能放松。官方还直接建议：要硬性
# > 放行或拒绝，用权限系统而不是钩子；并且「钩子沉默不等于批准」。
#
# *Analogy.* A row of sockets beside the belt; in the course the devices power up in plug order and
# the first that says "stop" cuts the rest. *Invariant (course 【一】).* Callbacks in registration
# order, the first non-None result short-circuits; UserPromptSubmit and PostToolUse results are
# thrown away. *Safety invariant (official 【二】).* A hook's allow never gets past a deny or ask
# rule, a blocking hook beats an allow rule: sockets can only tighten. The reference harness here
# runs every hook and merges deny > ask > allow.

# %%
from lab.harness.hooks import Sockets
from lab.notebook import Pair, Stepper, code, experiment, outcome, side_by_side, sides, timeline, verdict
from lab.classroom.predict import check

LANG = "zh"

# %% [markdown]
# ## 代码 / The code
#
# `fire` 调用一个事件的回调；开关决定第一个回答是否短路。`fire` runs one event's callbacks.

# %%
code(Sockets.fire, highlight="self.semantics")

# %% [markdown] tags=["skip-in-class"]
# 退出插线口和它的防护 / The Stop socket, with its guard:

# %% tags=["skip-in-class"]
code(Sockets.stop, highlight="guard")

# %% [markdown]
# ## 审计日志（D12）/ The audit log (D12)
#
# 一个审计钩子记录它见到的每个调用，旁边是针对 `rm` 和 `sudo` 的拒绝规则。模型先列文件，再试两次删除。
# An audit hook records every call it sees, beside deny rules for `rm` and `sudo`.
#
# **问题 M5.1 / Question M5.1.** 教学版钩子语义下，审计钩子见到了哪些调用？
# Under the course's hook semantics, which calls does the audit log see? *(调用编号的列表 / a list
# of call ids such as ["toolu_001"])*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
sockets = Stepper(experiment("D12").scenario, lang=LANG)
sockets.step()
sockets.step()

# %%
pair = Pair.of(experiment("D12"), lang=LANG)
pair.step()

# %%
check("M5.1", prediction, LANG)

# %% [markdown] tags=["skip-in-class"]
# D13 和 D14：执行后回调返回非空会静默跳过后面的同事件回调；「注入上下文」的输入提交回调什么也没注入——
# 两次运行在发给模型的第一条消息上分道扬镳。
# D13: a PostToolUse result silently skips the later callbacks. D14: the "inject context" hook
# injects nothing — the runs part on the first message sent to the model.

# %% tags=["skip-in-class"]
d13 = outcome("D13")
side_by_side(d13.before, d13.after, (sides(LANG)[0], "course_hook_semantics=True"), [1], LANG)

# %% tags=["skip-in-class"]
d14 = outcome("D14")
side_by_side(d14.before, d14.after, (sides(LANG)[0], "course_hook_semantics=True"), [0], LANG)

# %% [markdown]
# ## 钩子只能收紧（D15）/ Hooks only tighten (D15)
#
# 一个图省事的钩子对每条 shell 命令都说 allow，同时有一条拒绝规则覆盖 `rm`。钩子的放行绕不过拒绝规则，是本章
# 引的官方口径【二】；只有「v2.1.77 之前，钩子的 allow 会跳过规则」（`hooks_may_loosen=True`）超出本章，出自公开
# 的缺陷报告。A hook's allow never gets past a deny rule: official, 【二】. Only the bug before
# v2.1.77, where it did (`hooks_may_loosen=True`), is beyond the seed (a public bug report).
#
# **问题 M5.2 / Question M5.2.** 钩子对 `rm -rf src` 说 allow，拒绝规则覆盖 `rm`：参考实现里哪一道门说了算？
# Who decides? *(硬拒绝、需询问、放行、钩子 / deny / ask / allow / hook)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("M5.2", prediction, LANG)

# %%
d15 = outcome("D15")
side_by_side(d15.before, d15.after, (sides(LANG)[0], "hooks_may_loosen=True"), [1], LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 反向成立：阻断钩子压过放行规则（D24）/ The other way: a blocking hook beats an allow rule (D24)
#
# 安全不变量的另一半：阻断型钩子在权限规则求值之前就把调用停住【二】。团队写了一个钩子，不许任何 shell 命令碰
# `src/`；规则里却有一条放行清理的 `Bash(rm *)`。模型执行 `rm -rf src`。参考实现先问钩子，钩子一拦就停；
# `hooks_before_rules=False` 把钩子排到规则之后（只有规则没有答案时才问它），放行规则先说了算，`src/` 没了。
#
# The other half of the safety invariant 【二】: a hook that blocks stops the call before the
# permission rules are read. The team's hook protects `src/`; an allow rule `Bash(rm *)` permits
# cleanups; the model runs `rm -rf src`. The reference harness asks the hook first and stops;
# with `hooks_before_rules=False` the hook is asked only when the rules have no answer, so the
# allow rule decides and `src/` is gone.

# %% tags=["skip-in-class"]
d24 = outcome("D24")
side_by_side(d24.before, d24.after, (sides(LANG)[0], "hooks_before_rules=False"), [1], LANG)

# %% tags=["skip-in-class"]
verdict(d24, LANG)

# %% [markdown]
# ## 钩子沉默不等于批准（D25）/ Hook silence is not approval (D25)
#
# 一个审计钩子记下每个调用，什么也不回答。没有任何规则放行 `rm`，所以参考实现照样问人，人答「不」。
# `silence_is_approval=True` 把钩子的沉默当成批准：不问人，`rm notes.txt` 直接执行。官方的建议就是本章那句
# 「钩子沉默不等于批准」：要硬性放行或拒绝，用权限规则，而不是钩子。
#
# An audit hook records every call and answers nothing. No rule allows `rm`, so the reference
# harness still asks the human, who says no. With `silence_is_approval=True` the hook's silence
# counts as approval: nobody is asked and `rm notes.txt` runs. To allow or deny for certain, use
# the permission rules, not a hook 【二】.

# %%
d25 = outcome("D25")
side_by_side(d25.before, d25.after, (sides(LANG)[0], "silence_is_approval=True"), [1], LANG)

# %% tags=["skip-in-class"]
verdict(d25, LANG)

# %% [markdown]
# ## 退出防护（D16）/ The Stop guard (D16)
#
# 一个退出钩子要求再检查一遍，并依靠 `stop_hook_active` 在第二次放手。
# A Stop hook asks for one more pass and relies on `stop_hook_active` to let go the second time.
#
# **问题 M5.3 / Question M5.3.** 有防护和没有防护时，各调用模型几次？（轮数上限是 12）
# How many model calls with and without the guard? The turn limit is 12. *(两个整数 / two integers)*

# %%
prediction = ...  # ✎ 你的预测 / your prediction

# %%
check("M5.3", prediction, LANG)

# %%
d16 = outcome("D16")
timeline(d16.after, "stop_hook_guard=False", LANG)

# %% tags=["skip-in-class"]
verdict(d16, LANG)

# %% [markdown] tags=["skip-in-class"]
# ## 一批调用之后：PostToolBatch / After a batch: PostToolBatch
#
# 本章【二】：官方钩子文档列有「一批并行工具调用全部完成后」触发的事件。运行代码：D19 的八次读取，参考实现装成一个托盘，
# PostToolBatch 触发一次；关掉托盘并行，八个托盘，触发八次。教学版的四个事件里没有它。
# Seed 【二】: the official hooks list an event fired once a batch of parallel calls is done. D19's
# eight reads: one tray and one PostToolBatch in the reference; eight trays, eight firings, with
# parallel batches off. The course's four events do not include it.

# %% tags=["skip-in-class"]
from dataclasses import replace

from lab.kernel.scenario import run_scenario
from lab.kernel.switches import Switches
from lab.kernel.trace import HookFired


def after_batch(payload):
    return None


d19 = experiment("D19").scenario
batch_hook = replace(d19, hooks=[("PostToolBatch", after_batch)])

def batches_seen(switches):
    fired = run_scenario(batch_hook, switches).trace.of(HookFired)
    return sum(1 for e in fired if e.event == "PostToolBatch")


{
    label: batches_seen(switches)
    for label, switches in (
        ("Switches()", Switches()),
        ("parallel_batches=False", Switches(parallel_batches=False)),
        ("Switches.course()", Switches.course()),
    )
}

# %% [markdown] tags=["skip-in-class"]
# ## 教学版与产品方向相反 / The course and production, the other way round
#
# > 教学版与产品在这里方向相反【三，课程作者拆过闭源源码后指出：产品里钩子是喂进权限管线的输入、从属于拒绝/询问规则——「权限实现成一个钩子」只是教学版的权宜】
#
# 运行代码：参考实现（产品的做法）里，权限是扫码链上自己的一段，钩子是喂给它的输入，排在它前面；教学版里权限只是前置
# 事件的第一个回调（`permission_hook`），链上没有权限这一段。
# By running code: in the reference (production's way) permission is a stage of its own and the
# hooks feed it; in the course permission is just the first PreToolUse callback.

# %% tags=["skip-in-class"]
from lab.cli.parts_command import assemble

for label, switches in (("Switches()", Switches()), ("Switches.course()", Switches.course())):
    built = assemble(switches, label)
    print(label, "·", " → ".join(built.chain), "· PreToolUse:", built.sockets["PreToolUse"])

# %% [markdown] tags=["skip-in-class"]
# ## 从 s03 到 s04：权限调用挪进钩子 / From s03 to s04: the permission call moves into a hook
#
# > s03 里权限还是循环体中的一行硬编码调用，s04 之后它只是前置事件回调列表里的第一项，和日志回调平级【一】。
#
# 运行代码：同一段脚本走两章的循环（`lab/chapter/course_steps.py`）。s03 在执行前点名 `check_permission`；s04 的执行步骤
# 只触发前置事件，权限是它的第一个回调，审计日志 `log_hook` 是第二个。两章拦下的调用一样、问人的次数一样，
# 但 s04 的审计日志里没有被拦下的那两次：短路让审计漏记（D12）。
#
# By running code: one script through both chapters' loops (`lab/chapter/course_steps.py`). s03 names
# `check_permission` before running a call; s04's step only fires PreToolUse, whose first callback
# is permission and second the audit log, `log_hook`. Both refuse the same calls and ask the human
# the same question, but s04's audit log misses the two refused calls: the short-circuit (D12).

# %% tags=["skip-in-class"]
from IPython.display import display

from lab.chapter.course_steps import run_course, s03_step, s04_step, trigger_hooks
from lab.model import text, tool_use, turn
from lab.notebook import course_run_view
from lab.world import World

code(s03_step, s04_step, trigger_hooks)

# %% tags=["skip-in-class"]
RISKY = [
    turn(
        tool_use("bash", {"command": "ls"}),
        tool_use("bash", {"command": "rm -rf src"}),
        tool_use("bash", {"command": "sudo reboot"}),
    ),
    turn(text("Listed; the other two were refused.")),
]
files = {"src/app.py": "print('hi')\n", "notes.txt": "keep me\n"}
s03 = run_course("s03", RISKY, World.create(files), human=["n"])
s04 = run_course("s04", RISKY, World.create(files), human=["n"])
display(course_run_view(s03, LANG))
course_run_view(s04, LANG)

# %% [markdown]
# ## 口播落点 / Takeaway
#
# > **插线口只能收紧，不能放松。**
# > Sockets can only tighten, never loosen.
#
# **练习 / Exercise:** `lab check m5_stop_hook` — 插一个要求再检查一遍、然后放手的退出钩子。
