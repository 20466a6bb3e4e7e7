"""How long a small request waits at `lab serve` while a large one is being judged.

A real `lab serve` process; one client sends a request whose history holds `--messages`
messages (default 200,001: about 12 MB, seconds to judge), and `--after` seconds after its last
byte was sent (default 0.5: the server is judging it by then), a second client sends a
one-message request. Printed: how long the small request waited for its answer, how long the
large one took (from its last byte), and the order of the answers. The large history is judged
outside the server's lock, so the small answer comes first, in milliseconds.

Run it as:  python benchmarks/serve_latency.py [--messages 200001] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SMALL = {"model": "m", "max_tokens": 5, "messages": [{"role": "user", "content": "hi"}]}


def frame(body: dict) -> bytes:
    content = json.dumps(body).encode()
    head = f"POST /v1/messages HTTP/1.1\r\nHost: x\r\nContent-Length: {len(content)}\r\n\r\n"
    return head.encode() + content


def status_of(connection: socket.socket) -> int:
    """The status of the answer read off `connection` (its first line is enough)."""
    received = b""
    while b"\r\n" not in received:
        data = connection.recv(1 << 16)
        if not data:
            return 0
        received += data
    return int(received.split(b" ", 2)[1])


def one_round(port: int, large: bytes, after: float) -> tuple[float, float, list[str]]:
    """Seconds the small request waited, seconds from the large one's last byte to its answer,
    and the order of the answers."""
    order: list[str] = []
    done: dict[str, float] = {}
    sent = threading.Event()
    marks: dict[str, float] = {}

    def ask_large() -> None:
        with socket.create_connection(("127.0.0.1", port), timeout=600) as connection:
            connection.sendall(large)
            marks["sent"] = time.perf_counter()
            sent.set()
            status = status_of(connection)
            done["large"] = time.perf_counter()
            order.append(f"large {status}")

    thread = threading.Thread(target=ask_large)
    thread.start()
    sent.wait()
    time.sleep(after)  # a benchmark: by then the server reads or judges the large request
    with socket.create_connection(("127.0.0.1", port), timeout=600) as connection:
        asked = time.perf_counter()
        connection.sendall(frame(SMALL))
        status = status_of(connection)
        done["small"] = time.perf_counter()
        order.append(f"small {status}")
    thread.join()
    return done["small"] - asked, done["large"] - marks["sent"], order


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=200_001, help="the large history")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (median shown)")
    parser.add_argument("--after", type=float, default=0.5, help="seconds before the small one")
    args = parser.parse_args(argv)
    if args.messages < 1 or args.messages % 2 == 0 or args.rounds < 1:
        parser.error("--messages must be odd (a history ends with the user) and --rounds >= 1")
    roles = ("user", "assistant")

    def large(round_number: int) -> bytes:
        """A history of its own each round: one the server judged already is not judged again."""
        said = [f"round {round_number}, message {n}" for n in range(args.messages)]
        history = [{"role": roles[n % 2], "content": text} for n, text in enumerate(said)]
        return frame({"model": "m", "max_tokens": 5, "messages": history})

    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [sys.executable, "-m", "lab", "serve"],
            stdout=subprocess.PIPE,
            text=True,
            cwd=folder,
            env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)},
        )
        assert server.stdout is not None
        url = server.stdout.readline().split("=", 1)[1].strip()
        threading.Thread(target=server.stdout.read, daemon=True).start()
        port = int(url.rsplit(":", 1)[1])
        frames = [large(n) for n in range(args.rounds)]
        rounds = [one_round(port, frames[n], args.after) for n in range(args.rounds)]
        server.terminate()
        server.wait(timeout=60)
    size = len(frames[0]) / 1e6
    print(f"a large request ({args.messages} messages, {size:.1f} MB) and a small one")
    for small, whole, order in rounds:
        print(
            f"  small answered after {small * 1000:8.1f} ms   large after {whole:6.2f} s   "
            f"order: {', '.join(order)}"
        )
    small = statistics.median(r[0] for r in rounds) * 1000
    whole = statistics.median(r[1] for r in rounds)
    print(f"median: the small request waited {small:.1f} ms; the large one took {whole:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
