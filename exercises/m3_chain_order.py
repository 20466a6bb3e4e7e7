"""M3 扫码口 · Put the scanners of the chain of checks in order.

活件上机器前要过一排扫码口。越便宜、越不可协商的检查排越前面；「要不要问人」是唯一要付出人类时间
的一步。

要求：把扫码口排好次序。各段：known_tool（号码簿查名：名字在簿上吗？）、validation（结构校验：输入合
schema 吗？）、tool_check（工具自校验：文件存在吗？）、hooks（前置钩子：团队的 PreToolUse 钩子）、
permission（权限判定：门禁，可能要问人）。实验室自己的次序在 lab/harness/checks.py 里：
先别看，自己排。
检查：lab check m3_chain_order

The stages: known_tool (is the name in the number book?), validation (does the input fit the
schema?), tool_check (the tool's own check: does the file exist?), hooks (the team's PreToolUse
hooks), permission (the gates, which may ask the human). The lab's own order is in
lab/harness/checks.py: try it without looking first.
Check with: lab check m3_chain_order
"""

ORDER = ["known_tool", "permission", "hooks", "validation", "tool_check"]
