"""Where a target runs: a scratch folder, a minimal environment, a loopback-only network, and a
PID namespace that ends every process the probe started when the probe ends.

Every out-of-process target gets a fresh scratch folder (its working folder `work/`, its `home/`
and its `tmp/`), an environment that holds only what the probe sets, and — where the platform
allows — network and PID namespaces (`isolated`): the probe runs itself again under
`unshare --net --pid --fork`, so the fake API and the target share only 127.0.0.1, and the probe
is the namespace's first process: when it ends, however it ends, the kernel kills every process
left in the namespace — grandchildren in sessions of their own, double forks and warm parents
included. Without namespaces, the re-entered probe's parent is a child subreaper instead: every
orphan is re-parented to it, and it kills them all when the probe ends (`end_descendants`).
Either way every scratch folder of the run is named for it (`lab-probe-PID-...`, PID the
parent's), and the parent removes them all after the probe ended — normally, by an error, or by
Ctrl-C (`reenter`). They sit in the temp folder itself, not in a folder of their own: a deeper
path would push a target's Unix socket paths past their 108-byte limit (Claude Code then falls
back to /tmp).
"""

from __future__ import annotations

import ctypes
import fcntl
import os
import pwd
import shutil
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

FAKE_KEY = "sk-lab-probe-not-a-real-key"
ISOLATED_MARK = "LAB_PROBE_ISOLATED"  # set inside the namespace, so the probe re-enters it once
RUN_MARK = "LAB_PROBE_RUN"  # the name every scratch folder of one probe run starts with


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
        prefix = os.environ.get(RUN_MARK, "lab-probe-")
        scratch = cls(Path(tempfile.mkdtemp(prefix=prefix)).resolve())
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


# ---------------------------------------------------------------- writes outside the scratch folder
def outside_places() -> list[Path]:
    """Where a target that ignores its HOME, TMPDIR and working folder would write: the temp
    folder, the probe's working folder, the user's home folder and its dot-folders (~/.cache,
    ~/.config, ...). The degraded alternative to a view of its own (view.py), used only when the
    target could not be given one: a listing diff sees every process's writes, not only the
    target's, and only at the top of each place. Only under `lab probe` (re-entered): a probe run
    in process (a test, a notebook) shares these places with whatever else runs there, so it
    watches nothing (and its targets get no view: the list is empty)."""
    if RUN_MARK not in os.environ:
        return []
    homes = {Path.home(), Path(pwd.getpwuid(os.getuid()).pw_dir)}
    places = [Path(tempfile.gettempdir()), Path.cwd(), *homes]
    places += [d for home in homes for d in sorted(home.glob(".*")) if d.is_dir()]
    return list(dict.fromkeys(p.resolve() for p in places))


def listing(places: list[Path]) -> dict[str, int | None]:
    """Each entry of `places` -> its modification time (None for a folder), the probe's own
    scratch folders left out."""
    found: dict[str, int | None] = {}
    for place in places:
        try:
            entries = list(os.scandir(place))
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("lab-probe-"):
                continue
            try:
                folder = entry.is_dir(follow_symlinks=False)
                found[entry.path] = (
                    None if folder else entry.stat(follow_symlinks=False).st_mtime_ns
                )
            except OSError:
                continue
    return found


def written_outside(before: dict[str, int | None], after: dict[str, int | None]) -> list[str]:
    """The entries that appeared, and the files rewritten, between two listings."""
    return sorted(
        path
        for path, mtime in after.items()
        if path not in before or (mtime is not None and before[path] != mtime)
    )


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
        # The Chat Completions wire's pair: its clients' base URL names the /v1 folder.
        "OPENAI_BASE_URL": f"{base_url}/v1",
        "OPENAI_API_KEY": FAKE_KEY,
        "PYTHONDONTWRITEBYTECODE": "1",  # a Python target leaves no .pyc beside its sources
        "DO_NOT_TRACK": "1",
    }
    if stream is not None:  # a hint for targets that can do both answer modes
        env["LAB_PROBE_STREAM"] = "1" if stream else "0"
    return {**env, **extra}


# ---------------------------------------------------------------- the namespaces
def isolation_problem() -> str | None:
    """None when `unshare` can give this process network and PID namespaces, else why not."""
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
    # As root the namespaces are enough; otherwise map us to root in a user namespace.
    # --kill-child: should `unshare` itself be killed, the probe (and so the namespace) ends too.
    namespaces = ["--net", "--pid", "--fork", "--kill-child"]
    if os.geteuid() == 0:
        return [unshare, *namespaces]
    return [unshare, "--user", "--map-root-user", *namespaces]


def inside() -> bool:
    return os.environ.get(ISOLATED_MARK) == "1"


def reentered() -> bool:
    """This is the probe run again by `reenter` (in namespaces or not)."""
    return RUN_MARK in os.environ


def reenter(argv: list[str], isolated: bool) -> int:
    """Run `python -m lab ARGV` again — inside fresh namespaces when `isolated` — with its temp
    scratch folders named for this run; wait for it, then end whatever it left running and
    remove those folders. Ctrl-C (or SIGTERM) ends it all at once and raises KeyboardInterrupt."""
    sweep_stale(Path(tempfile.gettempdir()))
    prefix = f"lab-probe-{os.getpid()}-"  # unique among the runs alive now
    env = {**os.environ, RUN_MARK: prefix}
    command = [sys.executable, "-m", "lab", *argv]
    if isolated:
        unshare = shutil.which("unshare")
        assert unshare is not None
        command = [*unshare_argv(unshare), *command]
        env[ISOLATED_MARK] = "1"
    become_subreaper()
    previous = signal.signal(signal.SIGTERM, stop_on_sigterm)
    try:
        child = subprocess.Popen(command, env=env, preexec_fn=die_with(os.getpid()))
        try:
            return child.wait()
        except KeyboardInterrupt:
            child.kill()
            raise
    finally:
        signal.signal(signal.SIGTERM, previous)
        end_descendants()
        for folder in Path(tempfile.gettempdir()).glob(f"{prefix}*"):
            shutil.rmtree(folder, ignore_errors=True)


def sweep_stale(temp: Path) -> None:
    """Remove the scratch folders of runs that were killed with no chance to clean up (kill -9):
    `lab-probe-PID-*` whose PID is no longer a live process."""
    for folder in temp.glob("lab-probe-*-*"):
        pid = folder.name.split("-")[2]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's
        return True
    return True


def stop_on_sigterm(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


PR_SET_PDEATHSIG = 1


def die_with(parent: int) -> Callable[[], None]:
    """For Popen's preexec_fn: the child is SIGKILLed when `parent` dies, however it dies (kill -9
    included). The child is `unshare`, whose --kill-child then kills the probe, the namespace's
    first process, and the kernel every process left in the namespace. Without namespaces the
    re-entered probe dies, but what it started in sessions of their own may outlive it."""

    def arm() -> None:
        if sys.platform.startswith("linux"):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)
        if os.getppid() != parent:  # the parent died before the signal was armed
            os._exit(1)

    return arm


def end_namespace_on_signal() -> None:
    """Inside the namespace: SIGTERM or SIGINT ends the probe at once. It is the namespace's
    first process, so its end is the kernel's signal to kill every process left in it, and the
    parent outside removes the scratch folders (a process that is a namespace's first ignores
    SIGTERM unless it says otherwise)."""

    def end(signum: int, frame: object) -> None:
        os._exit(128 + signum)

    signal.signal(signal.SIGTERM, end)
    signal.signal(signal.SIGINT, end)


PR_SET_CHILD_SUBREAPER = 36


def become_subreaper() -> None:
    """Have orphaned descendants re-parented to this process, not to init (Linux only)."""
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)


def children() -> list[int]:
    """This process's live children (Linux: /proc/self/task/*/children)."""
    found: list[int] = []
    for task in Path("/proc/self/task").glob("*/children"):
        try:
            found += [int(pid) for pid in task.read_text().split()]
        except OSError:
            continue
    return found


def end_descendants(rounds: int = 50) -> None:
    """Kill and reap every child; as a subreaper, each killed child's own children become ours
    and go in the next round, until none is left."""
    for _ in range(rounds):
        reap()
        pids = children()
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        time.sleep(0.01)


def reap() -> None:
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


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
