"""The `lab` program's first step: a Ctrl-C while the lab is still loading ends it quietly.

The command installs its own Ctrl-C handling once it runs (lab/cli/dispatch.py); before that,
Python would print a KeyboardInterrupt traceback from whatever module it was importing.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType


def interrupted_while_loading(signum: int, frame: FrameType | None) -> None:
    sys.stderr.write("lab: interrupted\n")
    sys.stderr.flush()
    os._exit(130)  # nothing has started yet: nothing to clean up


def main() -> int:
    """The console script and `python -m lab`: catch Ctrl-C first, then load the command."""
    signal.signal(signal.SIGINT, interrupted_while_loading)
    from lab.cli import main as command

    return command()
