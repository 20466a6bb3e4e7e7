"""Property-based testing of the harness: generated cases, named invariants, the kill matrix.

- `lab.testing.strategies`: hypothesis strategies for whole scripted conversations, rule
  sets, human answers, hook sets and extra tools (they need `hypothesis` installed).
- `lab.testing.invariants`: the promises of the reference harness, each a query over a Run.
- `lab.testing.search`: the kill matrix (every switch against every invariant) and the hunt
  for the smallest counterexample, written out as an experiment file by `lab.testing.render`.
- `lab.testing.catalog`: the named hooks, tools and human policies generated cases use.

This package itself imports no hypothesis, so a hunted experiment file runs without it.
"""

from lab.testing.case import Case, RuleSet
from lab.testing.invariants import BY_NAME, INVARIANTS, Invariant, broken, invariant_holds

__all__ = ["BY_NAME", "INVARIANTS", "Case", "Invariant", "RuleSet", "broken", "invariant_holds"]
