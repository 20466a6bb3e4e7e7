"""Whole generated cases: a script beside the rest of a scenario (rule sets, the human's
answers, hooks, extra tools, files), each ingredient a strategy a caller may pin."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import strategies as st

from lab.harness.hooks import Hook
from lab.harness.permissions import Permissions
from lab.kernel.scenario import Scenario
from lab.model import Step
from lab.testing import catalog
from lab.testing.case import Case, RuleSet
from lab.testing.conversations import scripts
from lab.testing.pools import ANSWERS, DEFAULTS, DENY_LIST, RULES
from lab.testing.weighted import weighted


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
    thinking: st.SearchStrategy[bool] | None = None,
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
        "thinking": thinking,
    }
    pinned = {k: strategy for k, strategy in given.items() if strategy is not None}
    return st.builds(Case, **{**defaults, **pinned})


def scenarios() -> st.SearchStrategy[Scenario]:
    """Ready-to-run Scenarios (use `cases()` when you want to print or shrink them)."""
    return cases().map(Case.scenario)
