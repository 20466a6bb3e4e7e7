"""Judge a request's `messages` like the real Messages API: shapes, roles, emptiness, pairing.

The rules are walked message by message (`HistoryCheck`), so a history that only grew since the
last request is judged only where it grew. For one bad history the first broken rule wins:
  0. shape: each message, as `request_shape.message_problem` judges it, in order; then its
     blocks, in order (`BLOCK_RULES`): a text block empty or only whitespace (a tool_result's
     text blocks too), a block in the wrong role's message, a tool_use id used twice in a turn;
  1. consecutive user (or assistant) messages are combined into one turn, as the real API does;
     a role "system" message is a turn of its own, never combined with a neighbour;
  2. each turn is judged once the next one starts (the last one at the end), in order:
     a. empty content in any of its messages (only the final assistant message may be empty);
     b. a user turn's tool_result blocks, in order: an id the turn right before it (an
        assistant turn) never used ("unexpected"), or a second result for one id ("multiple");
     c. after an assistant turn: its tool_use ids missing from the *leading* run of
        tool_result blocks of the turn right after it. A system message in between breaks the
        pairing like any other message: results go right after the call;
  3. at the end: at least one message, and a final assistant turn with tool_use blocks has
     every id missing (nothing follows it), and its last text may not end in whitespace.
Indices: N is the original index of a turn's first message, M a block's position in the
combined content of that turn.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from lab.model.request_shape import message_problem
from lab.model.tool_pairs import ANY_ORDER, joins, leading_result_ids, tool_use_ids, unanswered

INVALID = "invalid_request_error"


@dataclass
class _Turn:
    """One or more consecutive same-role messages, seen as one turn."""

    role: str
    index: int  # original index of the turn's first message
    blocks: list = field(default_factory=list)  # combined content
    empty: list[int] = field(default_factory=list)  # indices of its messages with no content
    call_ids: set = field(default_factory=set)  # its tool_use ids so far

    def add(self, n: int, message: dict) -> None:
        content = message.get("content")  # a system message may carry only output_config
        if not content and not message.get("output_config"):
            self.empty.append(n)
        self.blocks += _blocks(content)


def _blocks(content: object) -> list:
    """A message's content as blocks: a string is shorthand for one text block, and an empty
    string is no block (the empty-content rule judges it)."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    return content if isinstance(content, list) else []


# ---------------------------------------------------------------- rule 0: one block at a time
# The real API's texts where public reports quote them, else texts in its style; the sources
# and the reasons are in docs/api-rules.md.
EMPTY_TEXT = "messages: text content blocks must be non-empty"
BLANK_TEXT = "messages: text content blocks must contain non-whitespace text"
DUPLICATE_CALL = "`tool_use` ids must be unique"
TRAILING_SPACE = "messages: final assistant content cannot end with trailing whitespace"
ROLE_OF_BLOCK = {"tool_use": "assistant", "tool_result": "user"}  # where each may stand


def _text_problem(block: dict) -> str | None:
    """An empty or blank text block, or one inside a tool_result's content."""
    if block.get("type") == "tool_result" and isinstance(block.get("content"), list):
        return next(filter(None, map(_text_problem, block["content"])), None)
    if block.get("type") != "text":
        return None
    if block["text"] == "":
        return EMPTY_TEXT
    return BLANK_TEXT if block["text"].isspace() else None


def _role_problem(turn: _Turn, m: int, block: dict) -> str | None:
    owner = ROLE_OF_BLOCK.get(block.get("type", ""), turn.role)
    if owner == turn.role:
        return None
    where = f"messages.{turn.index}.content.{m}"
    return f"{where}: `{block['type']}` blocks can only be in `{owner}` messages"


def _duplicate_problem(turn: _Turn, m: int, block: dict) -> str | None:
    if block.get("type") != "tool_use" or block["id"] not in turn.call_ids:
        return None
    return f"messages.{turn.index}.content.{m}: {DUPLICATE_CALL}"


BLOCK_RULES = (
    lambda turn, m, block: _text_problem(block),
    _role_problem,
    _duplicate_problem,
)


def _blocks_problem(turn: _Turn, blocks: list) -> str | None:
    """The first problem of `blocks`, the next message's content, as they join `turn`."""
    for m, block in enumerate(blocks, start=len(turn.blocks)):
        for rule in BLOCK_RULES:
            problem = rule(turn, m, block)
            if problem:
                return problem
        if block.get("type") == "tool_use":
            turn.call_ids.add(block["id"])
    return None


# ---------------------------------------------------------------- rules 1-3: turn by turn


def _empty_problem(turn: _Turn, final_index: int | None) -> str | None:
    for n in turn.empty:
        if not (n == final_index and turn.role == "assistant"):
            return (
                f"messages.{n}: all messages must have non-empty content "
                "except for the optional final assistant message"
            )
    return None


def _result_problem(turn: _Turn, previous: _Turn | None) -> str | None:
    offered = tool_use_ids(previous.blocks) if previous and previous.role == "assistant" else []
    seen: set[str] = set()
    for m, block in enumerate(turn.blocks):
        if block.get("type") != "tool_result":
            continue
        result_id = block.get("tool_use_id")
        where = f"messages.{turn.index}.content.{m}"
        if result_id not in offered:
            return (
                f"{where}: unexpected `tool_use_id` found in `tool_result` blocks: {result_id}. "
                "Each `tool_result` block must have a corresponding `tool_use` block "
                "in the previous message."
            )
        if result_id in seen:
            return (
                f"{where}: each tool_use must have a single result. "
                f"Found multiple `tool_result` blocks with id: {result_id}"
            )
        seen.add(result_id)
    return None


def _missing_problem(assistant: _Turn, following: _Turn | None) -> str | None:
    # Only the leading run of tool_result blocks of a user turn answers; the API takes any order.
    answered = (
        leading_result_ids(following.blocks) if following and following.role == "user" else []
    )
    missing = unanswered(tool_use_ids(assistant.blocks), answered, ANY_ORDER)
    if not missing:
        return None
    return (
        f"messages.{assistant.index}: `tool_use` ids were found without `tool_result` blocks "
        f"immediately after: {', '.join(map(str, missing))}. Each `tool_use` block must have a "
        "corresponding `tool_result` block in the next message."
    )


def _trailing_problem(final: _Turn) -> str | None:
    """A prefill (the request ends with the assistant's words) may not end in whitespace."""
    last = final.blocks[-1] if final.blocks else {}
    if last.get("type") == "text" and last["text"] != last["text"].rstrip():
        return TRAILING_SPACE
    return None


def _turn_problem(turn: _Turn, previous: _Turn | None, final_index: int | None) -> str | None:
    """Rules 2a-2c for `turn`, the turn right after `previous`."""
    problem = _empty_problem(turn, final_index)
    if not problem and turn.role == "user":
        problem = _result_problem(turn, previous)
    if not problem and previous is not None and previous.role == "assistant":
        problem = _missing_problem(previous, turn)
    return problem


class HistoryCheck:
    """The rules, walked one message at a time.

    `add` takes the next message and returns the first problem it reveals; `finish` applies
    the rules about the end of the history without changing the walker, so a copy of a walker
    that judged one request can take the next request's new messages where it left off.
    """

    def __init__(self) -> None:
        self.count = 0  # messages taken so far
        self.previous: _Turn | None = None  # judged already
        self.current: _Turn | None = None  # still open: the next message may extend it

    def copy(self) -> HistoryCheck:
        """An independent walker at the same place (only the open turn is ever changed)."""
        twin = copy.copy(self)
        if self.current is not None:  # blocks are never changed, only the lists grow
            current = self.current
            twin.current = _Turn(
                current.role,
                current.index,
                list(current.blocks),
                list(current.empty),
                set(current.call_ids),
            )
        return twin

    def add(self, message: object) -> str | None:
        """Take the next message: its shape, then the rules that its arrival lets us judge."""
        n = self.count
        problem = message_problem(n, message)
        if problem:
            return problem
        assert isinstance(message, dict)  # message_problem checked it
        role = message["role"]
        if self.current is None or not joins(role, self.current.role):
            if self.current is not None:
                problem = _turn_problem(self.current, self.previous, None)
                if problem:
                    return problem
            self.previous, self.current = self.current, _Turn(role, n)
        problem = _blocks_problem(self.current, _blocks(message.get("content")))
        if problem:
            return problem
        self.current.add(n, message)
        self.count += 1
        return None

    def take(self, messages: list) -> str | None:
        """Add `messages` in order; the first problem, else the history's problem as it ends."""
        for message in messages:
            problem = self.add(message)
            if problem:
                return problem
        return self.finish()

    def finish(self) -> str | None:
        """The problem of the history as it stands, if it ended here."""
        if self.current is None:
            return "messages: at least one message is required"
        problem = _turn_problem(self.current, self.previous, final_index=self.count - 1)
        if not problem and self.current.role == "assistant":
            problem = _missing_problem(self.current, None) or _trailing_problem(self.current)
        return problem


def validate_messages(messages: list) -> tuple[str, str] | None:
    """Return `(error_type, message)` for the first rule the history breaks, or None if valid."""
    problem = HistoryCheck().take(messages)
    return (INVALID, problem) if problem else None
