"""Judge a request's `messages` like the real Messages API: shapes, roles, emptiness, pairing.

The rules are walked message by message (`HistoryCheck`), so a history that only grew since the
last request is judged only where it grew. For one bad history the first broken rule wins:
  0. shape: each message, as `request_shape.message_problem` judges it, in order; then its
     blocks, in order (`BLOCK_RULES`): a text block empty or only whitespace (a tool_result's
     text blocks too), a block in the wrong role's message, a tool_use id used twice in a turn,
     an image whose data is empty or is not the declared media type (in a tool_result too);
     when a new assistant turn starts, a thinking block of the assistant turn before it whose
     signature does not check (lab/model/signing.py);
  1. consecutive user (or assistant) messages are combined into one turn, as the real API does;
     a role "system" message is a turn of its own, never combined with a neighbour;
  2. each turn is judged once the next one starts (the last one at the end), in order:
     a. empty content in any of its messages (only the final assistant message may be empty);
        an assistant turn holding thinking that does not start with it, or that ends with it;
     b. a user turn's tool_result blocks, in order: an id the turn right before it (an
        assistant turn) never used ("unexpected"), or a second result for one id ("multiple");
     c. after an assistant turn: its tool_use ids missing from the *leading* run of
        tool_result blocks of the turn right after it. A system message in between breaks the
        pairing like any other message: results go right after the call;
  3. at the end: at least one message, and a final assistant turn with tool_use blocks has
     every id missing (nothing follows it), and its last text may not end in whitespace;
     the latest assistant turn's thinking blocks unchanged (signatures that check); with a
     thinking budget, the assistant turn a tool loop continues starts with its thinking; with
     thinking off, a final assistant turn holds no thinking.
Indices: N is the original index of a turn's first message, M a block's position in the
combined content of that turn.
"""

from __future__ import annotations

import base64
import binascii
import copy
from dataclasses import dataclass, field

from lab.model.request_shape import message_problem
from lab.model.signing import SIGNER, Signer
from lab.model.tool_pairs import ANY_ORDER, leading_result_ids, tool_use_ids, unanswered

INVALID = "invalid_request_error"


@dataclass
class _Turn:
    """One or more consecutive same-role messages, seen as one turn."""

    role: str
    index: int  # original index of the turn's first message
    blocks: list = field(default_factory=list)  # combined content
    empty: list[int] = field(default_factory=list)  # indices of its messages with no content
    call_ids: set = field(default_factory=set)  # its tool_use ids so far
    unverified: list[int] = field(default_factory=list)  # its thinking blocks that fail (M)

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
# Where each may stand: the model's blocks in assistant messages, the harness's in user messages.
ROLE_OF_BLOCK = {
    "tool_use": "assistant",
    "tool_result": "user",
    "thinking": "assistant",
    "redacted_thinking": "assistant",
    "server_tool_use": "assistant",
    "web_search_tool_result": "assistant",
    "web_fetch_tool_result": "assistant",
    "code_execution_tool_result": "assistant",
}
THINKING = ("thinking", "redacted_thinking")
IMAGE_EMPTY = "image cannot be empty"
IMAGE_MISMATCH = "Image does not match the provided media type"
# The bytes each media type's files begin with (RIFF....WEBP: the 4 bytes between vary).
MAGIC = {
    "image/jpeg": lambda head: head.startswith(b"\xff\xd8\xff"),
    "image/png": lambda head: head.startswith(b"\x89PNG\r\n\x1a\n"),
    "image/gif": lambda head: head.startswith((b"GIF87a", b"GIF89a")),
    "image/webp": lambda head: head[:4] == b"RIFF" and head[8:12] == b"WEBP",
}


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


def _head(data: str) -> bytes:
    """The first bytes of base64 `data` (b"" when they are not base64): 16 characters are 12
    bytes, enough for every signature in MAGIC, and decoding no more keeps a big image cheap."""
    try:
        return base64.b64decode(data[:16], validate=True)
    except (binascii.Error, ValueError):
        return b""


def _one_image_problem(where: str, block: dict) -> str | None:
    source = block["source"]
    if source["type"] != "base64":
        return None
    if source["data"] == "":
        return f"{where}.image.source.base64: {IMAGE_EMPTY}"
    if not MAGIC[source["media_type"]](_head(source["data"])):
        return f"{where}.image.source.base64.data: {IMAGE_MISMATCH} {source['media_type']}"
    return None


def _image_problem(turn: _Turn, m: int, block: dict) -> str | None:
    """An image with empty data, or bytes another type's, in the message or in a tool_result."""
    where = f"messages.{turn.index}.content.{m}"
    if block.get("type") == "image":
        return _one_image_problem(where, block)
    if block.get("type") == "tool_result" and isinstance(block.get("content"), list):
        for k, inner in enumerate(block["content"]):
            if inner.get("type") == "image":
                problem = _one_image_problem(f"{where}.tool_result.content.{k}", inner)
                if problem:
                    return problem
    return None


def _duplicate_problem(turn: _Turn, m: int, block: dict) -> str | None:
    if block.get("type") != "tool_use" or block["id"] not in turn.call_ids:
        return None
    return f"messages.{turn.index}.content.{m}: {DUPLICATE_CALL}"


BLOCK_RULES = (
    lambda turn, m, block: _text_problem(block),
    _role_problem,
    _duplicate_problem,
    _image_problem,
)


def _verified(signer: Signer, block: dict) -> bool:
    """A thinking block as the fake signed it, or a redacted one as it sealed it."""
    if block["type"] == "thinking":
        return signer.signed(block["thinking"], block["signature"])
    return signer.sealed(block["data"])


def _blocks_problem(turn: _Turn, blocks: list, signer: Signer) -> str | None:
    """The first problem of `blocks`, the next message's content, as they join `turn`."""
    for m, block in enumerate(blocks, start=len(turn.blocks)):
        for rule in BLOCK_RULES:
            problem = rule(turn, m, block)
            if problem:
                return problem
        if block.get("type") == "tool_use":
            turn.call_ids.add(block["id"])
        if block.get("type") in THINKING and not _verified(signer, block):
            turn.unverified.append(m)  # judged later: its text depends on what follows
    return None


# ---------------------------------------------------------------- thinking blocks
# The real API's texts (docs/api-rules.md gives the sources).
DOCS = "https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
INVALID_SIGNATURE = "Invalid `signature` in `thinking` block"
MODIFIED = (
    "`thinking` or `redacted_thinking` blocks in the latest assistant message cannot be "
    "modified. These blocks must remain as they were in the original response."
)
FINAL_THINKING = "The final block in an assistant message cannot be `thinking`."
THINKING_OFF = (
    "When thinking is disabled, an `assistant` message in the final position cannot contain "
    "`thinking`. To use thinking blocks, enable `thinking` in your request."
)


def _thinking_order_problem(turn: _Turn) -> str | None:
    """An assistant turn with thinking must start with it and may not end with it."""
    if turn.role != "assistant" or not any(b.get("type") in THINKING for b in turn.blocks):
        return None
    first = turn.blocks[0].get("type")
    if first not in THINKING:
        return (
            f"messages.{turn.index}.content.0: If an assistant message contains any thinking "
            f"blocks, the first block must be thinking or redacted_thinking. Found {first}."
        )
    if turn.blocks[-1].get("type") == "thinking":
        return f"messages.{turn.index}: {FINAL_THINKING}"
    return None


def _loop_start_problem(assistant: _Turn) -> str | None:
    """With thinking on: the assistant turn a tool loop continues starts with its thinking."""
    found = assistant.blocks[0].get("type") if assistant.blocks else "nothing"
    if found in THINKING:
        return None
    return (
        f"messages.{assistant.index}.content.0.type: Expected `thinking` or "
        f"`redacted_thinking`, but found `{found}`. When `thinking` is enabled, a final "
        "`assistant` message must start with a thinking block (preceeding the lastmost set of "
        "`tool_use` and `tool_result` blocks). We recommend you include thinking blocks from "
        "previous turns. To avoid this requirement, disable `thinking`. Please consult our "
        f"documentation at {DOCS}"
    )


def _thinking_off_problem(final: _Turn) -> str | None:
    """With thinking off: a final assistant turn holds no thinking."""
    m = next((m for m, b in enumerate(final.blocks) if b.get("type") in THINKING), None)
    return None if m is None else f"messages.{final.index}.content.{m}: {THINKING_OFF}"


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
    problem = _empty_problem(turn, final_index) or _thinking_order_problem(turn)
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
    It also counts what request-wide rules need (lab/model/request_rules.py): whether a
    tool_use or tool_result block was met, and how many blocks carry a cache_control.
    """

    def __init__(self, signer: Signer = SIGNER) -> None:
        self.signer = signer
        self.count = 0  # messages taken so far
        self.previous: _Turn | None = None  # judged already
        self.current: _Turn | None = None  # still open: the next message may extend it
        self.last_assistant: _Turn | None = None  # the latest assistant turn so far
        self.tool_blocks = False  # a tool_use or tool_result block was met
        self.cache_marks = 0  # blocks with a cache_control (a tool_result's own blocks too)

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
                list(current.unverified),
            )
            if self.last_assistant is current:
                twin.last_assistant = twin.current
        return twin

    def add(self, message: object) -> str | None:
        """Take the next message: its shape, then the rules that its arrival lets us judge."""
        n = self.count
        problem = message_problem(n, message)
        if problem:
            return problem
        assert isinstance(message, dict)  # message_problem checked it
        role = message["role"]
        if self.current is None or role == "system" or role != self.current.role:
            if self.current is not None:
                problem = _turn_problem(self.current, self.previous, None)
                if problem:
                    return problem
            if role == "assistant":  # the turn before is no longer the latest: its signatures
                problem = self._signature_problem(INVALID_SIGNATURE)
                if problem:
                    return problem
            self.previous, self.current = self.current, _Turn(role, n)
            if role == "assistant":
                self.last_assistant = self.current
        blocks = _blocks(message.get("content"))
        problem = _blocks_problem(self.current, blocks, self.signer)
        if problem:
            return problem
        self._count_marks(blocks)
        self.current.add(n, message)
        self.count += 1
        return None

    def _count_marks(self, blocks: list) -> None:
        for block in blocks:
            kind = block.get("type")
            self.tool_blocks = self.tool_blocks or kind in ("tool_use", "tool_result")
            self.cache_marks += block.get("cache_control") is not None
            inner = block.get("content") if kind == "tool_result" else None
            if isinstance(inner, list):
                self.cache_marks += sum(b.get("cache_control") is not None for b in inner)

    def _signature_problem(self, text: str) -> str | None:
        turn = self.last_assistant
        if turn is None or not turn.unverified:
            return None
        return f"messages.{turn.index}.content.{turn.unverified[0]}: {text}"

    def take(self, messages: list, thinking: str = "disabled") -> str | None:
        """Add `messages` in order; the first problem, else the history's problem as it ends
        (`thinking`: the request's thinking type, "enabled", "adaptive" or "disabled")."""
        for message in messages:
            problem = self.add(message)
            if problem:
                return problem
        return self.finish(thinking)

    def finish(self, thinking: str = "disabled") -> str | None:
        """The problem of the history as it stands, if it ended here."""
        if self.current is None:
            return "messages: at least one message is required"
        final = self.current
        problem = _turn_problem(final, self.previous, final_index=self.count - 1)
        if not problem and final.role == "assistant":
            problem = _missing_problem(final, None) or _trailing_problem(final)
        problem = problem or self._signature_problem(MODIFIED)
        if problem:
            return problem
        if thinking not in ("enabled", "adaptive"):
            return _thinking_off_problem(final) if final.role == "assistant" else None
        # With a budget every answer starts with thinking (adaptive thinking may skip it).
        loop = self.previous if final.role == "user" and thinking == "enabled" else None
        if loop is not None and loop.role == "assistant" and leading_result_ids(final.blocks):
            return _loop_start_problem(loop)
        return None


def validate_messages(messages: list) -> tuple[str, str] | None:
    """Return `(error_type, message)` for the first rule the history breaks, or None if valid."""
    problem = HistoryCheck().take(messages)
    return (INVALID, problem) if problem else None
