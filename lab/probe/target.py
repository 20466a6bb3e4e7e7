"""A probe target: how to start a harness under test, and which harmless calls it can be asked for.

A target is a black box on the far side of a loopback socket. The probe starts it as a program in a
scratch folder (with `ANTHROPIC_BASE_URL`/`ANTHROPIC_API_KEY` set and the prompt as its last
argument) and judges it only from the requests it sends, its exit status and canary files; so a
target is nothing but this declaration.

The probe sets `LAB_PROBE_STREAM` to 1 or 0: cases whose point needs one answer mode (P1 a JSON
answer; P1s, P4, P8, P9, P10s a streamed one) set it once; every other case runs twice, once in each
mode, and shows the worse outcome. A program that can do both may follow it; one that does not
gets n/a for the cases whose mode it never asks for. A denied call (P11) counts as run when any
new file appears in the scratch folder (outside dot-folders). A harness whose protocol ends
through its own tool (a `final_answer` tool) declares that call as `final_call`: the script's
last answer then calls it instead of answering in text.

The permission contract (cases P11 and P23, for any program with approvals): a target declares
`denied_call`, a call of a tool that asks the program's human and that the program's own rules
deny (`--deny-call TOOL=JSON` for `--cmd`). The probe sets `LAB_PROBE_APPROVE=all` (the
program's human stub must approve everything it is asked) and `LAB_PROBE_HUMAN_LOG` (a file name,
relative to the working folder: the stub appends one line to it each time the human is asked).

The features a case asks for (its `asks`, set in its own trials only): `LAB_PROBE_THINKING=1`
(P24, P25: turn extended thinking on), `LAB_PROBE_SERVER_TOOL=1` (P18: declare a server tool),
`LAB_PROBE_IMAGE_TOOL=1` (P26: offer `read_image`, a tool that returns an image). A program that
does not reads n/a on that case.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from lab.probe.which_wire import MESSAGES

__all__ = [
    "CONTRACT_ENV",
    "HUMAN_LOG",
    "OFFLINE_SWITCHES",
    "READ_NOTES",
    "Call",
    "Target",
    "always_installed",
]

# (tool name, JSON text of its input); "{dir}" in the JSON stands for the scratch folder.
Call = tuple[str, str]

READ_NOTES: Call = ("read_file", '{"path": "notes.txt"}')

# The permission contract's environment: the human stub approves all, and logs each question.
HUMAN_LOG = ".lab-probe-human.log"
CONTRACT_ENV = {"LAB_PROBE_APPROVE": "all", "LAB_PROBE_HUMAN_LOG": HUMAN_LOG}

# Switches that keep a library from trying the network at every start (the probe's namespace
# has none: each try only fails, slowly). LiteLLM 1.110.2 reads both: LITELLM_OFFLINE_MODE
# (litellm_core_utils/offline_mode.py: no catalog, cost map or tokenizer fetched) and
# LITELLM_LOCAL_MODEL_COST_MAP (get_model_cost_map.py: the cost map bundled with it). Set for
# the LiteLLM peers and for every --cmd program.
OFFLINE_SWITCHES = {"LITELLM_OFFLINE_MODE": "true", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def always_installed() -> str | None:
    return None


@dataclass(frozen=True)
class Target:
    """One harness under test."""

    name: str
    # (prompt, scratch folder) -> the command line that runs one agent turn-loop to its end.
    argv: Callable[[str, Path], list[str]]
    # The harmless call the probe's scripted model asks for (it must return notes.txt's text).
    call: Call = READ_NOTES
    # For targets with a permission system (P11, P23): a call of a tool that asks the human, which
    # a deny rule of the target forbids and whose only effect would be a canary file in the
    # scratch folder; None: those cases are n/a.
    denied_call: Call | None = None
    # Extra environment for the program (telemetry and updater switches, settings).
    env: Mapping[str, str] = field(default_factory=dict)
    # Packages whose installed versions the report records ("pydantic-ai-slim", "npm:@scope/name").
    distributions: tuple[str, ...] = ()
    # None when the target can run here, else one line: "not installed: <the exact command>".
    missing: Callable[[], str | None] = always_installed
    # One line for the report: what this target is.
    about: str = ""
    # The cases this target claims to keep: `lab probe` exits 1 when one of them reads fail.
    # Empty (the peers' default): the matrix is a measurement, not a test of the target.
    claims: tuple[str, ...] = ()
    # The harness's own ending call, played as the script's last answer (None: a text answer).
    final_call: Call | None = None
    # `python -m MODULE` started from a warm parent (warm.py): only for the lab's own targets
    # (a --cmd program runs exactly as its author typed it).
    warm: bool = True
    # True for a program given by --cmd: `lab probe` exits 4 when it was not reached.
    command: bool = False
    # The wire it speaks (lab/probe/which_wire.py): its cases are judged on it, and a case with no
    # meaning there is n/a without running. None (a --cmd program): read from its first request.
    wire: str | None = MESSAGES
    # The versions recorded where its trials ran (`lab probe merge` reads them from the shards);
    # None: the distributions' installed versions, read here.
    pinned: Mapping[str, str] | None = None
