"""The lab's own harness as a program, so the probe judges it over the same wire as any other.

    python -m lab.probe.own_harness [--preset reference|course] [--switch NAME=true|false] PROMPT

It talks to ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY through the real SDK. Its tools act on the
virtual world as always: the working folder's files are copied in at the start, and the files the
run created or changed are copied back at the end (inside the working folder only), so the probe
reads canary files the same way for every target. The deny rule `Bash(touch *)` stands against a
human who says yes to everything (probe case P11). Exit status 0 when the run ended because the
model was done, 1 otherwise (with one line on stderr saying why).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

import anthropic

from lab.harness.permissions import Permissions
from lab.harness.retry import real_wait
from lab.scenario import Setup, build_harness, run_safely
from lab.switches import Switches, switch_names
from lab.trace import RunEnded
from lab.world import World

PRESETS = {"reference": Switches, "course": Switches.course}
DENY = "Bash(touch *)"  # the target's deny rule for P11
MAX_TURNS = 64  # above the probe's longest case (P12: 20 answers)
MAX_FILE = 1_000_000  # bytes of a working-folder file copied into the virtual disk


def folder_files(folder: Path) -> dict[str, str]:
    """The folder's readable text files, by relative path (dot-folders skipped)."""
    files = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder)
        if any(part.startswith(".") for part in relative.parts[:-1]) or not path.is_file():
            continue
        if path.stat().st_size <= MAX_FILE:
            try:
                files[relative.as_posix()] = path.read_text(encoding="utf-8")
            except UnicodeDecodeError:
                continue
    return files


def copy_back(world_files: dict[str, str], workspace: str, before: dict[str, str], folder: Path):
    """Write the workspace files the run created or changed into `folder`, never outside it."""
    prefix = workspace.rstrip("/") + "/"
    root = folder.resolve()
    for path, content in world_files.items():
        if not path.startswith(prefix):
            continue
        relative = path[len(prefix) :]
        if before.get(relative) == content:
            continue
        target = (root / relative).resolve()
        if root not in target.parents:
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(content, encoding="utf-8")


def flip(text: str) -> tuple[str, bool]:
    """NAME=true|false: one switch changed from the preset (to show a case catching it)."""
    name, _, value = text.partition("=")
    if name not in switch_names() or value.lower() not in ("true", "false"):
        raise argparse.ArgumentTypeError(f"{text!r}: expected SWITCH=true|false")
    return name, value.lower() == "true"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.probe.own_harness")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="reference")
    parser.add_argument("--switch", type=flip, action="append", default=[])
    parser.add_argument("prompt")
    args = parser.parse_args(argv)

    folder = Path.cwd()
    before = folder_files(folder)
    setup = Setup(  # the model is whatever answers at ANTHROPIC_BASE_URL
        stream=os.environ.get("LAB_PROBE_STREAM", "1") != "0",
        max_turns=MAX_TURNS,
        permissions=Permissions(deny=[DENY], ask=["Bash"]),
        human=lambda question: "y",
    )
    world = World.create(before)
    client = anthropic.Anthropic(max_retries=0)  # the harness owns its retries
    switches = PRESETS[args.preset]().flipped(**dict(args.switch))
    # A model over the wire is waited for on the real clock: retry-after means seconds (P6).
    harness = build_harness(setup, switches, world, client, wait=real_wait)
    ended = run_safely(harness, args.prompt)
    copy_back(world.snapshot(), world.workspace, before, folder)
    if ended == "done":
        return 0
    end = harness.trace.last(RunEnded)
    detail = end.detail if end else ""
    print(f"lab harness ({args.preset}): run ended: {ended}: {detail}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
