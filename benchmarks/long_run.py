"""What a long conversation costs the fake API: its time per request, and the run's peak memory.

1. The fake's own CPU time per request over a conversation of `--turns` tool-calling turns:
   the requests the lab's harness sends through the real SDK are recorded, then answered by a
   fresh fake (median and last request, best of a few rounds). A request whose history was
   already judged is judged only where it grew, so the median stays small however long the
   conversation is.
2. The peak resident memory of one `run_scenario` of `--long` turns, measured in a fresh
   subprocess (so nothing this process imported or allocated counts). The fake keeps each
   message once, however many requests resend it.

Run it as:  python benchmarks/long_run.py [--turns 200] [--long 500] [--rounds 3]
"""

from __future__ import annotations

import argparse
import gc
import resource
import statistics
import subprocess
import sys
import time

import anthropic
import httpx2

from lab.harness.layers import Layers
from lab.harness.loop import Harness
from lab.harness.tools import ToolRegistry
from lab.model import FakeMessagesAPI, ScriptedModel, Turn, tool_use, turn
from lab.model.client import FAKE_BASE_URL
from lab.scenario import Scenario, run_scenario
from lab.trace import Trace
from lab.world import World, course_tools

TARGET_MS = 0.3  # the fake's median time per request at 200 turns
TARGET_MIB = 150  # peak RSS of a 500-turn run_scenario


def script(turns: int) -> list[Turn]:
    """`turns` turns that each call bash, then one final text turn."""
    return [*(turn(tool_use("bash", {"command": "echo hi"})) for _ in range(turns)), turn("Done.")]


def recorded_requests(turns: int, stream: bool) -> list[httpx2.Request]:
    """The requests the lab's harness sends in a run of `turns` turns, as they crossed the wire."""
    api = FakeMessagesAPI(ScriptedModel(script(turns)))
    sent: list[httpx2.Request] = []

    def recording(request: httpx2.Request) -> httpx2.Response:
        sent.append(request)
        return api(request)

    client = anthropic.Anthropic(
        api_key="sk-lab-fake",
        base_url=FAKE_BASE_URL,
        max_retries=0,
        http_client=httpx2.Client(transport=httpx2.MockTransport(recording)),
    )
    world = World.create()
    layers = Layers(ToolRegistry(course_tools(world)), Trace(), world)
    harness = Harness(client, layers, stream=stream, max_turns=turns + 5)
    harness.run("Say hi, many times.")
    if harness.ended != "done" or api.rejections or len(sent) != turns + 1:
        raise SystemExit(f"the run went wrong: {harness.ended}, {api.rejections[:1]}")
    return sent


def request_times(requests: list[httpx2.Request], turns: int) -> list[float]:
    """A fresh fake answers the recorded requests: its CPU seconds for each one. (Replayed
    apart from the harness, so the harness's own garbage does not count against the fake.)"""
    api = FakeMessagesAPI(ScriptedModel(script(turns)))
    times = []
    for request in requests:
        started = time.thread_time()  # CPU time: other processes on the machine do not count
        response = api(request)
        response.read()
        times.append(time.thread_time() - started)
        if response.status_code != 200:
            raise SystemExit(f"the replay went wrong: {response.read()[:200]!r}")
    return times


def peak_rss_mib(turns: int) -> float:
    """Peak RSS of a fresh interpreter that imports the lab and runs `turns` turns."""
    child = subprocess.run(
        [sys.executable, __file__, "--child", str(turns)],
        capture_output=True,
        text=True,
        check=True,
    )
    return float(child.stdout)


def child(turns: int) -> None:
    if turns:
        run = run_scenario(Scenario(script(turns), max_turns=turns + 5))
        if run.ended != "done":
            raise SystemExit(f"the run ended {run.ended!r}")
    print(_peak_kib() / 1024)


def _peak_kib() -> float:
    """This process's peak RSS. VmHWM, not ru_maxrss: Linux carries ru_maxrss over from the
    parent across fork and exec, so a child would report the benchmark's own size."""
    try:
        with open("/proc/self/status") as status:
            return next(float(line.split()[1]) for line in status if line.startswith("VmHWM:"))
    except OSError:  # no /proc: the rusage figure (KiB on Linux, bytes on macOS)
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200, help="turns for the time per request")
    parser.add_argument("--long", type=int, default=500, help="turns for the peak memory")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best one is kept")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        child(args.child)
        return 0
    if min(args.turns, args.long, args.rounds) < 1:
        parser.error("--turns, --long and --rounds must be at least 1")

    print(f"the fake's CPU time per request, {args.turns} turns, best of {args.rounds} rounds")
    medians = {}
    for mode, stream in (("create", False), ("stream", True)):
        requests = recorded_requests(args.turns, stream)
        rounds = []
        for _ in range(args.rounds):
            gc.collect()
            rounds.append(request_times(requests, args.turns))
        best = min(rounds, key=statistics.median)
        medians[mode] = statistics.median(best) * 1000
        print(f"  {mode:<7} median {medians[mode]:.3f} ms   last request {best[-1] * 1000:.3f} ms")

    imports = peak_rss_mib(0)
    peak = peak_rss_mib(args.long)
    print(f"peak RSS of run_scenario, {args.long} turns: {peak:.1f} MiB")
    print(f"  (a fresh interpreter that only imports the lab: {imports:.1f} MiB)")
    print()
    verdict = "PASS" if medians["create"] <= TARGET_MS else "FAIL"
    print(f"target: median <= {TARGET_MS} ms per request at {args.turns} turns -> {verdict}")
    verdict = "PASS" if peak <= TARGET_MIB else "FAIL"
    print(f"target: peak RSS <= {TARGET_MIB} MiB at {args.long} turns -> {verdict}")
    return 0  # a benchmark reports; a run that went wrong has already exited with an error


if __name__ == "__main__":
    sys.exit(main())
