"""M4 门禁 · Write the rule set for the gates.

门口三道门禁按固定次序开：硬拒绝 → 需询问 → 放行，先匹配到哪一档就按哪一档办。

In this project the model will list and read files, try to delete things (also inside compound
commands such as `ls && rm ...`) and change a file; the human it asks says no to everything.
Wanted: listing and reading run without a question, nothing is ever deleted, changing a file asks.
Rules look like "Bash(ls *)", "Bash", "Read(./docs/**)", "Write", "Edit(src/**)".
Check with: lab check m4_rule_set
"""

from lab.harness.permissions import Permissions

RULES = Permissions(allow=["Bash"])
