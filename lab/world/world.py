"""The simulated world the tools act on: a virtual disk, a virtual clock and a workspace wall."""

from __future__ import annotations

from dataclasses import dataclass, field

from lab.world.fs import VirtualFS, normalize
from lab.world.sandbox import Sandbox
from lab.world.shell import Shell, ShellResult

# Files outside the workspace, so that reading or writing past the wall has something to hit.
SYSTEM_FILES: dict[str, str] = {
    "/etc/passwd": (
        "root:x:0:0:root:/root:/bin/bash\n"
        "daemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
        "student:x:1000:1000:Student:/home/student:/bin/bash\n"
    ),
    "/etc/hosts": "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n",
}


@dataclass
class VirtualClock:
    """Virtual seconds since the world began; only tools and commands move it, never real time."""

    now: float = 0.0

    def advance(self, seconds: float) -> float:
        if seconds < 0:
            raise ValueError(f"time only moves forward (got {seconds})")
        self.now += seconds
        return self.now


@dataclass
class World:
    """A disk, a clock and the workspace directory that relative paths (and the wall) refer to."""

    fs: VirtualFS = field(default_factory=VirtualFS)
    clock: VirtualClock = field(default_factory=VirtualClock)
    workspace: str = "/workspace"

    @classmethod
    def create(
        cls,
        files: dict[str, str] | None = None,
        *,
        workspace: str = "/workspace",
        with_system_files: bool = True,
    ) -> World:
        """A fresh world: the workspace directory, `files` (relative ones go inside it) and,
        unless asked not to, the system files /etc/passwd and /etc/hosts outside it."""
        world = cls(workspace=normalize(workspace))
        world.fs.mkdir(world.workspace, parents=True)
        if with_system_files:
            for path, content in SYSTEM_FILES.items():
                world.fs.write(path, content)
        for path, content in (files or {}).items():
            world.fs.write(world.resolve(path), content)
        return world

    def resolve(self, path: str) -> str:
        """An absolute normalised path; relative paths are taken from the workspace."""
        return normalize(path, self.workspace)

    def inside_workspace(self, path: str) -> bool:
        resolved = self.resolve(path)
        return resolved == self.workspace or resolved.startswith(self.workspace.rstrip("/") + "/")

    def shell(self, *, sandboxed: bool = False) -> Shell:
        """A shell starting in the workspace, sharing this world's disk and clock; sandboxed,
        it may write only below the workspace."""
        disk = Sandbox(self.fs, self.workspace) if sandboxed else self.fs
        return Shell(disk, self.clock, cwd=self.workspace)

    def run_shell(self, command: str, *, sandboxed: bool = False) -> ShellResult:
        return self.shell(sandboxed=sandboxed).run(command)

    def copy(self) -> World:
        """An independent twin: its own disk and its own clock, starting at the same values."""
        return World(self.fs.copy(), VirtualClock(self.clock.now), self.workspace)

    def snapshot(self) -> dict[str, str]:
        """Every file on the disk, path -> content, sorted by path."""
        return self.fs.files()
