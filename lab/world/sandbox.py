"""The OS sandbox: a view of the disk on which only the workspace is writable, whatever the rules.

Production's sandboxed Bash tool lets a command read the whole machine but write only below
the working directory (bubblewrap on Linux, Seatbelt on macOS), for every child process too.
Here the shell's disk is this view: a write, a new directory or a removal outside the workspace
fails with "Read-only file system", however the command was spelled. Reading passes through.
"""

from __future__ import annotations

from typing import Any

from lab.world.fs import VirtualFS, normalize

READ_ONLY = "Read-only file system"


class Sandbox:
    """Reads go to the disk; changes only below `writable` (the workspace itself is fixed)."""

    def __init__(self, fs: VirtualFS, writable: str) -> None:
        self.fs = fs
        self.writable = normalize(writable)

    def __getattr__(self, name: str) -> Any:  # exists, is_file, is_dir, read, listdir, glob...
        return getattr(self.fs, name)

    def allows(self, path: str) -> bool:
        """May `path` be created, changed or removed? Only strictly below the workspace."""
        return normalize(path).startswith(self.writable.rstrip("/") + "/")

    def refuse(self, path: str) -> PermissionError:
        return PermissionError(f"{normalize(path)}: {READ_ONLY}")

    def write(self, path: str, content: str, append: bool = False) -> None:
        if not self.allows(path):
            raise self.refuse(path)
        self.fs.write(path, content, append=append)

    def mkdir(self, path: str, parents: bool = False) -> None:
        if not self.allows(path) and not self.fs.is_dir(path):
            raise self.refuse(path)
        self.fs.mkdir(path, parents=parents)

    def remove(self, path: str, recursive: bool = False) -> None:
        """Remove what the sandbox allows; a directory outside the workspace loses only the
        workspace's contents (if it holds them), then the removal fails on the rest."""
        path = normalize(path)
        if self.allows(path) or not self.fs.exists(path):
            self.fs.remove(path, recursive=recursive)
            return
        if recursive and self.fs.is_dir(path):
            inside = self.writable == path or self.writable.startswith(path.rstrip("/") + "/")
            if inside and self.fs.is_dir(self.writable):
                for name in self.fs.listdir(self.writable):
                    self.fs.remove(normalize(name, self.writable), recursive=True)
        protected = [p for p in self.fs.files() if p.startswith(path.rstrip("/") + "/")]
        raise self.refuse(protected[0] if protected else path)
