"""An agent that keeps its history as text, the way some frameworks do, for the probe's tests.

    python text_history.py [--errors-without-ids] PROMPT  (ANTHROPIC_BASE_URL, _API_KEY set)

It forces a tool call (`tool_choice: any`), declares a `final_answer` tool that ends the run, and
writes the model's calls back as assistant *text* ("Calling tools: [...]") and their results as
user text ("Observation: ..."): no tool_use or tool_result block is ever sent back. It runs every
call it is given, a cut one too. An answer with no call is told to call a tool (three times at
most, then exit 1): probed, it needs `--final-call 'final_answer={"answer": "done."}'`.

`--errors-without-ids` writes a failed step back the way smolagents does: no "Calling tools"
line, the model's text (if any) and then only the error as user text, which names no call id
("Error: Argument path has type 'integer' ..."); with no model text in between, the error joins
the previous user message (as LiteLLM merges two user messages).
"""

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


def error_of(call) -> str | None:
    if call.name != "read_file":
        return f"Error: Unknown tool {call.name}, should be one of: read_file, final_answer."
    if not isinstance(call.input.get("path"), str):
        kind = type(call.input.get("path")).__name__
        return f"Error: Argument path has type '{kind}' but should be 'string'"
    return None


def observe(call) -> str:
    return error_of(call) or Path(call.input["path"]).read_text()


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
        failed = [error for c in calls if (error := error_of(c))]
        if WITHOUT_IDS and failed:  # the step failed: only its text and error are written back
            said = "".join(b.text for b in reply.content if b.type == "text")
            if said:
                messages.append({"role": "assistant", "content": said})
                messages.append({"role": "user", "content": "\n".join(failed)})
            else:
                messages[-1]["content"] += "\n" + "\n".join(failed)
            continue
        said = [{"id": c.id, "name": c.name, "arguments": c.input} for c in calls]
        messages.append({"role": "assistant", "content": f"Calling tools: {said}"})
        observed = "\n".join(f"Observation: {observe(c)}" for c in calls)
        messages.append({"role": "user", "content": observed})
    sys.exit("too many steps")


WITHOUT_IDS = "--errors-without-ids" in sys.argv[1:-1]

if __name__ == "__main__":
    run(sys.argv[-1])
