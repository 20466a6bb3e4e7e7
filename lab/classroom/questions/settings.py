"""What a notebook shows just before each question, in one clause per language: on the worksheet
a question stands without its notebook, so this is what makes it answerable on paper."""

from __future__ import annotations

from collections.abc import Mapping

# On the worksheet a question stands without its notebook: what the notebook shows just before
# it, in one clause, so that the question can be answered on paper (it never gives the answer).
SETTINGS: dict[str, Mapping[str, str]] = {
    id: {"zh": zh, "en": en}
    for id, zh, en in [
        ("M1.1", "D1，参考实现一轮一轮地走。", "D1, the reference loop, turn by turn."),
        ("M1.2", "", "D1: toolu_002 is cat report.md."),
        (
            "M1.3",
            "D1b：声明说 tool_use，内容里却没有调用。",
            "D1b: the declaration says tool_use, the content holds no call.",
        ),
        (
            "M2.1",
            "D8：一个工具的 schema 属性名和处理函数的形参不一致。",
            "D8: a tool whose schema names differ from its handler's parameters.",
        ),
        (
            "M2.3",
            "D18：同一个回答里先 rm notes.txt，再 cat notes.txt。",
            "D18: one answer asks for rm notes.txt, then cat notes.txt.",
        ),
        ("M3.1", "", "D9: the model sends two malformed calls."),
        (
            "M3.2",
            "D9：同样的调用，人对每个问题都答「y」。",
            "D9: the same calls; the human says 'y' to every question.",
        ),
        (
            "M3.3",
            "D17：结果有大小上限，超出的溢写到文件。",
            "D17: results are capped in size; the excess spills to a file.",
        ),
        (
            "M4.1",
            "D4：拒绝表上有 rm -rf /。",
            "D4: the model asks to run rm -rf /, which the deny list names.",
        ),
        (
            "M4.3",
            "D10：模型要读 /etc/passwd，在工作区之外。",
            "D10: the model reads /etc/passwd, outside the workspace.",
        ),
        (
            "M5.1",
            "D12：三次调用，权限钩子和审计钩子都挂在同一个事件上。",
            "D12: three calls; a permission hook and an audit hook on the same event.",
        ),
        ("M5.2", "", "D15: a hook says allow to rm -rf src; a deny rule covers rm."),
        ("M5.3", "D16：一个总是阻断的退出钩子。", "D16: a Stop hook that always blocks."),
        ("P.2", "D23：一次调用被权限拒绝。", "D23: one call is denied by the permission gates."),
        ("P.1", "D23：同一次被拒的调用。", "D23: the same denied call."),
        (
            "P.3",
            "D3：历史太长，按条裁剪。",
            "D3: the history is trimmed to fit, message by message.",
        ),
        (
            "H.1",
            "追猎找到一个用例：拨动某个开关后它打破了一条承诺。",
            "A hunt has found a case that breaks a promise under a flipped switch.",
        ),
        (
            "H.3",
            "杀伤矩阵：每个开关一行，参考实现也有一行。",
            "The kill matrix: a row per flipped switch, and one for the reference harness.",
        ),
        (
            "R.1",
            "P1s：回答里有 tool_use，声明却是 end_turn。",
            "P1s: the answer holds a tool_use but declares end_turn.",
        ),
        (
            "R.2",
            "tool runner 丢掉了内容里的那个调用。",
            "The tool runner dropped the call the content held.",
        ),
        ("R.3", "同一次 P1s 运行。", "The same P1s run."),
    ]
}
