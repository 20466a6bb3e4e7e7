"""D27 · M2: writes to different files may share a tray; a per-tool table runs them alone."""

import hashlib

from lab.chapter.experiment import Experiment
from lab.harness.tools import Tool
from lab.kernel.scenario import Scenario
from lab.model import text, tool_use, turn

NOTES = ["ship on Friday", "ask Li about the API", "renew the certificate", "book the room"]


def note_tool(world):
    """A writing tool whose every call writes a different file: notes/<digest of the text>.md.
    Two calls with the same text write the same bytes to the same file, so any two calls may
    run side by side."""

    def save_note(text: str) -> str:
        world.clock.advance(1.0)
        path = f"notes/{hashlib.sha256(text.encode()).hexdigest()[:12]}.md"
        world.fs.write(world.resolve(path), text + "\n")
        return f"Saved {path}"

    schema = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}
    return [
        Tool(
            "save_note",
            "Save a note in its own file.",
            schema,
            save_note,
            concurrency_safe=lambda text: True,  # writes, yet never the same file twice
        )
    ]


def notes_saved(run) -> int:
    """Note files on the disk at the end."""
    return sum(1 for path in run.world.snapshot() if "/notes/" in path)


EXPERIMENT = Experiment(
    id="D27",
    mechanism="M2",
    title={
        "en": "Concurrency from a per-tool table: writes to different files lose their tray",
        "zh": "按工具的读写属性判定并行：各写各文件的调用也被拆出托盘",
    },
    takeaway={
        "en": "Safety belongs to the call, not to whether the tool writes: calls that each write "
        "a different file may share a tray, so four notes take one second, not four.",
        "zh": "能否同托盘看的是这次调用，不是工具会不会写：每次写的是不同文件的写入可以并行，"
        "四条笔记一秒写完，而不是四秒。",
    },
    grade="三",
    source="seed §4: some tools that write state may run in parallel because each call writes "
    "a different file (the course author's reading of closed source)",
    flips={"concurrency_from_input": False},
    scenario=Scenario(
        prompt="Save my four notes.",
        tools=note_tool,
        script=[
            turn(*(tool_use("save_note", {"text": note}) for note in NOTES)),
            turn(text("Four notes saved.")),
        ],
    ),
    observables={"notes_saved": notes_saved},
    expect={"makespan_s": (1.0, 4.0), "notes_saved": (4, 4)},
)
