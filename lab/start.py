"""The `lab` program's first step: a Ctrl-C while the lab is still loading ends it quietly.

The command installs its own Ctrl-C handling once it runs (lab/cli/dispatch.py); before that,
Python would print a KeyboardInterrupt traceback from whatever module it was importing.
"""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

from lab.kernel.errors import UsageError
from lab.languages.choice import INTERRUPTED, chosen_lang


def interrupted_while_loading(signum: int, frame: FrameType | None) -> None:
    try:
        said = INTERRUPTED[chosen_lang(sys.argv[1:])]
    except UsageError:  # a bad LAB_LANG: the command would say so, if it got that far
        said = INTERRUPTED["en"]
    sys.stderr.write(said + "\n")
    sys.stderr.flush()
    os._exit(130)  # nothing has started yet: nothing to clean up


def main() -> int:
    """The console script and `python -m lab`: catch Ctrl-C first, then load the command."""
    signal.signal(signal.SIGINT, interrupted_while_loading)
    from lab.cli import main as command

    return command()
