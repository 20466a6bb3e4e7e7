"""Judge a request's `messages` like the real Messages API: roles, empty content, tool pairing.

Check order (so one bad request always yields the same single message):
  0. shape: every message has role user/assistant and string-or-list content;
  1. consecutive messages of the same role are combined into one turn, as the real API does;
  2. walk the turns in order, and for each turn:
     a. empty content in any of its messages (only the final assistant message may be empty);
     b. a user turn's tool_result blocks, in order: an id the previous assistant turn never used
        ("unexpected"), or a second result for the same id ("multiple");
     c. a user turn after an assistant turn: the assistant's tool_use ids missing from the user
        turn's *leading* run of tool_result blocks;
  3. a final assistant turn with tool_use blocks: nothing follows it, so all its ids are missing.
Indices: N is the original index of a turn's first message, M a block's position in the
combined content of that turn.
"""

from __future__ import annotations

from dataclasses import dataclass, field

INVALID = "invalid_request_error"


@dataclass
class _Turn:
    """One or more consecutive same-role messages, seen as one turn."""

    role: str
    index: int  # original index of the turn's first message
    blocks: list[dict] = field(default_factory=list)  # combined content
    messages: list[tuple[int, object]] = field(default_factory=list)  # (index, content) pairs

    def ids(self, block_type: str, key: str) -> list[str]:
        return [b.get(key) for b in self.blocks if b.get("type") == block_type]


def _as_blocks(content: str | list) -> list[dict]:
    # A string is shorthand for one text block.
    return [{"type": "text", "text": content}] if isinstance(content, str) else list(content)


def _shape_problem(messages: list[dict]) -> str | None:
    for n, message in enumerate(messages):
        if message.get("role") not in ("user", "assistant"):
            return f"messages.{n}.role: Input should be 'user' or 'assistant'"
        if not isinstance(message.get("content"), str | list):
            return f"messages.{n}.content: Input should be a valid string or list"
    return None


def _combine(messages: list[dict]) -> list[_Turn]:
    turns: list[_Turn] = []
    for n, message in enumerate(messages):
        if not turns or turns[-1].role != message["role"]:
            turns.append(_Turn(message["role"], n))
        turns[-1].blocks.extend(_as_blocks(message["content"]))
        turns[-1].messages.append((n, message["content"]))
    return turns


def _empty_problem(current: _Turn, last_index: int) -> str | None:
    for n, content in current.messages:
        final_assistant = n == last_index and current.role == "assistant"
        if not content and not final_assistant:
            return (
                f"messages.{n}: all messages must have non-empty content "
                "except for the optional final assistant message"
            )
    return None


def _result_problem(current: _Turn, previous: _Turn | None) -> str | None:
    offered = previous.ids("tool_use", "id") if previous and previous.role == "assistant" else []
    seen: set[str] = set()
    for m, block in enumerate(current.blocks):
        if block.get("type") != "tool_result":
            continue
        result_id = block.get("tool_use_id")
        where = f"messages.{current.index}.content.{m}"
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


def _leading_result_ids(current: _Turn | None) -> set[str]:
    # Only the run of tool_result blocks at the very start of the turn counts.
    ids: set[str] = set()
    for block in current.blocks if current else []:
        if block.get("type") != "tool_result":
            break
        ids.add(block.get("tool_use_id"))
    return ids


def _missing_problem(assistant: _Turn, following: _Turn | None) -> str | None:
    answered = _leading_result_ids(following)
    missing = [i for i in assistant.ids("tool_use", "id") if i not in answered]
    if not missing:
        return None
    return (
        f"messages.{assistant.index}: `tool_use` ids were found without `tool_result` blocks "
        f"immediately after: {', '.join(missing)}. Each `tool_use` block must have a "
        "corresponding `tool_result` block in the next message."
    )


def validate_messages(messages: list[dict]) -> tuple[str, str] | None:
    """Return `(error_type, message)` for the first rule the history breaks, or None if valid."""
    problem = _shape_problem(messages)
    if problem:
        return INVALID, problem
    turns = _combine(messages)
    for position, current in enumerate(turns):
        previous = turns[position - 1] if position > 0 else None
        problem = _empty_problem(current, len(messages) - 1)
        if not problem and current.role == "user":
            problem = _result_problem(current, previous)
            if not problem and previous is not None:
                problem = _missing_problem(previous, current)
        if problem:
            return INVALID, problem
    if turns and turns[-1].role == "assistant":
        problem = _missing_problem(turns[-1], None)
        if problem:
            return INVALID, problem
    return None
