"""What a long conversation costs the fake API: its time per request, and the run's peak memory.

1. The fake's own CPU time per request over a conversation of `--turns` tool-calling turns:
   the requests the lab's harness sends through the real SDK are recorded, then answered by a
   fresh fake (median and last request, best of a few rounds). A request whose history was
   already judged is judged only where it grew, so the median stays small however long the
   conversation is.
2. The peak resident memory of one `run_scenario` of `--long` turns, measured in a fresh
   subprocess (so nothing this process imported or allocated counts). The fake keeps each
   message once, however many requests resend it.
3. `lab serve` over a campaign of `--campaign` harness-like requests (default 10^5; 0 skips
   it): a real `lab serve` process answers conversations that grow turn by turn, call tools and
   start over, over one keep-alive connection; its resident memory (VmRSS) is read before the
   first request, after the first 1,000 (a run's first requests are kept whole for its verdict)
   and after the last. What it keeps is bounded by count, so the last two stay level.

Run it as:  python benchmarks/long_run.py [--turns 200] [--long 500] [--rounds 3]
            python benchmarks/long_run.py --only-campaign [--campaign 100000] [--serve P1 --replay]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time

import httpx2

from lab.harness.layers import Layers
from lab.harness.loop import Harness
from lab.harness.tools import ToolRegistry
from lab.kernel.scenario import Scenario, run_scenario
from lab.kernel.trace import Trace
from lab.model import FakeMessagesAPI, ScriptedModel, Turn, tool_use, turn
from lab.model.client import make_client
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

    client = make_client(recording)
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


SYSTEM = "You are a coding agent. Work in the current folder; use the tools. " * 20
TOOLS = [
    {
        "name": name,
        "description": f"{name}: " + "what the tool does, at length. " * 10,
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    }
    for name in ("read_file", "bash", "write_file")
]
TURNS = 40  # a conversation starts over after this many requests (or when no tool is called)


def rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        return next(float(line.split()[1]) for line in status if line.startswith("VmRSS:")) / 1024


def next_messages(messages: list, reply: dict, turn_number: int) -> list:
    """The history a harness sends next: the reply, then a result for each call it made (or
    the user's next words when it called nothing); every TURNS requests a new conversation."""
    if turn_number % TURNS == 0:
        return [{"role": "user", "content": f"Read notes.txt, then summarise it ({turn_number})."}]
    calls = [b for b in reply["content"] if b.get("type") == "tool_use"]
    results = [
        {"type": "tool_result", "tool_use_id": call["id"], "content": "a line of the file\n" * 8}
        for call in calls
    ]
    said = results or f"Go on with the next part, please ({turn_number})."
    return [
        *messages,
        {"role": "assistant", "content": reply["content"]},
        {"role": "user", "content": said},
    ]


def campaign(requests: int, served: list[str]) -> None:
    """`lab serve SERVED` in a scratch folder, `requests` harness-like requests, its RSS."""
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "lab", "serve", *served],
            stdout=subprocess.PIPE,
            text=True,
            cwd=folder,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert server.stdout is not None
        url = server.stdout.readline().split("=", 1)[1].strip()
        threading.Thread(target=server.stdout.read, daemon=True).start()  # one line a request
        before = rss_mib(server.pid)
        marks = {}
        messages = next_messages([], {}, 0)  # the first conversation's first request
        started = time.perf_counter()
        with httpx2.Client(base_url=url, timeout=60) as http:
            for n in range(1, requests + 1):
                body = {"model": "m", "max_tokens": 1024, "system": SYSTEM, "tools": TOOLS}
                reply = http.post("/v1/messages", json={**body, "messages": messages}).json()
                messages = next_messages(messages, reply, n)
                if n in (1000, requests):
                    marks[n] = rss_mib(server.pid)
        wall = time.perf_counter() - started
        server.terminate()
        server.wait(timeout=60)
    shown = " ".join(served) or "(no script)"
    print(f"lab serve {shown}: {requests} harness-like requests in {wall:.0f} s")
    print(f"  RSS before the first request   {before:7.1f} MiB")
    for n, mib in marks.items():
        print(f"  RSS after {n:>7} requests     {mib:7.1f} MiB")
    if len(marks) == 2:
        first, last = marks[1000], marks[requests]
        per = (last - first) * 1024 * 1024 / (requests - 1000)
        print(
            f"  growth after the first 1,000: {last - first:+.1f} MiB ({per:.0f} bytes a request)"
        )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200, help="turns for the time per request")
    parser.add_argument("--long", type=int, default=500, help="turns for the peak memory")
    parser.add_argument("--rounds", type=int, default=3, help="rounds; the best one is kept")
    parser.add_argument("--campaign", type=int, default=100_000, help="lab serve requests")
    parser.add_argument("--only-campaign", action="store_true", help="only part 3")
    parser.add_argument("--serve", nargs=argparse.REMAINDER, default=[], help="what to serve")
    parser.add_argument("--child", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child is not None:
        child(args.child)
        return 0
    if args.only_campaign:
        campaign(args.campaign, args.serve)
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
    if args.campaign > 1000:
        print()
        campaign(args.campaign, args.serve)
    return 0  # a benchmark reports; a run that went wrong has already exited with an error


if __name__ == "__main__":
    sys.exit(main())
