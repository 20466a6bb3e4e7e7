"""A hand-written agent program for probe tests: it trusts stop_reason (the seed's D1 mistake).

Usage: python stop_reason_loop.py [--careful] PROMPT   (ANTHROPIC_BASE_URL and _API_KEY set)
--careful decides by the content blocks instead, and answers bad calls with is_error results.
"""

import sys
from pathlib import Path

import anthropic

TOOLS = [
    {
        "name": "read_file",
        "description": "Read a file in the working folder.",
        "input_schema": {
            "type": "object",
            "properties": {"path": {"type": "string"}},
            "required": ["path"],
        },
    }
]


def run(prompt: str, careful: bool) -> None:
    client = anthropic.Anthropic(max_retries=2)
    messages = [{"role": "user", "content": prompt}]
    while True:
        reply = client.messages.create(model="any", max_tokens=1024, messages=messages, tools=TOOLS)
        messages.append({"role": "assistant", "content": [b.to_dict() for b in reply.content]})
        calls = [b for b in reply.content if b.type == "tool_use"]
        if not (calls if careful else reply.stop_reason == "tool_use"):
            return
        results = []
        for call in calls:
            ok = call.name == "read_file" and isinstance(call.input.get("path"), str)
            text = Path(call.input["path"]).read_text() if ok else f"bad call {call.name}"
            results.append({"type": "tool_result", "tool_use_id": call.id, "content": text})
            if careful:
                results[-1]["is_error"] = not ok
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    run(sys.argv[-1], careful="--careful" in sys.argv[1:-1])
