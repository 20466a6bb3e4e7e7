"""M5 插线口 · A Stop hook that asks for one more pass, then lets go.

退出事件的钩子若返回非空，就把循环拽回去再跑一轮——收工可以被插线口否决。一个总是否决的钩子会
让传送带停不下来。

double_check(payload) is called each time the model answers without a tool call. Return
{"decision": "block", "reason": "..."} to send the loop round again, or None to let it stop.
Wanted: one more pass, then the loop stops by itself (not because the harness gave up).
Check with: lab check m5_stop_hook
"""


def double_check(payload):
    return {"decision": "block", "reason": "Double-check your work before stopping."}
