"""M1 传送带 · Write a script that makes a loop trusting stop_reason lose work.

写一段模型脚本：参考实现的循环照样读到 report.md，而「信 stop_reason」的循环把读报告的那件活丢掉。
传送带看的是师傅手里，不是他嘴上说自己干没干完。

要求：模型被请去总结 report.md。改写 SCRIPT（模型按顺序给出的回答），使得
  - 参考实现照样读到 report.md，API 接受每一次请求；
  - Switches(trust_stop_reason=True) 的循环从来没读到它。
检查：lab check m1_lost_call

The model is asked to summarise report.md. Edit SCRIPT (the model's answers, in order) so that
  - the reference harness still reads report.md and the API accepts every request, and
  - a harness with Switches(trust_stop_reason=True) never reads it.
Check with: lab check m1_lost_call
"""

from lab.model import text, tool_use, turn

SCRIPT = [
    turn(text("Let me look around."), tool_use("bash", {"command": "ls"})),
    turn(text("Now the report."), tool_use("bash", {"command": "cat report.md"})),
    turn(text("Revenue is up 4% in Q3.")),
]
