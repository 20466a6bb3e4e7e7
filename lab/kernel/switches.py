"""The switchboard: one frozen dataclass, each flag breaks exactly one guarantee.

`Switches()` is the reference harness (every protection on, production semantics).
Every flag carries its fault, its mechanism (M1-M5), the experiments that flip it, the module
whose parts it chooses between (`reader`: lab/harness/switchboard.py is the one code that reads
a flag, and builds the harness from the parts), and the course's value with the reason, so
`lab list`, the notebooks and the kill matrix can show them. `Switches.course()` is the course
as pinned.
"""

from __future__ import annotations

__all__ = ["Switches", "switch_info", "switch_names"]

import functools
from collections.abc import Callable
from dataclasses import dataclass, field, fields, replace
from typing import Any, get_type_hints

from lab.chapter.disputes import DISPUTED_FRONT_HALF


def flag(
    default: Any,
    *,
    course: tuple[Any, str],
    mechanism: str,
    experiments: str,
    reader: str,
    fault: str,
    grade: str,
    source: str,
) -> Any:
    """A switch: its reference value, the course's value and why, what it breaks, and where
    the guarantee comes from (the seed's grade: 一 course code, 二 official docs, 三 the course
    author's reading of closed source, or "beyond" the seed, with its source)."""
    info = {
        "mechanism": mechanism,
        "experiments": experiments,
        "reader": reader,
        "fault": fault,
        "course": course[0],
        "course_why": course[1],
        "grade": grade,
        "source": source,
    }
    return field(default=default, metadata=info)


@dataclass(frozen=True)
class Switches:
    trust_stop_reason: bool = flag(
        False,
        course=(
            False,
            "revision-dependent: at f9e8b28 s01-s04 decide by the content blocks and never read "
            "stop_reason; the course web site's older revision (and s03 at 195ac6f) tests "
            "stop_reason != 'tool_use': that is D1's degraded loop",
        ),
        mechanism="M1",
        experiments="D1, D1b",
        reader="lab/harness/loop.py",
        fault="The continue test trusts the declared stop_reason instead of the content blocks: "
        "a tool call that arrives while the declaration says end_turn is dropped.",
        grade="三",
        source="seed §3: production keeps its own flag, set when a tool_use block streams in",
    )
    retry_transient_errors: bool = flag(
        True,
        course=(
            True,
            "s01's default Anthropic() client retries 408/409/429/5xx twice with backoff "
            "(the SDK's max_retries=2); it never streams, so no stream ever breaks mid-answer",
        ),
        mechanism="M1",
        experiments="D20",
        reader="lab/harness/retry.py",
        fault="Off: a transient fault (429, 529, 5xx, an error event or a dropped connection "
        "in a stream) ends the run at once instead of being waited out and asked again.",
        grade="beyond",
        source="beyond the seed: the Messages API's errors (429 with retry-after, 529 "
        "overloaded) and the SDK's own retry policy",
    )
    keep_thinking_blocks: bool = flag(
        True,
        course=(
            True,
            "moot: the course never asks for thinking; s01 appends response.content as it "
            "came, so thinking blocks would go back whole",
        ),
        mechanism="M1",
        experiments="D29",
        reader="lab/harness/thinking.py",
        fault="Off: the thinking blocks of an answer are stripped before it enters the "
        "history; with thinking on, the API rejects the next request of the tool loop.",
        grade="beyond",
        source="beyond the seed: the Messages API's extended-thinking rule (a tool loop's "
        "assistant turn goes back with its thinking blocks first, unchanged, signatures "
        "checked)",
    )
    unknown_tool_result: bool = flag(
        True,
        course=(True, 's02 answers an unknown name with the string "Unknown: <name>"'),
        mechanism="M2",
        experiments="D7",
        reader="lab/harness/checks.py",
        fault="Off: an unknown tool name raises instead of becoming an is_error result, and "
        "the run crashes in the middle of a batch.",
        grade="一",
        source="seed §4: s02 falls back to an 'unknown tool' string, never an exception",
    )
    contract_checked: bool = flag(
        True,
        course=(False, "the schema<->signature contract is implicit: nothing checks it"),
        mechanism="M2",
        experiments="D8",
        reader="lab/harness/tools.py",
        fault="Off: the schema<->signature contract is not checked at registration; a tool "
        "whose schema says file_path while its handler takes path fails on first use.",
        grade="一",
        source="seed §4: 'two places' is three: handler(**block.input) needs the names to agree",
    )
    handler_errors_become_results: bool = flag(
        True,
        course=(
            False,
            "s02's handler(**block.input) has no try: a TypeError from the keyword expansion "
            "propagates out of the loop and the program stops (运行时直接炸)",
        ),
        mechanism="M2",
        experiments="D8",
        reader="lab/harness/tools.py",
        fault="Off (the course's dispatch): an exception from a handler is not caught; it "
        "propagates out of the loop and the run crashes with the call unanswered.",
        grade="一",
        source="seed §4: a name mismatch makes the course blow up at run time (s02 dispatch)",
    )
    parallel_batches: bool = flag(
        True,
        course=(
            False,
            "tools run strictly one after another: no threads, no asyncio (the repo's chapter "
            "index still lists concurrency as an s02 key concept, a contradiction the seed notes)",
        ),
        mechanism="M2",
        experiments="D19",
        reader="lab/harness/batching.py",
        fault="Off: every call is a tray of its own and runs serially, as in the course.",
        grade="三",
        source="seed §4: consecutive batches, parallel inside, strictly ordered between; "
        "the cap of 10 is production documentation beyond the seed",
    )
    concurrency_from_input: bool = flag(
        True,
        course=(True, "moot: with no parallelism nothing is decided either way"),
        mechanism="M2",
        experiments="D18, D27",
        reader="lab/harness/batching.py",
        fault="Off: concurrency is decided by a per-tool table, not the call's input, so `rm` "
        "shares a parallel tray with a `cat` of the same file, and writes to different "
        "files never share one.",
        grade="三",
        source="seed §4: whether a call may run in parallel is decided by its input, not the tool",
    )
    execute_truncated_calls: bool = flag(
        False,
        course=(
            True,
            "revision-dependent: at f9e8b28 s01 runs every tool_use block of the answer and "
            "never reads stop_reason, so a call cut by max_tokens runs with the fields that "
            "arrived; a revision that tests stop_reason != 'tool_use' (the web site's, s03 at "
            "195ac6f) stops at max_tokens and runs nothing",
        ),
        mechanism="M3",
        experiments="D21",
        reader="lab/harness/checks.py",
        fault="A tool_use whose input JSON max_tokens cut off runs with what the SDK made of "
        "it (the complete fields only): a cut keep-list is a shorter list, a cut safety flag "
        "is no flag, and the harness runs a call the model never made.",
        grade="beyond",
        source="beyond the seed: the API's max_tokens stop reason and the SDK's lenient "
        "parse of a cut input (jiter partial mode, anthropic 2.16)",
    )
    validate_before_gate: bool = flag(
        True,
        course=(
            False,
            "no check of the input's shape stands before the gates: the course has none of its "
            "own at all (own_front_checks=False), so every call meets the gates first, as in "
            "D9's degraded chain; what D9 measures needs a question the course's rules never ask",
        ),
        mechanism="M3",
        experiments="D9",
        reader="lab/harness/checks.py",
        fault="Off: the gates (hooks and permission) run before validation and the tool's own "
        "check, so the human is asked about calls that were malformed anyway.",
        grade="三",
        source="seed §5: shape → the tool's check → hooks → permission → run (the course "
        "author's reading of closed source)",
    )
    own_front_checks: bool = flag(
        True,
        course=(False, DISPUTED_FRONT_HALF.en),
        mechanism="M3",
        experiments="D9b",
        reader="lab/harness/checks.py",
        fault="Off (the course's s03/s04): the harness has no front half of its own, no "
        "validation and no tool's own check in front of the handler, so a malformed call meets "
        "the gates and then handler(**block.input).",
        grade="一",
        source="seed §5: 教学版只实现了这条链的后两段【一】 (the front half 被外部件代工: "
        "the lab reads the code differently, see the course note)",
    )
    read_exempt_from_cap: bool = flag(
        True,
        course=(True, "moot: the course truncates output at 50,000 chars and never spills"),
        mechanism="M3",
        experiments="D17",
        reader="lab/harness/results.py",
        fault="Off: the read tool's results are spilled like any other, so reading a big file "
        "yields a spill path, reading the path spills again: a loop that feeds on itself.",
        grade="三",
        source="seed §5: the read tool's cap is unbounded; the 30,000-character spill cap is "
        "production documentation beyond the seed",
    )
    pair_protection: bool = flag(
        True,
        course=(True, 'a denied call still gets "Permission denied." as its result'),
        mechanism="M3",
        experiments="D3, D23",
        reader="lab/harness/pairing.py",
        fault="Off: a call stopped before running gets no tool_result, and the history "
        "trimmer cuts between a tool_use and its tool_result; the API rejects the next request.",
        grade="二",
        source="the Messages API: every tool_use needs its tool_result in the next message; "
        "seed §6 and §7 (the prototype's D3)",
    )
    keep_partial_answers: bool = flag(
        False,
        course=(
            False,
            "moot: s01 never streams, and a failed create() leaves no partial answer behind",
        ),
        mechanism="M3",
        experiments="D22",
        reader="lab/harness/partial.py",
        fault="What a failed stream delivered (text, a tool_use) is appended to the history "
        "before the model is asked again: a tool_use the model never finished is owed a "
        "tool_result no one sends, and the API rejects the next request.",
        grade="beyond",
        source="beyond the seed: the API's mid-stream error event and the pairing rule "
        "of the Messages API",
    )
    gate_order_correct: bool = flag(
        True,
        course=(True, "s03 checks the deny list before it asks the user"),
        mechanism="M4",
        experiments="D4",
        reader="lab/harness/permissions.py",
        fault="Off: the human is asked before the hard deny rules, so a 'yes' lets a "
        "deny-listed command run.",
        grade="二",
        source="seed §6: deny → ask → allow, the first match decides (official permissions docs)",
    )
    deny_rules_cover_every_tool: bool = flag(
        True,
        course=(False, "s03 wraps its hard deny list in `if block.name == 'bash'`"),
        mechanism="M4",
        experiments="D26",
        reader="lab/harness/permissions.py",
        fault="Off (the course's s03): the deny gate is consulted for bash only; a file tool "
        "that a deny rule covers falls through to the ask gate and becomes a question.",
        grade="一",
        source="seed §6, the first of s03's measured details: the deny list guards bash only",
    )
    workspace_wall: bool = flag(
        True,
        course=(
            False,
            "revision-dependent: at f9e8b28 s03's file tools call safe_path 0 times (s02: 5), "
            "so leaving the workspace meets only the 'Writing outside workspace' question; other "
            "s03 revisions (e.g. 195ac6f, whose file tools come from common.py) still call it",
        ),
        mechanism="M4",
        experiments="D10",
        reader="lab/harness/walls.py",
        fault="Off (the course's s03 dropped safe_path): file tools reach outside the "
        "workspace, and only a question to the human stands in the way.",
        grade="一",
        source="seed §6 and §10-3: safe_path is called 5 times in s02 and 0 times in s03 "
        "(固定提交实测: measured at the pinned commit)",
    )
    split_compound_commands: bool = flag(
        True,
        course=(
            True,
            "moot: the course's deny list and ask rules are substrings, found anywhere in "
            "the whole command, so `ls && rm -rf /` is denied; its rules are evaded by other "
            "spellings (D28), not by compounds",
        ),
        mechanism="M4",
        experiments="D11",
        reader="lab/harness/permissions.py",
        fault="Off: a compound command is matched as one string, so `ls && rm -rf /` passes "
        "a `Bash(ls *)` allow rule and misses a `Bash(rm *)` deny rule.",
        grade="二",
        source="seed §10-2 (official permissions docs: Bash rules judge each subcommand)",
    )
    shell_sandbox: bool = flag(
        True,
        course=(False, "run_bash is subprocess.run(shell=True) in the workdir: no sandbox"),
        mechanism="M4",
        experiments="D28",
        reader="lab/harness/walls.py",
        fault="Off: the shell runs unsandboxed; a command the text rules fail to recognise "
        "(/bin/rm, bash -c, a variable, find -delete) writes anywhere on the disk.",
        grade="二",
        source="seed §10-2: string matching is no security boundary, enforcement belongs to a "
        "system sandbox (official sandboxing docs: writes only below the working directory)",
    )
    hooks_before_rules: bool = flag(
        True,
        course=(
            True,
            "s04: permission is the first PreToolUse callback and says nothing when it allows, "
            "so a later blocking callback still runs",
        ),
        mechanism="M5",
        experiments="D24",
        reader="lab/harness/hooks.py",
        fault="Off: the hooks are a fallback consulted after the permission rules, and an "
        "allow rule settles the call before any hook sees it: a blocking hook loses.",
        grade="二",
        source="seed §7: a blocking hook stops the call before the rules, so it beats allow "
        "rules (official permissions docs)",
    )
    hooks_may_loosen: bool = flag(
        False,
        course=(False, "a course hook can only block: there is no 'allow' to loosen with"),
        mechanism="M5",
        experiments="D15",
        reader="lab/harness/hooks.py",
        fault="A PreToolUse hook's 'allow' skips the deny and ask rules (the real pre-v2.1.77 "
        "bug): hooks loosen instead of only tightening.",
        grade="二",
        source="seed §7 and §12-Q4: hook decisions don't bypass permission rules (official "
        "docs); the fault is the pre-v2.1.77 bug, beyond the seed",
    )
    silence_is_approval: bool = flag(
        False,
        course=(
            False,
            "s04's permission callback runs first whatever the later callbacks say; a silent "
            "callback approves nothing",
        ),
        mechanism="M5",
        experiments="D25",
        reader="lab/harness/hooks.py",
        fault="PreToolUse hooks that ran and said nothing count as an allow: the question "
        "the human would have been asked is skipped.",
        grade="二",
        source="seed §7: hook silence is not approval (official hooks guidance)",
    )
    course_hook_semantics: bool = flag(
        False,
        course=(True, "s04 runs callbacks in order and the first non-None result wins"),
        mechanism="M5",
        experiments="D12, D13, D14",
        reader="lab/harness/hooks.py",
        fault="The course's hooks: callbacks in order, the first non-None result skips the "
        "rest, permission is just the first PreToolUse callback, UserPromptSubmit and "
        "PostToolUse results are discarded.",
        grade="一",
        source="seed §7: trigger_hooks returns the first non-None result; three measured flaws",
    )
    stop_hook_guard: bool = flag(
        True,
        course=(False, "no stop_hook_active flag and no cap on Stop continuations"),
        mechanism="M1/M5",
        experiments="D16",
        reader="lab/harness/hooks.py",
        fault="Off: no stop_hook_active flag and no cap of 8 consecutive Stop blocks, so a "
        "Stop hook that keeps blocking runs the loop to the turn limit.",
        grade="三",
        source="seed §7: a flag marks a turn a Stop hook already took over; the cap of 8 "
        "(v2.1.143) is beyond the seed",
    )

    @classmethod
    def course(cls) -> Switches:
        """The course as pinned at f9e8b28 (s01-s04): each flag's `course` value (see its why)."""
        return cls(**{f.name: f.metadata["course"] for f in fields(cls)})

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
    """The fault, mechanism, experiments, reader, course value, grade and source of one flag."""
    return dict(next(f.metadata for f in fields(Switches) if f.name == name))


# -- a switch's value typed on a command line -----------------------------------------------
BOOLEAN_WORDS = {
    **dict.fromkeys(("true", "yes", "on", "1"), True),
    **dict.fromkeys(("false", "no", "off", "0"), False),
}


def _whole_number(word: str) -> int | None:
    return int(word) if word.lstrip("-").isdigit() else None


# The declared type of a flag -> how to read a word as that type (None: not one), what it accepts.
VALUE_READERS: dict[type, tuple[Callable[[str], Any], str]] = {
    bool: (BOOLEAN_WORDS.get, "true/false, yes/no, on/off or 1/0"),
    int: (_whole_number, "a whole number"),
}


@functools.cache
def switch_types() -> dict[str, type]:
    """Each flag's declared type (the annotations are strings: resolved once)."""
    return get_type_hints(Switches)


def switch_type(name: str) -> type:
    return switch_types()[name]


class SwitchValueError(ValueError):
    """An unknown switch, or a value that does not fit its declared type: one readable line."""


def parse_switch_value(name: str, text: str) -> Any:
    """`text` as a value of the switch `name`, read strictly by the flag's declared type:
    a bool accepts true/false, yes/no, on/off, 1/0 in any case, and nothing else."""
    if name not in switch_names():
        known = ", ".join(switch_names())
        raise SwitchValueError(f"unknown switch {name!r}; known switches: {known}")
    declared = switch_type(name)
    if declared not in VALUE_READERS:
        return text  # a text-valued flag takes the word as it is
    read, accepted = VALUE_READERS[declared]
    value = read(text.strip().lower())
    if value is None:
        raise SwitchValueError(
            f"switch {name}: {text!r} is not a {declared.__name__}; use {accepted}"
        )
    return value
