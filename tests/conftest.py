"""Shared fixtures: hypothesis profiles and a host guard that fails on any real side effect."""

from __future__ import annotations

import os
import sys
import tempfile

import pytest
from hypothesis import settings

# CI sets CI=true and hypothesis then loads its own `ci` profile; derive, never re-register it.
# 50 examples per property keep the whole property suite under a minute on two cores; the
# `dev` profile (HYPOTHESIS_PROFILE=dev) searches harder when you have the time.
settings.register_profile(
    "lab-ci", parent=settings.get_profile("ci"), deadline=None, max_examples=50
)
settings.register_profile("lab", deadline=None, max_examples=50)
settings.register_profile("dev", deadline=None, max_examples=500)
settings.load_profile(
    os.environ.get("HYPOTHESIS_PROFILE") or ("lab-ci" if os.environ.get("CI") else "lab")
)

_GUARD = {"on": False, "seen": []}
_FORBIDDEN = {
    "subprocess.Popen",
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.remove",
    "os.rmdir",
    "os.rename",
    "shutil.rmtree",
    "socket.connect",
    "os.fork",
}
_TMP = os.path.realpath(tempfile.gettempdir())


def _loopback(address: object) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    return host in ("127.0.0.1", "::1", "localhost")


def _audit(event: str, args: tuple) -> None:
    if not _GUARD["on"]:
        return
    if event == "socket.connect" and _loopback(args[1]):
        return  # the loopback fake server is part of the lab, not the host's network
    if event in _FORBIDDEN:
        _GUARD["seen"].append(f"{event}{args!r:.120}")
    elif event == "open":
        path, mode, flags = args
        if isinstance(mode, str):
            writing = any(c in mode for c in "wax+")
        else:
            writing = bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND))
        if writing and isinstance(path, str) and not os.path.realpath(path).startswith(_TMP):
            _GUARD["seen"].append(f"open({path!r}, {mode!r})")


sys.addaudithook(_audit)


@pytest.fixture
def host_guard():
    """Records every subprocess, socket connection, deletion or write outside the temp dir."""
    _GUARD["seen"] = []
    _GUARD["on"] = True
    try:
        yield _GUARD["seen"]
    finally:
        _GUARD["on"] = False
