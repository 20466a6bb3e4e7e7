"""What every Python peer program shares: its one tool, the model it names, its limits, its ending.

A peer is the minimal idiomatic program a harness author writes with one framework. The probe
starts it as `python -m lab.probe.peers.<module> PROMPT` in a scratch folder, with
`ANTHROPIC_BASE_URL`/`ANTHROPIC_API_KEY` (the Messages wire) and `OPENAI_BASE_URL`/
`OPENAI_API_KEY` (the Chat Completions wire) pointing at the lab's fake API.
"""

from __future__ import annotations

import base64
import mimetypes
import os
import sys
from collections.abc import Callable
from pathlib import Path

__all__ = [
    "MAX_TOKENS",
    "MAX_TURNS",
    "MODEL",
    "OPENAI_MODEL",
    "THINKING",
    "THINKING_MAX_TOKENS",
    "WEB_SEARCH",
    "image_block",
    "image_tool",
    "read_bytes",
    "read_file",
    "run",
    "server_tool",
    "streamed",
    "thinking",
]

# Any name works against the fake API; a real one keeps libraries with model tables quiet.
MODEL = "claude-sonnet-4-5"
OPENAI_MODEL = "gpt-4.1-mini"  # the Chat Completions peers' (no reasoning settings added for it)
MAX_TOKENS = 1024
# Model calls one run may make: the probe's longest case (P12) is a 20-turn run.
MAX_TURNS = 25


def streamed(default: bool) -> bool:
    """The answer mode to use: the probe's LAB_PROBE_STREAM (1 or 0) if set, else the framework's
    default. Cases whose point needs one mode (a JSON answer, or faults inside a stream) set it."""
    asked = os.environ.get("LAB_PROBE_STREAM")
    return default if asked is None else asked == "1"


# Extended thinking with the API's least budget; max_tokens must be above the budget.
THINKING = {"type": "enabled", "budget_tokens": 1024}
THINKING_MAX_TOKENS = 2048
# The server tool a peer declares when asked: the API runs the search itself (the fake: never).
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 1}


def thinking() -> bool:
    """Turn extended thinking on? The probe's LAB_PROBE_THINKING=1 asks (cases P24, P25)."""
    return os.environ.get("LAB_PROBE_THINKING") == "1"


def server_tool() -> bool:
    """Declare a server tool (a web search)? The probe's LAB_PROBE_SERVER_TOOL=1 asks (P18)."""
    return os.environ.get("LAB_PROBE_SERVER_TOOL") == "1"


def image_tool() -> bool:
    """Offer `read_image`, a tool that returns an image? LAB_PROBE_IMAGE_TOOL=1 asks (P26)."""
    return os.environ.get("LAB_PROBE_IMAGE_TOOL") == "1"


def inside(path: str) -> Path:
    """The file `path` names in the working folder; a ValueError outside it."""
    folder = Path.cwd().resolve()
    target = (folder / path).resolve()
    if not target.is_relative_to(folder):
        raise ValueError(f"{path}: outside the working folder")
    return target


def read_file(path: str) -> str:
    """Read a text file in the working folder and return its text."""
    return inside(path).read_text()


def read_bytes(path: str) -> tuple[bytes, str]:
    """An image file in the working folder: its bytes and media type (by its name)."""
    media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
    return inside(path).read_bytes(), media_type


def image_block(path: str) -> dict:
    """An image file in the working folder as the Messages API's image block."""
    data, media_type = read_bytes(path)
    source = {"type": "base64", "media_type": media_type, "data": base64.b64encode(data).decode()}
    return {"type": "image", "source": source}


def run(agent: Callable[[str], str]) -> None:
    """Run `agent` on the prompt (the last argument) and print its final text.

    Whatever the framework raises ends the program with one line on stderr and exit status 1:
    the probe judges the exit, and a traceback would only be noise in its evidence.
    """
    try:
        answer = agent(sys.argv[-1])
    except Exception as error:  # the framework's failure is the observation, not a bug here
        first_line = str(error).strip().splitlines()[:1]
        print(f"{type(error).__name__}: {' '.join(first_line)}", file=sys.stderr)
        raise SystemExit(1) from None
    print(answer)
