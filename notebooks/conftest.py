"""`pytest --nbmake notebooks` runs the notebooks' sources: each NN_name.py (jupytext percent
format) is turned into a notebook in a temporary folder and executed by nbmake, top to bottom.

The .py files are the only copy: diffable, editable by a teacher in any editor, and opened as
notebooks by Jupyter with jupytext installed (`pip install -e '.[notebooks]'`).
"""

from __future__ import annotations

import importlib.util
import os
import re
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import jupytext
import pytest
from nbmake.nb_run import NotebookRun
from nbmake.pytest_items import NotebookFailedException, NotebookItem

SOURCE = re.compile(r"\d\d_\w+\.py")
# Notebooks that run the session's shared `lab probe` command (tests/shared_probe.py): their kernel
# is handed its result (lab/notebook/probe_inline.py: LAB_PROBE_SHARED) instead of running it again.
SHARED_PROBE = {"08_real_harnesses.py"}
# The slow tier (`pytest -m slow`, tests/conftest.py): the notebook that hunts with hypothesis and
# the one that reads the shared probe of the real peers (in the tier of its two other readers).
SLOW = {"07_hypothesis_hunt.py", "08_real_harnesses.py"}

# The kernels' IPython profile lives in a temporary folder, not ~/.ipython: the suite writes
# nothing outside the temp folder. (Removed when the test run ends.)
_PROFILES = tempfile.TemporaryDirectory(prefix="lab-ipython-")
os.environ["IPYTHONDIR"] = _PROFILES.name


class PercentNotebook(NotebookItem):
    """nbmake's notebook item, fed from a percent-format source."""

    def runtest(self) -> None:
        option = self.config.option
        notebook = jupytext.read(self.filename)
        with tempfile.TemporaryDirectory() as folder, self.shared_probe():
            path = Path(folder) / Path(self.filename).with_suffix(".ipynb").name
            jupytext.write(notebook, path)
            result = NotebookRun(
                path, option.nbmake_timeout, verbose=bool(option.verbose), kernel=option.nbmake_kernel
            ).execute()
        if result.error is not None:
            raise NotebookFailedException(result)

    @contextmanager
    def shared_probe(self) -> Iterator[None]:
        """For a notebook of SHARED_PROBE: LAB_PROBE_SHARED names the session's probe result
        while its kernel starts (the kernel inherits the environment)."""
        if Path(self.filename).name not in SHARED_PROBE:
            yield
            return
        source = Path(__file__).parent.parent / "tests" / "shared_probe.py"
        spec = importlib.util.spec_from_file_location("shared_probe", source)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        shared = module.shared_file(self.config._tmp_path_factory)  # type: ignore[attr-defined]
        os.environ["LAB_PROBE_SHARED"] = str(shared)
        try:
            yield
        finally:
            del os.environ["LAB_PROBE_SHARED"]


class PercentNotebookFile(pytest.File):
    def collect(self):
        yield PercentNotebook.from_parent(self, filename=str(self.path))


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Collector | None:
    if parent.config.option.nbmake and SOURCE.fullmatch(file_path.name):
        return PercentNotebookFile.from_parent(parent, path=file_path)
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if isinstance(item, PercentNotebook) and item.path.name in SLOW:
            item.add_marker(pytest.mark.slow)


class NotebookSource(pytest.File):
    """A notebook's source named on the command line (`pytest --nbmake notebooks/08_x.py`), seen
    as a Python file: it holds no tests, and importing it would run the whole notebook once more
    outside its kernel."""

    def collect(self):
        return []


def pytest_pycollect_makemodule(module_path: Path, parent: pytest.Collector) -> pytest.File | None:
    if SOURCE.fullmatch(module_path.name):
        return NotebookSource.from_parent(parent, path=module_path)
    return None
