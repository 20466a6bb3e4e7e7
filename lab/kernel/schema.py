"""jsonschema, imported the first time the lab validates, without a format parser it never uses.

The lab's validators check types, required and unknown fields; they are built without a format
checker, so a schema's `format` is only an annotation. jsonschema still imports, when installed,
the parsers its format checker could use, and one of them is costly: `rfc3987_syntax` (brought by
Jupyter's `jsonschema[format-nongpl]`, so by the notebooks extra) builds a grammar as it is
imported, about 1 CPU second, as long as the SDK's whole import. So jsonschema is imported here
on first use (never by `lab list` or `lab --help`), with that module hidden meanwhile: in this
process jsonschema's own format checker then lacks the `iri` formats, which the lab never asks
for. A program that imported jsonschema before the lab keeps its own import untouched.
"""

from __future__ import annotations

import importlib
import sys
import threading
from types import ModuleType

# Optional imports of jsonschema's format checker that cost more than the lab can spend.
UNUSED = ("rfc3987_syntax",)


_IMPORTING = threading.Lock()  # the server answers on many threads: one imports, others wait


def jsonschema() -> ModuleType:
    """The `jsonschema` module, imported now if it is not yet (whole: a thread that asks while
    another imports it waits, instead of reading a half-made module)."""
    with _IMPORTING:
        if "jsonschema" in sys.modules:  # import_module waits for a module still being made
            return importlib.import_module("jsonschema")
        return _import_without_unused()


def _import_without_unused() -> ModuleType:
    hidden = [name for name in UNUSED if name not in sys.modules]
    for name in hidden:
        sys.modules[name] = None  # type: ignore[assignment]  # `import name` raises ImportError
    try:
        return importlib.import_module("jsonschema")
    finally:
        for name in hidden:
            if sys.modules.get(name, ...) is None:
                del sys.modules[name]  # importable again by anyone who wants it
