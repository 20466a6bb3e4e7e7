"""A loop on the Chat Completions API with its wire's D1: it trusts `finish_reason`, not the
message's `tool_calls`.

    python chat_d1.py PROMPT      (OPENAI_BASE_URL and OPENAI_API_KEY set)

Its twin on the Messages wire is messages_d1.py: the same loop, the same mistake.
"""

import json
import sys
from pathlib import Path

import openai

TOOL = {"type": "function", "function": {"name": "read_file", "parameters": {"type": "object"}}}

client = openai.OpenAI()
messages: list = [{"role": "user", "content": sys.argv[-1]}]
while True:
    choice = client.chat.completions.create(model="any", messages=messages, tools=[TOOL]).choices[0]
    if choice.finish_reason != "tool_calls":  # D1: calls with finish_reason "stop" are dropped
        break
    messages.append(choice.message.model_dump(exclude_none=True))
    for call in choice.message.tool_calls or []:
        text = Path(json.loads(call.function.arguments)["path"]).read_text()
        messages.append({"role": "tool", "tool_call_id": call.id, "content": text})
print(choice.message.content or "")
