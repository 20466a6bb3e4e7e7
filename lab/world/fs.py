"""An in-memory POSIX-like file system: the only disk the lab's tools ever touch."""

from __future__ import annotations

import fnmatch
import posixpath
from dataclasses import dataclass, field

ROOT = "/"


def normalize(path: str, cwd: str = ROOT) -> str:
    """`path` made absolute against `cwd`, with `.`, `..` and duplicate slashes folded."""
    joined = posixpath.normpath(posixpath.join(cwd, path))
    # normpath keeps a leading "//" (POSIX allows it to mean something special); we don't.
    return "/" + joined.lstrip("/")


def _parents(path: str) -> list[str]:
    """Every ancestor directory of an absolute path, root first, the path itself excluded."""
    parents = []
    while path != ROOT:
        path = posixpath.dirname(path)
        parents.append(path)
    return parents[::-1]


def _join(shown: str, name: str) -> str:
    """Append a segment to a path spelled so far ("" is the start, "/" the root)."""
    return shown + name if shown in ("", "/") else f"{shown}/{name}"


def _is_magic(segment: str) -> bool:
    return any(ch in segment for ch in "*?[")


@dataclass
class Changes:
    """What one copy of the world did to its disk, so it can be replayed onto another.

    Applying removes first, then creates directories, then writes files: the final state of
    the copy never holds a removed path, so this order cannot undo its own work.
    """

    written: dict[str, str] = field(default_factory=dict)
    removed: list[str] = field(default_factory=list)
    created_dirs: list[str] = field(default_factory=list)

    @property
    def is_empty(self) -> bool:
        return not (self.written or self.removed or self.created_dirs)


class VirtualFS:
    """Files as a dict path -> text, plus a set of directories.

    Invariant: every ancestor of a file or directory is itself in the directory set, and the
    root "/" is always there. Paths given to any method are normalised (relative ones against "/").
    Errors are the built-in OSError subclasses with shell-like messages ("PATH: No such file or
    directory"), so a caller can catch them precisely.
    """

    def __init__(self) -> None:
        self._files: dict[str, str] = {}
        self._dirs: set[str] = {ROOT}

    # ---- looking -------------------------------------------------------------------------
    def exists(self, path: str) -> bool:
        path = normalize(path)
        return path in self._files or path in self._dirs

    def is_file(self, path: str) -> bool:
        return normalize(path) in self._files

    def is_dir(self, path: str) -> bool:
        return normalize(path) in self._dirs

    def read(self, path: str) -> str:
        path = normalize(path)
        if path in self._dirs:
            raise IsADirectoryError(f"{path}: Is a directory")
        if path not in self._files:
            raise FileNotFoundError(f"{path}: No such file or directory")
        return self._files[path]

    def listdir(self, path: str = ROOT) -> list[str]:
        """Sorted names (not paths) of the entries directly inside a directory."""
        path = normalize(path)
        if path in self._files:
            raise NotADirectoryError(f"{path}: Not a directory")
        if path not in self._dirs:
            raise FileNotFoundError(f"{path}: No such file or directory")
        names = {
            posixpath.basename(p)
            for p in (*self._files, *self._dirs)
            if p != ROOT and posixpath.dirname(p) == path
        }
        return sorted(names)

    def files(self) -> dict[str, str]:
        """A sorted copy of every file: path -> content."""
        return dict(sorted(self._files.items()))

    @property
    def file_count(self) -> int:
        return len(self._files)

    # ---- changing ------------------------------------------------------------------------
    def write(self, path: str, content: str, append: bool = False) -> None:
        """Write (or append to) a file; missing parent directories are created on the way."""
        path = normalize(path)
        if path in self._dirs:
            raise IsADirectoryError(f"{path}: Is a directory")
        parents = _parents(path)
        for parent in parents:
            if parent in self._files:
                raise NotADirectoryError(f"{parent}: Not a directory")
        self._dirs.update(parents)
        old = self._files.get(path, "") if append else ""
        self._files[path] = old + content

    def mkdir(self, path: str, parents: bool = False) -> None:
        """Make a directory; like `mkdir -p` when parents=True (no error if it already exists)."""
        path = normalize(path)
        if path in self._files:
            raise FileExistsError(f"{path}: File exists")
        if path in self._dirs:
            if parents:
                return
            raise FileExistsError(f"{path}: File exists")
        ancestors = _parents(path)
        for ancestor in ancestors:
            if ancestor in self._files:
                raise NotADirectoryError(f"{ancestor}: Not a directory")
        if not parents and ancestors[-1] not in self._dirs:
            raise FileNotFoundError(f"{ancestors[-1]}: No such file or directory")
        self._dirs.update(ancestors)
        self._dirs.add(path)

    def remove(self, path: str, recursive: bool = False) -> None:
        """Remove a file, or a directory with everything under it when recursive=True.

        Removing "/" recursively wipes the disk (the root itself stays, as on a real machine).
        """
        path = normalize(path)
        if path in self._files:
            del self._files[path]
            return
        if path not in self._dirs:
            raise FileNotFoundError(f"{path}: No such file or directory")
        if not recursive:
            raise IsADirectoryError(f"{path}: Is a directory")
        if path == ROOT:
            self.wipe()
            return
        prefix = path + "/"
        self._files = {p: c for p, c in self._files.items() if not p.startswith(prefix)}
        self._dirs = {d for d in self._dirs if d != path and not d.startswith(prefix)}

    def wipe(self) -> None:
        """Delete everything: what `rm -rf /` does to this disk."""
        self._files = {}
        self._dirs = {ROOT}

    # ---- searching -----------------------------------------------------------------------
    def glob(self, pattern: str, root: str = ROOT) -> list[str]:
        """Sorted paths matching a glob pattern, files and directories alike.

        Convention (the course's glob tool uses Python's `glob.glob(pattern, root_dir=...)`,
        and bash expands words the same way): a relative pattern is matched under `root` and
        each result is spelled the way the pattern spells it, so results are relative to
        `root` (`src/app.py`, `./src/app.py`, `../etc/passwd`); an absolute pattern gives
        absolute results. Within one segment `*`, `?` and `[...]` work as in fnmatch and never
        cross a `/`; a segment `**` matches zero or more directories. Like bash and the glob
        module, a wildcard skips names starting with "." unless its segment starts with ".".
        """
        absolute = pattern.startswith("/")
        start = ROOT if absolute else normalize(root)
        segments = [s for s in pattern.split("/") if s]
        found = self._match(start, "/" if absolute else "", segments)
        return sorted(found - {""})  # "" is the root itself, matched by a bare "**"

    def _match(self, directory: str, shown: str, segments: list[str]) -> set[str]:
        """Matches of the remaining segments under `directory` (spelled `shown` so far)."""
        if not segments:
            return {shown}
        head, rest = segments[0], segments[1:]
        if head == "**":
            # zero directories, or any directory below (hidden ones skipped, as for `*`)
            found: set[str] = self._match(directory, shown, rest)
            for below in self._subdirs(directory):
                relative = below[len(directory.rstrip("/")) + 1 :]
                found |= self._match(below, _join(shown, relative), rest)
            return found
        if not _is_magic(head):
            child = normalize(head, directory)
            if (rest and child in self._dirs) or (not rest and self.exists(child)):
                return self._match(child, _join(shown, head), rest)
            return set()
        found = set()
        for name in self.listdir(directory):
            if name.startswith(".") and not head.startswith("."):
                continue
            child = normalize(name, directory)
            if fnmatch.fnmatchcase(name, head) and (not rest or child in self._dirs):
                found |= self._match(child, _join(shown, name), rest)
        return found

    def _subdirs(self, directory: str) -> list[str]:
        """Every directory strictly below `directory`, skipping hidden ones and what they hold."""
        prefix = directory.rstrip("/") + "/"
        below = [d for d in self._dirs if d.startswith(prefix)]
        return [d for d in below if not any(s.startswith(".") for s in d[len(prefix) :].split("/"))]

    # ---- copies and merges ---------------------------------------------------------------
    def copy(self) -> VirtualFS:
        twin = VirtualFS()
        twin._files = dict(self._files)
        twin._dirs = set(self._dirs)
        return twin

    def diff(self, base: VirtualFS) -> Changes:
        """What turns `base` into this disk: files written or changed, paths removed, dirs made."""
        written = {p: c for p, c in sorted(self._files.items()) if base._files.get(p) != c}
        gone = (set(base._files) - set(self._files)) | (base._dirs - self._dirs)
        made = sorted(self._dirs - base._dirs)
        return Changes(written=written, removed=sorted(gone), created_dirs=made)

    def apply(self, changes: Changes) -> None:
        """Replay changes made on a copy. Later applies win where two copies touched one path."""
        for path in changes.removed:  # sorted, so a directory goes before what it held
            if self.exists(path):
                self.remove(path, recursive=True)
        for path in changes.created_dirs:
            if path in self._files:
                del self._files[path]  # the copy turned this file into a directory
            self.mkdir(path, parents=True)
        for path, content in changes.written.items():
            if path in self._dirs:
                self.remove(path, recursive=True)  # the copy turned this directory into a file
            self.write(path, content)
