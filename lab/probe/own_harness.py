"""The lab's own harness as a program, so the probe judges it over the same wire as any other.

    python -m lab.probe.own_harness [--preset reference|course] [--switch NAME=true|false] PROMPT

It talks to ANTHROPIC_BASE_URL with ANTHROPIC_API_KEY through the real SDK. Its tools act on the
virtual world as always: the working folder's files are copied in at the start, and the files the
run created or changed are copied back at the end (inside the working folder only), so the probe
reads canary files the same way for every target. The deny rule `Bash(touch *)` stands against a
human who says yes to everything (probe case P11). It keeps the probe's permission contract
(lab/probe/target.py): `LAB_PROBE_APPROVE=all` (the default) makes its human say yes, and each
question to the human is appended as one line to the file `LAB_PROBE_HUMAN_LOG` names. Exit
status 0 when the run ended because the model was done, 1 otherwise (with one line on stderr
saying why), a final answer cut by max_tokens or refused included.

It answers the features a case asks for the way a harness author would, through the harness's
own settings: LAB_PROBE_THINKING=1 gives it a thinking budget (P24, P25), LAB_PROBE_SERVER_TOOL=1
declares a web search server tool, which the API runs and the harness never dispatches (P18);
the course preset answers neither, as the course is taught (those cases read n/a for it).
LAB_PROBE_IMAGE_TOOL=1 is not answered (P26 reads n/a): the virtual world holds text files only
and a tool's handler returns text, so no tool of this harness can return notes.png as an image
without reading the host beside the world.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from pathlib import Path

import anthropic

from lab.harness.permissions import Permissions
from lab.harness.retry import real_wait
from lab.kernel.runner import wire
from lab.kernel.scenario import Setup
from lab.kernel.switches import Switches, switch_names
from lab.kernel.trace import ModelAnswered, RunEnded
from lab.probe.peers.program import WEB_SEARCH, server_tool, thinking

PRESETS = {"reference": Switches, "course": Switches.course}
# Whether the preset answers the features a case asks for (thinking, a server tool).
ANSWERS_ASKS = {"reference": True, "course": False}
DENY = "Bash(touch *)"  # the target's deny rule for P11
MAX_TURNS = 64  # above the probe's longest case (P12: 20 answers)
BUDGET = 1024  # thinking tokens: the API's least budget, as the peers ask (peers/program.py)
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


# A final answer the model did not finish is reported, never passed off as the answer.
UNFINISHED = {
    "max_tokens": "the final answer was cut off by max_tokens",
    "refusal": "the model refused (stop_reason refusal)",
}


def human(question: str) -> str:
    """The probe's human stub (the permission contract): logs the question, answers as told."""
    if log := os.environ.get("LAB_PROBE_HUMAN_LOG"):
        with open(log, "a", encoding="utf-8") as file:
            file.write(" ".join(question.split()) + "\n")
    return "y" if os.environ.get("LAB_PROBE_APPROVE", "all") == "all" else "n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lab.probe.own_harness")
    parser.add_argument("--preset", choices=sorted(PRESETS), default="reference")
    parser.add_argument("--switch", type=flip, action="append", default=[])
    parser.add_argument("prompt")
    args = parser.parse_args(argv)

    folder = Path.cwd()
    before = folder_files(folder)
    asks = ANSWERS_ASKS[args.preset]
    setup = Setup(  # the model is whatever answers at ANTHROPIC_BASE_URL
        stream=os.environ.get("LAB_PROBE_STREAM", "1") != "0",
        max_turns=MAX_TURNS,
        permissions=Permissions(deny=[DENY], ask=["Bash"]),
        human=human,
        thinking=BUDGET if asks and thinking() else None,
        server_tools=[WEB_SEARCH] if asks and server_tool() else [],
    )
    client = anthropic.Anthropic(max_retries=0)  # the harness owns its retries
    switches = PRESETS[args.preset]().flipped(**dict(args.switch))
    # A real server is waited for on the real clock (retry-after is a promise in seconds).
    wired = wire(replace(setup, files=before), switches, client=client, wait=real_wait)
    harness, world = wired.harness, wired.world
    ended = wired.run(args.prompt)
    copy_back(world.snapshot(), world.workspace, before, folder)
    last = harness.trace.last(ModelAnswered)
    unfinished = UNFINISHED.get(last.stop_reason or "") if last else None
    if ended == "done" and unfinished is None:
        return 0
    end = harness.trace.last(RunEnded)
    detail = unfinished or (end.detail if end else "")
    print(f"lab harness ({args.preset}): run ended: {ended}: {detail}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
