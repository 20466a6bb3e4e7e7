"""Runs explained line by line in the chapter's words, and where two runs part ways: the break.

A run becomes a list of `Line`s, turn by turn: the model's answer, each call down the chain
(with its hooks, gates, questions, what ran and the tool_result), the trays, how the turn
ended and, at the end, what the virtual disk lost. Every line belongs to a *unit* (a turn's
head, one call, a turn's tail), and two runs are compared unit by unit: the first unit whose
facts differ holds the break, and inside it the first line one run has and the other has not.
Comparing facts per call rather than events by position keeps a reordering (the course's
permission hook fires before the audit hook) or a parallel tray from hiding the real break.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.table import Table
from rich.text import Text

from lab.trace import (
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
    RunEnded,
    RunStarted,
    StopContinued,
    ToolCallSeen,
    ToolExecuted,
    ToolRefused,
)

# The course's permission stage runs as a hook of this name; its verdict shows in the gate
# lines, so its own line is bookkeeping, like a passed check.
PERMISSION_HOOK = "permission_hook"

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "start": "start",
        "turn": "turn {n}",
        "prompt": "prompt “{prompt}”",
        "first_alone": "first message to the model: the prompt alone",
        "first_context": "first message to the model: the prompt + context “{context}”",
        "context_dropped": " (a UserPromptSubmit hook answered; its answer was dropped)",
        "refused": "the dispatch table refused {tool}: {reason}",
        "called": "model called with {n} message{s}{streamed}",
        "streamed": " · streamed",
        "answered": "{id} · stop_reason={stop} (declared) · tool_use in content: {seen}",
        "yes": "yes",
        "no": "no",
        "disagree": "⚠ the declaration disagrees with the content",
        "text": "text “{text}”",
        "api": "✗ API {status} {type}: {message}",
        "unreadable": "✗ the answer could not be read: {message}",
        "lost": "✗ connection lost: {message}",
        "partial": "partial answer ({kinds}) {fate}",
        "partial_kept": "KEPT in the history",
        "partial_dropped": "dropped",
        "no_blocks": "nothing",
        "retried": "↻ retry {n} after {wait}s on the virtual clock: {reason}",
        "cut": "✂ {id} {name}: max_tokens cut its input",
        "cut_wire": "as it arrived: {wire}",
        "cut_made": "the SDK made:  {input}",
        "cut_plain": "(not streamed: the API sent the complete fields only)",
        "trimmed": "history trimmed: {removed} messages removed, {kept} sent",
        "seen": "▸ {id} {name} down the chain",
        "passed": "✓ {stage}",
        "failed": "✗ {stage}: {reason}",
        "hook": "hook {event}/{hook} → {result}",
        "hook_failed": "hook {event}/{hook} raised {error}",
        "hook_skipped": "hook {event}/{hook} skipped: {because} answered first",
        "gate": "gate {gate} → {decision} ({reason})",
        "human": "human asked “{question}” → {answer}",
        "ran": "ran {started}s→{finished}s{error}: {output}",
        "ran_error": " (error)",
        "spilled": "spilled {size} chars to {path}",
        "result": "tool_result{error}: {content}",
        "no_result": "✗ no tool_result was sent for this call",
        "dropped": "✗ {id} {name} never looked at: dropped",
        "tray": "tray [{ids}]{parallel} {started}s→{finished}s",
        "parallel": " in parallel",
        "stop_continued": "Stop hook keeps the loop going: {reason}",
        "ended": "■ run ended: {reason} {detail}",
        "goes_on": "↻ the loop goes on",
        "empty_turn": "↻ the loop goes on with an empty tool_result message",
        "disk_kept": "virtual disk: no file lost",
        "disk_lost": "virtual disk: {n} file{s} lost: {paths}",
        "more": "… ({n} more characters)",
        "divergence": "first divergence at turn {turn}",
        "no_divergence": "no divergence: the two runs are line for line the same",
        "mark": " ◀ first divergence",
        "nothing": "(no counterpart on this side)",
        "colon": ":",
        "no_turn": "(no such turn)",
        "nothing_yet": "the run has already ended ({ended}): nothing more to step",
    },
    "zh": {
        "start": "开始",
        "turn": "第 {n} 轮",
        "prompt": "提示词“{prompt}”",
        "first_alone": "发给模型的第一条消息：只有提示词",
        "first_context": "发给模型的第一条消息：提示词 + 上下文“{context}”",
        "context_dropped": "（输入提交钩子有返回值，但被丢弃了）",
        "refused": "号码簿拒绝登记 {tool}：{reason}",
        "called": "调用模型，带 {n} 条消息{streamed}",
        "streamed": " · 流式",
        "answered": "{id} · stop_reason={stop}（声明）· 内容块里有 tool_use：{seen}",
        "yes": "有",
        "no": "无",
        "disagree": "⚠ 声明与内容块不一致",
        "text": "文本“{text}”",
        "api": "✗ API {status} {type}：{message}",
        "unreadable": "✗ 模型的回答无法读取：{message}",
        "lost": "✗ 连接中断：{message}",
        "partial": "半截回答（{kinds}）{fate}",
        "partial_kept": "被留在了历史里",
        "partial_dropped": "已丢弃",
        "no_blocks": "无内容",
        "retried": "↻ 第 {n} 次重试，在虚拟时钟上等待 {wait} 秒：{reason}",
        "cut": "✂ {id} {name}：输入被 max_tokens 截断",
        "cut_wire": "线上原样：{wire}",
        "cut_made": "SDK 解析成：{input}",
        "cut_plain": "（非流式：API 只发来了完整的字段）",
        "trimmed": "历史被裁剪：删去 {removed} 条消息，发送 {kept} 条",
        "seen": "▸ {id} {name} 进入扫码口",
        "passed": "✓ {stage}",
        "failed": "✗ {stage}：{reason}",
        "hook": "钩子 {event}/{hook} → {result}",
        "hook_failed": "钩子 {event}/{hook} 抛出异常 {error}",
        "hook_skipped": "钩子 {event}/{hook} 被跳过：{because} 先回答了（短路）",
        "gate": "门禁 {gate} → {decision}（{reason}）",
        "human": "询问人类“{question}”→ {answer}",
        "ran": "执行 {started}s→{finished}s{error}：{output}",
        "ran_error": "（出错）",
        "spilled": "溢写 {size} 个字符到 {path}",
        "result": "tool_result{error}：{content}",
        "no_result": "✗ 这次调用没有发回任何 tool_result",
        "dropped": "✗ {id} {name} 从未被查看：被丢弃",
        "tray": "托盘 [{ids}]{parallel} {started}s→{finished}s",
        "parallel": " 并行",
        "stop_continued": "退出钩子把传送带拽回去：{reason}",
        "ended": "■ 运行结束：{reason} {detail}",
        "goes_on": "↻ 传送带继续转",
        "empty_turn": "↻ 传送带继续转，发回一条空的 tool_result 消息",
        "disk_kept": "虚拟磁盘：没有丢失文件",
        "disk_lost": "虚拟磁盘：丢失 {n} 个文件：{paths}",
        "more": "……（还有 {n} 个字符）",
        "divergence": "第一处分歧在第 {turn} 轮",
        "no_divergence": "没有分歧：两次运行逐行相同",
        "mark": " ◀ 第一处分歧",
        "nothing": "（这一侧没有对应的行）",
        "colon": "：",
        "no_turn": "（没有这一轮）",
        "nothing_yet": "运行已经结束（{ended}）：没有可以再走的一步",
    },
}

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


def block_text(block: dict[str, Any], w: dict[str, str]) -> str:
    if block["type"] == "text":
        return w["text"].format(text=one_line(block["text"]))
    if block["type"] == "tool_use":
        args = json.dumps(block["input"], ensure_ascii=False)
        return f"tool_use {block['id']}  {block['name']} {args}"
    return block["type"]


def event_line(e: Event, w: dict[str, str], limit: int | None = None) -> tuple[str, str]:
    """(text, style) of one event that has a line of its own."""
    match e:
        case RunStarted():
            return w["prompt"].format(prompt=one_line(e.prompt)), "bold"
        case ToolRefused():
            return w["refused"].format(tool=e.tool, reason=e.reason), "red"
        case ModelCalled():
            streamed = w["streamed"] if e.stream else ""
            s = "s" if e.messages != 1 else ""
            return w["called"].format(n=e.messages, s=s, streamed=streamed), "dim"
        case ModelAnswered():
            seen = w["yes"] if e.tool_use_seen else w["no"]
            return w["answered"].format(id=e.message_id, stop=e.stop_reason, seen=seen), "bold"
        case ApiRejected():
            text = w["api"].format(status=e.status, type=e.error_type, message=e.message)
            return text, "bold red"
        case AnswerUnreadable():
            return w["unreadable"].format(message=e.message), "bold red"
        case ConnectionLost():
            return w["lost"].format(message=e.message), "bold red"
        case PartialAnswer():
            kinds = ", ".join(b["type"] for b in e.blocks) or w["no_blocks"]
            fate = w["partial_kept"] if e.kept else w["partial_dropped"]
            return w["partial"].format(kinds=kinds, fate=fate), "bold red" if e.kept else "dim"
        case ModelRetried():
            text = w["retried"].format(n=e.retry, wait=f"{e.wait_s:g}", reason=e.reason)
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
            return w["passed"].format(stage=e.stage), "green"
        case CheckFailed():
            return w["failed"].format(stage=e.stage, reason=e.reason), "bold red"
        case HookFired():
            result = one_line(show(e.result), 120)
            return w["hook"].format(event=e.event, hook=e.hook, result=result), "magenta"
        case HookFailed():
            return w["hook_failed"].format(event=e.event, hook=e.hook, error=e.error), "red"
        case HookSkipped():
            text = w["hook_skipped"].format(event=e.event, hook=e.hook, because=e.because)
            return text, "bold magenta"
        case GateDecision():
            text = w["gate"].format(gate=e.gate, decision=e.decision, reason=e.reason)
            return text, "yellow"
        case HumanAsked():
            return w["human"].format(question=e.question, answer=e.answer), "yellow"
        case ToolExecuted():
            error = w["ran_error"] if e.is_error else ""
            text = w["ran"].format(
                started=f"{e.started:g}",
                finished=f"{e.finished:g}",
                error=error,
                output=body(e.output, w, limit),
            )
            return text, "red" if e.is_error else ""
        case ResultSpilled():
            return w["spilled"].format(size=e.size, path=e.path), "blue"
        case ResultAppended():
            error = " [is_error]" if e.is_error else ""
            return w["result"].format(error=error, content=body(e.content, w, limit)), "dim"
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
            return w["stop_continued"].format(reason=e.reason), "magenta"
        case RunEnded():
            text = w["ended"].format(reason=e.reason, detail=e.detail).rstrip()
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
        return w["first_context"].format(context=one_line(" ".join(extra)))
    answered = any(
        isinstance(e, HookFired) and e.event == "UserPromptSubmit" and e.result is not None
        for e in events
    )
    return w["first_alone"] + (w["context_dropped"] if answered else "")


# -- where two runs part ways ----------------------------------------------------------------
@dataclass(frozen=True)
class Divergence:
    """The break: the first unit whose facts differ, and the line on each side that shows it
    (None on a side that has no such line)."""

    turn: int
    unit: tuple[int, int, str]
    left: Line | None
    right: Line | None


def units(lines: list[Line]) -> dict[tuple[int, int, str], list[Line]]:
    found: dict[tuple[int, int, str], list[Line]] = {}
    for line in lines:
        found.setdefault(line.unit, []).append(line)
    return found


def first_unmatched(ours: list[Line], theirs: list[Line]) -> Line | None:
    """Our first compared line whose fact the other side does not have (counted)."""
    left = Counter(line.key for line in theirs if line.key is not None)
    for line in ours:
        if line.key is None:
            continue
        if left[line.key]:
            left[line.key] -= 1
        else:
            return line
    return None


def first_reordered(ours: list[Line], theirs: list[Line]) -> tuple[Line | None, Line | None]:
    a = [line for line in ours if line.key is not None]
    b = [line for line in theirs if line.key is not None]
    for x, y in zip(a, b, strict=False):
        if x.key != y.key:
            return x, y
    return None, None


def divergence(a: list[Line], b: list[Line]) -> Divergence | None:
    """The unit whose facts differ earliest in the runs (head, each call, tail), and the first
    line each side has that the other has not; with the same facts everywhere, the first
    reordering."""
    left, right = units(a), units(b)
    found = []
    for unit in set(left) | set(right):
        ours, theirs = left.get(unit, []), right.get(unit, [])
        x, y = first_unmatched(ours, theirs), first_unmatched(theirs, ours)
        if x is not None or y is not None:
            when = min(line.at for line in (x, y) if line is not None)
            found.append((when, unit, x, y))
    if found:
        _, unit, x, y = min(found, key=lambda f: (f[0], f[1]))
        return Divergence(unit[0], unit, x, y)
    for unit in sorted(set(left) | set(right)):  # same facts, another order
        x, y = first_reordered(left.get(unit, []), right.get(unit, []))
        if x is not None:
            return Divergence(unit[0], unit, x, y)
    return None


def first_divergence(a: Any, b: Any, lang: str = "en") -> Divergence | None:
    """Where two runs (Runs, Steppers, traces) part ways, or None when they do not."""
    return divergence(lines_of(a, lang), lines_of(b, lang))


# -- rendering -------------------------------------------------------------------------------
def rendered(line: Line, mark: Line | None, w: dict[str, str]) -> RenderableType:
    """A line at its indent; a multi-line output continues two columns further in."""
    first, *rest = line.text.split("\n", allow_blank=True)
    if mark is not None and line is mark:
        first.stylize(MARK_STYLE)
        first.append(w["mark"], "bold red")
    shown = Padding(first, (0, 0, 0, line.indent), expand=False)
    if not rest:
        return shown
    more = Text("\n").join(rest)
    return Group(shown, Padding(more, (0, 0, 0, line.indent + 2), expand=False))


def lines_view(lines: Sequence[Line], mark: Line | None = None, lang: str = "en") -> Group:
    w = WORDS[lang]
    out: list[RenderableType] = []
    for i, line in enumerate(lines):
        if i and line.turn != lines[i - 1].turn:
            out.append(Text(""))
        out.append(rendered(line, mark, w))
    return Group(*out)


def transcript(source: Any, lang: str = "en", limit: int | None = None) -> Group:
    """One run turn by turn (tool outputs and results whole unless `limit`)."""
    return lines_view(lines_of(source, lang, limit), None, lang)


def divergence_header(split: Divergence | None, titles: Sequence[str], lang: str) -> Group:
    """The break in a few lines: the turn, and on each side the line that shows it."""
    w = WORDS[lang]
    if split is None:
        return Group(Text(w["no_divergence"], "green"))
    parts: list[RenderableType] = [Text(w["divergence"].format(turn=split.turn), "bold red")]
    for title, line in zip(titles, (split.left, split.right), strict=True):
        shown = Text(w["nothing"], "dim")
        if line is not None:
            shown = Text(one_line(line.text.plain, 300), line.text.style)
        parts += [Text(f"  {title}{w['colon']}", "bold"), Text("    ") + shown]
    return Group(*parts)


def one_after_the_other(
    a: Any, b: Any, titles: Sequence[str], lang: str = "en", limit: int | None = None
) -> Group:
    """Both runs, one after the other, each with the first divergence marked."""
    left, right = lines_of(a, lang, limit), lines_of(b, lang, limit)
    split = divergence(left, right)
    marks = (split.left, split.right) if split else (None, None)
    parts: list[RenderableType] = [divergence_header(split, titles, lang)]
    for title, lines, mark in zip(titles, (left, right), marks, strict=True):
        parts += [Text(""), Text(title, "bold underline reverse"), lines_view(lines, mark, lang)]
    return Group(*parts)


# Characters per line of a side-by-side view on a page (the report, a notebook): 150 cells of
# 12px DejaVu Sans Mono (7.2px each) and the <pre>'s padding fit a 1200 px page.
SIDE_BY_SIDE_WIDTH = 150


def side_by_side(
    a: Any,
    b: Any,
    titles: Sequence[str] = ("baseline", "switched"),
    turns: Sequence[int] | None = None,
    lang: str = "en",
    limit: int | None = 400,
) -> Group:
    """Two runs turn by turn in two columns; the first divergence marked on both sides."""
    w = WORDS[lang]
    left, right = lines_of(a, lang, limit), lines_of(b, lang, limit)
    split = divergence(left, right)
    marks = (split.left, split.right) if split else (None, None)
    table = Table(box=box.SIMPLE_HEAD, show_lines=True, expand=True, pad_edge=False)
    table.add_column("", width=3, no_wrap=True)
    table.add_column(titles[0], ratio=1, overflow="fold")
    table.add_column(titles[1], ratio=1, overflow="fold")
    shown = turns if turns is not None else sorted({x.turn for x in left + right})
    for turn in shown:
        ours = [x for x in left if x.turn == turn]
        theirs = [x for x in right if x.turn == turn]
        same = [x.key for x in ours] == [x.key for x in theirs]
        before = split is not None and turn < split.turn
        label = Text(str(turn), "dim" if same else "bold")
        if split is not None and turn == split.turn:
            label = Text(f"{turn}◀", "bold red")
        cells = [
            lines_view(xs, mark, lang) if xs else Text(w["no_turn"], "dim")
            for xs, mark in ((ours, marks[0]), (theirs, marks[1]))
        ]
        table.add_row(label, *cells, style="dim" if same and before else "")
    return Group(divergence_header(split, titles, lang), table)
