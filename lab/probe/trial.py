"""One trial: what crossed the wire while one target ran one case, and the questions judges ask.

Everything here is observable from outside the harness: the HTTP requests it sent and what the
fake answered, its exit status and last error line, and the files that appeared in its scratch
folder. Judges read a Trial and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from lab.kernel.promises import what_changed
from lab.kernel.record import blocks_in as blocks_of
from lab.kernel.record import result_text
from lab.probe.conversation import Played, Stage, blocks_in, strings, turn_of, user_text
from lab.probe.idle import Progress
from lab.probe.which_wire import CHAT, MESSAGES, id_on

if TYPE_CHECKING:
    from lab.kernel.record import Record, Reply


@dataclass(frozen=True)
class Setting:
    """The per-run facts a case's script is built from."""

    case: str
    canary: str  # the string notes.txt holds; seen in a tool_result, the call ran
    call: tuple[str, dict]  # the harmless call (tool name, input), {dir} already filled in
    denied: tuple[str, dict] | None  # the call a deny rule of the target forbids (P11)
    marker: str  # a string of the prompt, to tell the conversation from side calls
    prompt: str
    # The harness's own ending call (a `final_answer` tool), played instead of a final text.
    final: tuple[str, dict] | None = None


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
    at: float = 0.0  # seconds since the server started, taken when the request arrived
    betas: str = ""  # its anthropic-beta header: a request resent with fewer betas is changed
    # What the fake answered, in the Record's words, as the tap wrote it down
    # (lab/kernel/record.py); None: the request was no part of the conversation (a GET, a health
    # probe).
    reply: Reply | None = None
    # The wire it came on (lab/probe/which_wire.py; None: not a model request). On the chat wire the
    # body is recorded in the neutral history's words.
    wire: str | None = None
    sent: Any = None  # the body as it came, when `body` is its translation (the chat wire)

    def line(self) -> str:
        return f"request #{self.number} {self.method} {self.path} → {self.answer}"

    @property
    def messages(self) -> list:
        messages = self.body.get("messages") if isinstance(self.body, dict) else None
        return messages if isinstance(messages, list) else []

    @property
    def rejected(self) -> bool:
        """The fake refused the request itself (a 4xx but 404), as the real API would. A 404 is
        a path the API does not serve: the request never reached the model (not reached)."""
        return 400 <= self.status < 500 and self.status != 404 and self.played is None

    @property
    def in_script(self) -> bool:
        """The request stood at a stage of the case's script (not a side call, not rejected)."""
        return self.played is not None and self.played.stage is not None

    def text(self) -> str:
        """Every string the request's messages hold, one per line: where texts and ids are
        looked for, whichever block (or plain text) a harness put them in."""
        return "\n".join(strings(self.messages))


@dataclass(frozen=True)
class Exit:
    status: int | None  # None: the program was stopped at the time limit
    error: str = ""  # the last line that names an exception, if the program printed one
    timeout: float = 0.0  # the limit, in seconds of idle time (idle.py)
    progress: Progress | None = None  # how it stood when stopped (None: it ended by itself)

    @property
    def clean(self) -> bool:
        return self.status == 0

    def line(self) -> str:
        if self.status is None:
            if self.progress is not None:
                return self.progress.line(self.timeout)
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
    outside_files: Sequence[str] = ()  # written outside the scratch folder (confinement.py)
    forced_wire: str | None = None  # the target's declared wire, or `--wire` (None: detected)
    # The one Record every promise reads, filled once when the trial ends (wire_promises.ended).
    facts: Record | None = field(default=None, repr=False, compare=False)

    def shown(self, text: str) -> str:
        """`text` with the run's scratch folder and address replaced by {dir}, {scratch}, {url}."""
        for private, public in self.hidden.items():
            text = text.replace(private, public)
        return text

    def quoted(self, exchange: Exchange | None) -> list[str]:
        """The request as evidence (see quote), this run's paths hidden."""
        return [self.shown(line) for line in quote(exchange)] if exchange else []

    @property
    def record(self) -> Record:
        """The trial's Record, as filled when it ended (wire_promises.ended)."""
        if self.facts is None:
            raise ValueError("a trial's record is filled when it ends: wire_promises.ended(trial)")
        return self.facts

    @property
    def wire(self) -> str:
        """The wire the trial is judged on: the forced one, else the first model request's
        (the Messages wire when none came)."""
        spoken = (e.wire for e in self.exchanges if e.wire is not None)
        return self.forced_wire or next(spoken, MESSAGES)

    # ---------------------------------------------------------------- questions
    def model_requests(self) -> list[Exchange]:
        return [e for e in self.exchanges if e.played is not None or e.rejected]

    def conversation(self) -> list[Exchange]:
        """The requests of the conversation under test: at a stage of the script, or rejected."""
        return [e for e in self.exchanges if e.in_script or e.rejected]

    def reached_script(self) -> bool:
        """The target got at least one script answer (or sent a request the API refused)."""
        return bool(self.conversation())

    def rejections(self) -> list[Exchange]:
        return [e for e in self.exchanges if e.rejected]

    def final_reached(self) -> bool:
        """The script's last answer (the final text, or the final call) was asked for."""
        return self.reached(len(self.stages) - 1) is not None

    def introduced(self, tool_id: str) -> Exchange | None:
        """The request whose answer carried the call `tool_id` (its fault or its answer)."""
        for exchange in self.exchanges:
            played = turn_of(exchange.played.step) if exchange.played else None
            if played and any(b.get("id") == tool_id for b in played.blocks):
                return exchange
        return None

    def next_in_conversation(self, exchange: Exchange | None) -> Exchange | None:
        """The first request of the conversation after `exchange`."""
        if exchange is None:
            return None
        return next((e for e in self.conversation() if e.number > exchange.number), None)

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

    def ran(self, tool_id: str) -> tuple[Exchange, str] | None:
        """Where the call `tool_id` shows it ran: (the request, how the canary came back).

        In a tool_result block for the call; or, for a harness that writes its history as text
        ("Observation: ..."), anywhere in the first conversation request after the answer that
        carried the call, when that request holds more canaries than the one before it."""
        found = next((e for e, b in self.results(tool_id) if self.canary_in(b)), None)
        if found is not None:
            return found, "in its tool_result"
        given = self.introduced(tool_id)
        after = self.next_in_conversation(given)
        if given is None or after is None:
            return None
        canary = self.setting.canary
        if after.text().count(canary) > given.text().count(canary):
            return after, "as text (no tool_result block carried it)"
        return None

    def answer_of(self, tool_id: str) -> tuple[Exchange, str] | None:
        """How the call was answered: "is_error" or "result" (a tool_result block without the
        flag), or "text": a later request names the call's id in text, or — in a history written
        as text, which may name no id ("Error: Unknown tool ...") — its user text grew since the
        request that got the call. None: never."""
        found = self.first_result(tool_id)
        if found is not None:
            return found[0], "is_error" if found[1].get("is_error") else "result"
        given = self.introduced(tool_id)
        if given is None:
            return None
        told = len(user_text(given.messages))
        for exchange in self.conversation():
            if exchange.number <= given.number:
                continue
            if id_on(exchange.wire, tool_id) in exchange.text():
                return exchange, "text"
            if not blocks_in(exchange.messages) and len(user_text(exchange.messages)) > told:
                return exchange, "text"
        return None

    def played(self, stage: int) -> list[Played]:
        return [e.played for e in self.exchanges if e.played and e.played.stage == stage]

    def reached(self, stage: int) -> Exchange | None:
        """The first request that stood at `stage` (or later)."""
        for e in self.exchanges:
            if e.played and e.played.stage is not None and e.played.stage >= stage:
                return e
        return None

    def resent(self, stage: int) -> tuple[Exchange, str | None] | None:
        """Was the stage's answer sent back whole (text and tool_use: order, ids, names,
        inputs) in the first request after it? (that request, what differed or None); None
        when no later request names its calls."""
        answer = turn_of(self.stages[stage].answer)
        given = next((e for e in self.exchanges if e.played and e.played.stage == stage), None)
        after = self.next_in_conversation(given) if given and answer else None
        if answer is None or after is None:
            return None
        wanted = [_signature(b) for b in answer.blocks]
        ids = {b.get("id") for b in answer.blocks if b.get("type") == "tool_use"}
        holders = [
            m
            for m in after.messages
            if isinstance(m, dict)
            and m.get("role") == "assistant"
            and any(_signature(b)[2] in ids for b in blocks_of(m))
        ]
        if not holders and isinstance(after.body, dict) and after.body.get("thread"):
            return after, None  # a message thread: the API holds the turn as it answered it
        if not holders:
            return after, NOT_AS_BLOCKS
        if len(holders) > 1:
            return after, f"the assistant turn was split into {len(holders)} turns"
        sent = blocks_of(holders[0])
        if [_signature(b) for b in sent] == wanted:
            return after, None
        return after, "the turn was sent back changed: " + what_changed(answer.blocks, sent)

    def fine_grained_streaming(self) -> str:
        """Whether the harness asked for fine-grained tool streaming, in one line: with it, a
        streamed tool input may be invalid JSON and the harness had to expect that (P4)."""
        betas = sorted({b.strip() for e in self.exchanges for b in e.betas.split(",")})
        asked = [f"anthropic-beta: {b}" for b in betas if b.startswith(FINE_GRAINED)]
        for exchange in self.exchanges:
            tools = exchange.body.get("tools") if isinstance(exchange.body, dict) else None
            for tool in tools if isinstance(tools, list) else []:
                if isinstance(tool, dict) and tool.get("eager_input_streaming"):
                    asked.append(f"eager_input_streaming on tool {tool.get('name')}")
        if not asked:
            return (
                "fine-grained tool streaming: not asked for (no fine-grained-tool-streaming "
                "beta header, no tool with eager_input_streaming)"
            )
        return "fine-grained tool streaming: asked for (" + "; ".join(dict.fromkeys(asked)) + ")"

    def stage_ids(self, stage: int, *, fault: bool = False) -> list[str]:
        """The tool_use ids of a stage's healthy answer (or of its fault)."""
        step = self.stages[stage].fault if fault else self.stages[stage].answer
        played = turn_of(step)
        return [b["id"] for b in played.blocks if b.get("type") == "tool_use"] if played else []


FINE_GRAINED = "fine-grained-tool-streaming"  # the beta's name, before its date
NOT_AS_BLOCKS = "the calls were not sent back as tool_use blocks (text only, or not at all)"


def _signature(block: dict) -> tuple:
    """What must come back unchanged of a block: (type, text or name, id, input)."""
    if block.get("type") == "tool_use":
        return ("tool_use", block.get("name"), block.get("id"), block.get("input"))
    return (block.get("type"), block.get("text"), None, None)


def cut(text: str, limit: int = 100) -> str:
    """A long text cut, with its length said: 'Probe notes. The…' (62 chars)."""
    text = " ".join(text.split())
    return repr(text) if len(text) <= limit else f"{text[:limit]!r}… ({len(text)} chars)"


def block_line(block: object) -> str:
    """One content block in one line: its type, ids and flags, its text cut."""
    if isinstance(block, str):
        return f"text {cut(block)}"
    if not isinstance(block, dict):
        return cut(json.dumps(block))
    kind = block.get("type")
    if kind == "tool_use":
        shown = json.dumps(block.get("input"), ensure_ascii=False)
        return f"tool_use {block.get('name')} {block.get('id')} {cut(shown, 80)}"
    if kind == "tool_result":
        flag = " is_error" if block.get("is_error") else ""
        inner = block.get("content")
        listed = inner if isinstance(inner, list) else []
        pictures = [b for b in listed if isinstance(b, dict) and b.get("type") == "image"]
        shown = " + ".join(block_line(b) for b in pictures)
        said = f"tool_result {block.get('tool_use_id')}{flag} {cut(result_text(block))}"
        return f"{said} + {shown}" if pictures else said
    if kind == "image":
        source = block.get("source")
        source = source if isinstance(source, dict) else {}
        return f"image {source.get('media_type')} ({len(str(source.get('data', '')))} base64 chars)"
    if kind == "text":
        return f"text {cut(str(block.get('text', '')))}"
    if kind == "thinking":
        return f"thinking {cut(str(block.get('thinking', '')), 60)}"
    if kind in ("server_tool_use", "web_search_tool_result"):
        return f"{kind} {block.get('id') or block.get('tool_use_id')}"
    return str(kind)


def quote(exchange: Exchange, last: int = 2) -> list[str]:
    """A request as evidence: its number and answer, then its last messages block by block."""
    mode = "stream" if isinstance(exchange.body, dict) and exchange.body.get("stream") else "json"
    if exchange.wire == CHAT:  # its messages below are the neutral history's reading of it
        mode += ", Chat Completions, read as blocks"
    lines = [f"request #{exchange.number} ({mode}) → {exchange.answer}"]
    messages = exchange.messages
    first = max(0, len(messages) - last)
    for index, message in enumerate(messages[first:], start=first):
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        blocks = [content] if isinstance(content, str) else content or []
        lines.append(f"  messages.{index} {message.get('role')}:")
        lines += [f"    {block_line(b)}" for b in blocks]
    return lines


def short(text: object, limit: int = 160) -> str:
    """One line, cut to `limit` characters."""
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"
