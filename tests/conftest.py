"""Shared fixtures: hypothesis profiles and a host guard that fails on any real side effect."""

from __future__ import annotations

import atexit
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

# Hypothesis keeps its example database and caches in `.hypothesis/` of the working directory
# unless told otherwise (read on first use, so before any test runs): a temp folder instead,
# removed when the session ends. Tests write nothing outside a temporary folder.
_HYPOTHESIS_HOME = tempfile.mkdtemp(prefix="lab-tests-hypothesis-")
os.environ["HYPOTHESIS_STORAGE_DIRECTORY"] = _HYPOTHESIS_HOME
atexit.register(shutil.rmtree, _HYPOTHESIS_HOME, ignore_errors=True)


def _mirror_installed_bytecode(prefix: str) -> None:
    """Link the bytecode pip and Python compiled at install time into `prefix`, where a process
    under PYTHONPYCACHEPREFIX looks for it (it no longer reads `__pycache__/`): otherwise each
    one compiles the SDK (4 s), a kernel's IPython, a peer's framework (5-8 s) from source.
    A stale file is replaced by a fresh one in `prefix` (Python writes a new file and renames
    it over the link): nothing is ever written through a link."""
    tag = f".{sys.implementation.cache_tag}.pyc"
    stdlib = sysconfig.get_path("stdlib")
    unused = {os.path.join(stdlib, "test"), os.path.join(stdlib, "site-packages")}  # not imported
    for root in {stdlib, sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}:
        for folder, subfolders, names in os.walk(root):
            subfolders[:] = [s for s in subfolders if os.path.join(folder, s) not in unused]
            if os.path.basename(folder) != "__pycache__":
                continue
            mirror = prefix + os.path.abspath(os.path.dirname(folder))
            os.makedirs(mirror, exist_ok=True)
            for name in names:
                if name.endswith(tag) and not os.path.exists(os.path.join(mirror, name)):
                    link(os.path.join(folder, name), os.path.join(mirror, name))


def link(source: str, target: str) -> None:
    """A hard link where the temp folder is on the same disk (several times quicker to make),
    else a symbolic one."""
    try:
        os.link(source, target)
    except OSError:
        os.symlink(source, target)


# The processes the tests start (`python -m lab`, notebook kernels, the peers) compile the lab's
# modules once into a temp folder and reuse them, as a user's second run does
# (PYTHONDONTWRITEBYTECODE would make every one of them compile the whole lab again); nothing is
# written beside the sources. One folder for the whole session: the xdist workers inherit it.
if "LAB_TESTS_BYTECODE" not in os.environ:
    _BYTECODE = tempfile.mkdtemp(prefix="lab-tests-bytecode-")
    _mirror_installed_bytecode(_BYTECODE)
    os.environ["LAB_TESTS_BYTECODE"] = os.environ["PYTHONPYCACHEPREFIX"] = _BYTECODE
    atexit.register(shutil.rmtree, _BYTECODE, ignore_errors=True)
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

from hypothesis import settings  # noqa: E402  (after its storage is chosen)

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

# The files that take longest (measured on two cores), heaviest first. The workers take files
# in collection order (`--dist loadfile --no-loadscope-reorder` in pyproject.toml), so these
# start at once and the many quick files fill the gaps after; otherwise a worker could be left
# alone with a three-minute file at the end. Only an order: a name missing here runs anyway.
HEAVY_FIRST = [
    "test_matrix.py",  # the kill matrix, hypothesis over every switch
    "test_peers.py",  # the real peer harnesses (with `.[peers]` installed)
    "test_probe_all.py",  # `lab probe --all` under strace
    "08_real_harnesses.py",
    "test_probe_more_cases.py",
    "test_probe.py",
    "test_probe_cli.py",
    "test_probe_shards.py",
    "test_cli_process.py",
    "07_hypothesis_hunt.py",
    "test_probe_leftovers.py",
    # the quick tier's heaviest
    "test_probe_serve.py",
    "test_properties.py",
    "test_zh.py",
    "test_fake_api_fuzz.py",
]

# The slow tier (`-m slow`; the README's command leaves it out, .ci/run runs it next): the
# process-heavy files, marked by file. The kill matrix at `lab matrix`'s defaults, the shared
# probe of the real peers under strace with its two other readers (so it still runs once per
# session), the probe and process tests. Notebooks 07 and 08 are marked in notebooks/conftest.py.
SLOW_FILES = {
    "test_matrix.py",
    "test_peers.py",
    "test_probe_all.py",
    "test_probe_more_cases.py",
    "test_probe.py",
    "test_probe_cli.py",
    "test_cli_process.py",
    "test_probe_leftovers.py",
    "test_probe_shards.py",  # six probe runs and their merges
    "test_probe_load.py",  # a slice of the matrix with and without CPU hogs
    "test_probe_wires.py",  # lab probe --cmd on both wires
    "test_probe_thinking_cases.py",  # seventeen probe runs of hand_loop.py
}
# Tests that need the Debian packages of the README's "Testing needs" (a browser, pdftotext, a
# CJK font) are slow-tier too, so the quick tier passes on a machine without them: every test
# that asks for the `chromium` fixture, and these (a test's name, or one case of it), which draw
# a Chinese worksheet (a CJK font) or read a PDF back (pdftotext).
NEEDS_PACKAGES = {
    "test_teacher_kit.py": {
        "test_the_worksheet_has_a_line_for_every_question",
        "test_the_worksheet_s_layout_in_order_two_pages_no_orphan_no_bad_wrap",
    },
    "test_zh.py": {
        "test_what_the_teachers_commands_say_once_written_is_chinese[--lang zh-worksheet]",
        "test_what_the_teachers_commands_say_once_written_is_chinese[LAB_LANG=zh-worksheet]",
    },
}


def names(item: pytest.Item) -> set[str]:
    """The names a table here may know a test by: its function's, and its case's."""
    return {getattr(item, "originalname", item.name), item.name}


def slow(item: pytest.Item) -> bool:
    """Whether `item` belongs to the slow tier."""
    if item.path.name in SLOW_FILES or "chromium" in getattr(item, "fixturenames", ()):
        return True
    return bool(names(item) & NEEDS_PACKAGES.get(item.path.name, set()))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the slow tier; the heavy files first (a stable sort: every file keeps its order)."""
    named = {(item.path.name, name) for item in items for name in names(item)}
    collected = {item.path.name for item in items}
    for file, tests in NEEDS_PACKAGES.items():
        if file in collected and (lost := {t for t in tests if (file, t) not in named}):
            raise pytest.UsageError(f"tests/conftest.py NEEDS_PACKAGES names no test {lost}")
    for item in items:
        if slow(item):
            item.add_marker(pytest.mark.slow)
    rank = {name: place for place, name in enumerate(HEAVY_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


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


class HostLeak(BaseException):
    """Raised by the guard inside the forbidden call, so the call never happens; a
    BaseException, so no `except Exception` in the lab can swallow it."""


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _loopback(address: object) -> bool:
    host = address[0] if isinstance(address, tuple) else address
    return host in ("127.0.0.1", "::1", "localhost")


def _writing(mode: object, flags: int) -> bool:
    if isinstance(mode, str):
        return any(c in mode for c in "wax+")
    return bool(flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND))


def _leak(event: str, args: tuple) -> str | None:
    """What is wrong with this audit event, or None when it is harmless."""
    if event == "socket.connect" and _loopback(args[1]):
        return None  # the loopback fake server is part of the lab, not the host's network
    if event in _FORBIDDEN:
        return f"{event}{args!r:.120}"
    if event == "open" and isinstance(args[0], str) and _writing(args[1], args[2]):
        path = os.path.realpath(args[0])
        # Allowed: the temp folder, but not the current folder or the home folder when a
        # test moved them inside it (unless they hold the whole temp folder, as / would).
        mine = [os.path.realpath(f) for f in (os.getcwd(), os.path.expanduser("~"))]
        forbidden = [f for f in mine if not _inside(_TMP, f)]
        if not _inside(path, _TMP) or any(_inside(path, f) for f in forbidden):
            return f"open({args[0]!r}, {args[1]!r})"
    return None


def _audit(event: str, args: tuple) -> None:
    if not _GUARD["on"]:
        return
    if (leak := _leak(event, args)) is not None:
        _GUARD["seen"].append(leak)
        raise HostLeak(leak)


sys.addaudithook(_audit)


@pytest.fixture
def host_guard():
    """Records and stops every subprocess, socket connection, deletion or write outside the
    temp folder (or inside the current or home folder): the forbidden call raises HostLeak
    before it happens. Python writes no bytecode caches meanwhile (they are not the lab's)."""
    _GUARD["seen"] = []
    _GUARD["on"] = True
    bytecode, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        yield _GUARD["seen"]
    finally:
        _GUARD["on"] = False
        sys.dont_write_bytecode = bytecode


@pytest.fixture
def lab(capsys, monkeypatch):
    """Run `lab ARGV...` in-process at 100 columns; returns (exit code, stdout, stderr)."""
    from lab.cli import main

    monkeypatch.setenv("COLUMNS", "100")

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture(autouse=True)
def _english_locale(monkeypatch):
    """Every test starts in English whatever the machine's locale (`--lang` defaults to zh under
    LAB_LANG=zh or a Chinese locale): a test that wants Chinese says so."""
    monkeypatch.delenv("LAB_LANG", raising=False)
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")


@pytest.fixture
def host_leak() -> type[BaseException]:
    """The exception the host guard raises inside a forbidden call."""
    return HostLeak


def _result_of(run, call_id: str = "toolu_c") -> dict:
    """The one tool_result a run's history holds for `call_id` (exactly one, or the test fails)."""
    (result,) = [
        block
        for message in run.messages
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result" and block["tool_use_id"] == call_id
    ]
    return result


@pytest.fixture
def result_of():
    """`result_of(run, call_id="toolu_c")`: the tool_result a run's history holds for a call."""
    return _result_of


CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]


def run_chromium(folder: Path, *args: str) -> str:
    """Headless Chromium, its profile and HOME inside `folder` (nothing written elsewhere);
    what it printed (`--dump-dom`: the page after its scripts ran)."""
    assert shutil.which("chromium"), "chromium needed: see the README's 'Testing needs'"
    return subprocess.run(
        ["chromium", *CHROMIUM_FLAGS, f"--user-data-dir={folder / 'profile'}", *args],
        check=True,
        capture_output=True,
        text=True,
        timeout=180,
        env={**os.environ, "HOME": str(folder)},
    ).stdout


@pytest.fixture(scope="session")
def chromium():
    """run_chromium(folder, *args), for the tests that look at a page as a browser shows it."""
    return run_chromium
