"""The `lab` command starts quickly: `lab --help` and `lab list` import neither the SDK nor
jsonschema, and the lab imports jsonschema without the grammar it builds for a format the lab
never checks (lab/kernel/schema.py). The times themselves are benchmarks/startup.py's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
HEAVY = ("anthropic", "httpx2", "hypothesis", "jsonschema")


def python(code: str, *argv: str, path: Path | None = None) -> subprocess.CompletedProcess:
    """`python -c CODE ARGV` with this checkout's lab (and `path` first, when given)."""
    where = [str(path)] if path else []
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([*where, str(ROOT)])}
    return subprocess.run(
        [sys.executable, "-c", code, *argv], env=env, capture_output=True, text=True
    )


@pytest.mark.parametrize("argv", [["--help"], ["list"], ["list", "--lang", "zh"]])
def test_quick_commands_import_neither_the_sdk_nor_jsonschema(argv):
    check = (
        "import sys; from lab.cli import main; code = main(sys.argv[1:]); "
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules]; "
        "assert code == 0 and not heavy, heavy"
    )
    done = python(check, *argv)
    assert done.returncode == 0, done.stderr[-500:]


# A stand-in for the costly module: importing it is seen (as building its grammar would be).
STAND_IN = "import os\nos.environ['RFC3987_IMPORTED'] = 'yes'\ndef is_valid_syntax(*a): 1\n"


def test_jsonschema_is_imported_without_rfc3987_syntax_which_stays_importable(tmp_path):
    (tmp_path / "rfc3987_syntax.py").write_text(STAND_IN)
    check = """
import os, sys
from lab.cli import main
assert main(["run", "D9"]) == 0  # validation ran: jsonschema was needed
assert "jsonschema" in sys.modules
assert "RFC3987_IMPORTED" not in os.environ, "the lab imported rfc3987_syntax"
import rfc3987_syntax  # still there for anyone who wants it
assert os.environ["RFC3987_IMPORTED"] == "yes"
"""
    done = python(check, path=tmp_path)
    assert done.returncode == 0, done.stderr[-800:]


def test_a_jsonschema_imported_before_the_lab_is_the_one_it_uses(tmp_path):
    (tmp_path / "rfc3987_syntax.py").write_text(STAND_IN)
    check = """
import os
import jsonschema
from lab.kernel.schema import jsonschema as lab_jsonschema
assert lab_jsonschema() is jsonschema and os.environ["RFC3987_IMPORTED"] == "yes"
"""
    done = python(check, path=tmp_path)
    assert done.returncode == 0, done.stderr[-800:]


def test_threads_that_ask_for_jsonschema_at_once_each_get_the_whole_module():
    """`lab serve` answers on many threads: a thread that asks while another imports must wait
    for the whole module (it once read a half-made one: no Draft202012Validator, a 500)."""
    check = """
import threading
from lab.kernel.schema import jsonschema
start, failed = threading.Barrier(16), []
def ask():
    start.wait()
    try:
        jsonschema().Draft202012Validator.check_schema({"type": "object"})
    except Exception as error:
        failed.append(repr(error))
threads = [threading.Thread(target=ask) for _ in range(16)]
for thread in threads: thread.start()
for thread in threads: thread.join()
assert not failed, failed
"""
    for _ in range(5):  # a fresh interpreter each time: the race is at the first import
        done = python(check)
        assert done.returncode == 0, done.stderr[-800:]
