"""The `lab` command. parser.py declares the arguments and exit codes, commands.py and
probe_commands.py hold the commands, searches.py the work of `lab matrix` and `lab hunt`,
dispatch.py runs one."""

from lab.cli.dispatch import COMMANDS, main
from lab.cli.parser import build_parser

__all__ = ["COMMANDS", "build_parser", "main"]
