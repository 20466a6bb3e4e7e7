"""Read one HTTP/1.1 request body off a socket, or say in one line why it cannot be read.

The loopback server answers every request, however it is framed: a body is read by its
`Content-Length` or its chunks; a broken frame (a length that is not a number, a chunk size that
is not hex, a body that stops arriving) is a `FrameError` the server answers with a JSON 400,
and a body over the Messages API's size limit is a `TooLarge` it answers with a 413: at once when
the `Content-Length` announces it (the server reads and drops what the client still sends after
the answer, so a client still writing is not cut off mid-write and sees it), and when the chunks
pass the limit otherwise (they are read to their end and dropped).
"""

from __future__ import annotations

import re
from email.message import Message
from io import BufferedIOBase

# The Messages API refuses a request over 32 MB (docs.claude.com/en/api/errors, "Request size
# limits"); the figure is read as MiB, the larger of the two readings.
MAX_REQUEST_BYTES = 32 * 1024 * 1024
PIECE = 1 << 16  # bytes read at a time
LINE = 1 << 12  # longest chunk-size or trailer line read
HEX = re.compile(rb"[0-9a-fA-F]{1,15}")  # a chunk size (int() would also take "0x1", "1_0")


class FrameError(Exception):
    """The request's framing is broken; the message says how, in one line."""


class TooLarge(Exception):
    """The body is larger than MAX_REQUEST_BYTES; `unread`: the bytes announced and not read."""

    def __init__(self, unread: int = 0) -> None:
        super().__init__(unread)
        self.unread = unread


def read_body(rfile: BufferedIOBase, headers: Message, timeout: float) -> bytes:
    """The request body `headers` announce, read from `rfile` (whose reads time out after
    `timeout` seconds of silence)."""
    coding = headers.get("transfer-encoding", "").strip().lower()
    if coding == "chunked":
        return _chunked(rfile, timeout)
    if coding:
        raise FrameError(f"unsupported Transfer-Encoding: {coding!r} (only chunked is accepted)")
    lengths = headers.get_all("content-length") or []
    if len(set(lengths)) > 1:
        raise FrameError(f"conflicting Content-Length headers: {', '.join(map(repr, lengths))}")
    if not lengths:
        return b""
    text = lengths[0].strip()
    if not (text.isascii() and text.isdigit()):
        raise FrameError(f"invalid Content-Length header: {lengths[0]!r} is not a whole number")
    length = int(text)
    if length > MAX_REQUEST_BYTES:  # answered before a byte of it is read
        raise TooLarge(length)
    return _read(rfile, length, timeout)


def discard(rfile: BufferedIOBase, length: int) -> None:
    """Read and drop up to `length` bytes, until the client stops sending or its reads time
    out: what a client was still writing after its answer went out."""
    while length > 0:
        try:
            part = rfile.read1(min(length, PIECE))
        except OSError:  # a timeout or a reset: the client is done
            return
        if not part:
            return
        length -= len(part)


def _read(rfile: BufferedIOBase, length: int, timeout: float, *, keep: bool = True) -> bytes:
    """Exactly `length` bytes (or, with `keep` false, read and dropped)."""
    parts: list[bytes] = []
    got = 0
    while got < length:
        try:
            part = rfile.read1(min(length - got, PIECE))
        except TimeoutError:
            why = f"nothing more came for {timeout:g} s"
            raise FrameError(_incomplete(got, length, why)) from None
        if not part:
            raise FrameError(_incomplete(got, length, "the client closed the connection"))
        got += len(part)
        if keep:
            parts.append(part)
    return b"".join(parts)


def _incomplete(got: int, length: int, why: str) -> str:
    return f"request body incomplete: {got} of the {length} bytes announced arrived, then {why}"


def _line(rfile: BufferedIOBase, timeout: float) -> bytes:
    try:
        line = rfile.readline(LINE + 1)
    except TimeoutError:
        why = f"nothing more came for {timeout:g} s"
        raise FrameError(f"chunked request body incomplete: {why}") from None
    if not line:
        raise FrameError("chunked request body incomplete: the client closed the connection")
    if len(line) > LINE:
        raise FrameError(f"chunked request body: a line longer than {LINE} bytes")
    return line


def _chunked(rfile: BufferedIOBase, timeout: float) -> bytes:
    parts: list[bytes] = []
    total = 0
    while True:
        size_text = _line(rfile, timeout).split(b";")[0].strip()
        if not HEX.fullmatch(size_text):
            raise FrameError(
                f"malformed chunked request body: chunk size {size_text.decode('latin-1')!r} "
                "is not a hex number"
            )
        size = int(size_text, 16)
        if size == 0:
            break
        total += size
        parts.append(_read(rfile, size, timeout, keep=total <= MAX_REQUEST_BYTES))
        if _line(rfile, timeout).strip():
            raise FrameError("malformed chunked request body: a chunk is longer than its size")
    while _line(rfile, timeout).strip():
        pass  # trailers
    if total > MAX_REQUEST_BYTES:
        raise TooLarge
    return b"".join(parts)
