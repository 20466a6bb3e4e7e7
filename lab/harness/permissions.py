"""M4 门禁 (permission gates): deny → ask → allow, the first gate that matches decides.

Invariant: the non-negotiable deny comes before the negotiable "yes"; rule specificity
never reorders the gates, and a hook's "allow" never opens a deny or ask rule.
"""

from __future__ import annotations

__all__ = ["Permissions", "Rule", "contains", "course_permissions"]

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pathspec

from lab import course_rules
from lab.harness.checks import Call
from lab.switches import Switches
from lab.trace import Decision, Gate, GateDecision, HumanAsked, Trace
from lab.world import World, split_commands

# Production rule names cover the lab's tools the way Claude Code's cover its own.
RULE_TOOLS = {
    "Bash": {"bash"},
    "Read": {"read_file", "glob"},
    "Edit": {"edit_file", "write_file"},
    "Write": {"write_file"},
}


@dataclass(frozen=True)
class Rule:
    """One permission rule: its text (shown as the reason) and what it matches."""

    text: str
    matches: Callable[[str, dict[str, Any], World], bool]
    # Bash rules are judged per subcommand of a compound command.
    per_command: Callable[[str], bool] | None = None


def command_of(input: dict[str, Any]) -> str:
    # Permission may be judged before validation (D9): never trust the input's shape here.
    return str(input.get("command", ""))


def command_pattern(glob: str) -> re.Pattern[str]:
    """`Bash(npm run test *)`: `*` is any text; a space before a final `*` is a word boundary."""
    if glob.endswith(":*"):  # legacy prefix syntax
        glob = glob[:-2] + " *"
    boundary = glob.endswith(" *")
    core = glob[:-2] if boundary else glob
    regex = ".*".join(re.escape(part) for part in core.split("*"))
    return re.compile(regex + ("(?: .*)?" if boundary else "") + r"\Z", re.DOTALL)


def path_matcher(glob: str, world: World) -> Callable[[str], bool]:
    """gitignore-style path glob; relative globs are relative to the workspace."""
    absolute = glob if glob.startswith("/") else f"{world.workspace}/{glob.removeprefix('./')}"
    spec = pathspec.PathSpec.from_lines("gitignore", [absolute])
    return lambda path: spec.match_file(world.resolve(path).lstrip("/"))


def parse_rule(text: str, world: World) -> Rule:
    """`Tool`, `Bash(<command glob>)`, `Read(<path glob>)`, `Edit(<path glob>)` or a tool name."""
    found = re.fullmatch(r"\s*([A-Za-z_]+)\s*(?:\((.*)\))?\s*", text, re.DOTALL)
    if not found:
        raise ValueError(f"permission rule {text!r}: expected Tool or Tool(specifier)")
    tool, spec = found.groups()
    tools = RULE_TOOLS.get(tool, {tool})
    if spec is None:
        return Rule(text, lambda name, _input, _world: name in tools)
    if tool == "Bash":
        pattern = command_pattern(spec.strip())
        return Rule(
            text,
            lambda name, input, _world: name == "bash" and bool(pattern.match(command_of(input))),
            per_command=lambda command: bool(pattern.match(command.strip())),
        )
    matches_path = path_matcher(spec.strip(), world)
    return Rule(
        text,
        lambda name, input, _world: (
            name in tools and isinstance(input.get("path"), str) and matches_path(input["path"])
        ),
    )


def contains(*needles: str, text: str = "") -> list[Rule]:
    """The course's hard deny list: a substring of a bash command (bash only)."""

    def deny(needle: str) -> Rule:
        return Rule(
            text or f"deny list: {needle!r}",
            lambda name, input, _world: name == "bash" and needle in command_of(input),
        )

    return [deny(needle) for needle in needles]


@dataclass(frozen=True)
class Permissions:
    """The three rule lists, what happens when none matches, and the denial text."""

    deny: Sequence[str | Rule] = ()
    ask: Sequence[str | Rule] = ()
    allow: Sequence[str | Rule] = ()
    default: Literal["allow", "ask", "deny"] = "allow"  # when no rule matches
    denial: str = "Permission denied"


@dataclass
class Human:
    """The scripted human: a queue of answers or a policy; out of answers means no."""

    answers: Sequence[str] | Callable[[str], str] = ()
    asked: int = field(default=0, init=False)

    def answer(self, question: str) -> str:
        self.asked += 1
        if callable(self.answers):
            return self.answers(question)
        return self.answers[self.asked - 1] if self.asked <= len(self.answers) else "n"


def says_yes(answer: str) -> bool:
    return answer.strip().lower() in ("y", "yes")  # the course's y/N: anything else is no


# A gate: (decision, reason) when it decides, None to pass the call to the next gate.
Judge = Callable[[Call], tuple[Decision, str] | None]


class Gates:
    """The permission stage of the chain of checks."""

    def __init__(
        self, permissions: Permissions, human: Human, world: World, trace: Trace, switches: Switches
    ) -> None:
        self.permissions, self.human, self.world, self.trace = permissions, human, world, trace
        self.switches = switches
        self.asked: set[str] = set()  # calls the human has already answered for
        self.rules = {
            kind: [
                r if isinstance(r, Rule) else parse_rule(r, world)
                for r in getattr(permissions, kind)
            ]
            for kind in ("deny", "ask", "allow")
        }
        # The gates in their order; D4 puts the negotiable ask before the hard deny.
        correct: list[tuple[Gate, Judge]]
        wrong: list[tuple[Gate, Judge]]
        correct = [("deny", self.deny_gate), ("ask", self.ask_gate), ("allow", self.allow_gate)]
        wrong = [("ask", self.ask_gate), ("deny", self.deny_gate), ("allow", self.allow_gate)]
        self.order = correct if switches.gate_order_correct else wrong

    def judge(self, call: Call) -> str | None:
        """Returns the denial reason, or None when the call may run."""
        if self.switches.hooks_may_loosen and call.hook_decision == "allow":
            # The pre-v2.1.77 bug: a hook's allow skipped every rule, deny included.
            self.trace.emit(GateDecision(call.turn, call.id, "hook", "allow", "a hook allowed it"))
            return None
        for gate, decide in [*self.order, ("default", self.default_gate)]:
            verdict = decide(call)
            if verdict is None:
                continue
            decision, reason = verdict
            self.trace.emit(GateDecision(call.turn, call.id, gate, decision, reason))
            if decision == "allow" and call.hook_decision == "ask" and call.id not in self.asked:
                # A hook's "ask" only tightens: it turns an allow into a question, never a deny.
                decision, reason = self.ask_human(call, "a PreToolUse hook asked")
                self.trace.emit(GateDecision(call.turn, call.id, "hook ask", decision, reason))
            return None if decision == "allow" else f"{self.permissions.denial} ({reason})"
        return None

    # -- the gates: each returns (decision, reason) when it decides, None to pass ------------
    def deny_gate(self, call: Call) -> tuple[Decision, str] | None:
        if not self.switches.deny_rules_cover_every_tool and call.name != "bash":
            return None  # D26, the course's s03: `if block.name == "bash":` around gate one
        rule = self.first_match("deny", call, every=False)
        return ("deny", f"deny rule {rule.text}") if rule else None

    def ask_gate(self, call: Call) -> tuple[Decision, str] | None:
        rule = self.first_match("ask", call, every=False)
        return self.ask_human(call, f"ask rule {rule.text}") if rule else None

    def allow_gate(self, call: Call) -> tuple[Decision, str] | None:
        rule = self.first_match("allow", call, every=True)
        if rule is None:
            return None
        call.rule_decision = "allow"
        return ("allow", f"allow rule {rule.text}")

    def default_gate(self, call: Call) -> tuple[Decision, str]:
        default = self.permissions.default
        if default == "ask" and self.hook_allowed(call):
            return ("allow", "no rule matched; a PreToolUse hook allowed it, nobody was asked")
        if default == "ask":
            return self.ask_human(call, "no rule matched")
        return (default, "no rule matched")

    def hook_allowed(self, call: Call) -> bool:
        """A hook's allow stands in for the default question, never for a deny or ask rule."""
        if self.switches.silence_is_approval and call.hook_decision == "silent":
            return True  # D25's fault: hooks that said nothing are read as a yes
        return call.hook_decision == "allow"

    def ask_human(self, call: Call, reason: str) -> tuple[Decision, str]:
        question = (
            f"{call.name} {json.dumps(call.input, ensure_ascii=False)} ({reason}). Allow? [y/N]"
        )
        answer = self.human.answer(question)
        self.asked.add(call.id)
        self.trace.emit(HumanAsked(call.turn, call.id, question, answer))
        return (
            ("allow", f"the human said {answer!r}")
            if says_yes(answer)
            else (
                "deny",
                f"the human said {answer!r} to {reason}",
            )
        )

    # -- matching ----------------------------------------------------------------------------
    def first_match(self, kind: str, call: Call, *, every: bool) -> Rule | None:
        split = self.switches.split_compound_commands
        return first_match(
            self.rules[kind], call.name, call.input, self.world, split=split, every=every
        )


def first_match(
    rules: Sequence[Rule],
    name: str,
    input: dict[str, Any],
    world: World,
    *,
    split: bool,
    every: bool,
) -> Rule | None:
    """The first rule that matches a call.

    With `split`, compound bash commands are judged part by part: a deny or ask rule matches
    when any part matches it; allow (`every`) needs each part matched by some allow rule."""
    whole = [r for r in rules if r.matches(name, input, world)]
    if name != "bash" or not split:
        return whole[0] if whole else None
    whole = [r for r in whole if r.per_command is None]  # e.g. a bare `Bash` rule
    if whole:
        return whole[0]
    parts = split_commands(command_of(input)) or [""]
    per_part = [next((r for r in rules if r.per_command and r.per_command(p)), None) for p in parts]
    found = [r for r in per_part if r]
    if every and len(found) == len(parts):
        return Rule(" + ".join(dict.fromkeys(r.text for r in found)), lambda *_: True)
    if not every and found:
        return found[0]
    return None


def deny_rule_for(
    permissions: Permissions, name: str, input: dict[str, Any], world: World
) -> Rule | None:
    """The deny rule a call falls under, judged the reference way (for observables and tests)."""
    rules = [r if isinstance(r, Rule) else parse_rule(r, world) for r in permissions.deny]
    return first_match(rules, name, input, world, split=True, every=False)


def course_permissions() -> Permissions:
    """The course's s03 gates (its rule set is lab/course_rules.py): a bash-only deny list,
    two ask rules, the y/N question, and no question when no rule matches."""
    outside = Rule(
        course_rules.OUTSIDE,
        lambda name, input, world: (
            name in course_rules.OUTSIDE_TOOLS
            and isinstance(input.get("path"), str)
            and not world.inside_workspace(input["path"])
        ),
    )
    destructive = Rule(
        course_rules.DESTRUCTIVE,
        lambda name, input, _world: (
            name == "bash" and any(s in command_of(input) for s in course_rules.DESTRUCTIVE_TEXTS)
        ),
    )
    return Permissions(
        deny=contains(*course_rules.DENY_LIST),
        ask=[outside, destructive],
        denial=course_rules.DENIAL,
    )
