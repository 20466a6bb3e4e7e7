"""Hypothesis strategies for whole scripted conversations and everything around them: one name
for what lives in five rooms, each named for its job.

    pools.py            the small ordered tables every choice is drawn from, harmless first
    weighted.py         `weighted`: one_of with weights, shrinking towards the first option
    conversations.py    shell commands, paths, tool calls, turns and whole scripts
    api_faults.py       the API's faults met by a script's turns
    generated_cases.py  rule sets, the human, hooks, tools, files: whole generated cases
    focus.py            cases that thicken one mechanism's ingredients (the kill matrix's)

Every choice is drawn from a small, ordered table whose first entry is the harmless one, so
hypothesis shrinks a counterexample towards `bash ls`, no rules, no hooks: what is left is
only what the failure needs.
"""

from __future__ import annotations

from lab.testing.api_faults import FAULTS, fault_names, faulty_scripts, met_by
from lab.testing.conversations import (
    bash_calls,
    big_reads,
    compound_commands,
    final_turns,
    odd_calls,
    path_calls,
    paths,
    read_calls,
    scripts,
    shell_commands,
    simple_commands,
    tool_calls,
    tool_turns,
    valid_calls,
)
from lab.testing.focus import (
    FOCUS,
    check_cases,
    cut_cases,
    dispatch_cases,
    fault_cases,
    focused_cases,
    gate_cases,
    hook_cases,
    loop_cases,
    path_rule_cases,
    shell_rule_cases,
)
from lab.testing.generated_cases import (
    cases,
    file_sets,
    hook_names,
    hook_sets,
    human_answers,
    humans,
    permissions,
    rule_sets,
    scenarios,
    tool_names,
)
from lab.testing.pools import DENY_LIST
from lab.testing.weighted import weighted

__all__ = [
    "DENY_LIST",
    "FAULTS",
    "FOCUS",
    "bash_calls",
    "big_reads",
    "cases",
    "check_cases",
    "compound_commands",
    "cut_cases",
    "dispatch_cases",
    "fault_cases",
    "fault_names",
    "faulty_scripts",
    "file_sets",
    "final_turns",
    "focused_cases",
    "gate_cases",
    "hook_cases",
    "hook_names",
    "hook_sets",
    "human_answers",
    "humans",
    "loop_cases",
    "met_by",
    "odd_calls",
    "path_calls",
    "path_rule_cases",
    "paths",
    "permissions",
    "read_calls",
    "rule_sets",
    "scenarios",
    "scripts",
    "shell_commands",
    "shell_rule_cases",
    "simple_commands",
    "tool_calls",
    "tool_names",
    "tool_turns",
    "valid_calls",
    "weighted",
]
