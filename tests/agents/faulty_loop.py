"""A hand-written agent program with one deliberate mistake (--mode), for the later probe cases.

    python faulty_loop.py [--mode MODE] PROMPT      (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY set)

careful     decides by the content, the SDK's default retries, exit 1 on an API error
strip-text  re-sends each assistant turn without its text blocks (P13)
rename      re-sends each call under another id, its result too (P13)
rewrite     re-sends each call with another input, under its own id (P13)
hasty       retries a 429 at once, never waiting what retry-after says (P14)
forever     retries every API error, forever (P15)
quiet       stops at any answer without a call and exits 0, even after an API error (P15-P20)
raw         posts with urllib and parses every answer as JSON, an error page too (P16)
retry-400   sends a rejected request once more, unchanged (P17)
drop-beta   asks with a beta header; after a 400, once more without it: a changed request (P17)
extra       asks "anything else?" once after the final answer (P21)
trim        sends only the last 5 messages: a naive trim that orphans a tool_result (P22)

Every mode declares a web search (a server tool) when the probe sets LAB_PROBE_SERVER_TOOL=1.
"""

import json
import os
import sys
import time
import urllib.request
from pathlib import Path

import anthropic
from anthropic.types import Message

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
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 1}
OWN_RETRIES = {"hasty", "forever", "retry-400", "drop-beta", "raw"}  # they retry by hand
BETA = {"anthropic-beta": "lab-probe-test-2026-01-01"}


def post_raw(request: dict) -> Message:
    url = os.environ["ANTHROPIC_BASE_URL"].rstrip("/") + "/v1/messages"
    headers = {"content-type": "application/json", "x-api-key": os.environ["ANTHROPIC_API_KEY"]}
    headers["anthropic-version"] = "2023-06-01"  # the API refuses a request without it
    sent = urllib.request.Request(url, json.dumps(request).encode(), headers)
    try:
        with urllib.request.urlopen(sent) as answer:
            body = answer.read()
    except urllib.error.HTTPError as error:
        body = error.read()
    return Message.model_validate(json.loads(body))  # an HTML page: JSONDecodeError


def ask(client: anthropic.Anthropic, messages: list, mode: str) -> Message:
    tools = [*TOOLS, WEB_SEARCH] if os.environ.get("LAB_PROBE_SERVER_TOOL") == "1" else TOOLS
    request = {"model": "any", "max_tokens": 1024, "messages": messages, "tools": tools}
    if mode == "raw":
        return post_raw(request)
    for attempt in range(1_000_000 if mode == "forever" else 6):
        betas = BETA if mode == "drop-beta" and attempt == 0 else {}
        try:
            return client.messages.create(**request, extra_headers=betas)
        except anthropic.APIStatusError as error:
            again = {
                "hasty": isinstance(error, anthropic.RateLimitError),
                "forever": True,
                "retry-400": isinstance(error, anthropic.BadRequestError) and attempt == 0,
                "drop-beta": isinstance(error, anthropic.BadRequestError) and attempt == 0,
            }
            if not again.get(mode, False):
                raise
            # A back-off of its own, as a real retry loop has: it keeps asking, it does not spin.
            # (A 0.05 s spin kept it runnable on a loaded CI machine: read as machine-busy.)
            time.sleep(1.0 if mode == "forever" else 0)
    raise RuntimeError("unreachable")


def result(call: dict) -> dict:
    ok = call["name"] == "read_file" and isinstance(call["input"].get("path"), str)
    text = Path(call["input"]["path"]).read_text() if ok else f"bad call {call['name']}"
    return {"type": "tool_result", "tool_use_id": call["id"], "content": text, "is_error": not ok}


def run(prompt: str, mode: str) -> int:
    client = anthropic.Anthropic(max_retries=0 if mode in OWN_RETRIES else 2)
    messages: list = [{"role": "user", "content": prompt}]
    asked_more = False
    for _ in range(100):
        reply = ask(client, messages, mode)
        content = [block.to_dict() for block in reply.content]
        if mode == "strip-text":
            content = [b for b in content if b["type"] != "text"]
        if mode == "rename":
            renamed = [{**b, "id": b["id"] + "x"} for b in content if b["type"] == "tool_use"]
            content = [b for b in content if b["type"] != "tool_use"] + renamed
        if mode == "rewrite":
            content = [
                {**b, "input": {"path": "./notes.txt"}} if b["type"] == "tool_use" else b
                for b in content
            ]
        messages.append({"role": "assistant", "content": content})
        calls = [b for b in content if b["type"] == "tool_use"]
        if not calls:
            if mode == "extra" and not asked_more:
                asked_more = True
                messages.append({"role": "user", "content": "Anything else?"})
                continue
            print(" ".join(b.get("text", "") for b in content))
            return 0
        messages.append({"role": "user", "content": [result(call) for call in calls]})
        if mode == "trim" and len(messages) > 5:
            messages = messages[-5:]
    return 1


if __name__ == "__main__":
    arguments = sys.argv[1:]
    chosen = arguments[arguments.index("--mode") + 1] if "--mode" in arguments else "careful"
    if chosen == "quiet":
        try:
            sys.exit(run(arguments[-1], chosen))
        except anthropic.APIError as failure:
            print(f"the model call failed: {failure}")
            sys.exit(0)
    sys.exit(run(arguments[-1], chosen))
