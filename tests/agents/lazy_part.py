"""Imported by lazy_import.py during its run: notes the import in the working folder."""

from pathlib import Path

Path("lazy-imported.txt").write_text("imported\n", encoding="utf-8")
