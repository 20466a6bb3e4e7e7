"""`lab peers install NAME`: put a peer that pip cannot bring into a folder the lab owns.

The Python peers come with `pip install 'harness-lab[peers]'`. The npm peers (Claude Code, whose
native binary, the optional dependency `@anthropic-ai/claude-code-linux-x64`, is ~400 MB; the
Vercel AI SDK; the TypeScript SDK's tool runner) do not belong in a project folder or a virtual
environment, so each goes, at exact versions, into a folder of its own under the lab's folder in
the user's cache: `$HARNESS_LAB_HOME/peers`, else `$XDG_CACHE_HOME/harness-lab/peers`
(default `~/.cache/harness-lab/peers`), shared by every checkout and venv, and safe to delete.
`lab peers install all` installs every npm peer.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

PIP_PEERS = "pip install 'harness-lab[peers]'"

CLAUDE_CODE_PACKAGE = "@anthropic-ai/claude-code"
CLAUDE_CODE_VERSION = "2.1.332"

# Each npm peer: the packages it needs, at exact versions, installed together into its own folder
# (peers_home()/NAME). The Node programs that drive them ship in lab/probe/peers/node/.
NPM_PEERS: dict[str, dict[str, str]] = {
    "claude-code": {CLAUDE_CODE_PACKAGE: CLAUDE_CODE_VERSION},
    "ai-sdk": {"ai": "7.0.173", "@ai-sdk/anthropic": "4.0.105", "zod": "4.6.7"},
    "ai-sdk-openai": {"ai": "7.0.173", "@ai-sdk/openai": "4.0.118", "zod": "4.6.7"},
    "anthropic-ts-tool-runner": {"@anthropic-ai/sdk": "1.16.0", "zod": "4.6.7"},
    "langchain-js": {
        "langchain": "1.5.14",
        "@langchain/anthropic": "1.5.11",
        "@langchain/core": "1.4.0",
        "zod": "4.6.7",
    },
}


def peers_home() -> Path:
    """The folder the lab installs peers into."""
    if "HARNESS_LAB_HOME" in os.environ:
        return Path(os.environ["HARNESS_LAB_HOME"]) / "peers"
    cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(cache) / "harness-lab" / "peers"


def peer_modules(name: str) -> Path:
    """The node_modules folder of the npm peer `name`."""
    return peers_home() / name / "node_modules"


def npm_folder(package: str) -> Path:
    """Where an npm package lives once `lab peers install` has put it in the lab's folder (the
    folder of the first npm peer that needs it; a shared package has the same pin in each)."""
    peer = next(name for name, packages in NPM_PEERS.items() if package in packages)
    return peer_modules(peer) / package


def npm_version(folder: Path) -> str | None:
    """The version of the npm package installed in `folder`, if any."""
    manifest = folder / "package.json"
    return json.loads(manifest.read_text())["version"] if manifest.is_file() else None


def claude_binary() -> Path:
    return npm_folder(CLAUDE_CODE_PACKAGE) / "bin" / "claude.exe"


def installed_version(distribution: str) -> str | None:
    """The installed version of a pip distribution, or of "npm:<package>" in the lab's folder."""
    if distribution.startswith("npm:"):
        return npm_version(npm_folder(distribution.removeprefix("npm:")))
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return None


def npm_missing(name: str) -> str | None:
    """None when every package of npm peer `name` is installed at its pinned version."""
    wrong = [p for p, v in NPM_PEERS[name].items() if npm_version(peer_modules(name) / p) != v]
    return f"not installed: lab peers install {name}" if wrong else None


def install_npm(name: str) -> int:
    npm = shutil.which("npm")
    if npm is None:
        print(
            "lab: error: npm not found: install Node.js first (Debian: apt-get install npm)",
            file=sys.stderr,
        )
        return 1
    folder = peers_home() / name
    folder.mkdir(parents=True, exist_ok=True)
    specs = [f"{package}@{version}" for package, version in NPM_PEERS[name].items()]
    print(f"installing {' '.join(specs)} into {folder}", flush=True)
    # --prefix keeps it out of the global tree; the audit/fund/notifier calls are not needed.
    command = [npm, "install", "--prefix", str(folder), "--save-exact", "--no-audit", "--no-fund"]
    done = subprocess.run([*command, *specs], env={**os.environ, "NO_UPDATE_NOTIFIER": "1"})
    if done.returncode != 0 or npm_missing(name) is not None:
        print(f"lab: error: npm could not install {name} (exit {done.returncode})", file=sys.stderr)
        return 1
    for package in NPM_PEERS[name]:
        folder = peer_modules(name) / package
        print(f"{package} {npm_version(folder)}: {folder}")
    return 0


def install_all() -> int:
    """Every npm peer, one after the other; the worst exit status."""
    return max(install_npm(name) for name in NPM_PEERS)


INSTALLERS: dict[str, Callable[[], int]] = {
    **{name: functools.partial(install_npm, name) for name in NPM_PEERS},
    "all": install_all,
}


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
