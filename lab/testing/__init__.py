"""Property-based testing of the harness: generated cases, named invariants, the kill matrix.

- `lab.testing.strategies`: hypothesis strategies for whole scripted conversations, rule
  sets, human answers, hook sets and extra tools (they need `hypothesis` installed); one name
  for its rooms: pools, weighted, conversations, api_faults, generated_cases, focus.
- `lab.testing.invariants`: the promises of the reference harness, each a query over a Run.
- `lab.testing.search`: the kill matrix (every switch against every invariant) and the hunt
  for the smallest counterexample, written out as an experiment file by `lab.testing.case_file`.
- `lab.testing.catalog`: the named hooks, tools and human policies generated cases use.

This package itself imports no hypothesis, so a hunted experiment file runs without it; its
names load on first use (PEP 562 `__getattr__`), so an experiment file that takes a tool from
the catalog does not import the invariants (and through them the SDK). The type checker reads
them from the `TYPE_CHECKING` imports instead, so each keeps its type.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from lab.lazy import lazy_exports

if TYPE_CHECKING:  # never run: where the type checker finds each name below
    from lab.testing.case import Case, RuleSet
    from lab.testing.invariants import BY_NAME, INVARIANTS, Invariant, broken, invariant_holds

# A list written out, not computed: type checkers and linters read `__all__` as it is written.
__all__ = ["BY_NAME", "INVARIANTS", "Case", "Invariant", "RuleSet", "broken", "invariant_holds"]

# submodule -> the names it defines, for the run time (tests/test_public_api.py checks that
# this table, the imports above and `__all__` name the same things)
SUBMODULES = {
    "case": ("Case", "RuleSet"),
    "invariants": ("BY_NAME", "INVARIANTS", "Invariant", "broken", "invariant_holds"),
}
EXPORTS = {name: module for module, names in SUBMODULES.items() for name in names}
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
