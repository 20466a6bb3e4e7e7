"""Property-based testing of the harness: generated cases, named invariants, the kill matrix.

- `lab.testing.strategies`: hypothesis strategies for whole scripted conversations, rule
  sets, human answers, hook sets and extra tools (they need `hypothesis` installed).
- `lab.testing.invariants`: the promises of the reference harness, each a query over a Run.
- `lab.testing.search`: the kill matrix (every switch against every invariant) and the hunt
  for the smallest counterexample, written out as an experiment file by `lab.testing.case_file`.
- `lab.testing.catalog`: the named hooks, tools and human policies generated cases use.

This package itself imports no hypothesis, so a hunted experiment file runs without it; its
names load on first use (PEP 562 `__getattr__`), so an experiment file that takes a tool from
the catalog does not import the invariants (and through them the SDK).
"""

from __future__ import annotations

from lab.lazy import lazy_exports

# name -> the submodule that defines it
EXPORTS = {
    "Case": "case",
    "RuleSet": "case",
    "BY_NAME": "invariants",
    "INVARIANTS": "invariants",
    "Invariant": "invariants",
    "broken": "invariants",
    "invariant_holds": "invariants",
}

__all__ = sorted(EXPORTS)
__getattr__, __dir__ = lazy_exports(__name__, EXPORTS)
