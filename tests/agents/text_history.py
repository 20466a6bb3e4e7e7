"""An agent that keeps its history as text, the way some frameworks do, for the probe's tests.

    python text_history.py PROMPT      (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY set)

It forces a tool call (`tool_choice: any`), declares a `final_answer` tool that ends the run, and
writes the model's calls back as assistant *text* ("Calling tools: [...]") and their results as
user text ("Observation: ..."): no tool_use or tool_result block is ever sent back. It runs every
call it is given, a cut one too. An answer with no call is told to call a tool (three times at
most, then exit 1): probed, it needs `--final-call 'final_answer={"answer": "done."}'`.
"""

import json
import sys
from pathlib import Path

import anthropic

TOOLS = [
    {
        "name": "read_file",
        "description": "Read a file in the working folder.",
        "input_schema": {"type": "object", "properties": {"path": {"type": "string"}}},
    },
    {
        "name": "final_answer",
        "description": "Give the final answer; this ends the task.",
        "input_schema": {"type": "object", "properties": {"answer": {"type": "string"}}},
    },
]


def observe(call) -> str:
    if call.name != "read_file":
        return f"Error: no tool named {call.name}"
    if not isinstance(call.input.get("path"), str):
        return f"Error: read_file needs a path string, got {json.dumps(call.input)}"
    return Path(call.input["path"]).read_text()


def run(prompt: str) -> None:
    client = anthropic.Anthropic(max_retries=0)
    messages = [{"role": "user", "content": prompt}]
    nudges = 0
    for _ in range(40):
        reply = client.messages.create(
            model="any",
            max_tokens=1024,
            messages=messages,
            tools=TOOLS,
            tool_choice={"type": "any"},
        )
        calls = [b for b in reply.content if b.type == "tool_use"]
        if not calls:
            nudges += 1
            if nudges > 3:
                sys.exit("no tool call in the model's answer")
            messages.append({"role": "assistant", "content": "(no tool call)"})
            messages.append({"role": "user", "content": "Error: call a tool."})
            continue
        for call in calls:
            if call.name == "final_answer":
                print(call.input.get("answer", ""))
                return
        said = [{"id": c.id, "name": c.name, "arguments": c.input} for c in calls]
        messages.append({"role": "assistant", "content": f"Calling tools: {said}"})
        observed = "\n".join(f"Observation: {observe(c)}" for c in calls)
        messages.append({"role": "user", "content": observed})
    sys.exit("too many steps")


if __name__ == "__main__":
    run(sys.argv[-1])
