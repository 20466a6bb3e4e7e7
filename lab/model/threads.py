"""Message threads (beta `message-threads-2026-08-12`): the server holds a conversation under the
id of its latest reply, so the client sends only the new turn.

`thread: {"type": "create"}` stores the history and the reply under the reply's id;
`{"type": "continue", "previous_message_id": id}` resumes from that reply. As the SDK's thread
state says (anthropic 2.16, `lib/threads/_thread_state.py`), `system` and `tools` are
create-only: a thread keeps the ones it was created with, and a `continue` that repeats them is
refused. Each reply can be continued once. The server holds the newest HELD threads: an older
reply is answered as the API answers a thread whose state is gone (404 `thread_not_found`), so
a server that lasts holds a bounded number of histories however many threads it served.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from lab.model.history import Checked

CREATE_ONLY = ("system", "tools")
HELD = 1000  # threads held at once; the oldest is let go first


@dataclass
class Thread:
    """A conversation held by the server: its history up to a reply, checked."""

    checked: Checked
    kept: dict[str, Any]  # the create-only fields it was created with
    continued: bool = False


@dataclass(frozen=True)
class ThreadError:
    """Why a thread request is refused: the HTTP answer, with the SDK's `error_code`."""

    status: int
    type: str
    message: str
    error_code: str = ""


class Threads:
    """The newest `held` threads, by the id of the reply each ends with."""

    def __init__(self, held: int = HELD) -> None:
        self.held = held
        self._by_reply: dict[str, Thread] = {}  # in the order they were held

    def resume(self, body: dict[str, Any]) -> Thread | ThreadError:
        """The thread a `continue` request extends, or why it cannot."""
        reply_id = body["thread"]["previous_message_id"]
        thread = self._by_reply.get(reply_id)
        if thread is None:
            return ThreadError(
                404,
                "not_found_error",
                f"No usable Thread state was found for `previous_message_id`: {reply_id}",
                "thread_not_found",
            )
        if thread.continued:
            return ThreadError(
                400,
                "invalid_request_error",
                f"The response `{reply_id}` has already been continued, and each response can be "
                "continued only once. Continue from the Thread's most recent response `id`.",
                "thread_already_continued",
            )
        repeated = next((name for name in CREATE_ONLY if name in body), None)
        if repeated:
            return ThreadError(
                400,
                "invalid_request_error",
                f'{repeated}: cannot be sent with `thread.type` "continue": the thread keeps '
                f"the `{repeated}` it was created with",
            )
        return thread

    def hold(self, reply: dict[str, Any], checked: Checked, kept: dict[str, Any]) -> None:
        """Hold the conversation `checked` (which ends with `reply`) under the reply's id."""
        self._by_reply[reply["id"]] = Thread(checked, kept)
        if len(self._by_reply) > self.held:
            del self._by_reply[next(iter(self._by_reply))]
