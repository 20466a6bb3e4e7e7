"""The course's own rule set (s03 at the pinned commit), and which course facts hold only there.

The course (learn-claude-code s01-s04, pinned at f9e8b28) is its switches (`Switches.course()`)
and its rules: this module is the rules, in one place (lab/harness/permissions.py builds the
gates from them: `course_permissions()`). `lab compare course` runs every experiment under
both, so a row that holds only because an experiment brought rules of its own says so.

s03's `check_permission`, as the lab reads it:
  gate one    the hard deny list: substrings of a bash command, and of bash only
              (`if block.name == "bash"` around it);
  gate two    two rules, each turned into a question: a file tool's path outside the
              workspace, or a bash command holding "rm ", "> /etc/" or "chmod 777";
  gate three  the question, `Allow? [y/N]`: only y / yes allows.
No rule matched: the call runs and nobody is asked (the course has no default question).
These are s03's rules at the pinned commit; other revisions differ (s03 at 195ac6f asks about
write_file and edit_file outside the workspace, not read_file, and its file tools keep safe_path).
"""

from __future__ import annotations

from lab.kernel.switches import switch_info, switch_names

PINNED = "f9e8b28"  # the commit the seed measured (shareAI-lab/learn-claude-code)

# Gate one: s03's hard deny list (s04 drops "> /dev/sda"; the seed calls such counts
# revision drift and states them only qualitatively).
DENY_LIST = ("rm -rf /", "sudo", "shutdown", "reboot", "mkfs", "dd if=", "> /dev/sda")
# Gate two: the two rules, by the text the course prints when one matches.
OUTSIDE = "Writing outside workspace"
OUTSIDE_TOOLS = ("read_file", "write_file", "edit_file")  # a path outside the workspace: ask
DESTRUCTIVE = "Potentially destructive command"
DESTRUCTIVE_TEXTS = ("rm ", "> /etc/", "chmod 777")  # a bash command holding one: ask
# What a denied call gets as its tool_result (the pairing obligation).
DENIAL = "Permission denied."

# A switch's course note starts with this when its course value holds at the pinned commit
# only: other revisions of the same chapter do otherwise.
REVISION_MARK = "revision-dependent:"


def revision_dependent() -> dict[str, str]:
    """The switches whose course value holds at the pinned commit only, with their notes."""
    notes = {name: switch_info(name)["course_why"] for name in switch_names()}
    return {name: note for name, note in notes.items() if note.startswith(REVISION_MARK)}
