"""M4's hard boundaries beside the gates: the workspace wall and the shell's sandbox.

Invariant: a wall refuses whatever a rule missed; a question to the human is no wall. The
course's s03 dropped the wall for a question (D10) and never had a sandbox (D28).
"""

from __future__ import annotations

from lab.kernel.tool import Tool
from lab.world import NoWall, WorkspaceWall, World, course_tools
from lab.world.toolbox import Wall


class WallUp:
    """The reference, s02's safe_path: the file tools reach only inside the workspace."""

    def wall(self, world: World) -> Wall:
        return WorkspaceWall(world)


class WallDown(WallUp):
    """D10, the course's s03: the file tools dropped safe_path and reach the whole disk;
    only a question to the human stands in the way."""

    def wall(self, world: World) -> Wall:
        return NoWall()


class Sandboxed:
    """The reference: bash writes only below the workspace, however the command is spelled."""

    sandbox = True


class Unsandboxed(Sandboxed):
    """D28, the course's subprocess.run(shell=True): a command the text rules fail to
    recognise (/bin/rm, bash -c, find -delete) writes anywhere on the disk."""

    sandbox = False


def walled_tools(
    world: World, wall: type[WallUp] = WallUp, shell: type[Sandboxed] = Sandboxed
) -> list[Tool]:
    """The course's five tools on `world`, behind the wall and in the sandbox chosen."""
    return course_tools(world, wall=wall().wall(world), sandbox=shell.sandbox)
