"""The simulated world: virtual disk, simulated shell, virtual clock and the course's tools."""

from lab.world.fs import Changes, VirtualFS
from lab.world.sandbox import Sandbox
from lab.world.shell import COMMAND_SECONDS, Shell, ShellResult
from lab.world.shell_commands import is_read_only
from lab.world.shell_parsing import split_commands
from lab.world.toolbox import TOOL_SECONDS, NoWall, WorkspaceWall, course_tools
from lab.world.world import VirtualClock, World

__all__ = [
    "COMMAND_SECONDS",
    "Sandbox",
    "TOOL_SECONDS",
    "Changes",
    "Shell",
    "NoWall",
    "ShellResult",
    "VirtualClock",
    "VirtualFS",
    "World",
    "WorkspaceWall",
    "course_tools",
    "is_read_only",
    "split_commands",
]
