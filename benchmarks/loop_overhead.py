"""Compare the lab harness's median time per turn with a bare hand-written agent loop.

Both loops talk to the same fake API (through the real anthropic SDK), run the same `bash`
tool on a fresh simulated world, and send the growing history back on every turn. Each
turn is timed on its own; the median of a round is kept, and the best median over a few
rounds is reported, for non-streaming and for streaming calls.

Run it as:  python benchmarks/loop_overhead.py [--turns N] [--rounds R]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import anthropic

from lab.harness.layers import Layers
from lab.harness.loop import Harness
from lab.harness.tools import ToolRegistry
from lab.kernel.trace import Trace
from lab.model import FakeMessagesAPI, ScriptedModel, Turn, make_client, tool_use, turn
from lab.world import World, course_tools

PROMPT = "Say hi, many times."
MODEL = "claude-lab-1"
MAX_TOKENS = 8000
TARGET_RATIO = 1.3  # the harness may cost at most this many times the bare loop per turn

# One round of one loop: returns the wall time (seconds) of each tool-use turn.
Loop = Callable[[int, bool], list[float]]


def make_script(turns: int) -> list[Turn]:
    """`turns` turns that each call bash with `echo hi`, then one final text turn."""
    calls = [turn(tool_use("bash", {"command": "echo hi"})) for _ in range(turns)]
    return [*calls, turn("All done.")]


def fresh_setup(turns: int) -> tuple[World, FakeMessagesAPI, anthropic.Anthropic]:
    """A new world, scripted model, fake API and client: nothing is shared between rounds."""
    world = World.create()
    api = FakeMessagesAPI(ScriptedModel(make_script(turns)))
    return world, api, make_client(api)


def check_api(api: FakeMessagesAPI, turns: int, who: str) -> None:
    """Fail loudly if the fake API refused a request or the model calls don't add up."""
    if api.rejections or api.faults:
        problems = [*api.rejections, *api.faults]
        raise SystemExit(f"{who}: the fake API complained: {problems[0]}")
    if len(api.requests) != turns + 1:
        raise SystemExit(f"{who}: expected {turns + 1} model calls, got {len(api.requests)}")


# ---------------------------------------------------------------- the lab's harness


def harness_round(turns: int, stream: bool) -> list[float]:
    """One run of the lab's Harness, timing each `harness.step()`."""
    world, api, client = fresh_setup(turns)
    layers = Layers(ToolRegistry(course_tools(world)), Trace(), world)
    harness = Harness(client, layers, stream=stream, max_turns=1000)
    harness.start(PROMPT)
    times: list[float] = []
    going = True
    while going:
        started = time.perf_counter()
        going = harness.step()
        times.append(time.perf_counter() - started)
    if harness.ended != "done":
        raise SystemExit(f"harness: the run ended {harness.ended!r}, expected 'done'")
    check_api(api, turns, "harness")
    return times[:turns]  # the last step is the final text answer, not a tool-use turn


# ---------------------------------------------------------------- a bare loop


def ask_model(client: anthropic.Anthropic, request: dict[str, Any], stream: bool) -> Any:
    """One model call, plain or streamed (every event is read, as a UI would)."""
    if not stream:
        return client.messages.create(**request)
    with client.messages.stream(**request) as events:
        for _event in events:
            pass
        return events.get_final_message()


def bare_round(turns: int, stream: bool) -> list[float]:
    """The smallest honest agent loop: call, run the tool calls, send the results back."""
    world, api, client = fresh_setup(turns)
    tools = {tool.name: tool for tool in course_tools(world)}
    tool_params = [tool.to_api() for tool in tools.values()]
    messages: list[dict[str, Any]] = [{"role": "user", "content": PROMPT}]
    times: list[float] = []
    while True:
        started = time.perf_counter()
        request = {
            "model": MODEL,
            "max_tokens": MAX_TOKENS,
            "messages": messages,
            "tools": tool_params,
        }
        message = ask_model(client, request, stream)
        content = [block.model_dump(mode="json", exclude_none=True) for block in message.content]
        messages.append({"role": "assistant", "content": content})
        results = [
            {
                "type": "tool_result",
                "tool_use_id": block.id,
                "content": tools[block.name].handler(**block.input),
            }
            for block in message.content
            if block.type == "tool_use"
        ]
        if results:
            messages.append({"role": "user", "content": results})
        times.append(time.perf_counter() - started)
        if not results:
            break
    check_api(api, turns, "bare loop")
    return times[:turns]


# ---------------------------------------------------------------- measuring and reporting


def best_medians(turns: int, rounds: int, stream: bool) -> tuple[float, float]:
    """Best (lowest) median seconds per turn of (bare, harness) over `rounds` rounds.

    The two loops alternate, and swap who goes first every round, so neither one always
    runs on warmer caches.
    """
    medians: dict[str, list[float]] = {"bare": [], "harness": []}
    loops: dict[str, Loop] = {"bare": bare_round, "harness": harness_round}
    for r in range(rounds):
        order = ["bare", "harness"] if r % 2 == 0 else ["harness", "bare"]
        for name in order:
            gc.collect()  # start each round without garbage left over from the last one
            medians[name].append(statistics.median(loops[name](turns, stream)))
    return min(medians["bare"]), min(medians["harness"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=200, help="tool-use turns per run")
    parser.add_argument("--rounds", type=int, default=5, help="rounds per loop and mode")
    args = parser.parse_args(argv)
    if args.turns < 1 or args.rounds < 1:
        parser.error("--turns and --rounds must be at least 1")

    began = time.perf_counter()
    rows = []
    for mode, stream in (("create", False), ("stream", True)):
        bare, harness = best_medians(args.turns, args.rounds, stream)
        rows.append((mode, bare, harness, harness / bare))

    print(f"median wall time per turn, best of {args.rounds} rounds, {args.turns} turns each")
    print(f"{'mode':<8} {'bare ms/turn':>13} {'harness ms/turn':>16} {'ratio':>7}")
    for mode, bare, harness, ratio in rows:
        print(f"{mode:<8} {bare * 1000:>13.3f} {harness * 1000:>16.3f} {ratio:>6.2f}x")
    print()
    for mode, _, _, ratio in rows:
        verdict = "PASS" if ratio <= TARGET_RATIO else "FAIL"
        print(f"target ({mode}): harness <= {TARGET_RATIO}x the bare loop -> {verdict}")
    print(f"\ntook {time.perf_counter() - began:.1f} s")
    return 0  # a benchmark reports; a misbehaving run has already exited with an error


if __name__ == "__main__":
    sys.exit(main())
