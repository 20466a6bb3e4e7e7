"""`lab peers install NAME`: put a peer that pip cannot bring into a folder the lab owns.

The Python peers come with `pip install 'harness-lab[peers]'`. Claude Code is an npm package
whose native binary (the optional dependency `@anthropic-ai/claude-code-linux-x64`, ~400 MB)
is too big to belong in a project folder or a virtual environment, so it goes to the lab's own
folder in the user's cache: `$HARNESS_LAB_HOME/peers`, else `$XDG_CACHE_HOME/harness-lab/peers`
(default `~/.cache/harness-lab/peers`), shared by every checkout and venv, and safe to delete.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

PIP_PEERS = "pip install 'harness-lab[peers]'"

CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code"
CLAUDE_CODE_VERSION = "2.1.332"


def peers_home() -> Path:
    """The folder the lab installs peers into."""
    if "HARNESS_LAB_HOME" in os.environ:
        return Path(os.environ["HARNESS_LAB_HOME"]) / "peers"
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "harness-lab" / "peers"


def npm_folder(package: str) -> Path:
    """Where an npm package lives once `lab peers install` has put it in the lab's folder."""
    return peers_home() / package.rsplit("/", 1)[-1] / "node_modules" / package


def claude_binary() -> Path:
    return npm_folder(CLAUDE_CODE_PACKAGE) / "bin" / "claude.exe"


def installed_version(distribution: str) -> str | None:
    """The installed version of a pip distribution, or of "npm:<package>" in the lab's folder."""
    if distribution.startswith("npm:"):
        manifest = npm_folder(distribution.removeprefix("npm:")) / "package.json"
        if not manifest.is_file():
            return None
        return json.loads(manifest.read_text())["version"]
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def install_claude_code() -> int:
    npm = shutil.which("npm")
    if npm is None:
        print(
            "lab: error: npm not found: install Node.js first (Debian: apt-get install npm)",
            file=sys.stderr,
        )
        return 1
    folder = peers_home() / CLAUDE_CODE_PACKAGE.rsplit("/", 1)[-1]
    folder.mkdir(parents=True, exist_ok=True)
    spec = f"{CLAUDE_CODE_PACKAGE}@{CLAUDE_CODE_VERSION}"
    print(f"installing {spec} into {folder}", flush=True)
    # --prefix keeps it out of the global tree; the audit/fund/notifier calls are not needed.
    command = [npm, "install", "--prefix", str(folder), "--no-audit", "--no-fund", spec]
    done = subprocess.run(command, env={**os.environ, "NO_UPDATE_NOTIFIER": "1"})
    if done.returncode != 0 or not claude_binary().is_file():
        print(f"lab: error: npm could not install {spec} (exit {done.returncode})", file=sys.stderr)
        return 1
    print(f"claude-code {installed_version('npm:' + CLAUDE_CODE_PACKAGE)}: {claude_binary()}")
    return 0


INSTALLERS = {"claude-code": install_claude_code}


def install(name: str) -> int:
    """Install the peer `name`: 0 done, 1 the installer failed, 2 not a peer this installs."""
    from lab.probe.peers import PEERS  # the table of peers imports this module

    if name in INSTALLERS:
        return INSTALLERS[name]()
    if name in PEERS:
        print(f"lab: error: {name} is a Python peer: {PIP_PEERS}", file=sys.stderr)
    else:
        known = ", ".join(INSTALLERS)
        print(
            f"lab: error: unknown peer {name!r} (lab peers install knows: {known})", file=sys.stderr
        )
    return 2


def add_parser(sub: argparse._SubParsersAction) -> None:
    """Add `peers install NAME` to the `lab` command's subparsers."""
    peers = sub.add_parser("peers", help="install a peer that pip cannot bring")
    actions = peers.add_subparsers(dest="peers_command", required=True)
    chosen = actions.add_parser("install", help="install a peer into the lab's own folder")
    chosen.add_argument("name", metavar="NAME", help=f"one of: {', '.join(INSTALLERS)}")


def cmd_peers(args: argparse.Namespace, out: object = None) -> int:
    return install(args.name)


COMMANDS = {"peers": cmd_peers}


if __name__ == "__main__":  # `python -m lab.probe.peers.install NAME` = `lab peers install NAME`
    if len(sys.argv) != 2:
        print("usage: python -m lab.probe.peers.install NAME", file=sys.stderr)
        sys.exit(2)
    sys.exit(install(sys.argv[1]))
