"""The course's own rule set (s03 at the pinned commit), and which course facts hold only there.

The course (learn-claude-code s01-s04, pinned at f9e8b28) has its switches (`Switches.course()`)
and its rules: this module is the rules, in one place. `lab compare course` runs every experiment
under both, so a row that holds only because an experiment brought rules of its own says so.

s03's `check_permission`, as the lab reads it:
  gate one  the hard deny list, substrings of a bash command (`if block.name == "bash"`);
  gate two  two rules: a file tool's path outside the workspace, or a bash command holding
            "rm ", "> /etc/" or "chmod 777", each turned into a question;
  gate three  the question, `Allow? [y/N]`: only y / yes allows.
No rule matched: the call runs, nobody is asked (the course has no default question).
These are s03's rules at the pinned commit; other revisions differ (s03 at 195ac6f asks about
write_file and edit_file outside the workspace, not read_file, and its file tools keep safe_path).
"""

from __future__ import annotations

from lab.harness.permissions import PATH_TOOLS, Permissions, Rule, command_of, contains
from lab.switches import switch_info, switch_names

PINNED = "f9e8b28"  # the commit the seed measured (shareAI-lab/learn-claude-code)

# Gate one: the hard deny list of s03 (s04 drops "> /dev/sda"; the seed calls such counts
# revision drift and states them only qualitatively).
DENY_LIST = ("rm -rf /", "sudo", "shutdown", "reboot", "mkfs", "dd if=", "> /dev/sda")
# Gate two: a bash command holding one of these is "Potentially destructive": ask.
DESTRUCTIVE = ("rm ", "> /etc/", "chmod 777")


def course_permissions() -> Permissions:
    """The course's s03 gates: a bash-only deny list, two ask rules, the y/N question."""
    outside = Rule(
        "Writing outside workspace",
        lambda name, input, world: (
            name in PATH_TOOLS
            and isinstance(input.get("path"), str)
            and not world.inside_workspace(input["path"])
        ),
    )
    destructive = Rule(
        "Potentially destructive command",
        lambda name, input, _world: (
            name == "bash" and any(s in command_of(input) for s in DESTRUCTIVE)
        ),
    )
    return Permissions(
        deny=contains(*DENY_LIST), ask=[outside, destructive], denial="Permission denied."
    )


# A switch's course note starts with this when its course value holds at the pinned commit
# only: other revisions of the same chapter do otherwise.
REVISION_MARK = "revision-dependent:"


def revision_dependent() -> dict[str, str]:
    """The switches whose course value holds at the pinned commit only, with their notes."""
    notes = {name: switch_info(name)["course_why"] for name in switch_names()}
    return {name: note for name, note in notes.items() if note.startswith(REVISION_MARK)}
