"""M1 传送带 · Write a script that makes a loop trusting stop_reason lose work.

写一段模型脚本：参考实现的循环照样读到 report.md，而「信 stop_reason」的循环把读报告的那件活丢掉。
传送带看的是师傅手里，不是他嘴上说自己干没干完。

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
