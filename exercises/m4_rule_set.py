"""M4 门禁 · Write the rule set for the gates.

门口三道门禁按固定次序开：硬拒绝 → 需询问 → 放行，先匹配到哪一档就按哪一档办。

要求：这个项目里模型会列目录、读文件、想删东西（也会藏在 `ls && rm ...` 这样的复合命令里），
还会改一个文件；被问到的人对一切都说不。想要的是：列目录和读文件不用问就执行，什么都删不掉，改文件要问。
规则长这样："Bash(ls *)"、"Bash"、"Read(./docs/**)"、"Write"、"Edit(src/**)"。
检查：lab check m4_rule_set

In this project the model will list and read files, try to delete things (also inside compound
commands such as `ls && rm ...`) and change a file; the human it asks says no to everything.
Wanted: listing and reading run without a question, nothing is ever deleted, changing a file asks.
Rules look like "Bash(ls *)", "Bash", "Read(./docs/**)", "Write", "Edit(src/**)".
Check with: lab check m4_rule_set
"""

from lab.harness.permissions import Permissions

RULES = Permissions(allow=["Bash"])
