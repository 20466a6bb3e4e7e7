"""M3 扫码口 · Put the scanners of the chain of checks in order.

活件上机器前要过一排扫码口。越便宜、越不可协商的检查排越前面；「要不要问人」是唯一要付出人类时间
的一步。

The stages: known_tool (is the name in the number book?), validation (does the input fit the
schema?), tool_check (the tool's own check: does the file exist?), hooks (the team's PreToolUse
hooks), permission (the gates, which may ask the human). The lab's own order is in
lab/harness/checks.py: try it without looking first.
Check with: lab check m3_chain_order
"""

ORDER = ["known_tool", "permission", "hooks", "validation", "tool_check"]
