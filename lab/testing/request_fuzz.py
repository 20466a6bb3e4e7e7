"""A request fuzz over loopback: bodies and HTTP frames thrown at one FakeServer, each answer
checked, each body's verdict compared with judging the same bytes from scratch.

One long-lived fake answers everything (its incremental judge carries every history it saw);
a fresh in-process fake judges each body alone. What is counted, and must stay 0:
  answers >= 500   the fake's own failure (the fuzz's responder always has a turn to play);
  dropped          a connection closed (or reset) before a whole answer came;
  tracebacks       anything printed to stderr with "Traceback" while the fuzz ran;
  misshapen        a whole answer that is not in the API's JSON shape;
  unrecorded       a body answered but not written down once, as answered, by the tap that
                   records every run (lab/kernel/record.py);
  verdicts differ  a body whose (status, error message) over loopback is not the one a fresh
                   fake gives the same bytes (thread `continue` requests excepted: they depend
                   on the threads held, by design).
Deterministic: `random.Random(seed)`. Used by benchmarks/fuzz_requests.py and
tests/test_fake_api_fuzz_requests.py.

`wire="chat"` aims the same fuzz at `POST /v1/chat/completions` (the Chat Completions wire of
the same server): chat bodies (ChatBodies: tool_calls and tool messages, their pairing rules
broken, values made wrong, bytes barely JSON), and every frame aimed there with a bearer key.
"""

from __future__ import annotations

import contextlib
import copy
import http.client
import io
import json
import random
import re
import socket
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

import httpx2

from lab.kernel.record import Tap, WatchedModel
from lab.model import FakeMessagesAPI, tool_use, turn
from lab.model.framing import MAX_REQUEST_BYTES
from lab.model.signing import SIGNER
from lab.model.wiring import on_loopback

Rng = random.Random
ANSWER = turn("ok", tool_use("bash", {"command": "ls"}))
LOOKALIKES: list[object] = [True, 1, 1.0, False, 0, 0.0, None, "true", [], {}]
WRONG: list[object] = [None, 0, 2.5, True, "x", "", " ", [], {}, [{}], {"type": "text"}, "a b"]


def fresh_api() -> FakeMessagesAPI:
    return FakeMessagesAPI(WatchedModel(lambda request: ANSWER))


# ---------------------------------------------------------------- bodies


# The first bytes of a PNG file: an image a tool returns (a screenshot).
PNG = {"type": "base64", "media_type": "image/png", "data": "iVBORw0KGgoAAAANSUhEUg=="}


def _thought(n: int) -> dict:
    text = f"Step {n}: run it."
    return {"type": "thinking", "thinking": text, "signature": SIGNER.sign(text)}


def _conversation(rng: Rng, turns: int) -> list[dict]:
    messages: list[dict] = [{"role": "user", "content": "go"}]
    for n in range(turns):
        call = {"type": "tool_use", "id": f"toolu_{n}", "name": "bash", "input": {"n": n}}
        result: dict = {"type": "tool_result", "tool_use_id": f"toolu_{n}", "content": "ok"}
        if rng.random() < 0.5:
            result["is_error"] = rng.random() < 0.5
        if rng.random() < 0.3:  # a tool that returns a screenshot
            result["content"] = [{"type": "text", "text": "shot"}, {"type": "image", "source": PNG}]
        said = [{"type": "text", "text": "Running."}, call]
        thinking = [_thought(n)] if rng.random() < 0.4 else []  # the answer of a thinking model
        messages += [
            {"role": "assistant", "content": [*thinking, *said]},
            {"role": "user", "content": [result]},
        ]
    return messages


THINKING_ON = {"thinking": {"type": "enabled", "budget_tokens": 1024}, "max_tokens": 2048}


def _body(messages: list, **fields: object) -> dict:
    tools = [{"name": "bash", "input_schema": {"type": "object"}}]
    return {"model": "m", "max_tokens": 64, "messages": messages, "tools": tools, **fields}


def _places(value: object, path: tuple = ()) -> list[tuple]:
    """Every path into a JSON value."""
    places = [path]
    if isinstance(value, dict):
        for key, inner in value.items():
            places += _places(inner, (*path, key))
    elif isinstance(value, list):
        for index, inner in enumerate(value):
            places += _places(inner, (*path, index))
    return places


def _set(body: dict, path: tuple, value: object) -> None:
    *parents, last = path
    parent: object = body
    for key in parents:
        parent = parent[key]  # type: ignore[index]
    parent[last] = value  # type: ignore[index]


class Bodies:
    """Request bodies, each as bytes: a conversation that grows (resent, sometimes with a value
    swapped for a lookalike), a value made wrong somewhere, a rule of docs/api-rules.md broken,
    and bytes that are barely JSON or not JSON at all."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.history = _conversation(rng, 1)

    def grown(self) -> bytes:
        rng = self.rng
        if rng.random() < 0.1:  # a new conversation
            self.history = _conversation(rng, rng.randint(1, 3))
        elif rng.random() < 0.6:
            self.history += _conversation(rng, 1)[1:]
            for n, message in enumerate(self.history[1:], start=1):  # fresh ids throughout
                for block in message["content"]:
                    key = "id" if block["type"] == "tool_use" else "tool_use_id"
                    if key in block:
                        block[key] = f"toolu_{(n - 1) // 2}"
        messages = copy.deepcopy(self.history)
        if rng.random() < 0.4:  # a lookalike somewhere in the history
            path = rng.choice([p for p in _places(messages) if p and isinstance(p[-1], str)])
            _set({"m": messages}, ("m", *path), rng.choice(LOOKALIKES))
        if rng.random() < 0.2:  # a key order reversed
            message = rng.choice(messages)
            message.update(dict(reversed(list(message.items()))))
        cut = rng.randint(1, len(messages)) if rng.random() < 0.3 else len(messages)
        thinking = THINKING_ON if rng.random() < 0.3 else {}
        return json.dumps(_body(messages[:cut], **thinking)).encode()

    def wrong(self) -> bytes:
        body = _body(copy.deepcopy(self.history), stream=self.rng.random() < 0.3)
        path = self.rng.choice(_places(body)[1:])
        _set(body, path, copy.deepcopy(self.rng.choice(WRONG)))
        return json.dumps(body).encode()

    def rule_broken(self) -> bytes:
        return json.dumps(self.rng.choice(RULE_BREAKERS)(copy.deepcopy(self.history))).encode()

    def barely(self) -> bytes:
        return self.rng.choice(BARELY)(self.rng)

    def __call__(self) -> bytes:
        kinds = (self.grown, self.grown, self.wrong, self.rule_broken, self.barely)
        return self.rng.choice(kinds)()


def _said(text: str) -> dict:
    return {"type": "text", "text": text}


def _image(media_type: str, data: str = PNG["data"]) -> dict:
    return {"type": "image", "source": {"type": "base64", "media_type": media_type, "data": data}}


def _call(id: str = "toolu_9") -> dict:
    return {"type": "tool_use", "id": id, "name": "bash", "input": {}}


RULE_BREAKERS: list[Callable[[list], dict]] = [
    lambda h: _body([*h, {"role": "assistant", "content": [_said("")]}]),
    lambda h: _body([{"role": "user", "content": [_said(" \n")]}]),
    lambda h: _body([*h, {"role": "assistant", "content": [_call(), _call()]}]),
    lambda h: _body(h, tools=[{"name": "a", "input_schema": {"type": "object"}}] * 2),
    lambda h: _body(h, tools=[{"name": "a.b", "input_schema": {"type": "object"}}]),
    lambda h: _body(h, tools=[{"name": "a" * 129, "input_schema": {"type": "object"}}]),
    lambda h: _body([*h, {"role": "assistant", "content": [_call("toolu 9")]}]),
    lambda h: _body([{"role": "user", "content": [_said("hi"), _call()]}]),
    lambda h: _body([*h, {"role": "assistant", "content": [h[-1]["content"][0]]}]),
    lambda h: _body([{"role": "user", "content": [{**_said("x"), "cache_control": 1}]}]),
    lambda h: _body(h, metadata=["user"]),
    lambda h: _body([*h, {"role": "assistant", "content": "So "}]),
    lambda h: _body(h, thread={"type": "continue", "previous_message_id": "msg_001"}),
    # issue 28's rules: thinking, images, tool schemas, settings
    lambda h: _body([*h, {"role": "assistant", "content": [{**_thought(9), "signature": "x"}]}]),
    lambda h: _body([*h, {"role": "assistant", "content": [{**_thought(9), "thinking": "e"}]}]),
    lambda h: _body([*h[:-1], {"role": "user", "content": [_thought(9)]}]),
    lambda h: _body([*h, {"role": "assistant", "content": [_said("a"), _thought(9)]}]),
    lambda h: _body(h, **THINKING_ON),  # a tool loop whose thinking may have been dropped
    lambda h: _body([{"role": "user", "content": [_image("image/bmp")]}]),
    lambda h: _body([{"role": "user", "content": [_image("image/png", "")]}]),
    lambda h: _body([{"role": "user", "content": [_image("image/gif")]}]),
    lambda h: _body(h, tools=[{"name": "a", "input_schema": {"type": "object", "required": "a"}}]),
    lambda h: _body(h, tools=[]),
    lambda h: _body(h, temperature=0.5, top_p=0.5),
    lambda h: _body(h, thinking={"type": "enabled", "budget_tokens": 100}),
    lambda h: _body(h, temperature=0.2, **THINKING_ON),
    lambda h: _body(h, system=[{**_said("s"), "cache_control": {"type": "ephemeral"}}] * 5),
]

BARELY: list[Callable[[Rng], bytes]] = [
    lambda rng: b'{"messages":' + b"[" * rng.randint(100, 3000) + b"]" * rng.randint(0, 3000),
    lambda rng: b"{" * rng.randint(100, 3000),
    lambda rng: bytes(rng.randrange(256) for _ in range(rng.randint(0, 64))),
    lambda rng: (
        b'{"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "\xff"}]}'
    ),
    lambda rng: b'{"model": "\\ud800", "max_tokens": 5, "messages": []}',
    lambda rng: rng.choice([b"[]", b"null", b"1", b'"x"', b"", b"{}", b"NaN", b"{,}"]),
    lambda rng: json.dumps(_body([{"role": "user", "content": "x" * 200_000}])).encode(),
]


# ---------------------------------------------------------------- chat bodies

CHAT_TOOLS = [{"type": "function", "function": {"name": "bash", "parameters": {"type": "object"}}}]


def _chat_call(n: int) -> dict:
    arguments = json.dumps({"n": n})
    return {
        "id": f"call_{n}",
        "type": "function",
        "function": {"name": "bash", "arguments": arguments},
    }


def _chat_conversation(rng: Rng, turns: int, first: int = 0) -> list[dict]:
    """A user message, then `turns` rounds: an assistant's calls (one or two, in parallel) and
    the tool messages that answer them, in either order."""
    messages: list[dict] = [{"role": "user", "content": "go"}]
    if rng.random() < 0.3:
        messages.insert(0, {"role": rng.choice(["system", "developer"]), "content": "be brief"})
    n = first
    for _ in range(turns):
        calls = [_chat_call(n + k) for k in range(rng.choice([1, 1, 2]))]
        n += len(calls)
        said = rng.choice([None, "", "Running."])
        messages.append({"role": "assistant", "content": said, "tool_calls": calls})
        answers = [{"role": "tool", "tool_call_id": c["id"], "content": "ok"} for c in calls]
        if rng.random() < 0.3:
            answers.reverse()
        messages += answers
    return messages


def _chat_body(messages: list, **fields: object) -> dict:
    tools = copy.deepcopy(CHAT_TOOLS)  # its own copy: a body made wrong changes it in place
    return {"model": "gpt-4o", "messages": messages, "tools": tools, **fields}


def _calls_in(history: list) -> int:
    return sum(len(m.get("tool_calls") or []) for m in history)


class ChatBodies(Bodies):
    """Chat Completions request bodies, made as Bodies makes the Messages wire's."""

    def __init__(self, rng: Rng) -> None:
        self.rng = rng
        self.history = _chat_conversation(rng, 1)

    def grown(self) -> bytes:
        rng = self.rng
        if rng.random() < 0.1:  # a new conversation
            self.history = _chat_conversation(rng, rng.randint(1, 3))
        elif rng.random() < 0.6:  # one more round, after the user says more
            more = _chat_conversation(rng, 1, first=_calls_in(self.history))
            self.history += [m for m in more if m["role"] not in ("system", "developer")]
        messages = copy.deepcopy(self.history)
        if rng.random() < 0.3:  # a lookalike somewhere in the history
            path = rng.choice([p for p in _places(messages) if p and isinstance(p[-1], str)])
            _set({"m": messages}, ("m", *path), rng.choice(LOOKALIKES))
        cut = rng.randint(1, len(messages)) if rng.random() < 0.3 else len(messages)
        streamed = {"stream": True} if rng.random() < 0.3 else {}
        if streamed and rng.random() < 0.5:
            streamed["stream_options"] = {"include_usage": True}  # type: ignore[assignment]
        limit = rng.choice([{}, {"max_tokens": 64}, {"max_completion_tokens": 64}])
        return json.dumps(_chat_body(messages[:cut], **streamed, **limit)).encode()

    def wrong(self) -> bytes:
        body = _chat_body(copy.deepcopy(self.history), stream=self.rng.random() < 0.3)
        path = self.rng.choice(_places(body)[1:])
        _set(body, path, copy.deepcopy(self.rng.choice(WRONG)))
        return json.dumps(body).encode()

    def rule_broken(self) -> bytes:
        broken = self.rng.choice(CHAT_RULE_BREAKERS)(copy.deepcopy(self.history))
        return json.dumps(broken).encode()


def _tool_says(call_id: str) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": "ok"}


def _asks(*calls: dict) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": list(calls)}


CHAT_RULE_BREAKERS: list[Callable[[list], dict]] = [
    lambda h: _chat_body([*h, _asks(_chat_call(90)), {"role": "user", "content": "and?"}]),
    lambda h: _chat_body([*h, _asks(_chat_call(90), _chat_call(91)), _tool_says("call_90")]),
    lambda h: _chat_body([*h, _tool_says("call_90")]),
    lambda h: _chat_body([{"role": "user", "content": "go"}, _tool_says("call_90")]),
    lambda h: _chat_body([*h, _asks(_chat_call(90)), _tool_says("call_99")]),
    lambda h: _chat_body([*h, _asks(_chat_call(90)), {"role": "tool", "content": "ok"}]),
    lambda h: _chat_body(h, tools=[{"type": "function", "function": {"name": "a.b"}}]),
    lambda h: _chat_body(h, tools=[{"type": "function", "function": {"name": "a" * 65}}]),
    lambda h: _chat_body([{"role": "human", "content": "hi"}]),
    lambda h: _chat_body([{"role": "user", "content": {"type": "text", "text": "hi"}}]),
    lambda h: _chat_body([]),
    lambda h: {"messages": h},
    lambda h: {"model": "gpt-4o"},
    lambda h: _chat_body(h, max_tokens=100_000),
    lambda h: _chat_body(h, max_completion_tokens=0),
    lambda h: _chat_body(h, max_tokens=5, max_completion_tokens=5),
    lambda h: _chat_body(h, stream_options={"include_usage": True}),
    lambda h: _chat_body(h, thinking={"type": "enabled", "budget_tokens": 1024}),
]


# ---------------------------------------------------------------- frames

METHODS = ["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "HEAD", "GET", "FROB", "post"]
PATHS = ["/", "/v1/models", "/v1/models/claude-lab-1", "/x%00y", "/v1/messages?x=\xe9", "*"]


def _post(body: bytes, headers: bytes = b"") -> bytes:
    length = b"Content-Length: %d\r\n" % len(body)
    return b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n" + headers + length + b"\r\n" + body


def _chunks(rng: Rng, body: bytes) -> bytes:
    out, rest = b"", body
    while rest:
        size = rng.randint(1, max(1, len(rest)))
        ext = b";ext=1" if rng.random() < 0.2 else b""
        out += b"%x%s\r\n%s\r\n" % (size, ext, rest[:size])
        rest = rest[size:]
    trailer = b"X-Trailer: 1\r\n" if rng.random() < 0.2 else b""
    return out + b"0\r\n" + trailer + b"\r\n"


def _chunked(rng: Rng, body: bytes) -> bytes:
    head = b"POST /v1/messages HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
    return head + _chunks(rng, body)


FRAMES: list[Callable[[Rng, bytes], bytes]] = [
    lambda rng, body: _post(body),
    lambda rng, body: _chunked(rng, body),
    lambda rng, body: _post(body, b"X-Name: caf\xc3\xa9 \xff\r\nX-Empty:\r\n"),
    lambda rng, body: _post(body, b"Expect: 100-continue\r\n"),
    lambda rng, body: b"\r\n" + _post(body),
    lambda rng, body: _post(body)[: rng.randint(1, len(_post(body)))],  # cut, then closed
    lambda rng, body: _post(body).replace(b"Content-Length: ", b"Content-Length: x"),
    lambda rng, body: _post(body).replace(b"Content-Length: ", b"Content-Length: -"),
    lambda rng, body: _post(body, b"Content-Length: 1\r\n"),
    lambda rng, body: _chunked(rng, body).replace(b"\r\n", b"\r\nzz\r\n", 4),
    lambda rng, body: _chunked(rng, body).replace(b"chunked", b"gzip, chunked"),
    lambda rng, body: _chunked(rng, body)[: rng.randint(60, 80 + len(body))],
    lambda rng, body: (
        f"{rng.choice(METHODS)} {rng.choice(PATHS)} HTTP/1.1\r\nHost: x\r\n"
        "Content-Length: 0\r\n\r\n"
    ).encode("latin-1"),
    lambda rng, body: b"GET /" + b"a" * 70_000 + b" HTTP/1.1\r\n\r\n",
    lambda rng, body: b"GET / HTTP/1.1\r\n" + b"X-A: b\r\n" * 120 + b"\r\n",
    lambda rng, body: b"GET / HTTP/1.1\r\nX-Long: " + b"a" * 70_000 + b"\r\n\r\n",
    lambda rng, body: b"GET / HTTP/1.1\r\nno colon here\r\n\r\n",
    lambda rng, body: rng.choice([b"GET /\r\n", b"GET / HTTP/2.0\r\n\r\n", b"\x16\x03\x01\x00"]),
    lambda rng, body: bytes(rng.randrange(256) for _ in range(rng.randint(1, 40))) + b"\r\n\r\n",
    lambda rng, body: _post(body) + _post(body),  # pipelined: the first answer is read
]


def too_large() -> bytes:
    return _post(b"{" + b" " * MAX_REQUEST_BYTES + b"}")


MESSAGES_HEAD = b"POST /v1/messages HTTP/1.1\r\nHost: x\r\n"
CHAT_HEAD = b"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer sk-fuzz\r\n"
CHAT_HEADERS = {"authorization": "Bearer sk-fuzz"}


def for_chat(frame: bytes) -> bytes:
    """A frame aimed at the Chat Completions wire: its POSTs to that path, with a bearer key."""
    return frame.replace(MESSAGES_HEAD, CHAT_HEAD)


# ---------------------------------------------------------------- the run


@dataclass
class Tally:
    bodies: int = 0
    frames: int = 0
    answers_5xx: int = 0
    dropped: int = 0
    tracebacks: int = 0
    verdicts_differ: int = 0
    misshapen: int = 0  # a whole answer, but not in the API's JSON shape
    unrecorded: int = 0  # a body answered, but not written down once by the tap, as answered
    statuses: Counter = field(default_factory=Counter)
    refusals: Counter = field(default_factory=Counter)  # 400 texts, indices as N: which rules met
    examples: list[str] = field(default_factory=list)  # the first few problems, for a reader

    def problem(self, kind: str, what: str) -> None:
        setattr(self, kind, getattr(self, kind) + 1)
        if len(self.examples) < 5:
            self.examples.append(f"{kind}: {what}")


def _exchange(port: int, frame: bytes) -> tuple[int, bytes] | None:
    """Send `frame` on a fresh connection, half-close, read one answer; None when none came."""
    with socket.create_connection(("127.0.0.1", port), timeout=30) as raw:
        try:
            raw.sendall(frame)
            raw.shutdown(socket.SHUT_WR)
        except OSError:  # the server answered and closed before all of it was sent
            pass
        response = http.client.HTTPResponse(raw, method="HEAD" if frame[:4] == b"HEAD" else None)
        try:
            response.begin()
            return response.status, response.read()
        except (http.client.HTTPException, OSError):
            return None


def _verdict(status: int, content: bytes) -> tuple[int, str | None]:
    try:
        error = json.loads(content).get("error") if status >= 400 else None
    except (ValueError, AttributeError):
        error = None
    return status, (error or {}).get("message")


def _is_continue(content: bytes) -> bool:
    try:
        body = json.loads(content)
        return isinstance(body, dict) and (body.get("thread") or {}).get("type") == "continue"
    except (ValueError, AttributeError, RecursionError):
        return False


def _shaped(status: int, content: bytes) -> bool:
    """An answer in the API's shape: an error is JSON with error.type and error.message."""
    if status < 400:
        return True
    try:
        error = json.loads(content)["error"]
        return isinstance(error["type"], str) and isinstance(error["message"], str)
    except (ValueError, KeyError, TypeError):
        return False


def run(
    bodies: int,
    frames: int,
    *,
    seed: int = 0,
    big: int = 1,
    timeout: float = 2.0,
    wire: str = "messages",
) -> Tally:
    """Send `bodies` bodies (well framed) and `frames` frames (any framing, `big` of them over
    32 MB) to one loopback server, on the Messages wire or (`wire="chat"`) the Chat Completions
    wire; the tally of what came back."""
    rng = random.Random(seed)
    tally = Tally()
    chat = wire == "chat"
    make = ChatBodies(rng) if chat else Bodies(rng)
    aim = for_chat if chat else (lambda frame: frame)
    path, headers = ("/v1/chat/completions", CHAT_HEADERS) if chat else ("/v1/messages", {})
    stderr = io.StringIO()
    tap = Tap(fresh_api(), keep=False)  # the one recorder of a run: only its newest request kept
    with contextlib.redirect_stderr(stderr), on_loopback(tap, read_timeout=timeout) as srv:
        port = int(srv.url.rsplit(":", 1)[1])
        for body in _bodies(make, bodies):
            tally.bodies += 1
            before = tap.count
            got = _exchange(port, aim(_post(body)))
            if got is not None and not _on_record(tap, before, got[0]):
                tally.problem("unrecorded", f"{got[0]} for {body[:120]!r}: {tap.last}")
            if _checked(tally, got, body) and not _is_continue(body):
                assert got is not None
                asked = httpx2.Request("POST", f"http://x{path}", content=body, headers=headers)
                alone = fresh_api()(asked)
                if _verdict(*got) != _verdict(alone.status_code, alone.read()):
                    tally.problem("verdicts_differ", f"{body[:120]!r}: {got[1][:200]!r}")
        for n in range(frames):
            tally.frames += 1
            frame = too_large() if n < big else rng.choice(FRAMES)(rng, make())
            _checked(tally, _exchange(port, aim(frame)), frame)
    tally.tracebacks = stderr.getvalue().count("Traceback")
    return tally


def _on_record(tap: Tap, before: int, status: int) -> bool:
    """The tap wrote the body down once, as what the fake answered: a message, or a refusal."""
    if tap.count != before + 1 or tap.last is None:
        return False
    return tap.last.reply.kind == ("answer" if status == 200 else "rejected")


def _bodies(make: Bodies, count: int) -> Iterator[bytes]:
    for _ in range(count):
        yield make()


def _checked(tally: Tally, got: tuple[int, bytes] | None, sent: bytes) -> bool:
    """Count one answer; True when it is a whole answer of the API's shape below 500."""
    if got is None:
        tally.problem("dropped", repr(sent[:120]))
        return False
    status, content = got
    tally.statuses[status] += 1
    if status == 400:
        tally.refusals[re.sub(r"\d+", "N", _verdict(status, content)[1] or "")[:80]] += 1
    if status >= 500:
        tally.problem("answers_5xx", f"{status} {content[:200]!r} for {sent[:120]!r}")
        return False
    if not _shaped(status, content):
        tally.problem("misshapen", f"{status} {content[:120]!r} for {sent[:120]!r}")
        return False
    return True
