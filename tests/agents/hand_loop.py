"""A hand-written agent program for the probe's tests, with one mistake chosen by --mode.

    python hand_loop.py [--mode MODE] PROMPT      (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY set)

careful    decides by the content blocks; bad calls get is_error results (keeps the wire invariants)
trusting   decides by the declared stop_reason, and never sets is_error (the seed's D1)
split      like careful, but sends two calls back as two assistant turns, one result each
short      like careful, but gives up after 5 model calls
streaming  like careful, streamed; the SDK's error on unreadable tool JSON ends the program
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


def ask(client: anthropic.Anthropic, messages: list, mode: str):
    request = {"model": "any", "max_tokens": 1024, "messages": messages, "tools": TOOLS}
    if mode == "streaming":
        with client.messages.stream(**request) as stream:
            return stream.get_final_message()
    return client.messages.create(**request)


def result(call, careful: bool) -> dict:
    ok = call.name == "read_file" and isinstance(call.input.get("path"), str)
    text = Path(call.input["path"]).read_text() if ok else f"bad call {call.name}"
    block = {"type": "tool_result", "tool_use_id": call.id, "content": text}
    return {**block, "is_error": not ok} if careful else block


def run(prompt: str, mode: str) -> None:
    client = anthropic.Anthropic(max_retries=0)
    messages = [{"role": "user", "content": prompt}]
    for _ in range(5 if mode == "short" else 100):
        reply = ask(client, messages, mode)
        calls = [b for b in reply.content if b.type == "tool_use"]
        if mode == "trusting" and reply.stop_reason != "tool_use":
            calls = []
        if mode == "split" and len(calls) > 1:
            for call in calls:  # one assistant turn per call: the answer is rewritten
                messages.append({"role": "assistant", "content": [call.to_dict()]})
                messages.append({"role": "user", "content": [result(call, True)]})
            continue
        messages.append({"role": "assistant", "content": [b.to_dict() for b in reply.content]})
        if not calls:
            return
        results = [result(call, mode != "trusting") for call in calls]
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    arguments = sys.argv[1:]
    chosen = arguments[arguments.index("--mode") + 1] if "--mode" in arguments else "careful"
    run(arguments[-1], chosen)
