"""What each installed peer costs: its start-up (imports) and one whole run, wall and CPU seconds.

    python benchmarks/peers.py [--repeat N]

One run is the simple script (the harmless call, then "done.") against the fake API on loopback.
Everything runs inside a network namespace with only loopback (re-entered with `unshare -n`
where allowed). Prints a table and the serial cost of 14 probe cases per peer: a cold start per
case, so the lead can plan the probe's budget (every peer x every case, on 2 cores; Python peers
also warm, Node peers always cold).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from lab.model import FakeMessagesAPI, ScriptedModel, tool_use, turn
from lab.model.wiring import on_loopback
from lab.probe.peers import PEERS

CASES = 14
INSIDE = "LAB_PEERS_BENCH_INSIDE"
# How the model ends a run: a text answer, or the harness's own final tool (smolagents).
FINAL = {"smolagents": turn(tool_use("final_answer", {"answer": "done."}))}


def timed(command: list[str], **options: object) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child) of one command that must succeed."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, **options)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def start_up(module: str) -> tuple[float, float]:
    return timed([sys.executable, "-c", f"import lab.probe.peers.{module}"])


def one_run(name: str) -> tuple[float, float]:
    target = PEERS[name]
    with tempfile.TemporaryDirectory() as scratch:
        folder, home = Path(scratch, "work"), Path(scratch, "home")
        folder.mkdir()
        home.mkdir()
        (folder / "notes.txt").write_text("canary\n")
        tool, raw = target.call
        call = tool_use(tool, json.loads(raw.replace("{dir}", str(folder))))
        final = FINAL.get(name, turn("done."))
        api = FakeMessagesAPI(ScriptedModel([turn(call), final]))
        with on_loopback(api) as server:
            env = {
                "PATH": "/usr/bin:/bin",
                "HOME": str(home),
                "ANTHROPIC_BASE_URL": server.url,
                "ANTHROPIC_API_KEY": "sk-lab-bench",
                **target.env,
            }
            return timed(target.argv("Read notes.txt.", folder), cwd=folder, env=env)


def module_of(name: str) -> str | None:
    argv = PEERS[name].argv("", Path("."))
    return argv[2].rsplit(".", 1)[-1] if argv[1:2] == ["-m"] else None


def measure(repeat: int) -> None:
    # CPU seconds are the planning figure: wall time on a shared machine measures the neighbours.
    # cold: a fresh interpreter per case; warm: imports once, then each case pays only its run.
    print(f"{'peer':22} {'start-up':>14} {'one run':>14}   {CASES} cases: cold / warm (CPU s)")
    cold_total = warm_total = 0.0
    for name, target in PEERS.items():
        if target.missing():
            print(f"{name:22} {target.missing()}")
            continue
        module = module_of(name)
        starts = [start_up(module) for _ in range(repeat)] if module else [(0.0, 0.0)]
        runs = [one_run(name) for _ in range(repeat)]
        start = min(starts, key=lambda s: s[1])  # the least disturbed sample
        run = min(runs, key=lambda r: r[1])
        cold = CASES * run[1]
        warm = start[1] + CASES * max(run[1] - start[1], 0.0)
        if module:
            cold_total, warm_total = cold_total + cold, warm_total + warm
        else:  # a Node program starts cold every time
            cold_total, warm_total = cold_total + cold, warm_total + cold
        print(
            f"{name:22} {start[1]:5.2f} cpu {start[0]:5.2f} wall "
            f"{run[1]:5.2f} cpu {run[0]:5.2f} wall   {cold:6.1f} / {warm:6.1f}"
        )
    print(f"every peer x {CASES} cases, CPU s: cold {cold_total:.0f}, warm {warm_total:.0f}")
    print(f"on 2 cores at best: cold {cold_total / 2:.0f} s, warm {warm_total / 2:.0f} s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="samples (best kept)")
    args = parser.parse_args()
    if os.environ.get(INSIDE) == "1":
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
        measure(args.repeat)
        return
    namespace = ["unshare", "-n"] if os.geteuid() == 0 else ["unshare", "-rn"]
    if shutil.which("unshare") and subprocess.run([*namespace, "true"]).returncode == 0:
        again = [*namespace, sys.executable, __file__, *sys.argv[1:]]
        sys.exit(subprocess.run(again, env={**os.environ, INSIDE: "1"}).returncode)
    print("no network namespace here: measuring on the host (the peers still get a loopback URL)")
    measure(args.repeat)


if __name__ == "__main__":
    main()
