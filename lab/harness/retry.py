"""The retry policy: a transient fault is waited out and the model asked again, up to a cap.

Transient: 408, 409, 429 and any 5xx (529 overloaded included), an `error` event in the middle
of a stream, a connection that drops. The wait doubles from FIRST_WAIT_S up to MAX_WAIT_S, or
is what the API's `retry-after` header says. The harness owns this policy (its client has
max_retries=0), so each retry is in the trace and every wait is on a clock the lab chooses:
the world's virtual clock in the lab, the real one for a real model (`real_wait`).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import anthropic
import httpx2

MAX_RETRIES = 5  # retries of one model call, after its first attempt
FIRST_WAIT_S = 1.0
MAX_WAIT_S = 30.0
RETRY_STATUS = {408, 409, 429}  # besides every 5xx
# An error event in a stream arrives after a 200 status: only its type tells what it is.
RETRY_TYPES = {"overloaded_error", "api_error", "rate_limit_error"}

Wait = Callable[[float], object]  # given seconds; the lab passes the virtual clock's advance
real_wait: Wait = time.sleep  # `lab live`: a real model is waited for on the real clock


def transient(error: BaseException) -> bool:
    """Is `error` a fault that asking again may cure? A connection that broke after it was
    opened is; one that could not be opened at all is not (nobody is listening there: a
    configuration problem, which `lab live` reports as such)."""
    if isinstance(error, anthropic.APIStatusError):
        body = error.body if isinstance(error.body, dict) else {}
        kind = body.get("error", {}).get("type") if isinstance(body.get("error"), dict) else None
        if error.status_code == 200:  # an error event inside a stream
            return kind in RETRY_TYPES
        return error.status_code in RETRY_STATUS or error.status_code >= 500
    if isinstance(error, anthropic.APIConnectionError) and error.__cause__ is not None:
        return transient(error.__cause__)  # the SDK wraps what the transport raised
    return isinstance(error, httpx2.TransportError) and not isinstance(error, httpx2.ConnectError)


def retry_after(error: Exception) -> float | None:
    """The wait the API asked for, in seconds (`retry-after-ms` or `retry-after`), if any."""
    response = getattr(error, "response", None)
    if not isinstance(response, httpx2.Response):
        return None
    for header, scale in (("retry-after-ms", 0.001), ("retry-after", 1.0)):
        try:
            return max(0.0, float(response.headers[header]) * scale)
        except (KeyError, ValueError):
            continue
    return None


@dataclass(frozen=True)
class Backoff:
    """The reference: wait (exponentially longer, or as told) and ask again, MAX_RETRIES times."""

    max_retries: int = MAX_RETRIES

    def delay(self, retry: int, error: Exception) -> float | None:
        """Seconds to wait before retry number `retry` (1-based), or None to give up."""
        if not transient(error) or retry > self.max_retries:
            return None
        told = retry_after(error)
        return told if told is not None else min(FIRST_WAIT_S * 2 ** (retry - 1), MAX_WAIT_S)


@dataclass(frozen=True)
class NoRetry(Backoff):
    """D20: the first fault ends the run, transient or not."""

    def delay(self, retry: int, error: Exception) -> float | None:
        return None
