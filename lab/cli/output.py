"""Files a command writes (`--html`, `--report`, `--out`): the path checked before any work starts,
the file written whole or not at all, every failure one line naming the flag and the path (exit 2).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

from lab.kernel.errors import UsageError


def check_output_path(path: Path, flag: str, suffixes: tuple[str, ...] = ()) -> Path:
    """Raise UsageError unless a file can be written at `path`: not a folder, its folder exists,
    and a file can really be created there (tried and removed at once: `os.access` says yes to
    root on /proc). `suffixes`: the endings the file name must have, if any."""
    where = f"{flag} {path}"
    if path.is_dir():
        raise UsageError(f"{where}: is a folder; name a file inside it")
    if path.exists() and not path.is_file():  # /dev/null, a pipe: the rename would replace it
        raise UsageError(f"{where}: is not a regular file")
    if suffixes and path.suffix.lower() not in suffixes:
        raise UsageError(f"{where}: the file name must end in {' or '.join(suffixes)}")
    if not path.parent.is_dir():
        raise UsageError(f"{where}: no folder {path.parent}")
    try:
        descriptor, probe = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    except OSError as error:
        raise UsageError(f"{where}: cannot write in {path.parent}: {error.strerror}") from None
    os.close(descriptor)
    os.unlink(probe)
    if path.exists() and not os.access(path, os.W_OK):
        raise UsageError(f"{where}: the file is not writable")
    return path


def check_not_over(path: Path, flag: str, force: bool) -> None:
    """Raise UsageError when a file is already at `path` and `force` is not given: a page is
    never written over someone's file by surprise, whatever its name."""
    if path.is_file() and not force:
        raise UsageError(f"{flag} {path}: the file exists; pass --force to overwrite it")


def write_whole(path: Path, content: str | bytes, flag: str) -> None:
    """Write `content` (text or bytes) into a `.partial` file beside `path` and rename it into
    place; on any failure the `.partial` is removed and the error is one line naming `flag` and
    `path`."""
    partial = path.with_name(path.name + ".partial")
    try:
        if isinstance(content, bytes):
            partial.write_bytes(content)
        else:
            partial.write_text(content, encoding="utf-8")
        partial.replace(path)
    except OSError as error:
        raise UsageError(f"{flag} {path}: {error.strerror or error}") from None
    finally:
        with contextlib.suppress(OSError):
            partial.unlink(missing_ok=True)
