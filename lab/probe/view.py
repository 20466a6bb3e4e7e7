"""A target's own view of the writable places outside its scratch folder: its writes, alone.

Before the program starts, its process enters a mount namespace of its own, where each outside
place (the temp folder, the probe's working folder, the user's home) is an overlay: the place as it
is, read-only underneath, and a fresh upper folder in the trial's scratch folder that takes every
write. The scratch folder itself is mounted back over its own path, so the program's work, home and
temp folders are the real ones. After the run, the files in the upper folders are exactly what the
program's process tree wrote outside (nothing reached the real places); another process on the
machine writing in /tmp changes nothing the probe reads.

Where a mount namespace cannot be had (no user namespaces, not Linux), the degraded alternative is
the listing diff in confinement.py (`outside_places`, `written_outside`): it sees every process's
writes, so it names the probe's neighbours' files too.

Run as `python -I view.py SCRATCH PLACE... -- PROGRAM ARGS...` (`wrapped`) it enters the view,
then becomes the program (the probe's cold starts; by its file, with nothing but the standard
library, whatever the program's environment); a warm child calls `enter` itself after the fork.
"""

from __future__ import annotations

import ctypes
import os
import sys
from pathlib import Path

CLONE_NEWNS = 0x00020000
MS_BIND, MS_REC, MS_PRIVATE, MNT_DETACH = 4096, 16384, 1 << 18, 2
LAYERS = "outside"  # the scratch folder's sub-folder holding one layer pair per place
PLACES = "places.txt"  # in LAYERS: each place's path, one a line, in the order of its layer
FAILED = "no-view.txt"  # in LAYERS: why the view could not be entered (the degraded alternative)
WHITEOUT = 0  # an overlay's mark of a removed file: a character device 0/0


def places(scratch: Path) -> list[Path]:
    """The outside places a program could write in, none inside another (the outer one covers
    it), none inside the scratch folder; those that hold the scratch folder last."""
    import pwd
    import tempfile

    found = [Path(tempfile.gettempdir()), Path.cwd(), Path.home()]
    found.append(Path(pwd.getpwuid(os.getuid()).pw_dir))
    real = list(dict.fromkeys(p.resolve() for p in found if p.is_dir()))
    outer = [p for p in real if not any(p != q and p.is_relative_to(q) for q in real)]
    outer = [p for p in outer if not p.is_relative_to(scratch) and p != Path("/")]
    return sorted(outer, key=lambda p: scratch.is_relative_to(p))


def enter(scratch: Path, chosen: list[Path]) -> str | None:
    """Enter a mount namespace where the `chosen` places (see `places`, computed by the probe:
    the program's own environment names its scratch folder) write into `scratch`/LAYERS; None
    when done, else why not (then nothing changed, and the reason is written down)."""
    layers = scratch / LAYERS
    try:
        layers.mkdir(exist_ok=True)
        (layers / PLACES).write_text("".join(f"{p}\n" for p in chosen), encoding="utf-8")
        for index in range(len(chosen)):
            (layers / str(index) / "upper").mkdir(parents=True)
            (layers / str(index) / "work").mkdir()
    except OSError as error:
        return f"no layers in the scratch folder: {error}"
    why = mounted(scratch, chosen)
    if why is not None:
        (layers / FAILED).write_text(why + "\n", encoding="utf-8")
    return why


def mounted(scratch: Path, chosen: list[Path]) -> str | None:
    if not sys.platform.startswith("linux"):
        return "no mount namespaces here (Linux only)"
    libc = ctypes.CDLL(None, use_errno=True)

    def mount(source: str | None, target: str, kind: str | None, flags: int, data: str) -> None:
        def c(text: str | None) -> bytes | None:
            return None if text is None else os.fsencode(text)

        if libc.mount(c(source), c(target), c(kind), flags, c(data)) != 0:
            error = ctypes.get_errno()
            raise OSError(error, f"mount {kind or 'bind'} on {target}: {os.strerror(error)}")

    if libc.unshare(CLONE_NEWNS) != 0:
        return f"no mount namespace: {os.strerror(ctypes.get_errno())}"
    done: list[str] = []
    try:
        mount(None, "/", None, MS_REC | MS_PRIVATE, "")  # nothing of ours reaches the machine's
        held = os.open(scratch, os.O_RDONLY | os.O_DIRECTORY)  # the real one, before it is covered
        for index, place in enumerate(chosen):
            layer = scratch / LAYERS / str(index)
            options = f"lowerdir={place},upperdir={layer / 'upper'},workdir={layer / 'work'}"
            mount("overlay", str(place), "overlay", 0, options)
            done.append(str(place))
        mount(f"/proc/self/fd/{held}", str(scratch), None, MS_BIND, "")
        os.close(held)
    except OSError as error:  # an overlay refused (an upper folder on overlayfs, in a container)
        for target in reversed(done):  # back to the places as they are, then without a view
            if libc.umount2(os.fsencode(target), MNT_DETACH) != 0:
                os.write(2, f"lab probe: the target's view failed: {error}\n".encode())
                os._exit(126)
        return str(error)
    return None


def written(scratch: Path) -> list[str] | None:
    """What the program wrote outside, by the real paths it wrote (a removal says so); None when
    it ran without a view of its own (then confinement.py's listing is the alternative)."""
    layers = scratch / LAYERS
    if not (layers / PLACES).is_file() or (layers / FAILED).exists():
        return None
    chosen = (layers / PLACES).read_text(encoding="utf-8").splitlines()
    found: list[str] = []
    for index, place in enumerate(chosen):
        upper = layers / str(index) / "upper"
        for path in sorted(upper.rglob("*")):
            if path.is_dir() and not path.is_symlink():
                continue
            shown = str(Path(place) / path.relative_to(upper))
            stat = path.lstat()
            removed = (stat.st_mode & 0o170000) == 0o020000 and stat.st_rdev == WHITEOUT
            found.append(f"{shown} (removed)" if removed else shown)
    return found


def wrapped(argv: list[str], scratch: Path) -> list[str]:
    """The command line that runs `argv` in its own view of the outside places."""
    chosen = [str(p) for p in places(scratch)]
    return [sys.executable, "-I", __file__, str(scratch), *chosen, "--", *argv]


def main(argv: list[str]) -> int:
    """`SCRATCH PLACE... -- PROGRAM ARGS...`: enter the view (or go on without one), become the
    program."""
    end = argv.index("--")
    scratch, chosen, program = Path(argv[0]), [Path(p) for p in argv[1:end]], argv[end + 1 :]
    enter(scratch, chosen)
    try:
        os.execvp(program[0], program)
    except OSError as error:
        print(f"{program[0]}: {error.strerror or error}", file=sys.stderr)
        return 127


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
