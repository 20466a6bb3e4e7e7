"""A hand-written agent program for the probe's tests, with one mistake chosen by --mode.

    python hand_loop.py [--mode MODE] PROMPT      (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY set)

careful    decides by the content blocks; bad calls get is_error results (keeps the wire invariants)
trusting   decides by the declared stop_reason, and never sets is_error (the seed's D1)
split      like careful, but sends two calls back as two assistant turns, one result each
short      like careful, but gives up after 5 model calls
streaming  like careful, streamed; the SDK's error on unreadable tool JSON ends the program
title      like trusting, after a first side call with no tools that quotes the prompt (a title)
giveup     like careful, streamed; a failed model call ends the program silently with exit 0
raising    like careful, streamed; a failed model call raises a typed AgentError (exit 1)
partial    like careful, streamed; after a failed stream it runs the calls the stream held
striptext  like careful, but re-sends each assistant turn without its text blocks
rename     like careful, but re-sends an unknown tool's call under the name read_file
eager      like careful, but asks again at once after a 429 or 529, whatever retry-after says
textfirst  like careful, but puts a text block before the results (the API rejects it: 400)
thinking   like careful, with a thinking budget when LAB_PROBE_THINKING=1, a web search (a
           server tool) declared when LAB_PROBE_SERVER_TOOL=1, a read_image tool offered when
           LAB_PROBE_IMAGE_TOOL=1 (its image in the tool_result): each turn sent back whole
astext     like thinking, but read_image answers with the image's base64 as text
mislabel   like thinking, but read_image declares its PNG bytes image/jpeg (the API rejects it)
adaptive   like thinking, with adaptive thinking, and each turn sent back without its thinking
nothought  like thinking, but each turn sent back without its thinking (the API rejects it)
badschema  like careful, but its tool's schema is not JSON Schema (the API rejects it: 400)
"""

import base64
import os
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
STREAMED = {"streaming", "giveup", "raising", "partial"}
THOUGHTFUL = {"thinking", "adaptive", "nothought", "astext", "mislabel"}
THINKING = {"type": "enabled", "budget_tokens": 1024}
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 1}
READ_IMAGE = {
    "name": "read_image",
    "description": "Read an image file in the working folder.",
    "input_schema": {
        "type": "object",
        "properties": {"path": {"type": "string"}},
        "required": ["path"],
    },
}
BAD_SCHEMA = {"type": "object", "properties": {"path": {"type": "strin"}}, "required": "path"}


def request_for(messages: list, mode: str) -> dict:
    """The request this mode sends: its tools and, when asked for, thinking and a server tool."""
    tools = [{**TOOLS[0], "input_schema": BAD_SCHEMA}] if mode == "badschema" else TOOLS
    request = {"model": "any", "max_tokens": 1024, "messages": messages, "tools": tools}
    if mode in THOUGHTFUL and os.environ.get("LAB_PROBE_THINKING") == "1":
        asked = {"type": "adaptive"} if mode == "adaptive" else THINKING
        request |= {"thinking": asked, "max_tokens": 2048}
    if mode in THOUGHTFUL and os.environ.get("LAB_PROBE_SERVER_TOOL") == "1":
        request["tools"] = [*request["tools"], WEB_SEARCH]
    if mode in THOUGHTFUL and os.environ.get("LAB_PROBE_IMAGE_TOOL") == "1":
        request["tools"] = [*request["tools"], READ_IMAGE]
    return request


class AgentError(Exception):
    """What the `raising` mode raises to its caller when the model call fails."""


def ask(client: anthropic.Anthropic, messages: list, mode: str):
    request = request_for(messages, mode)
    if mode not in STREAMED:
        return client.messages.create(**request)
    with client.messages.stream(**request) as stream:
        try:
            return stream.get_final_message()
        except anthropic.APIError:
            if mode == "partial":  # what the stream held when it broke, run as if whole
                return stream.current_message_snapshot
            raise


def asked(client: anthropic.Anthropic, messages: list, mode: str):
    """One model call, and what this mode does when it fails."""
    for _ in range(3):
        try:
            return ask(client, messages, mode)
        except (anthropic.RateLimitError, anthropic.InternalServerError):
            if mode != "eager":
                raise
        except anthropic.APIError as error:
            if mode == "giveup":
                print("")
                sys.exit(0)
            if mode == "raising":
                raise AgentError(f"the model call failed: {type(error).__name__}") from None
            raise
    raise AgentError("still failing after 3 attempts")


def image_result(call, mode: str) -> dict:
    """read_image's result: the file as an image block (or as this mode mangles it)."""
    data = base64.b64encode(Path(call.input["path"]).read_bytes()).decode()
    if mode == "astext":
        return {"type": "tool_result", "tool_use_id": call.id, "content": data}
    media_type = "image/jpeg" if mode == "mislabel" else "image/png"
    source = {"type": "base64", "media_type": media_type, "data": data}
    content = [{"type": "image", "source": source}]
    return {"type": "tool_result", "tool_use_id": call.id, "content": content}


def result(call, careful: bool, mode: str = "careful") -> dict:
    if mode in THOUGHTFUL and call.name == "read_image":
        return image_result(call, mode)
    ok = call.name == "read_file" and isinstance(call.input.get("path"), str)
    text = Path(call.input["path"]).read_text() if ok else f"bad call {call.name}"
    block = {"type": "tool_result", "tool_use_id": call.id, "content": text}
    return {**block, "is_error": not ok} if careful else block


def resent(block, mode: str) -> dict | None:
    """A block of the assistant turn as this mode sends it back."""
    if mode == "striptext" and block.type == "text":
        return None
    if mode == "rename" and block.type == "tool_use" and block.name != "read_file":
        return {**block.to_dict(), "name": "read_file"}
    if mode in ("adaptive", "nothought") and block.type in ("thinking", "redacted_thinking"):
        return None
    return block.to_dict()


def run(prompt: str, mode: str) -> None:
    client = anthropic.Anthropic(max_retries=0)
    if mode == "title":  # a side call: no tools, the prompt quoted
        title = [{"role": "user", "content": f"Write a five-word title for: {prompt}"}]
        client.messages.create(model="any", max_tokens=64, messages=title)
    messages = [{"role": "user", "content": prompt}]
    for _ in range(5 if mode == "short" else 100):
        reply = asked(client, messages, mode)
        calls = [b for b in reply.content if b.type == "tool_use"]
        if mode in ("trusting", "title") and reply.stop_reason != "tool_use":
            calls = []
        if mode == "split" and len(calls) > 1:
            for call in calls:  # one assistant turn per call: the answer is rewritten
                messages.append({"role": "assistant", "content": [call.to_dict()]})
                messages.append({"role": "user", "content": [result(call, True)]})
            continue
        blocks = [b for b in (resent(block, mode) for block in reply.content) if b]
        messages.append({"role": "assistant", "content": blocks})
        if mode in THOUGHTFUL and reply.stop_reason == "pause_turn":
            continue  # the server tool's loop goes on from the paused turn, sent back as it came
        if not calls:
            return
        results = [result(call, mode not in ("trusting", "title"), mode) for call in calls]
        if mode == "textfirst":
            results.insert(0, {"type": "text", "text": "Here are the results."})
        messages.append({"role": "user", "content": results})


if __name__ == "__main__":
    arguments = sys.argv[1:]
    chosen = arguments[arguments.index("--mode") + 1] if "--mode" in arguments else "careful"
    run(arguments[-1], chosen)
