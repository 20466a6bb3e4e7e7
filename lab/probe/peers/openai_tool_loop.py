"""Peer: the OpenAI Python SDK's own tool loop, written plainly (Chat Completions).

The loop the SDK's docs and cookbook write: ask `client.chat.completions.create`; when the
message carries `tool_calls`, run each one, send back the assistant message and one `tool`
message per call (its `tool_call_id`), and ask again; a message without calls is the answer.
A call of an unknown tool, arguments that do not parse, or a tool that raises is answered with
the error as the tool message's text, so the model can correct itself.

Mode: not streamed by default; `client.chat.completions.stream(...)` (the SDK's stream helper,
which assembles the streamed message) when the probe asks for streams.
"""

import json
from collections.abc import Callable

from openai import OpenAI
from openai.types.chat import (
    ChatCompletionFunctionToolParam,
    ChatCompletionMessage,
    ChatCompletionMessageParam,
)

from lab.probe.peers.program import MAX_TOKENS, MAX_TURNS, OPENAI_MODEL, read_file, run, streamed

TOOLS: dict[str, Callable[..., str]] = {"read_file": read_file}
SCHEMAS: list[ChatCompletionFunctionToolParam] = [
    {
        "type": "function",
        "function": {
            "name": "read_file",
            "description": "Read a text file in the working folder and return its text.",
            "parameters": {
                "type": "object",
                "properties": {"path": {"type": "string", "description": "the file's path"}},
                "required": ["path"],
            },
        },
    }
]


def call_tool(name: str, arguments: str) -> str:
    """One call's result text: the tool's answer, or what went wrong."""
    if name not in TOOLS:
        return f"Error: unknown tool {name!r}"
    try:
        return TOOLS[name](**json.loads(arguments or "{}"))
    except Exception as error:  # the model reads it and may correct its call
        return f"Error: {type(error).__name__}: {error}"


def ask(client: OpenAI, messages: list[ChatCompletionMessageParam]) -> ChatCompletionMessage:
    """One model call: its message."""
    if streamed(default=False):
        with client.chat.completions.stream(
            model=OPENAI_MODEL, max_tokens=MAX_TOKENS, tools=SCHEMAS, messages=messages
        ) as stream:
            return stream.get_final_completion().choices[0].message
    completion = client.chat.completions.create(
        model=OPENAI_MODEL, max_tokens=MAX_TOKENS, tools=SCHEMAS, messages=messages
    )
    return completion.choices[0].message


def agent(prompt: str) -> str:
    client = OpenAI()  # OPENAI_BASE_URL and OPENAI_API_KEY come from the environment
    messages: list[ChatCompletionMessageParam] = [{"role": "user", "content": prompt}]
    for _ in range(MAX_TURNS):
        message = ask(client, messages)
        if not message.tool_calls:
            return message.content or ""
        # The assistant message goes back as it came: its text and its calls, ids and all.
        kept = {"role", "content", "tool_calls"}
        messages.append(message.model_dump(exclude_none=True, include=kept))  # type: ignore[arg-type]
        for call in message.tool_calls:
            if call.type == "function":
                result = call_tool(call.function.name, call.function.arguments)
            else:  # a custom tool's call: this loop offers none
                result = f"Error: unknown tool {call.custom.name!r}"
            messages.append({"role": "tool", "tool_call_id": call.id, "content": result})
    raise RuntimeError(f"no answer after {MAX_TURNS} model calls")


if __name__ == "__main__":
    run(agent)
