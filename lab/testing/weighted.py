"""`weighted`: hypothesis's one_of, but each option drawn as often as its weight says."""

from __future__ import annotations

import warnings
from typing import TypeVar

from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning

T = TypeVar("T")

# While shrinking, hypothesis may try to map a case back onto a strategy branch that cannot
# produce it, and then spells out that branch: these strategies print to well over 50 kB, and
# it warns about the size. Nothing is wrong; the message is noise in `lab matrix` output.
warnings.filterwarnings("ignore", "Generating overly large repr", HypothesisWarning)


def _copy(value: T, number: int) -> T:
    return value


def weighted(*options: tuple[int, st.SearchStrategy[T]]) -> st.SearchStrategy[T]:
    """Like one_of, but (n, strategy) is drawn n times as often as a weight of 1; shrinks
    towards the first option. (A plain one_of flattens nested one_ofs, so it would weight
    each option by how many branches it happens to have.)"""
    # Each copy is its own builds(): one branch, never flattened into the option's branches.
    # The copy's number keeps copies apart: hypothesis caches builds() and one_of drops
    # duplicate branches.
    copies = [strategy for n, strategy in options for _ in range(n)]
    return st.one_of([st.builds(_copy, s, st.just(i)) for i, s in enumerate(copies)])
