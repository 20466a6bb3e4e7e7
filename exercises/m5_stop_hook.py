"""M5 插线口 · A Stop hook that asks for one more pass, then lets go.

退出事件的钩子若返回非空，就把循环拽回去再跑一轮——收工可以被插线口否决。一个总是否决的钩子会
让传送带停不下来。

要求：模型每次回答里没有工具调用时，都会调用 double_check(payload)。返回
{"decision": "block", "reason": "..."} 就把循环拽回去再转一轮，返回 None 就让它停下。
想要的是：再检查一遍，然后循环自己停下（而不是 harness 放弃了才停）。
检查：lab check m5_stop_hook

double_check(payload) is called each time the model answers without a tool call. Return
{"decision": "block", "reason": "..."} to send the loop round again, or None to let it stop.
Wanted: one more pass, then the loop stops by itself (not because the harness gave up).
Check with: lab check m5_stop_hook
"""


def double_check(payload):
    return {"decision": "block", "reason": "Double-check your work before stopping."}
