"""The switchboard: one frozen dataclass, each flag breaks exactly one guarantee.

`Switches()` is the reference harness (every protection on, production semantics).
Every flag carries its fault, its mechanism (M1-M5), the experiments that flip it and
the one module that reads it, so `lab list`, the notebooks and the kill matrix can show them.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, replace
from typing import Any


def flag(default: Any, *, mechanism: str, experiments: str, reader: str, fault: str) -> Any:
    info = {"mechanism": mechanism, "experiments": experiments, "reader": reader, "fault": fault}
    return field(default=default, metadata=info)


@dataclass(frozen=True)
class Switches:
    trust_stop_reason: bool = flag(
        False,
        mechanism="M1",
        experiments="D1, D1b",
        reader="lab/harness/loop.py",
        fault="The continue test trusts the declared stop_reason instead of the content blocks: "
        "a tool call that arrives while the declaration says end_turn is dropped.",
    )

    def flipped(self, **flips: Any) -> Switches:
        """A copy with some flags changed; an unknown name raises a readable KeyError."""
        known = switch_names()
        for name in flips:
            if name not in known:
                raise KeyError(f"unknown switch {name!r}; known switches: {', '.join(known)}")
        return replace(self, **flips)

    def differences(self, base: Switches | None = None) -> dict[str, Any]:
        """The flags that differ from `base` (default: the reference harness)."""
        base = base or Switches()
        return {
            name: getattr(self, name)
            for name in switch_names()
            if getattr(self, name) != getattr(base, name)
        }


def switch_names() -> list[str]:
    return [f.name for f in fields(Switches)]


def switch_info(name: str) -> dict[str, str]:
    """The fault, mechanism, experiments and reader documented on one flag."""
    return dict(next(f.metadata for f in fields(Switches) if f.name == name))
