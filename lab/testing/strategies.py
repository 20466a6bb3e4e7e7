"""Hypothesis strategies for whole scripted conversations and everything around them.

Every choice is drawn from a small, ordered table whose first entry is the harmless one, so
hypothesis shrinks a counterexample towards `bash ls`, no rules, no hooks: what is left is
only what the failure needs. Tool-call ids are left out and filled in by the ScriptedModel
(`toolu_001`, `toolu_002`, ...), so they are deterministic.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from hypothesis import strategies as st
from hypothesis.errors import HypothesisWarning

from lab.harness.hooks import Hook
from lab.harness.permissions import Permissions
from lab.model import (
    Step,
    Turn,
    cut_off,
    overloaded,
    rate_limited,
    server_error,
    stream_dropped,
    stream_error,
    text,
    tool_use,
    turn,
)
from lab.model.script import cut_input
from lab.scenario import Scenario
from lab.testing import catalog
from lab.testing.case import Case, RuleSet

T = TypeVar("T")

# While shrinking, hypothesis may try to map a case back onto a strategy branch that cannot
# produce it, and then spells out that branch: these strategies print to well over 50 kB, and
# it warns about the size. Nothing is wrong; the message is noise in `lab matrix` output.
warnings.filterwarnings("ignore", "Generating overly large repr", HypothesisWarning)

# ---- shell commands: harmless first, then writes, dangers and lines the shell rejects ------
HARMLESS_COMMANDS = [
    "ls",
    "cat notes.txt",
    "wc -l notes.txt",
    "echo hi",
    "grep keep notes.txt",
    "head -n 1 src/app.py",
    "cat big.log",
    "cat missing.txt",
    "ls src",
    "pwd",
]
WRITING_COMMANDS = [
    "echo hi > out.txt",
    "echo more >> notes.txt",
    "touch new.txt",
    "mkdir -p build",
    "rm notes.txt",
    "rm -rf src",
    "cat notes.txt > copy.txt",
]
DANGEROUS_COMMANDS = [
    "rm -rf /",
    "sudo rm -rf /var/log",
    "echo pwned > /etc/hosts",
    "rm /etc/passwd",
    "cat /etc/passwd",
]
BROKEN_COMMANDS = ["ls &&", "echo 'unclosed", "frobnicate --now"]
RULED_COMMANDS = [  # what shell permission rules are about: removals, hidden or alone
    "ls && rm -rf src",
    "rm notes.txt",
    "cat notes.txt; rm notes.txt",
    "rm -rf /",
    "echo ok || rm -rf /",
    "sudo rm -rf /var/log",
    "ls",
]
COMPOUND_COMMANDS = [  # the shapes public bug reports show slipping past command rules
    "ls && rm -rf src",
    "cat notes.txt; rm notes.txt",
    "echo ok || rm -rf /",
    "ls | wc -l",
]
SEPARATORS = [" && ", "; ", " || ", " | ", "\n"]

# ---- paths, patterns and texts -------------------------------------------------------------
INSIDE_PATHS = [
    "notes.txt",
    "src/app.py",
    "missing.txt",
    "./notes.txt",
    "/workspace/notes.txt",
    "big.log",
    "out.txt",
    "src",
    ".spill/toolu_001.txt",  # where the result cap spills the first call's output
    ".spill",  # the harness's own folder, as a file
]
EXISTING_PATHS = ["notes.txt", "src/app.py", "big.log"]  # the catalog's files
OUTSIDE_PATHS = ["/etc/passwd", "../etc/hosts", "/tmp/out.txt", "/workspace/../etc/passwd"]
GLOB_PATTERNS = ["*", "*.txt", "**/*.py", "src/*", "**", "../*", "/etc/*"]
CONTENTS = ["hello\n", "", "print('bye')\n"]
OLD_TEXTS = ["keep", "hi", "absent", ""]
NEW_TEXTS = ["gone", ""]
TEXTS = ["Done.", "Let me look.", "All finished."]

# ---- malformed and unknown calls, as fixed readable examples -------------------------------
INVALID_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("write_file", {"path": "notes.txt"}),  # content missing
    ("write_file", {"path": "notes.txt", "content": 42}),  # wrong type
    ("bash", {}),  # command missing
    ("bash", {"command": ["ls"]}),  # wrong type
    ("bash", {"command": "ls", "timeout": 5}),  # unknown field
    ("read_file", {"path": 42}),
    ("read_file", {"path": "notes.txt", "limit": "all"}),
    ("edit_file", {"path": "notes.txt", "old_text": "keep"}),
    ("glob", {"pattern": None}),
]
UNKNOWN_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("check_disk", {"device": "/dev/sda"}),
    ("Bash", {"command": "ls"}),  # a rule's name, not the tool's
    ("run_python", {"code": "print(1)"}),
]
EXTRA_TOOL_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("line_count", {"path": "notes.txt"}),
    ("line_count", {"path": "big.log"}),
    ("word_count", {"file_path": "notes.txt"}),
    ("explode", {}),
]

# ---- permissions, the human, hooks ---------------------------------------------------------
SHELL_RULES = ["Bash(rm *)", "Bash(ls *)", "Bash(cat *)", "Bash"]  # small pools, so rules collide
PATH_RULES = ["Read(/etc/**)", "Write", "Edit(src/**)", "Read"]
RULES = [
    "Bash(rm *)",
    "Bash",
    "Bash(ls *)",
    "Bash(cat *)",
    "Read(/etc/**)",
    "Read",
    "Edit(src/**)",
    "Write",
    "read_file",
    "glob",
]
DENY_LIST = ["rm -rf /", "sudo", "> /etc/"]  # the course's kind of deny list: substrings
DEFAULTS = ["allow", "ask", "deny"]
ANSWERS = ["y", "n", "yes", "no", ""]
STOP_REASONS = [None, "end_turn", "tool_use", "max_tokens"]  # None: what the content implies


def _block(call: tuple[str, dict[str, Any]]) -> dict:
    name, input = call
    return tool_use(name, dict(input))


def _copy(value: T, number: int) -> T:
    return value


def weighted(*options: tuple[int, st.SearchStrategy[T]]) -> st.SearchStrategy[T]:
    """Like one_of, but (n, strategy) is drawn n times as often as a weight of 1; shrinks
    towards the first option. (A plain one_of flattens nested one_ofs, so it would weight
    each option by how many branches it happens to have.)"""
    # Each copy is its own builds(): one branch, never flattened into the option's branches.
    # The copy's number keeps copies apart: hypothesis caches builds() and one_of drops
    # duplicate branches.
    copies = [strategy for n, strategy in options for _ in range(n)]
    return st.one_of([st.builds(_copy, s, st.just(i)) for i, s in enumerate(copies)])


# ---- commands and paths --------------------------------------------------------------------
def simple_commands() -> st.SearchStrategy[str]:
    return st.sampled_from(
        HARMLESS_COMMANDS + WRITING_COMMANDS + DANGEROUS_COMMANDS + BROKEN_COMMANDS
    )


def compound_commands() -> st.SearchStrategy[str]:
    """A known compound, or two simple commands joined by && ; || | or a newline."""
    simple = simple_commands()
    joined = st.builds(lambda a, sep, b: a + sep + b, simple, st.sampled_from(SEPARATORS), simple)
    return weighted((1, st.sampled_from(COMPOUND_COMMANDS)), (1, joined))


def shell_commands() -> st.SearchStrategy[str]:
    """A command line: one simple command, or (a third of the time) a compound one."""
    return weighted((2, simple_commands()), (1, compound_commands()))


def paths(outside: int = 0) -> st.SearchStrategy[str]:
    """A path inside the workspace (relative, ./, absolute, missing, a directory) or outside;
    with `outside` n, an outside path is n times as likely as an inside one."""
    if outside:
        return weighted(
            (1, st.sampled_from(INSIDE_PATHS)), (outside, st.sampled_from(OUTSIDE_PATHS))
        )
    return st.sampled_from(INSIDE_PATHS + OUTSIDE_PATHS)


# ---- tool calls ----------------------------------------------------------------------------
def bash_calls(commands: st.SearchStrategy[str] | None = None) -> st.SearchStrategy[dict]:
    commands = shell_commands() if commands is None else commands
    return st.builds(lambda c: tool_use("bash", {"command": c}), commands)


def read_calls() -> st.SearchStrategy[dict]:
    """Calls that only read, so they may share a parallel tray: reads of existing files,
    globs, read-only commands."""
    return st.one_of(
        st.builds(lambda p: tool_use("read_file", {"path": p}), st.sampled_from(EXISTING_PATHS)),
        st.builds(lambda c: tool_use("bash", {"command": c}), st.sampled_from(HARMLESS_COMMANDS)),
        st.builds(lambda g: tool_use("glob", {"pattern": g}), st.sampled_from(GLOB_PATTERNS)),
    )


def big_reads() -> st.SearchStrategy[dict]:
    """Reads of the file over the result cap: the read tool pages, the shell's output spills."""
    return st.sampled_from(
        [tool_use("read_file", {"path": "big.log"}), tool_use("bash", {"command": "cat big.log"})]
    )


def path_calls(outside: int = 0) -> st.SearchStrategy[dict]:
    """Well-formed calls of the four file tools, on any path (see `paths`)."""
    paths_ = paths(outside)
    return st.one_of(
        st.builds(lambda p: tool_use("read_file", {"path": p}), paths_),
        st.builds(
            lambda p, n: tool_use("read_file", {"path": p, "limit": n}),
            paths_,
            st.integers(-1, 2),
        ),
        st.builds(
            lambda p, c: tool_use("write_file", {"path": p, "content": c}),
            paths_,
            st.sampled_from(CONTENTS),
        ),
        st.builds(
            lambda p, o, n: tool_use("edit_file", {"path": p, "old_text": o, "new_text": n}),
            paths_,
            st.sampled_from(OLD_TEXTS),
            st.sampled_from(NEW_TEXTS),
        ),
        st.builds(lambda g: tool_use("glob", {"pattern": g}), st.sampled_from(GLOB_PATTERNS)),
    )


def valid_calls() -> st.SearchStrategy[dict]:
    """A well-formed call of one of the course's five tools, shell commands half the time."""
    return weighted((1, bash_calls()), (1, path_calls()))


def odd_calls() -> st.SearchStrategy[dict]:
    """A malformed call (missing field, wrong type, unknown field), an unknown tool name, or a
    call of one of the catalog's extra tools (one has a broken contract, one raises)."""
    return st.one_of(
        st.sampled_from(INVALID_CALLS).map(_block),
        st.sampled_from(UNKNOWN_CALLS).map(_block),
        st.sampled_from(EXTRA_TOOL_CALLS).map(_block),
    )


def tool_calls() -> st.SearchStrategy[dict]:
    """Any tool_use block, well-formed most of the time."""
    return weighted((3, bash_calls()), (3, path_calls()), (2, read_calls()), (1, odd_calls()))


# ---- turns and scripts ---------------------------------------------------------------------
def tool_turns(
    calls: st.SearchStrategy[dict] | None = None, max_calls: int = 4
) -> st.SearchStrategy[Turn]:
    """A turn with 1..max_calls tool calls, maybe a text first, and a declared stop_reason
    that agrees with the content (None) or not."""

    def build(lead: bool, blocks: list[dict], declared: str | None) -> Turn:
        return turn(*([text("Let me look.")] if lead else []), *blocks, stop_reason=declared)

    return st.builds(
        build,
        st.booleans(),
        st.lists(tool_calls() if calls is None else calls, min_size=1, max_size=max_calls),
        st.sampled_from(STOP_REASONS),
    )


def final_turns() -> st.SearchStrategy[Turn]:
    """A text-only turn; it may still *declare* tool_use (a stream that lies)."""
    return st.builds(
        lambda s, declared: turn(text(s), stop_reason=declared),
        st.sampled_from(TEXTS),
        st.sampled_from([None, "end_turn", "tool_use"]),
    )


def scripts(
    calls: st.SearchStrategy[dict] | None = None,
    *,
    min_turns: int = 1,
    max_turns: int = 4,
    max_calls: int = 4,
) -> st.SearchStrategy[tuple[Turn, ...]]:
    """A whole script: min_turns - 1 to max_turns - 1 tool turns, then a final text turn."""
    middle = st.lists(tool_turns(calls, max_calls), min_size=min_turns - 1, max_size=max_turns - 1)
    return st.builds(lambda turns, final: (*turns, final), middle, final_turns())


# ---- the API's faults -----------------------------------------------------------------------
# Each turn may meet one fault. A transient one comes first and the same turn follows (what
# the model says when asked again); a cut-off replaces the turn. `n` (1, 2, ...) picks where
# the fault falls, counted back from the end: small n cuts late, so the cut JSON keeps most
# of its fields (the dangerous case: only the last value is lost).
RETRY_AFTER = [1.0, 0.5, 30.0]


def _delta_text(block: dict) -> str:
    return block["text"] if block["type"] == "text" else json.dumps(block["input"])


def _rate_limited(step: Turn, n: int) -> tuple[Step, ...]:
    return (rate_limited(RETRY_AFTER[n % len(RETRY_AFTER)]), step)


def _stream_error(step: Turn, n: int) -> tuple[Step, ...]:
    return (stream_error(step, after_blocks=max(0, len(step.blocks) - n + 1)), step)


def _stream_dropped(step: Turn, n: int) -> tuple[Step, ...]:
    last = len(step.blocks) - 1
    chars = len(_delta_text(step.blocks[last])) - n if step.blocks else 0
    return (stream_dropped(step, block=max(last, 0), after_chars=max(chars, 0)), step)


def _cut_off(step: Turn, n: int) -> tuple[Step, ...]:
    # max_tokens cuts the last block: the turn ends at its last call (none: nothing to cut).
    calls = [i for i, b in enumerate(step.blocks) if b["type"] == "tool_use"]
    if not calls:
        return (step,)
    cut = Turn(step.blocks[: calls[-1] + 1], step.stop_reason)
    chars = len(cut_input(cut.blocks[-1])) - n
    return (cut_off(cut, keep_chars=max(chars, 0)),)


FAULTS: dict[str, Callable[[Turn, int], tuple[Step, ...]]] = {
    "none": lambda step, n: (step,),
    "overloaded": lambda step, n: (overloaded(), step),
    "rate_limited": _rate_limited,
    "server_error": lambda step, n: (server_error(), step),
    "stream_error": _stream_error,
    "stream_dropped": _stream_dropped,
    "cut_off": _cut_off,
}


def fault_names(weight_of_none: int = 3) -> st.SearchStrategy[str]:
    """A fault's name: "none" `weight_of_none` times as often as any one fault."""
    faults = st.sampled_from([name for name in FAULTS if name != "none"])
    return weighted((weight_of_none, st.just("none")), (1, faults))


# Where a fault falls: mostly at the very end (a cut that loses only the last value, a drop
# one character short), which is where a lenient parse hides the damage best.
FAULT_POSITIONS = weighted((3, st.just(1)), (1, st.integers(2, 12)))


def met_by(turns: st.SearchStrategy[Turn], kinds: st.SearchStrategy[str]) -> st.SearchStrategy:
    """A turn as the API delivers it: the steps FAULTS makes of it under a drawn fault."""
    return st.builds(lambda t, kind, n: FAULTS[kind](t, n), turns, kinds, FAULT_POSITIONS)


def faulty_scripts(
    calls: st.SearchStrategy[dict] | None = None,
    *,
    kinds: st.SearchStrategy[str] | None = None,
    min_turns: int = 1,
    max_turns: int = 4,
    max_calls: int = 4,
) -> st.SearchStrategy[tuple[Step, ...]]:
    """Like `scripts`, but each turn may meet one of the API's faults (`kinds` draws its
    name, default `fault_names()`). A turn and its fault are drawn together, so shrinking
    drops them together."""
    kinds = fault_names() if kinds is None else kinds
    middle = st.lists(
        met_by(tool_turns(calls, max_calls), kinds), min_size=min_turns - 1, max_size=max_turns - 1
    )

    def flat(parts: list[tuple[Step, ...]], final: tuple[Step, ...]) -> tuple[Step, ...]:
        return tuple(step for part in (*parts, final) for step in part)

    return st.builds(flat, middle, met_by(final_turns(), kinds))


# ---- permissions, the human, hooks, tools, files -------------------------------------------
def rule_sets(
    pool: Sequence[str] = RULES,
    *,
    min_deny: int = 0,
    min_ask: int = 0,
    deny: st.SearchStrategy[tuple[str, ...]] | None = None,
    defaults: Sequence[str] = DEFAULTS,
    course: bool = True,
) -> st.SearchStrategy[RuleSet]:
    """Deny, ask and allow rules drawn from one pool (so they overlap), in any order, a
    substring deny list and a default; or (with `course`) exactly the course's own gates."""

    def rules(min_size: int = 0) -> st.SearchStrategy[tuple[str, ...]]:
        chosen = st.lists(st.sampled_from(pool), unique=True, min_size=min_size, max_size=2)
        return chosen.map(tuple)

    listed = st.lists(st.sampled_from(DENY_LIST), unique=True, max_size=2).map(tuple)
    own = st.builds(
        RuleSet,
        deny=rules(min_deny) if deny is None else deny,
        ask=rules(min_ask),
        allow=rules(),
        deny_list=listed,
        default=st.sampled_from(defaults),
    )
    return weighted((3, own), (1, st.just(RuleSet(course=True)))) if course else own


def permissions() -> st.SearchStrategy[Permissions]:
    return rule_sets().map(RuleSet.permissions)


def human_answers() -> st.SearchStrategy[tuple[str, ...] | str]:
    """Answers in order (a queue; out of answers means no) or a policy name from the catalog."""
    return st.one_of(
        st.lists(st.sampled_from(ANSWERS), max_size=3).map(tuple),
        st.sampled_from(list(catalog.POLICIES)),
    )


def humans() -> st.SearchStrategy[Sequence[str] | Callable[[str], str]]:
    """What Scenario.human takes: a list of answers or a policy function."""
    return human_answers().map(lambda h: catalog.POLICIES[h] if isinstance(h, str) else list(h))


def hook_names(
    names: Sequence[str] | None = None,
    *,
    events: Sequence[str] | None = None,
    min_size: int = 0,
    max_size: int = 3,
) -> st.SearchStrategy[tuple[str, ...]]:
    """Catalog hook names in registration order: any, the ones named, or those for `events`."""
    pool = [
        name
        for name in (catalog.HOOKS if names is None else names)
        if events is None or catalog.HOOKS[name].event in events
    ]
    chosen = st.lists(st.sampled_from(pool), unique=True, min_size=min_size, max_size=max_size)
    return chosen.map(tuple)


def hook_sets(max_size: int = 3) -> st.SearchStrategy[list[tuple[str, Hook]]]:
    """What Scenario.hooks takes: (event, callback) pairs."""
    return hook_names(max_size=max_size).map(lambda names: catalog.hooks(*names))


def tool_names(min_size: int = 0) -> st.SearchStrategy[tuple[str, ...]]:
    """Extra catalog tools to register beside the course's five (one has a broken contract)."""
    chosen = st.lists(st.sampled_from(list(catalog.TOOLS)), unique=True, min_size=min_size)
    return chosen.map(tuple)


def file_sets(usually_all: bool = False) -> st.SearchStrategy[tuple[str, ...]]:
    """Some of the catalog's files (a small note, a source file, a log over the result cap);
    with `usually_all`, all three three times out of four."""
    some = st.lists(st.sampled_from(list(catalog.FILES)), unique=True, max_size=3).map(tuple)
    return weighted((1, some), (3, st.just(tuple(catalog.FILES)))) if usually_all else some


# ---- whole cases ---------------------------------------------------------------------------
def cases(
    *,
    calls: st.SearchStrategy[dict] | None = None,
    script: st.SearchStrategy[tuple[Step, ...]] | None = None,
    files: st.SearchStrategy[tuple[str, ...]] | None = None,
    rules: st.SearchStrategy[RuleSet] | None = None,
    human: st.SearchStrategy[tuple[str, ...] | str] | None = None,
    hooks: st.SearchStrategy[tuple[str, ...]] | None = None,
    tools: st.SearchStrategy[tuple[str, ...]] | None = None,
    keep_last: st.SearchStrategy[int | None] | None = None,
    stream: st.SearchStrategy[bool] | None = None,
) -> st.SearchStrategy[Case]:
    """Whole generated scenarios; pass a strategy (e.g. `st.just(())`) to pin an ingredient,
    or `calls` to change what the script's tool calls are drawn from."""
    defaults: dict[str, st.SearchStrategy[Any]] = {
        "script": scripts(calls),
        "files": file_sets(),
        "rules": rule_sets(),
        "human": human_answers(),
        "hooks": hook_names(),
        "tools": tool_names(),
        "keep_last": st.one_of(st.none(), st.integers(1, 4)),
        "stream": st.booleans(),
    }
    given: dict[str, st.SearchStrategy[Any] | None] = {
        "script": script,
        "files": files,
        "rules": rules,
        "human": human,
        "hooks": hooks,
        "tools": tools,
        "keep_last": keep_last,
        "stream": stream,
    }
    pinned = {k: strategy for k, strategy in given.items() if strategy is not None}
    return st.builds(Case, **{**defaults, **pinned})


# ---- cases that thicken one mechanism's ingredients -----------------------------------------
NONE = st.just(())
NO_RULES = st.just(RuleSet())
PERMISSION_HOOKS = ("auto_approve", "ask_edits", "deny_rm", "audit_log")
YES_OFTEN: st.SearchStrategy[tuple[str, ...] | str] = weighted(
    (1, st.sampled_from([("y",), "always_yes"])), (1, human_answers())
)


def fault_cases(
    kinds: st.SearchStrategy[str] | None = None, calls: st.SearchStrategy[dict] | None = None
) -> st.SearchStrategy[Case]:
    """The API's faults on every other turn (or as `kinds` draws them): HTTP errors, a
    stream that errors or drops part-way, a tool input cut by max_tokens; streamed three
    times out of four."""
    calls = valid_calls() if calls is None else calls
    kinds = fault_names(1) if kinds is None else kinds
    return cases(
        script=faulty_scripts(calls, kinds=kinds, min_turns=2, max_calls=3),
        files=file_sets(usually_all=True),
        rules=NO_RULES,
        hooks=NONE,
        tools=NONE,
        stream=weighted((3, st.just(True)), (1, st.just(False))),
    )


def cut_cases() -> st.SearchStrategy[Case]:
    """Calls that would pass every check (reads of files that exist), cut by max_tokens
    two times out of four (what the SDK makes of a cut input often still looks valid), met
    by any other of the API's faults one time in four."""
    others = st.sampled_from([name for name in FAULTS if name not in ("none", "cut_off")])
    kinds = weighted((1, st.just("none")), (2, st.just("cut_off")), (1, others))
    return fault_cases(kinds, read_calls())


def loop_cases() -> st.SearchStrategy[Case]:
    """M1: lying stop_reasons, Stop hooks (two times out of three), trimmed histories; or
    the API's faults (a third of the time)."""
    hooks = weighted(
        (2, hook_names(events=("Stop",), min_size=1)),
        (1, hook_names(events=("Stop", "UserPromptSubmit"))),
    )
    stops = cases(
        script=scripts(valid_calls(), min_turns=2),
        rules=NO_RULES,
        hooks=hooks,
        tools=NONE,
    )
    return weighted((2, stops), (1, fault_cases()))


def dispatch_cases() -> st.SearchStrategy[Case]:
    """M2: unknown names and extra tools (one with a broken contract) beside ordinary calls;
    or several reads per turn, with shell commands that write among them."""
    odd = cases(
        script=scripts(weighted((1, valid_calls()), (1, odd_calls())), min_turns=2),
        files=file_sets(usually_all=True),
        rules=NO_RULES,
        hooks=NONE,
        tools=tool_names(min_size=1),
    )
    trays = cases(
        script=scripts(weighted((1, read_calls()), (1, bash_calls())), min_turns=2),
        files=file_sets(usually_all=True),
        rules=NO_RULES,
        hooks=NONE,
        tools=NONE,
    )
    return weighted((1, odd), (1, trays))


def check_cases() -> st.SearchStrategy[Case]:
    """M3: malformed calls, a human asked about every call that reaches the gates (two times
    out of three), reads of a file over the result cap; or the API's faults (a third of the
    time: cut inputs and partial answers are M3's too)."""
    calls = weighted((1, valid_calls()), (1, odd_calls()), (1, big_reads()))
    asking = weighted((2, st.just(RuleSet(default="ask"))), (1, NO_RULES))
    checks = cases(
        script=scripts(calls, min_turns=2),
        files=file_sets(usually_all=True),
        rules=asking,
        hooks=NONE,
    )
    return weighted((2, checks), (1, fault_cases()), (1, cut_cases()))


def shell_rule_cases(hooks: st.SearchStrategy[tuple[str, ...]]) -> st.SearchStrategy[Case]:
    """Shell commands under colliding shell rules: the classic deny rule `Bash(rm *)` half
    the time, an ask rule always, removals alone or hidden in compounds, a human who often
    says yes."""
    removals = weighted(
        (1, st.just(("Bash(rm *)",))),
        (1, st.lists(st.sampled_from(SHELL_RULES), unique=True, min_size=1, max_size=2).map(tuple)),
    )
    commands = weighted((1, st.sampled_from(RULED_COMMANDS)), (1, shell_commands()))
    return cases(
        script=scripts(bash_calls(commands), min_turns=2),
        files=file_sets(usually_all=True),
        rules=rule_sets(
            SHELL_RULES, deny=removals, min_ask=1, defaults=["allow", "ask"], course=False
        ),
        human=YES_OFTEN,
        hooks=hooks,
        tools=NONE,
    )


def path_rule_cases(hooks: st.SearchStrategy[tuple[str, ...]]) -> st.SearchStrategy[Case]:
    """File tools on any path (outside the workspace too) under path rules or the course's."""
    return cases(
        script=scripts(path_calls(outside=1), min_turns=2),
        files=file_sets(usually_all=True),
        rules=rule_sets(PATH_RULES, defaults=["allow", "ask"]),
        human=YES_OFTEN,
        hooks=hooks,
        tools=NONE,
    )


def gate_cases() -> st.SearchStrategy[Case]:
    """M4: shell commands or file paths under colliding rules; a permission hook now and then."""
    hooks = hook_names(PERMISSION_HOOKS, max_size=1)
    return weighted((1, shell_rule_cases(hooks)), (1, path_rule_cases(hooks)))


def hook_cases() -> st.SearchStrategy[Case]:
    """M5: at least one hook (permission hooks, result hooks, prompt hooks, or any) beside
    shell rules that deny, or beside any rules."""
    hooks = weighted(
        (3, hook_names(PERMISSION_HOOKS, min_size=1, max_size=2)),
        (1, hook_names(events=("PostToolUse", "PostToolUseFailure"), min_size=1)),
        (1, hook_names(events=("UserPromptSubmit",), min_size=1)),
        (1, hook_names(min_size=1)),
    )
    anything = cases(script=scripts(valid_calls(), min_turns=2), hooks=hooks, tools=NONE)
    return weighted((2, shell_rule_cases(hooks)), (1, anything))


FOCUS: dict[str, Callable[[], st.SearchStrategy[Case]]] = {
    "M1": loop_cases,
    "M2": dispatch_cases,
    "M3": check_cases,
    "M4": gate_cases,
    "M5": hook_cases,
}


def focused_cases(mechanisms: str = "M1/M2/M3/M4/M5") -> st.SearchStrategy[Case]:
    """Cases of every kind (a sixth of the time) and, for each mechanism named ("M4",
    "M1/M5", ...), cases that thicken its ingredients, so a fault there shows early."""
    focus = [FOCUS[m]() for m in mechanisms.split("/")]
    return weighted((len(focus), cases()), *[(5, strategy) for strategy in focus])


def scenarios() -> st.SearchStrategy[Scenario]:
    """Ready-to-run Scenarios (use `cases()` when you want to print or shrink them)."""
    return cases().map(Case.scenario)
