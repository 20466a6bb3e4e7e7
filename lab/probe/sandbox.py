"""Where a target runs: a scratch folder, a minimal environment, and a loopback-only network.

Every out-of-process target gets a fresh scratch folder (its working folder `work/`, its `home/`
and its `tmp/`), an environment that holds only what the probe sets, and — where the platform
allows — a network namespace whose only interface is loopback (`isolated`).
"""

from __future__ import annotations

import fcntl
import os
import shutil
import socket
import struct
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

FAKE_KEY = "sk-lab-probe-not-a-real-key"
ISOLATED_MARK = "LAB_PROBE_ISOLATED"  # set inside the namespace, so the probe re-enters it once


@dataclass(frozen=True)
class Scratch:
    root: Path

    @property
    def work(self) -> Path:
        return self.root / "work"

    @property
    def home(self) -> Path:
        return self.root / "home"

    @property
    def tmp(self) -> Path:
        return self.root / "tmp"

    @classmethod
    def create(cls, files: Mapping[str, str]) -> Scratch:
        scratch = cls(Path(tempfile.mkdtemp(prefix="lab-probe-")).resolve())
        for folder in (scratch.work, scratch.home, scratch.tmp):
            folder.mkdir()
        for name, text in files.items():
            (scratch.work / name).write_text(text, encoding="utf-8")
        return scratch

    def files(self) -> set[str]:
        """The working folder's files, relative, outside dot-folders (harness settings)."""
        found = set()
        for path in self.work.rglob("*"):
            relative = path.relative_to(self.work)
            if path.is_file() and not any(part.startswith(".") for part in relative.parts[:-1]):
                found.add(relative.as_posix())
        return found

    def remove(self) -> None:
        shutil.rmtree(self.root, ignore_errors=True)


def environment(
    scratch: Scratch, base_url: str, extra: Mapping[str, str], stream: bool | None
) -> dict[str, str]:
    """The whole environment a target sees: nothing of the caller's but PATH."""
    python_bin = str(Path(sys.executable).parent)
    env = {
        "PATH": os.pathsep.join([python_bin, os.environ.get("PATH", os.defpath)]),
        "HOME": str(scratch.home),
        "TMPDIR": str(scratch.tmp),
        "LANG": "C.UTF-8",
        "ANTHROPIC_BASE_URL": base_url,
        "ANTHROPIC_API_KEY": FAKE_KEY,
        "PYTHONDONTWRITEBYTECODE": "1",  # a Python target leaves no .pyc beside its sources
        "DO_NOT_TRACK": "1",
    }
    if stream is not None:  # a hint for targets that can do both answer modes
        env["LAB_PROBE_STREAM"] = "1" if stream else "0"
    return {**env, **extra}


# ---------------------------------------------------------------- the network namespace
def isolation_problem() -> str | None:
    """None when `unshare` can give this process a network namespace, else why not."""
    unshare = shutil.which("unshare")
    if unshare is None or not sys.platform.startswith("linux"):
        return "no `unshare` here (Linux only)"
    probe = subprocess.run(
        [*unshare_argv(unshare), "true"], capture_output=True, text=True, check=False
    )
    if probe.returncode != 0:
        return f"`unshare` refused: {probe.stderr.strip() or probe.returncode}"
    return None


def unshare_argv(unshare: str) -> list[str]:
    # As root a network namespace is enough; otherwise map us to root in a user namespace.
    if os.geteuid() == 0:
        return [unshare, "--net"]
    return [unshare, "--user", "--map-root-user", "--net"]


def inside() -> bool:
    return os.environ.get(ISOLATED_MARK) == "1"


def reenter_isolated(argv: list[str]) -> int:
    """Run `python -m lab ARGV` again inside a fresh network namespace; its exit status."""
    unshare = shutil.which("unshare")
    assert unshare is not None
    command = [*unshare_argv(unshare), sys.executable, "-m", "lab", *argv]
    return subprocess.run(command, env={**os.environ, ISOLATED_MARK: "1"}, check=False).returncode


SIOCGIFFLAGS, SIOCSIFFLAGS, IFF_UP = 0x8913, 0x8914, 0x1


def loopback_up() -> None:
    """`ip link set lo up`, without needing `ip`: a new namespace starts with lo down."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        request = struct.pack("16sH14x", b"lo", 0)
        flags = struct.unpack("16sH14x", fcntl.ioctl(s, SIOCGIFFLAGS, request))[1]
        fcntl.ioctl(s, SIOCSIFFLAGS, struct.pack("16sH14x", b"lo", flags | IFF_UP))


def interfaces() -> list[str]:
    """The network interfaces this process can see (inside the namespace: only `lo`)."""
    return sorted(name for _, name in socket.if_nameindex())
