"""One trial: what crossed the wire while one target ran one case, and the questions judges ask.

Everything here is observable from outside the harness: the HTTP requests it sent and what the
fake answered, its exit status and last error line, and the files that appeared in its scratch
folder. Judges read a Trial and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from lab.probe.conversation import Played, Stage, turn_of


@dataclass(frozen=True)
class Setting:
    """The per-run facts a case's script is built from."""

    case: str
    canary: str  # the string notes.txt holds; seen in a tool_result, the call ran
    call: tuple[str, dict]  # the harmless call (tool name, input), {dir} already filled in
    denied: tuple[str, dict] | None  # the call a deny rule of the target forbids (P11)
    marker: str  # a string of the prompt, to tell the conversation from side calls
    prompt: str


@dataclass(frozen=True)
class Exchange:
    """One HTTP request to the fake and the fake's verdict on it."""

    number: int  # 1-based, as shown to readers
    method: str
    path: str
    body: Any  # the parsed JSON body (None when there was none or it was not JSON)
    status: int
    answer: str  # one line: what the fake answered, or its exact error text
    played: Played | None  # the conversation's record, when the request reached the script

    def line(self) -> str:
        return f"request #{self.number} {self.method} {self.path} → {self.answer}"

    @property
    def messages(self) -> list:
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return messages if isinstance(messages, list) else []

    @property
    def rejected(self) -> bool:
        """The fake refused the request itself (a 4xx), as the real API would."""
        return 400 <= self.status < 500 and self.played is None


@dataclass(frozen=True)
class Exit:
    status: int | None  # None: the program was stopped at the time limit
    error: str = ""  # the last line that names an exception, if the program printed one
    timeout: float = 0.0

    @property
    def clean(self) -> bool:
        return self.status == 0

    def line(self) -> str:
        if self.status is None:
            return f"timed out after {self.timeout:g} s (stopped)"
        text = f"exit status {self.status}"
        return f"{text}: {self.error}" if self.error else text


@dataclass(frozen=True)
class Trial:
    target: str
    setting: Setting
    stages: Sequence[Stage]
    exchanges: Sequence[Exchange]
    exit: Exit
    new_files: Sequence[str] = ()  # created in the scratch folder during the run
    output: str = field(default="", repr=False)  # the program's stdout+stderr, last lines
    # What a reader is shown instead of this run's own paths and port (bodies keep them: judges
    # compare them with the call as it was sent).
    hidden: Mapping[str, str] = field(default_factory=dict, repr=False)
    outside_files: Sequence[str] = ()  # written outside the scratch folder (sandbox.py)

    def shown(self, text: str) -> str:
        """`text` with the run's scratch folder and address replaced by {dir}, {scratch}, {url}."""
        for private, public in self.hidden.items():
            text = text.replace(private, public)
        return text

    # ---------------------------------------------------------------- questions
    def model_requests(self) -> list[Exchange]:
        return [e for e in self.exchanges if e.played is not None or e.rejected]

    def rejections(self) -> list[Exchange]:
        return [e for e in self.exchanges if e.rejected]

    def results(self, tool_id: str) -> Iterator[tuple[Exchange, dict]]:
        """Every tool_result block answering `tool_id`, with the request that carried it."""
        for exchange in self.exchanges:
            for message in exchange.messages:
                content = message.get("content") if isinstance(message, dict) else None
                for block in content if isinstance(content, list) else []:
                    if isinstance(block, dict) and block.get("type") == "tool_result":
                        if block.get("tool_use_id") == tool_id:
                            yield exchange, block

    def first_result(self, tool_id: str) -> tuple[Exchange, dict] | None:
        return next(self.results(tool_id), None)

    def canary_in(self, block: dict) -> bool:
        return self.setting.canary in result_text(block)

    def ran(self, tool_id: str) -> tuple[Exchange, dict] | None:
        """The first result of `tool_id` that carries the canary: the call really ran."""
        return next(((e, b) for e, b in self.results(tool_id) if self.canary_in(b)), None)

    def played(self, stage: int) -> list[Played]:
        return [e.played for e in self.exchanges if e.played and e.played.stage == stage]

    def reached(self, stage: int) -> Exchange | None:
        """The first request that stood at `stage` (or later)."""
        for e in self.exchanges:
            if e.played and e.played.stage is not None and e.played.stage >= stage:
                return e
        return None

    def stage_ids(self, stage: int, *, fault: bool = False) -> list[str]:
        """The tool_use ids of a stage's healthy answer (or of its fault)."""
        step = self.stages[stage].fault if fault else self.stages[stage].answer
        played = turn_of(step)
        return [b["id"] for b in played.blocks if b.get("type") == "tool_use"] if played else []


def result_text(block: dict) -> str:
    """A tool_result's content as text (a string, or its text blocks joined)."""
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(b.get("text", "") for b in content if isinstance(b, dict))
    return "" if content is None else json.dumps(content)


def short(text: object, limit: int = 160) -> str:
    """One line, cut to `limit` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
