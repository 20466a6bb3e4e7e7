"""`lab probe --shard K/N`: which cells of the matrix the K-th of N machines runs.

A cell (one target × one case) is the unit: both answer modes of a case run in the same shard, so
each shard judges its cells whole. The split is computed from the run's definition alone (its
targets and cases in order, and bench.py's table of case costs), never from the machine: N
machines that run the same command with K = 1..N get disjoint shards that cover the matrix,
whatever each has installed. Cells are dealt longest first, each to the shard with the least
work so far (the classic longest-processing-time rule), so no shard is left with every slow case.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from lab.probe.cases import Case

T = TypeVar("T")

# A case's cost is bench.py's table of measured trial seconds (SLOW: retries with backoff, the
# retry-afters, the long runs; also what the scheduler starts first); a case not in it takes
# about a second (benchmarks/probe.py --costs measures them). A cell costs its case's seconds
# once per answer mode it runs in.
OTHER_CASE_SECONDS = 1.0

SHARD = re.compile(r"(\d+)/(\d+)")


@dataclass(frozen=True)
class Shard:
    """The K-th of N shards (1-based, as CI job matrices count)."""

    k: int
    n: int

    def __str__(self) -> str:
        return f"{self.k}/{self.n}"


def parse_shard(text: str) -> Shard:
    """`K/N` with 1 <= K <= N; ValueError with one readable line otherwise."""
    found = SHARD.fullmatch(text.strip())
    if found is None:
        raise ValueError(f"--shard {text!r}: expected K/N, e.g. 1/4")
    k, n = int(found[1]), int(found[2])
    if n < 1 or not 1 <= k <= n:
        raise ValueError(f"--shard {text}: K must be between 1 and N (1/{max(n, 1)} to {n}/{n})")
    return Shard(k, n)


def cell_cost(case: str, modes: int) -> float:
    """The seconds a cell takes: its case's, once per answer mode."""
    from lab.probe.bench import SLOW

    return SLOW.get(case, OTHER_CASE_SECONDS) * modes


def matrix_costs(pairs: Sequence[tuple[Any, Case]]) -> list[float]:
    """The cost of each (target, case) cell of a matrix."""
    from lab.probe.bench import case_modes

    return [cell_cost(case.id, len(case_modes(case))) for _, case in pairs]


def deal(costs: Sequence[float], n: int) -> list[int]:
    """For each cell (by its cost, in matrix order), the 1-based shard it goes to: longest
    first (the earlier cell on a tie), each to the least loaded shard (the lowest on a tie)."""
    loads = [0.0] * n
    shard_of = [0] * len(costs)
    for index in sorted(range(len(costs)), key=lambda i: (-costs[i], i)):
        lightest = min(range(n), key=lambda s: (loads[s], s))
        loads[lightest] += costs[index]
        shard_of[index] = lightest + 1
    return shard_of


def chosen(cells: Sequence[T], costs: Sequence[float], shard: Shard) -> list[T]:
    """The cells (in matrix order) that `shard` runs."""
    shard_of = deal(costs, shard.n)
    return [cell for cell, k in zip(cells, shard_of, strict=True) if k == shard.k]
