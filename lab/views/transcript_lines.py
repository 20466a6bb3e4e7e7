"""A run as transcript lines: turn by turn, each line in its unit (a turn's head, one call, a
turn's tail) with the fact two runs compare. transcript.py renders them; divergence.py compares."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rich.text import Text

from lab.kernel.trace import (
    AnswerUnreadable,
    ApiRejected,
    BatchRan,
    CallCutOff,
    CheckFailed,
    CheckPassed,
    ConnectionLost,
    Event,
    GateDecision,
    HistoryTrimmed,
    HookFailed,
    HookFired,
    HookSkipped,
    HumanAsked,
    ModelAnswered,
    ModelCalled,
    ModelRetried,
    PartialAnswer,
    ResultAppended,
    ResultSpilled,
    RuleIgnored,
    RunEnded,
    RunStarted,
    StopContinued,
    ThinkingSentBack,
    ToolCallSeen,
    ToolExecuted,
    ToolRefused,
)
from lab.views import api_words, output_words
from lab.views import harness_words as said
from lab.views.scenario_words import in_chinese
from lab.views.transcript_words import WORDS

# The course's permission stage runs as a hook of this name; its verdict shows in the gate
# lines, so its own line is bookkeeping, like a passed check.
PERMISSION_HOOK = "permission_hook"


MARK_STYLE = "on #fff3b0"
HEAD, TAIL = 0, 10_000  # unit ranks inside a turn; calls take 1, 2, ... in the model's order


@dataclass(frozen=True)
class Line:
    """One line of a transcript: where it belongs, what it shows, what is compared."""

    turn: int
    unit: tuple[int, int, str]  # (turn, rank, name): the turn's head, one call, the tail
    text: Text
    indent: int = 0
    key: str | None = None  # the fact two runs compare; None: shown but not compared
    at: float = 0.0  # where in the trace it happened (a line of no event: beside its cause)
    event: Event | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Facts:
    """What a transcript is drawn from: the trace, plus what only the run itself knows."""

    events: list[Event]
    first_message: dict[str, Any] | None = None  # the first request's first message
    lost: tuple[str, ...] | None = None  # initial files gone at the end (None: unknown)


def facts_of(source: Any) -> Facts:
    """Facts of a Run, a notebook Stepper, a Trace or a plain list of events."""
    if isinstance(source, Facts):
        return source
    events = list(getattr(source, "trace", source))
    api = getattr(source, "api", None)
    requests = getattr(api, "requests", None) or []
    first = requests[0]["messages"][0] if requests and requests[0].get("messages") else None
    lost = None
    world = getattr(source, "world", None)
    initial = getattr(source, "initial_files", getattr(source, "initial", None))
    if world is not None and initial is not None:
        final = world.snapshot()
        lost = tuple(sorted(path for path in initial if path not in final))
    return Facts(events, first, lost)


# -- text of one thing -----------------------------------------------------------------------
def show(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False) if isinstance(value, str) else str(value)


def one_line(text: str, limit: int = 80) -> str:
    """A short label (a prompt, a question): on one line, cut with … past `limit`."""
    text = text.replace("\n", "⏎")
    return text if len(text) <= limit else text[: limit - 1] + "…"


def body(text: str, w: dict[str, str], limit: int | None) -> str:
    """A tool's output or a result's content: whole (the terminal wraps it) unless `limit`."""
    if limit is None or len(text) <= limit:
        return text
    return text[:limit] + w["more"].format(n=len(text) - limit)


def quoted(text: str, gloss: str) -> str:
    """Wire text with a Chinese gloss: quoted as sent, then said in Chinese; unglossed text as
    it is."""
    return f"“{text}”{gloss}" if gloss else text


def block_text(block: dict[str, Any], w: dict[str, str]) -> str:
    if block["type"] == "text":
        gloss = in_chinese(block["text"], w["lang"])
        return w["text"].format(text=one_line(block["text"])) + gloss
    if block["type"] == "thinking":
        gloss = in_chinese(block["thinking"], w["lang"])
        return w["thinking"].format(text=one_line(block["thinking"])) + gloss
    if block["type"] == "tool_use":
        args = json.dumps(block["input"], ensure_ascii=False)
        return f"tool_use {block['id']}  {block['name']} {args}"
    return block["type"]


def event_line(e: Event, w: dict[str, str], limit: int | None = None) -> tuple[str, str]:
    """(text, style) of one event that has a line of its own."""
    lang = w["lang"]
    match e:
        case RunStarted():
            gloss = in_chinese(e.prompt, lang)
            return w["prompt"].format(prompt=one_line(e.prompt)) + gloss, "bold"
        case RuleIgnored():
            return w["rule_ignored"].format(gate=said.gate(e.gate, lang), rule=e.rule), "yellow"
        case ToolRefused():
            return w["refused"].format(tool=e.tool, reason=said.reason(e.reason, lang)), "red"
        case ModelCalled():
            streamed = w["streamed"] if e.stream else ""
            s = "s" if e.messages != 1 else ""
            return w["called"].format(n=e.messages, s=s, streamed=streamed), "dim"
        case ModelAnswered():
            seen = w["yes"] if e.tool_use_seen else w["no"]
            return w["answered"].format(id=e.message_id, stop=e.stop_reason, seen=seen), "bold"
        case ApiRejected():
            meant = api_words.meaning(e.message, lang)
            text = w["api"].format(status=e.status, type=e.error_type, message=e.message)
            return text + meant, "bold red"
        case AnswerUnreadable():
            return w["unreadable"].format(message=e.message), "bold red"
        case ConnectionLost():
            return w["lost"].format(message=e.message), "bold red"
        case PartialAnswer():
            kinds = ", ".join(b["type"] for b in e.blocks) or w["no_blocks"]
            fate = w["partial_kept"] if e.kept else w["partial_dropped"]
            return w["partial"].format(kinds=kinds, fate=fate), "bold red" if e.kept else "dim"
        case ThinkingSentBack():
            fate = w["sent_kept"] if e.kept else w["sent_dropped"]
            text = w["sent_back"].format(kinds=", ".join(e.blocks), fate=fate)
            return text, "dim" if e.kept else "bold red"
        case ModelRetried():
            text = w["retried"].format(
                n=e.retry, wait=f"{e.wait_s:g}", reason=said.reason(e.reason, lang)
            )
            return text, "blue"
        case CallCutOff():
            wire = w["cut_plain"] if e.wire is None else e.wire
            made = json.dumps(e.input, ensure_ascii=False)
            text = "\n".join(
                (
                    w["cut"].format(id=e.call_id, name=e.name),
                    "    " + w["cut_wire"].format(wire=wire),
                    "    " + w["cut_made"].format(input=made),
                )
            )
            return text, "bold yellow"
        case HistoryTrimmed():
            return w["trimmed"].format(removed=e.removed, kept=e.kept), "blue"
        case ToolCallSeen():
            return w["seen"].format(id=e.call_id, name=e.name), "bold cyan"
        case CheckPassed():
            return w["passed"].format(stage=said.stage(e.stage, lang)), "green"
        case CheckFailed():
            text = w["failed"].format(
                stage=said.stage(e.stage, lang), reason=said.reason(e.reason, lang)
            )
            return text, "bold red"
        case HookFired():
            result = one_line(show(e.result), 120)
            if lang == "zh" and isinstance(e.result, str):  # a hook's words: quoted as data
                meant = said.reason(e.result, lang)
                gloss = f"（{meant}）" if meant != e.result else ""
                result = f"“{one_line(e.result, 120)}”{gloss}"
            elif lang == "zh" and isinstance(e.result, dict):  # its words inside, then said
                result += "".join(in_chinese(str(v), lang) for v in e.result.values())
            return w["hook"].format(event=e.event, hook=e.hook, result=result), "magenta"
        case HookFailed():
            error = quoted(e.error, output_words.gloss(e.error, lang))
            return w["hook_failed"].format(event=e.event, hook=e.hook, error=error), "red"
        case HookSkipped():
            text = w["hook_skipped"].format(event=e.event, hook=e.hook, because=e.because)
            return text, "bold magenta"
        case GateDecision():
            text = w["gate"].format(
                gate=said.gate(e.gate, lang),
                decision=said.decision(e.decision, lang),
                reason=said.reason(e.reason, lang),
            )
            return text, "yellow"
        case HumanAsked():
            question = said.question(e.question, lang)
            answer = said.answer(e.answer, lang)
            return w["human"].format(question=question, answer=answer), "yellow"
        case ToolExecuted():
            error = w["ran_error"] if e.is_error else ""
            text = w["ran"].format(
                started=f"{e.started:g}",
                finished=f"{e.finished:g}",
                error=error,
                output=quoted(body(e.output, w, limit), output_words.gloss(e.output, lang)),
            )
            return text, "red" if e.is_error else ""
        case ResultSpilled():
            return w["spilled"].format(size=e.size, path=e.path), "blue"
        case ResultAppended():
            error = " [is_error]" if e.is_error else ""
            gloss = said.result_gloss(e.content, lang) or output_words.gloss(e.content, lang)
            content = quoted(body(e.content, w, limit), gloss)
            return w["result"].format(error=error, content=content), "dim"
        case BatchRan():
            parallel = w["parallel"] if e.parallel else ""
            text = w["tray"].format(
                ids=" ".join(e.call_ids),
                parallel=parallel,
                started=f"{e.started:g}",
                finished=f"{e.finished:g}",
            )
            return text, "blue"
        case StopContinued():
            gloss = in_chinese(e.reason, lang)
            return w["stop_continued"].format(reason=e.reason) + gloss, "magenta"
        case RunEnded():
            detail = e.detail  # what was raised: quoted as data in zh, its meaning after it
            if lang == "zh" and e.detail:
                detail = f"“{e.detail}”{output_words.gloss(e.detail, lang)}"
            text = w["ended"].format(reason=said.ending(e.reason, lang), detail=detail).rstrip()
            return text, "bold"
    return one_line(repr(e)), "dim"


# max_tokens, refusal and pause_turn say why the answer ended, not whether it holds a call.
CLAIMS_ABOUT_CALLS = {"tool_use", "end_turn", "stop_sequence"}


def disagrees(answer: ModelAnswered) -> bool:
    """The declared stop_reason says (no) tool call while the content says the opposite."""
    claims = answer.stop_reason in CLAIMS_ABOUT_CALLS
    return claims and (answer.stop_reason == "tool_use") != answer.tool_use_seen


def call_of(event: Event) -> str | None:
    """The tool call an event belongs to (hooks without a call belong to the turn)."""
    return getattr(event, "call_id", None) if not isinstance(event, BatchRan) else None


# -- a run as lines --------------------------------------------------------------------------
def lines_of(source: Any, lang: str = "en", limit: int | None = None) -> list[Line]:
    """The run as transcript lines, turn by turn, in the order a reader meets them."""
    facts, w = facts_of(source), WORDS[lang]
    at = {id(e): float(i) for i, e in enumerate(facts.events)}
    turns: dict[int, list[Event]] = {}
    for event in facts.events:
        turns.setdefault(event.turn, []).append(event)
    lines: list[Line] = []
    for turn, events in turns.items():
        lines += Turn(turn, events, facts, w, limit, at).lines()
    if facts.lost is not None and facts.events:
        last = facts.events[-1].turn
        if facts.lost:
            s = "s" if len(facts.lost) != 1 else ""
            text = w["disk_lost"].format(n=len(facts.lost), s=s, paths=", ".join(facts.lost))
            style = "bold red"
        else:
            text, style = w["disk_kept"], "green"
        unit = (last, TAIL + 1, "disk")
        lines.append(Line(last, unit, Text(text, style), 0, text, float(len(facts.events))))
    return lines


def in_head(event: Event) -> bool:
    """Events of the turn's head: what was sent and what came back (and the prompt hooks)."""
    if isinstance(event, HookFired | HookFailed | HookSkipped):
        return event.event == "UserPromptSubmit"
    return call_of(event) is None and not isinstance(event, BatchRan | StopContinued | RunEnded)


def in_tail(event: Event) -> bool:
    """Events of the turn's tail: trays, the Stop socket and batch hooks, the run's end."""
    if isinstance(event, HookFired | HookFailed | HookSkipped):
        return event.call_id is None and event.event != "UserPromptSubmit"
    return isinstance(event, BatchRan | StopContinued | RunEnded)


@dataclass
class Turn:
    """The lines of one turn: its head, each call down the chain, its tail."""

    turn: int
    events: list[Event]
    facts: Facts
    w: dict[str, str]
    limit: int | None
    at: dict[int, float]

    def lines(self) -> list[Line]:
        turn, w = self.turn, self.w
        end = max(self.at[id(e)] for e in self.events) + 0.5  # lines of no event
        head, tail = (turn, HEAD, "head"), (turn, TAIL, "tail")
        title = w["start"] if turn == 0 else w["turn"].format(n=turn)
        out = [
            Line(turn, head, Text(title, "bold underline"), 0, None, self.at[id(self.events[0])])
        ]
        answer = next((e for e in self.events if isinstance(e, ModelAnswered)), None)
        blocks = [b for b in answer.blocks if b["type"] == "tool_use"] if answer else []
        seen = [e.call_id for e in self.events if isinstance(e, ToolCallSeen)]
        order = [b["id"] for b in blocks] + [c for c in seen if c not in {b["id"] for b in blocks}]
        for event in filter(in_head, self.events):
            out.append(self.line(head, event, 0))
            here = self.at[id(event)]
            if isinstance(event, RunStarted) and self.facts.first_message is not None:
                text = first_message_text(self.facts.first_message, self.events, w)
                out.append(Line(turn, head, Text(text, "blue"), 2, text, here))
            if isinstance(event, ModelAnswered):
                if disagrees(event):
                    warning = w["disagree"]
                    out.append(Line(turn, head, Text(warning, "bold yellow"), 2, warning, here))
                out += [
                    Line(turn, head, Text(block_text(b, w)), 2, None, here) for b in event.blocks
                ]
        crashed = self.crashed_call(order)
        names = {b["id"]: b["name"] for b in blocks}
        for rank, call_id in enumerate(order, start=1):
            unit = (turn, rank, call_id)
            mine = [e for e in self.events if call_of(e) == call_id]
            if call_id == crashed:
                mine.append(next(e for e in self.events if isinstance(e, RunEnded)))
            out += self.call(unit, names.get(call_id, "?"), mine, len(order) > 1, end)
        shown = {id(line.event) for line in out}
        for event in filter(in_tail, self.events):
            if id(event) not in shown:
                out.append(self.line(tail, event, 0))
        if turn > 0 and not any(isinstance(e, RunEnded) for e in self.events):
            empty = not seen and not any(isinstance(e, StopContinued) for e in self.events)
            text = w["empty_turn"] if empty and answer is not None else w["goes_on"]
            out.append(Line(turn, tail, Text(text, "dim"), 0, text, end))
        return out

    def line(self, unit: tuple[int, int, str], event: Event, indent: int) -> Line:
        text, style = event_line(event, self.w, self.limit)
        return Line(self.turn, unit, Text(text, style), indent, text, self.at[id(event)], event)

    def crashed_call(self, order: list[str]) -> str | None:
        """The call in progress when the run crashed: the first one with no outcome."""
        if not any(isinstance(e, RunEnded) and e.reason == "crash" for e in self.events):
            return None
        done = {e.call_id for e in self.events if isinstance(e, ToolExecuted | CheckFailed)}
        return next((c for c in order if c not in done), None)

    def call(
        self,
        unit: tuple[int, int, str],
        name: str,
        events: list[Event],
        several: bool,
        end: float,
    ) -> list[Line]:
        """One call down the chain: passed stages on one line, each other event on its own,
        the result (or its absence). With several calls in the answer each line names its
        call."""
        turn, call_id, w = self.turn, unit[2], self.w
        prefix = f"{call_id} " if several else ""

        def make(
            text: str, style: str, at: float, key: bool = True, event: Event | None = None
        ) -> Line:
            seen = isinstance(event, ToolCallSeen)  # names its call already
            shown = Text(text, style)
            if prefix and not seen:
                shown = Text(prefix, "dim") + shown
            indent = 2 if seen else 4
            return Line(turn, unit, shown, indent, text if key else None, at, event)

        # The call's own line first (a CallCutOff is emitted before the call goes down the chain).
        events = sorted(events, key=lambda e: not isinstance(e, ToolCallSeen))
        if not events or not isinstance(events[0], ToolCallSeen):
            answered = next(e for e in self.events if isinstance(e, ModelAnswered))
            text = w["dropped"].format(id=call_id, name=name)
            return [Line(turn, unit, Text(text, "bold red"), 2, text, self.at[id(answered)])]
        out: list[Line] = []
        quiet: list[Event] = []

        def flush() -> None:
            if quiet:
                text = "  ".join(event_line(e, w)[0] for e in quiet)
                out.append(make(text, "green", self.at[id(quiet[0])], key=False))
                quiet.clear()

        for event in events:
            if isinstance(event, CheckPassed):
                quiet.append(event)
                continue
            flush()
            bookkeeping = isinstance(event, HookFired) and event.hook == PERMISSION_HOOK
            text, style = event_line(event, w, self.limit)
            out.append(make(text, style, self.at[id(event)], not bookkeeping, event))
        flush()
        if not any(isinstance(e, ResultAppended) for e in events):
            out.append(make(w["no_result"], "bold red", end))
        return out


def first_message_text(message: dict[str, Any], events: list[Event], w: dict[str, str]) -> str:
    content = message["content"]
    extra = [] if isinstance(content, str) else [b.get("text", "") for b in content[1:]]
    if extra:
        context = " ".join(extra)
        return w["first_context"].format(context=one_line(context)) + in_chinese(context, w["lang"])
    answered = any(
        isinstance(e, HookFired) and e.event == "UserPromptSubmit" and e.result is not None
        for e in events
    )
    return w["first_alone"] + (w["context_dropped"] if answered else "")
