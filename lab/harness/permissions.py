"""M4 门禁 (permission gates): deny → ask → allow, the first gate that matches decides.

Invariant: the non-negotiable deny comes before the negotiable "yes"; rule specificity
never reorders the gates, and a hook's "allow" never opens a deny or ask rule. Like the
course's check_permission: `Gates.judge` is deny → ask → allow, the first match decides.
"""

from __future__ import annotations

__all__ = ["Permissions", "Rule", "contains", "course_permissions"]

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import pathspec

from lab.chapter import course_rules
from lab.harness.checks import PASS, Call, Earlier, Said
from lab.harness.hooks import HooksOnlyTighten, SilenceIsNothing
from lab.kernel.trace import Decision, Gate, GateDecision, HumanAsked, RuleIgnored, Trace
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


Verdict = Literal["allow", "ask", "deny"]  # what a gate says; "ask": the human decides


# -- the parts: compound commands, the deny list's reach, the gates' order --------------------
class WholeLine:
    """D11: a compound command is matched as one string, so `ls && rm -rf /` passes a
    `Bash(ls *)` allow rule and misses a `Bash(rm *)` deny rule."""

    def ignores(self, rule: str) -> str | None:
        """Why a rule cannot work under this matching, or None: matched whole, every rule can."""
        return None

    def first_match(
        self, rules: Sequence[Rule], name: str, input: dict[str, Any], world: World, *, every: bool
    ) -> Rule | None:
        return next((r for r in rules if r.matches(name, input, world)), None)


class PartByPart(WholeLine):
    """The reference: a compound bash command is judged part by part; a deny or ask rule
    matches when any part matches it, allow (`every`) needs each part allowed. A Bash rule
    written across a shell operator can then match no part: it is ignored, with a warning at
    start-up (the product does so for rules a compound command would bypass, seed §10-2)."""

    def ignores(self, rule: str) -> str | None:
        found = re.fullmatch(r"\s*Bash\s*\((.*)\)\s*", rule, re.DOTALL)
        if found is None or len(split_commands(found.group(1))) < 2:
            return None
        return (
            "a Bash rule is matched against each part of a compound command, and this one "
            "spans a shell operator, so no part can match it"
        )

    def first_match(
        self, rules: Sequence[Rule], name: str, input: dict[str, Any], world: World, *, every: bool
    ) -> Rule | None:
        whole = [r for r in rules if r.matches(name, input, world)]
        if name != "bash":
            return whole[0] if whole else None
        whole = [r for r in whole if r.per_command is None]  # e.g. a bare `Bash` rule
        if whole:
            return whole[0]
        parts = split_commands(command_of(input)) or [""]
        per_part = [
            next((r for r in rules if r.per_command and r.per_command(p)), None) for p in parts
        ]
        found = [r for r in per_part if r is not None]  # each part's first matching rule
        if every and len(found) == len(parts):
            return Rule(" + ".join(dict.fromkeys(r.text for r in found)), lambda *_: True)
        if not every and found:
            return found[0]
        return None


class AllTools:
    """The reference: the deny rules guard every tool they name."""

    def covers(self, name: str) -> bool:
        return True


class BashOnly(AllTools):
    """D26, the course's s03: `if block.name == "bash":` around gate one; a file tool a deny
    rule covers falls through to the ask gate and becomes a question."""

    def covers(self, name: str) -> bool:
        return name == "bash"


class DenyFirst:
    """The reference: deny → ask → allow, the non-negotiable before the negotiable."""

    gates: tuple[Verdict, ...] = ("deny", "ask", "allow")  # each gate says its own name


class AskFirst(DenyFirst):
    """D4: the human is asked before the hard deny rules, so a "yes" runs a denied command."""

    gates: tuple[Verdict, ...] = ("ask", "deny", "allow")


Found = tuple[Gate, Verdict, str]  # which gate decided, what it said, and why


class Gates:
    """The permission stage of the chain of checks: deny → ask → allow, the first match
    decides; no match, the default. A hook's word may only tighten (hooks.py)."""

    def __init__(
        self,
        permissions: Permissions,
        human: Human,
        world: World,
        trace: Trace,
        *,
        order: type[DenyFirst] = DenyFirst,
        deny_scope: type[AllTools] = AllTools,
        compound: type[WholeLine] = PartByPart,
        hook_allow: type[HooksOnlyTighten] = HooksOnlyTighten,
        hook_silence: type[SilenceIsNothing] = SilenceIsNothing,
    ) -> None:
        self.permissions, self.human, self.world, self.trace = permissions, human, world, trace
        self.order, self.deny_scope, self.compound = order(), deny_scope(), compound()
        self.hook_allow, self.hook_silence = hook_allow(), hook_silence()
        self.rules = {
            kind: [
                r if isinstance(r, Rule) else parse_rule(r, world)
                for r in getattr(permissions, kind)
                if not self.ignored(kind, r)
            ]
            for kind in ("deny", "ask", "allow")
        }

    def ignored(self, gate: str, rule: str | Rule) -> bool:
        """A rule this matching cannot apply: left out, with a warning in the trace (turn 0,
        before the first call: the harness's start-up)."""
        why = None if isinstance(rule, Rule) else self.compound.ignores(rule)
        if why is not None:
            self.trace.emit(RuleIgnored(0, gate, str(rule), why))
        return why is not None

    def judge(self, call: Call, earlier: Earlier) -> Said:
        """Stop the call with the denial, or pass it ("allow" when an allow rule settled it)."""
        hook = earlier.get("hooks", PASS).word
        if self.hook_allow.skips_rules(hook):  # D15's bug: a hook's allow skips every rule
            self.trace.emit(GateDecision(call.turn, call.id, "hook", "allow", "a hook allowed it"))
            return PASS
        gate, verdict, reason = self.first_gate(call)
        asked = verdict == "ask"
        decision: Decision = "deny" if verdict == "deny" else "allow"
        if asked and gate == "default" and self.hook_silence.approves(hook):
            reason, asked = f"{reason}; {HOOK_ALLOWED}", False
        elif asked:
            decision, reason = self.ask_human(call, reason)
        self.trace.emit(GateDecision(call.turn, call.id, gate, decision, reason))
        if decision == "allow" and hook == "ask" and not asked:
            # A hook's "ask" only tightens: it turns an allow into a question, never a deny.
            decision, reason = self.ask_human(call, "a PreToolUse hook asked")
            self.trace.emit(GateDecision(call.turn, call.id, "hook ask", decision, reason))
        if decision != "allow":
            return Said(f"{self.permissions.denial} ({reason})")
        return Said(word="allow" if gate == "allow" else None)

    def first_gate(self, call: Call) -> Found:
        """The first gate whose rules match decides; none matches: the default."""
        for gate in self.order.gates:
            if gate == "deny" and not self.deny_scope.covers(call.name):
                continue
            rule = self.compound.first_match(
                self.rules[gate], call.name, call.input, self.world, every=gate == "allow"
            )
            if rule is not None:
                return gate, gate, f"{gate} rule {rule.text}"
        return "default", self.permissions.default, "no rule matched"

    def ask_human(self, call: Call, reason: str) -> tuple[Decision, str]:
        question = (
            f"{call.name} {json.dumps(call.input, ensure_ascii=False)} ({reason}). Allow? [y/N]"
        )
        answer = self.human.answer(question)
        self.trace.emit(HumanAsked(call.turn, call.id, question, answer))
        if says_yes(answer):
            return "allow", f"the human said {answer!r}"
        return "deny", f"the human said {answer!r} to {reason}"


HOOK_ALLOWED = "a PreToolUse hook allowed it, nobody was asked"


def deny_rule_for(
    permissions: Permissions, name: str, input: dict[str, Any], world: World
) -> Rule | None:
    """The deny rule a call falls under, judged the reference way (for observables and tests)."""
    rules = [r if isinstance(r, Rule) else parse_rule(r, world) for r in permissions.deny]
    return PartByPart().first_match(rules, name, input, world, every=False)


def course_permissions() -> Permissions:
    """The course's s03 gates (its rule set is lab/chapter/course_rules.py): a bash-only deny list,
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
