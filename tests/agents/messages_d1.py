"""A loop on the Messages API with the seed's D1: it trusts `stop_reason`, not the content.

    python messages_d1.py PROMPT      (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY set)

Its twin on the Chat Completions wire is chat_d1.py: the same loop, the same mistake.
"""

import sys
from pathlib import Path

import anthropic

TOOL = {"name": "read_file", "input_schema": {"type": "object", "properties": {"path": {}}}}

client = anthropic.Anthropic()
messages: list = [{"role": "user", "content": sys.argv[-1]}]
while True:
    reply = client.messages.create(model="any", max_tokens=1024, messages=messages, tools=[TOOL])
    if reply.stop_reason != "tool_use":  # D1: a call declared end_turn is dropped
        break
    messages.append({"role": "assistant", "content": reply.content})
    results = [
        {"type": "tool_result", "tool_use_id": b.id, "content": Path(b.input["path"]).read_text()}
        for b in reply.content
        if b.type == "tool_use"
    ]
    messages.append({"role": "user", "content": results})
print("".join(b.text for b in reply.content if b.type == "text"))
