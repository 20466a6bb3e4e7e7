"""`lab probe --all` on a slice of its cases (SLICE: every target starts, runs a tool, meets a deny
rule), run once as a user runs it: the README's matrix says what it measures (the whole matrix
is compared by tests/matrix_check.py, a step of .ci/run: it takes minutes), its HTML report
reads right in a real browser, and — watched by strace from outside — it writes nothing
outside the temp folder and connects to nothing beyond loopback. The run is the session's one
(tests/shared_probe.py): tests/test_peers.py and notebook 08 read it too.

How the safety proof works: the whole command runs under `strace -f` (every process it starts,
the network namespace, the targets and their children), tracing every call that creates, changes
or removes a file, changes folder, or connects. Absolute paths and paths relative to an open folder
(strace -y names it) must lie in the temp folder; a relative path must have no `..`, and every
folder change must land in the temp folder, so relative paths do too (the command starts there).
Every IPv4/IPv6 connection must go to 127.0.0.1 or ::1 (inside the namespace nothing else exists).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
import shared_probe
from shared_probe import SLICE

from lab.probe.catalogue import CASES

ROOT = Path(__file__).resolve().parent.parent
DEVICES = ("/dev/null", "/dev/tty", "/dev/pts/", "/proc/")


@pytest.fixture(scope="module")
def probed(tmp_path_factory):
    """`lab probe --all --case SLICE --json --report`, under strace, in a temp folder: the
    session's one run (tests/shared_probe.py), shared with test_peers and notebook 08."""
    run = shared_probe.probed(tmp_path_factory)
    return run.folder, run.result, run.status, run.report


# ---- the README's matrix ------------------------------------------------------------------------
def matrix_check():
    """tests/matrix_check.py (a script of .ci/run), loaded as a module."""
    spec = importlib.util.spec_from_file_location(
        "matrix_check", ROOT / "tests" / "matrix_check.py"
    )
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def readme_matrix() -> dict[tuple[str, str], str]:
    return matrix_check().readme_matrix((ROOT / "README.md").read_text())


def test_the_readme_matrix_is_what_lab_probe_all_measures(tmp_path_factory):
    result = shared_probe.verdicts(tmp_path_factory)  # CI's one whole run, when it names it
    installed = {t["name"] for t in result["targets"] if t["missing"] is None}
    if os.environ.get("CI"):  # CI installs every peer the way the README says
        assert installed == {t["name"] for t in result["targets"]}
    measured = {(c["target"], c["case"]): c["verdict"] for c in result["cells"]}
    pasted = readme_matrix()
    assert {t for t, _ in pasted} == {t["name"] for t in result["targets"]}
    assert {c for _, c in pasted} == {c.id for c in CASES}
    assert {c for _, c in measured} == set(SLICE)
    assert matrix_check().differences(result, pasted) == []


def test_the_exit_status_says_whether_a_target_failed_what_it_claims(probed):
    _, result, status, _ = probed
    cells = {(c["target"], c["case"]): c["verdict"] for c in result["cells"]}
    reference_failed = any(cells[("lab-reference", c)] == "fail" for c in SLICE)
    assert status == (1 if reference_failed else 0)


def test_a_missing_peer_is_one_line_with_the_command_never_a_traceback(probed):
    _, result, _, _ = probed
    for target in result["targets"]:
        if target["missing"] is not None:
            assert target["missing"].startswith("not installed: ")
            cells = [c for c in result["cells"] if c["target"] == target["name"]]
            assert {c["because"] for c in cells} == {target["missing"]}


# ---- safety, watched from outside ---------------------------------------------------------------
WRITE_FLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")
PATH = r'"((?:[^"\\]|\\.)*)"'


def resolve(dirfd: str | None, path: str) -> str | None:
    """An absolute path, or None for a path relative to the current folder."""
    if path.startswith("/"):
        return os.path.normpath(path)
    if dirfd and (found := re.match(r"\d+<(.*)>", dirfd)):
        return os.path.normpath(os.path.join(found.group(1), path))
    return None


def effects(trace: Path) -> tuple[list[str], list[str], list[str], list[str]]:
    """(paths changed, relative paths changed, folders entered, addresses connected to)."""
    changed, relative, entered, connected = [], [], [], []
    call = re.compile(r"^(\w+)\((.*)\) += (-?\d+)")
    for log in trace.iterdir():
        for line in log.read_text(errors="replace").splitlines():
            found = call.match(line)
            if not found or int(found.group(3)) < 0 and "EINPROGRESS" not in line:
                continue
            name, args = found.group(1), found.group(2)
            if name in ("connect", "sendto", "sendmsg"):
                if family := re.search(r"sa_family=(AF_INET6?)", args):
                    address = re.search(r'inet_(?:addr|pton)\((?:AF_INET6, )?"([^"]+)"', args)
                    connected.append(f"{family.group(1)} {address.group(1) if address else '?'}")
                continue
            if name in ("open", "openat", "creat") and name != "creat":
                if not WRITE_FLAGS.search(args):
                    continue
            dirfd = args.split(",")[0] if name.endswith("at") or name == "renameat2" else None
            for path in re.findall(PATH, args):
                target = resolve(dirfd, path)
                if name in ("chdir",):
                    entered.append(target or path)
                elif target is None:
                    relative.append(path)
                else:
                    changed.append(target)
            if name == "fchdir":
                entered.append(re.match(r"\d+<(.*)>", args).group(1))
    return changed, relative, entered, connected


def test_nothing_written_outside_the_temp_folder_and_no_connection_beyond_loopback(probed):
    folder, result, _, _ = probed
    changed, relative, entered, connected = effects(folder / "trace")
    root = str(folder)
    assert changed, "strace saw no file written: the watch itself is broken"
    outside = [p for p in changed if not p.startswith(root) and not p.startswith(DEVICES)]
    assert outside == []
    assert [p for p in relative if ".." in Path(p).parts] == []
    assert [p for p in entered if not p.startswith(root)] == []
    assert connected, "strace saw no connection: the watch itself is broken"
    assert {address.split()[1] for address in connected} <= {"127.0.0.1", "::1"}
    assert result["isolation"] == "network namespace, interfaces: lo"


# ---- the HTML report, as a browser shows it ----------------------------------------------------
class Cells(HTMLParser):
    """The matrix cells' texts and the open <details> a reader sees in the rendered DOM."""

    def __init__(self) -> None:
        super().__init__()
        self.rows: list[list[str]] = []
        self.in_matrix = False
        self.cell: list[str] | None = None
        self.opened: list[str] = []
        self.external: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag == "table":
            self.in_matrix = attributes.get("id") == "matrix"
        elif tag == "tr" and self.in_matrix:
            self.rows.append([])
        elif tag in ("td", "th") and self.in_matrix:
            self.cell = []
        elif tag == "details" and "open" in attributes:
            self.opened.append(attributes["id"])
        for name in ("src", "href"):
            value = attributes.get(name) or ""
            if value and not value.startswith("#"):
                self.external.append(value)

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_matrix = False
        elif tag in ("td", "th") and self.cell is not None and self.rows:
            self.rows[-1].append("".join(self.cell).strip())
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell.append(data)


def test_the_report_reads_right_in_headless_chromium(probed, tmp_path):
    _, result, _, report = probed
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    assert chromium, "chromium is needed to read the report (apt-get install -y chromium)"
    flags = [
        "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
    ]  # fmt: skip
    shown = subprocess.run(
        [chromium, *flags, "--dump-dom", report.as_uri()],
        capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)},
    )  # fmt: skip
    page = Cells()
    page.feed(shown.stdout)
    header, *rows = page.rows
    targets = header[2:]
    assert targets == [t["name"] for t in result["targets"]]
    seen = {
        (target, row[0]): mark
        for row in rows
        for target, mark in zip(targets, row[2:], strict=True)
    }
    assert seen == {(c["target"], c["case"]): c["verdict"] for c in result["cells"]}
    failed = [c for c in result["cells"] if c["verdict"] == "fail"]
    assert len(page.opened) == len(failed)  # a fail's evidence is open on the page
    assert page.external == []  # self-contained: nothing to fetch
    for cell in failed:
        assert cell["because"] in shown.stdout.replace("&amp;", "&")


# ---- notebook 08 reads the same run ------------------------------------------------------------
def test_the_notebook_takes_the_shared_run_only_for_the_same_command(probed, monkeypatch):
    from lab.notebook import probe_inline as bench

    folder, result, _, _ = probed
    monkeypatch.setenv(bench.SHARED, str(folder / "shared.json"))
    assert bench.probe(*shared_probe.ARGS) == result
    assert bench.shared_result(("--all", "--case", "P1")) is None  # another command runs itself
    monkeypatch.delenv(bench.SHARED)
    assert bench.shared_result(shared_probe.ARGS) is None


def test_the_notebook_runs_the_probe_itself_and_says_why_it_failed(monkeypatch):
    from lab.notebook import probe_inline as bench

    monkeypatch.delenv("LAB_PROBE_SHARED", raising=False)
    with pytest.raises(RuntimeError, match="lab probe nonesuch: .*unknown target 'nonesuch'"):
        bench.probe("nonesuch")
