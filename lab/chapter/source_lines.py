"""Where a declared field is written in a file: the line of a keyword, a dict key or a list item.

An experiment file is checked after it ran, on the values it built; to say `FILE:LINE` the
checker asks this module where a field was spelt, by reading the file's syntax tree (`ast`).
"""

from __future__ import annotations

import ast
from pathlib import Path

Where = tuple[str | int, ...]  # ("flips", "pair_protection"), ("scenario", "script", 2), ...


class SourceLines:
    """The keyword arguments of one file, to find the line a field is written on."""

    def __init__(self, path: Path) -> None:
        try:
            self.tree: ast.AST | None = ast.parse(path.read_text(encoding="utf-8"))
        except (OSError, SyntaxError, ValueError):
            self.tree = None

    def keywords(self, name: str, inside: ast.AST | None = None) -> list[ast.keyword]:
        root = inside if inside is not None else self.tree
        if root is None:
            return []
        found = [n for n in ast.walk(root) if isinstance(n, ast.keyword) and n.arg == name]
        return sorted(found, key=lambda n: (n.lineno, n.col_offset))

    def line(self, where: Where) -> int:
        """The line of the deepest part of `where` that can be found (1 if none)."""
        node: ast.AST | None = None
        for part in where:
            found = self._step(node, part)
            if found is None:
                break
            node = found
        if node is None:
            node = self._assignment("EXPERIMENT")
        return getattr(node, "lineno", 1)

    def _step(self, node: ast.AST | None, part: str | int) -> ast.AST | None:
        value = node.value if isinstance(node, ast.keyword) else node
        if isinstance(part, int):  # an item of a list or tuple written out in place
            if isinstance(value, ast.List | ast.Tuple) and part < len(value.elts):
                return value.elts[part]
            return None
        if isinstance(value, ast.Dict):  # a key of a dict written out in place
            for key in value.keys:
                if isinstance(key, ast.Constant) and key.value == part:
                    return key
        nested = self.keywords(part, value) if value is not None else []
        if nested:
            return nested[0]
        if node is None or not isinstance(value, ast.Call):
            # A keyword written elsewhere in the file (a scenario built before the experiment).
            found = self.keywords(part)
            return found[0] if found else None
        return None

    def _assignment(self, name: str) -> ast.AST | None:
        if self.tree is None:
            return None
        for node in ast.walk(self.tree):
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == name for t in node.targets
            ):
                return node
        return None


def declared_id(path: Path) -> str | None:
    """The `id="..."` an experiment file declares, read without running the file."""
    tree = SourceLines(path).tree
    for node in ast.walk(tree) if tree is not None else ():
        if (
            isinstance(node, ast.keyword)
            and node.arg == "id"
            and isinstance(node.value, ast.Constant)
            and isinstance(node.value.value, str)
        ):
            return node.value.value
    return None
