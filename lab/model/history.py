"""Histories shared by the requests that have them in common, and the log of every request.

A harness sends its whole history with every request, so a run of N turns sends about N²/2
messages. The fake keeps each message once: successive requests that extend one another are
views (a length) of one growing list, and the rules already walked over a view are not walked
again (`Checked`). "The same messages" means the same JSON, types and key order included
(`encode`): `true` is not `1`, so a verdict never depends on what was judged before.
"""

from __future__ import annotations

import marshal
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, overload

from lab.model.signing import SIGNER, Signer
from lab.model.validation import HistoryCheck

LIST_HEAD = 5  # marshal's list header: its type byte (flags included) and a 4-byte length


def encode(value: Any) -> bytes:
    """`value` as bytes that tell `true`, `1` and `1.0` apart and keep key order: bytes that
    are equal decode to equal values, types and order included, so the API judges them alike.
    marshal, not JSON: the stdlib's fastest faithful encoding, each value with its type. Its
    back-references (to a string met before) depend on which objects are shared, so equal
    values may encode differently: the history is then judged again, slower, never wrong."""
    return marshal.dumps(value)


class History:
    """A list of messages that only grows; many views share it."""

    def __init__(self, messages: Iterable[dict] = ()) -> None:
        self.messages = list(messages)


@dataclass(frozen=True)
class View:
    """The first `length` messages of a history: the messages of one request."""

    history: History
    length: int

    @staticmethod
    def of(messages: Iterable[dict]) -> View:
        history = History(messages)
        return View(history, len(history.messages))

    def messages(self) -> list[dict]:
        return self.history.messages[: self.length]

    def extended(self, more: list) -> View:
        """This view followed by `more`: in place when the view is its history's tip, else on a
        copy (the history went on differently after this view)."""
        messages = self.history.messages
        if self.length == len(messages):
            messages.extend(more)
            return View(self.history, len(messages))
        return View.of([*messages[: self.length], *more])


@dataclass(frozen=True)
class Checked:
    """A view whose messages passed every rule so far, and the rule walker after them."""

    view: View
    check: HistoryCheck
    encoded: bytes = b""  # `encode(view.messages())`; empty: unknown, so nothing is shared

    @staticmethod
    def empty(signer: Signer = SIGNER) -> Checked:
        return Checked(View.of([]), HistoryCheck(signer), encode([]))

    def shared_prefix(self, encoded: bytes) -> int:
        """How many messages of a request whose message list encodes to `encoded` this view
        already holds: all of its own, or none. The same list header flags, then its items'
        bytes beginning the request's items' bytes: an item's encoding ends where its value
        ends, so they are the same items, types and key order included."""
        n, mine = self.view.length, self.encoded
        if not n or not mine or encoded[:1] != mine[:1]:
            return 0
        return n if encoded.startswith(mine[LIST_HEAD:], LIST_HEAD) else 0


@dataclass(frozen=True)
class _Entry:
    fields: dict[str, Any]  # the body without `messages` (with them when they are not a list)
    view: View | None


class RequestLog(Sequence[dict]):
    """Every request body the API received, in order, read like a list of dicts.

    Stored compactly: a request's messages are a view of a shared history, and a field that did
    not change since the previous request (the tools, the system prompt) is kept once.
    """

    def __init__(self) -> None:
        self._entries: list[_Entry] = []
        self._encoded: dict[str, bytes] = {}  # the previous entry's fields, encoded

    def record(self, body: dict[str, Any], view: View | None = None) -> int:
        """Log `body`, whose messages are `view` when given; returns its index."""
        fields = {k: v for k, v in body.items() if k != "messages" or view is None}
        encoded = {k: encode(v) for k, v in fields.items()}
        if self._entries:  # the same JSON, not merely == (`true == 1` in Python)
            previous = self._entries[-1].fields
            fields = {
                k: previous[k] if self._encoded.get(k) == encoded[k] else v
                for k, v in fields.items()
            }
        self._encoded = encoded
        self._entries.append(_Entry(fields, view))
        return len(self._entries) - 1

    def append(self, body: dict[str, Any]) -> None:
        messages = body.get("messages")
        self.record(body, View.of(messages) if isinstance(messages, list) else None)

    def extend(self, bodies: Iterable[dict[str, Any]]) -> None:
        for body in bodies:
            self.append(body)

    def _body(self, entry: _Entry) -> dict[str, Any]:
        if entry.view is None:
            return dict(entry.fields)
        return {**entry.fields, "messages": entry.view.messages()}

    @overload
    def __getitem__(self, index: int) -> dict: ...
    @overload
    def __getitem__(self, index: slice) -> list[dict]: ...
    def __getitem__(self, index: int | slice) -> dict | list[dict]:
        if isinstance(index, slice):
            return [self._body(entry) for entry in self._entries[index]]
        return self._body(self._entries[index])

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[dict]:
        return (self._body(entry) for entry in self._entries)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sequence):
            return NotImplemented
        return len(self) == len(other) and all(a == b for a, b in zip(self, other, strict=True))

    __hash__ = None  # type: ignore[assignment]  # mutable, like a list

    def __repr__(self) -> str:
        return f"RequestLog({list(self)!r})"
