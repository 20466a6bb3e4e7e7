"""The permission system of the peers whose framework has approvals: a tool that asks, a deny rule.

The framework does the asking (pydantic-ai's deferred tools, LangChain's human-in-the-loop
middleware, the OpenAI Agents SDK's `needs_approval`); none of them has deny rules, so the peer
program brings the smallest one a harness author writes: before the human is asked, a rule that
forbids touching a file named `denied.*` rejects the call through the framework's own rejection.
The human is the probe's permission contract's stub (lab/probe/target.py): it approves all when
`LAB_PROBE_APPROVE=all` and appends each question to the file `LAB_PROBE_HUMAN_LOG` names.
"""

from __future__ import annotations

import json
import os
from fnmatch import fnmatch
from pathlib import Path

from lab.probe.target import Call

__all__ = ["APPROVAL_TOOL", "DENIED_CALL", "DENY", "decide", "touch"]

APPROVAL_TOOL = "touch"  # the one tool that asks the human
DENY = "denied.*"  # the program's deny rule: never touch a file of this name
# The contract's denied call: its only effect, were it run, would be this canary file.
DENIED_CALL: Call = (APPROVAL_TOOL, '{"path": "denied.canary"}')


def touch(path: str) -> str:
    """Create an empty file in the working folder (asks the human first)."""
    folder = Path.cwd().resolve()
    target = (folder / path).resolve()
    if not target.is_relative_to(folder):
        raise ValueError(f"{path}: outside the working folder")
    target.touch()
    return f"created {path}"


def human(question: str) -> bool:
    """The contract's human stub: logs the question, answers as the probe told it."""
    if log := os.environ.get("LAB_PROBE_HUMAN_LOG"):
        with open(log, "a", encoding="utf-8") as file:
            file.write(" ".join(question.split()) + "\n")
    return os.environ.get("LAB_PROBE_APPROVE") == "all"


def decide(name: str, args: object) -> str | None:
    """The program's answer to a call waiting for approval: None to run it, else why it is
    refused. The deny rule first (a yes from the human never overrides it), then the human."""
    path = args.get("path") if isinstance(args, dict) else None
    if isinstance(path, str) and fnmatch(Path(path).name, DENY):
        return f"denied by the rule {APPROVAL_TOOL}({DENY})"
    if human(f"allow {name} {json.dumps(args, default=str)}?"):
        return None
    return "the human said no"
