"""A file the user wrote (an experiment, an exercise, a served script), run fresh from its text.

Python's import machinery would reuse cached bytecode when the file's size and modification
second are unchanged, so a file edited and run again within the same second could run its old
text. Compiling the text each time never does.
"""

from __future__ import annotations

from pathlib import Path
from types import ModuleType


def run_file(path: Path, name: str) -> ModuleType:
    """The module `path` makes when run as `name`; its errors propagate, with `path` in the
    traceback (SyntaxError, OSError, or whatever its code raises)."""
    source = path.read_bytes()
    module = ModuleType(name)
    module.__file__ = str(path)
    exec(compile(source, str(path), "exec", dont_inherit=True), module.__dict__)
    return module
