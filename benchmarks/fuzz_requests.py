"""The request fuzz over loopback, beyond the CI profile: bodies and HTTP frames thrown at one
loopback FakeServer (lab/testing/request_fuzz.py), and what came back. The bodies carry signed
thinking blocks, images in tool results and thinking settings, and break issue 28's rules.

    .venv/bin/python benchmarks/fuzz_requests.py                      # 6,000 bodies, 4,500 frames
    .venv/bin/python benchmarks/fuzz_requests.py --bodies 200 --frames 200 --seed 7
    .venv/bin/python benchmarks/fuzz_requests.py --wire chat         # POST /v1/chat/completions

Every count below the statuses must be 0: answers >= 500, dropped connections, tracebacks on
stderr, answers not in the API's shape, bodies answered but not on the tap's record
(lab/kernel/record.py) as answered, and bodies whose verdict over loopback (the incremental
judge, carrying every history before) differs from a fresh fake's verdict on the same bytes.
Exit 1 when one is not.
"""

from __future__ import annotations

import argparse
import sys
import time

from lab.kernel.errors import at_least_one
from lab.testing.request_fuzz import run

PROBLEMS = ("answers_5xx", "dropped", "tracebacks", "misshapen", "unrecorded", "verdicts_differ")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bodies", type=at_least_one, default=6000, help="well-framed bodies")
    parser.add_argument("--frames", type=at_least_one, default=4500, help="frames of any shape")
    parser.add_argument("--big", type=int, default=2, help="frames over the 32 MB limit")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--wire", choices=("messages", "chat"), default="messages")
    args = parser.parse_args(argv)
    started = time.monotonic()
    tally = run(args.bodies, args.frames, seed=args.seed, big=args.big, wire=args.wire)
    seconds = time.monotonic() - started
    print(f"bodies {tally.bodies}, frames {tally.frames}: {tally.bodies + tally.frames} requests")
    print(f"  in {seconds:.0f} s, seed {args.seed}, wire {args.wire}")
    print("statuses  " + ", ".join(f"{s}: {n}" for s, n in sorted(tally.statuses.items())))
    for name in PROBLEMS:
        print(f"{name.replace('_', ' '):<16} {getattr(tally, name)}")
    for example in tally.examples:
        print(f"  {example}")
    return 1 if any(getattr(tally, name) for name in PROBLEMS) else 0


if __name__ == "__main__":
    sys.exit(main())
