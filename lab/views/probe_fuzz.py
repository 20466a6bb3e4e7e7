"""What `lab probe TARGET --fuzz N` shows: its progress on stderr, then the smallest breaker.

Progress is one line rewritten in place on a terminal; otherwise a line whenever the smallest
breaker changes and every tenth example. The result is the breaker's script file (or, with
--json, one JSON object), or one line saying no generated script broke a wire invariant.
"""

from __future__ import annotations

import json
import sys

from lab.probe.fuzz import Found, size


def progress_line(trials: int, best: Found | None) -> str:
    if best is None:
        return f"fuzz: {trials} example(s) run; no breaker yet"
    answers, blocks = size(best.generated)
    broke = ", ".join(dict.fromkeys(name for name, _ in best.problems))
    return (
        f"fuzz: {trials} example(s) run; smallest breaker so far: {answers} answer(s), "
        f"{blocks} block(s) ({broke})"
    )


class StderrProgress:
    """Progress on stderr: one line rewritten in place on a terminal; otherwise a line when the
    smallest breaker changes and every tenth example."""

    def __init__(self) -> None:
        self.tty = sys.stderr.isatty()
        self.shown: object = ()  # the breaker last shown (None: none yet; (): nothing shown)

    def __call__(self, trials: int, best: Found | None) -> None:
        line = progress_line(trials, best)
        if self.tty:
            print(f"\r{line}\x1b[K", end="", file=sys.stderr, flush=True)
            return
        changed = (best.generated if best else None) != self.shown
        if changed or trials % 10 == 0:
            print(line, file=sys.stderr, flush=True)
        self.shown = best.generated if best else None

    def end(self) -> None:
        if self.tty:
            print(file=sys.stderr, flush=True)


def nothing_found(target: str, trials: int) -> str:
    return f"{target}: none of {trials} generated scripts broke a wire invariant"


def fuzz_json(target: str, trials: int, found: Found | None, script: str | None) -> str:
    """The result as one JSON object: `found` null, or the problems and the script file."""
    if found is None:
        return json.dumps({"target": target, "trials": trials, "found": None})
    record = {"target": target, "trials": trials, "problems": found.problems}
    return json.dumps({**record, "script": script}, ensure_ascii=False)
