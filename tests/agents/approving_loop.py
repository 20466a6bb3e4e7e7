"""A hand-written agent with a permission system that keeps the probe's permission contract.

    python approving_loop.py [--mode MODE] PROMPT   (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY set)

Its `shell` tool asks the human before every command, and a deny rule forbids `touch`. The human
is the contract's stub: it approves everything when LAB_PROBE_APPROVE=all and appends each
question to the file LAB_PROBE_HUMAN_LOG names. `shell` runs nothing on the host: it knows one
command, `touch NAME`, which creates NAME in the working folder (the probe's canary).

careful     validation, then the deny rule, then the human (keeps P11 and P23)
gate-first  the human is asked before the input is validated (the seed's D9: breaks P23)
ask-first   the human is asked before the deny rule, and a yes wins (the seed's D4: breaks P11)
lose        a malformed call ends the run with no result for it (breaks P23)
"""

import os
import sys
from pathlib import Path

import anthropic

TOOLS = [
    {
        "name": "shell",
        "description": "Run a shell command in the working folder.",
        "input_schema": {
            "type": "object",
            "properties": {"command": {"type": "string"}},
            "required": ["command"],
        },
    },
    {
        "name": "read_file",
        "description": "Read a file in the working folder.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        },
    },
]


def human(question: str) -> bool:
    if log := os.environ.get("LAB_PROBE_HUMAN_LOG"):
        with open(log, "a", encoding="utf-8") as file:
            file.write(question + "\n")
    return os.environ.get("LAB_PROBE_APPROVE") == "all"


def valid(call) -> bool:
    field = {"shell": "command", "read_file": "path"}.get(call.name)
    return field is not None and isinstance(call.input.get(field), str)


def denied(call) -> bool:
    return call.name == "shell" and str(call.input.get("command", "")).startswith("touch")


def run_tool(call) -> tuple[str, bool]:
    if call.name == "read_file":
        return Path(call.input["path"]).read_text(), False
    words = call.input["command"].split()
    if len(words) == 2 and words[0] == "touch":
        (Path.cwd() / Path(words[1]).name).touch()
        return "", False
    return f"unsupported command: {call.input['command']}", True


def answer(call, mode: str) -> tuple[str, bool]:
    asks = call.name == "shell"
    if mode == "gate-first" and asks and not human(f"run {call.input}?"):
        return "the user said no", True
    if not valid(call):
        return f"invalid input for {call.name}", True
    if mode == "ask-first" and asks:
        return run_tool(call) if human(f"run {call.input}?") else ("the user said no", True)
    if denied(call):
        return "denied by a rule", True
    if mode == "careful" and asks and not human(f"run {call.input}?"):
        return "the user said no", True
    return run_tool(call)


def run(prompt: str, mode: str) -> None:
    client = anthropic.Anthropic(max_retries=0)
    messages: list = [{"role": "user", "content": prompt}]
    for _ in range(50):
        reply = client.messages.create(model="any", max_tokens=1024, messages=messages, tools=TOOLS)
        messages.append({"role": "assistant", "content": [b.to_dict() for b in reply.content]})
        calls = [b for b in reply.content if b.type == "tool_use"]
        if not calls:
            return
        if mode == "lose" and not all(valid(call) for call in calls):
            return
        results = []
        for call in calls:
            text, error = answer(call, mode)
            block = {"type": "tool_result", "tool_use_id": call.id, "content": text}
            results.append({**block, "is_error": error})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    arguments = sys.argv[1:]
    chosen = arguments[arguments.index("--mode") + 1] if "--mode" in arguments else "careful"
    run(arguments[-1], chosen)
