"""The fuzz of model answers with the API's faults, at the CI profile: how many examples ran,
how many faults of each kind they injected, how many calls max_tokens cut and how many of those
ran (must be 0), and how many crashed the reference harness (or broke any other invariant).

    .venv/bin/python benchmarks/fuzz_answers.py            # the CI profile (50 per property)
    .venv/bin/python benchmarks/fuzz_answers.py --examples 500

The strategies and the example count are those of tests/test_properties.py's fault
properties under the `lab-ci` profile (hypothesis's derandomized `ci` profile, 50 examples).
"""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis.strategies import SearchStrategy

from lab.model import ApiError, CutOff, StreamDropped, StreamError
from lab.testing import INVARIANTS, Case, broken
from lab.testing.strategies import cut_cases, fault_cases

KIND = {StreamError: "stream_error", StreamDropped: "stream_dropped", CutOff: "cut_off"}


def kind(step: object) -> str | None:
    if isinstance(step, ApiError):
        return f"http_{step.status}"
    return KIND.get(type(step))


def fuzz(examples: int) -> Counter[str]:
    counts: Counter[str] = Counter()
    profile = settings(
        settings.get_profile("ci"),
        max_examples=examples,
        deadline=None,
        suppress_health_check=list(HealthCheck),
    )

    def run(name: str, case: Case) -> None:
        counts["examples"] += 1
        counts[f"examples from {name}"] += 1
        for step in case.script:
            if (found := kind(step)) is not None:
                counts["faults injected"] += 1
                counts[f"  {found}"] += 1
        run = case.run()
        problems = broken(run, INVARIANTS)
        counts["cut calls made"] += len(run.api.cut_calls)
        counts["cut calls run"] += any(inv.name == "cut_calls" for inv, _ in problems)
        counts["crashes"] += any(inv.name == "no_crash" for inv, _ in problems)
        counts["invariants broken"] += len(problems)

    def prop(name: str, strategy: SearchStrategy[Case]) -> Callable[[], None]:
        @profile
        @given(strategy)
        def one(case: Case) -> None:
            run(name, case)

        return one

    for name, strategy in (("fault_cases", fault_cases()), ("cut_cases", cut_cases())):
        prop(name, strategy)()
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--examples", type=int, default=50, help="per strategy (CI: 50)")
    counts = fuzz(parser.parse_args().examples)
    order = ["examples", "examples from fault_cases", "examples from cut_cases", "faults injected"]
    order += sorted(k for k in counts if k.startswith("  "))
    order += ["cut calls made", "cut calls run", "crashes", "invariants broken"]
    for key in order:
        print(f"{key:28} {counts[key]}")


if __name__ == "__main__":
    main()
