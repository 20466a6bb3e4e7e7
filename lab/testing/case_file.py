"""Write a hunted counterexample out as an experiment file, like the ones in experiments/.

The file imports what the case uses (the script DSL, permission rules, catalog hooks, tools
and human policies) and expects the hunted invariant (and any other the case breaks) to hold
before and break after, plus the standard observables whose values differ between the runs.
"""

from __future__ import annotations

import json
import textwrap
from typing import Any

from lab.kernel.observables import STANDARD
from lab.kernel.scenario import Run
from lab.kernel.switches import Switches, switch_info
from lab.model import ApiError, CutOff, Step, StreamDropped, StreamError, Turn, turn_of
from lab.model.script import overloaded, rate_limited, server_error
from lab.testing import catalog
from lab.testing.case import THINKING_BUDGET, Case, RuleSet
from lab.testing.invariants import Invariant, broken


def holds(invariant: Invariant, run: Run) -> bool:
    return invariant.check(run) is None


MAX_EXTRA_OBSERVABLES = 3  # a few concrete symptoms beside the invariant itself


def literal(value: Any) -> str:
    """Python source for a JSON-like value, strings in double quotes as ruff would write them."""
    if value == catalog.BIG_TEXT:
        return catalog.BIG_SOURCE
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a valid Python one
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(literal(v) for v in value) + "]"
    if isinstance(value, tuple):
        return "(" + ", ".join(literal(v) for v in value) + ("," if len(value) == 1 else "") + ")"
    return repr(value)  # None, booleans, numbers


def long_literal(text: str, indent: int, width: int = 88) -> str:
    """A string literal, cut into implicitly joined pieces that fit the line."""
    pieces, line = [], ""
    for word in text.split(" "):
        if line and len(line) + len(word) > width:
            pieces.append(line)
            line = ""
        line += word + " "
    pieces.append(line.rstrip())
    return ("\n" + " " * indent).join(literal(piece) for piece in pieces)


def wrap(text: str, width: int = 92) -> str:
    """Prose for the file's docstring, cut at spaces."""
    return "\n".join(textwrap.wrap(text, width))


def block_source(block: dict) -> str:
    if block["type"] == "text":
        return f"text({literal(block['text'])})"
    return f"tool_use({literal(block['name'])}, {literal(block['input'])})"


def turn_source(step: Turn) -> str:
    parts = [block_source(b) for b in step.blocks]
    if step.stop_reason is not None:
        parts.append(f"stop_reason={literal(step.stop_reason)}")
    return f"turn({', '.join(parts)})"


def api_error_source(error: ApiError) -> str:
    if error == overloaded():
        return "overloaded()"
    if error == server_error():
        return "server_error()"
    if error.retry_after is not None and error == rate_limited(error.retry_after):
        return f"rate_limited({error.retry_after!r})"
    return repr(error)


def step_source(step: Step) -> str:
    """A script step as the DSL call that makes it."""
    if isinstance(step, ApiError):
        return api_error_source(step)
    if isinstance(step, StreamError):
        extra = "" if step.type == "overloaded_error" else f", type={literal(step.type)}"
        return f"stream_error({turn_source(step.turn)}, after_blocks={step.after_blocks}{extra})"
    if isinstance(step, StreamDropped):
        where = f"block={step.block}, after_chars={step.after_chars}"
        return f"stream_dropped({turn_source(step.turn)}, {where})"
    if isinstance(step, CutOff):
        return f"cut_off({turn_source(step.turn)}, keep_chars={step.keep_chars})"
    return turn_source(step)


FAULT_CALLS = {StreamError: "stream_error", StreamDropped: "stream_dropped", CutOff: "cut_off"}


def dsl_names(case: Case) -> list[str]:
    """What the script's source calls from lab.model, sorted as ruff sorts imports."""
    names = {"turn"}
    for step in case.script:
        if isinstance(step, ApiError):
            names.add(step_source(step).split("(")[0])  # overloaded, rate_limited, ...
        elif type(step) in FAULT_CALLS:
            names.add(FAULT_CALLS[type(step)])
        if (played := turn_of(step)) is not None:
            names |= {block["type"] for block in played.blocks}
    return sorted(names)


def rules_source(rules: RuleSet) -> str:
    if rules.course:
        return "course_permissions()"
    deny = [literal(r) for r in rules.deny]
    if rules.deny_list:
        deny.append(f"*contains({', '.join(literal(n) for n in rules.deny_list)})")
    fields = {"deny": f"[{', '.join(deny)}]" if deny else None}
    fields["ask"] = literal(list(rules.ask)) if rules.ask else None
    fields["allow"] = literal(list(rules.allow)) if rules.allow else None
    fields["default"] = literal(rules.default) if rules.default != "allow" else None
    return "Permissions(" + ", ".join(f"{k}={v}" for k, v in fields.items() if v) + ")"


def experiment_id(switch: str) -> str:
    """The switch's first experiment id with an `h` for hunted: D1 -> D1h."""
    first = switch_info(switch)["experiments"].split(",")[0].strip()
    return first.rstrip("abcdefghijklmnopqrstuvwxyz") + "h"


def symptoms(before: Run, after: Run) -> dict[str, tuple[Any, Any]]:
    """Standard observables whose values differ between the reference and the degraded run."""
    found = {}
    for name, observe in STANDARD.items():
        pair = (observe(before), observe(after))
        if pair[0] != pair[1] and name != "ran_deny_listed":  # an alias of ran_denied_by_rule
            found[name] = pair
    return dict(list(found.items())[:MAX_EXTRA_OBSERVABLES])


def scenario_lines(case: Case) -> list[str]:
    lines = []
    if case.files:
        files = ", ".join(f"{literal(n)}: {literal(catalog.FILES[n])}" for n in case.files)
        lines.append(f"files={{{files}}},")
    if case.rules:
        lines.append(f"permissions={rules_source(case.rules)},")
    if isinstance(case.human, str):
        lines.append(f"human={case.human},")
    elif case.human:
        lines.append(f"human={literal(list(case.human))},")
    if case.hooks:
        lines.append(f"hooks=hooks({', '.join(literal(h) for h in case.hooks)}),")
    if case.tools:
        lines.append(f"tools=extra_tools({', '.join(literal(t) for t in case.tools)}),")
    if case.keep_last is not None:
        lines.append(f"keep_last={case.keep_last},")
    if case.stream:
        lines.append("stream=True,")
    if case.thinking:
        lines.append(f"thinking={THINKING_BUDGET},")
    lines.append("script=[")
    lines += [f"    {step_source(step)}," for step in case.script]
    if case.padding:
        final = step_source(case.script[-1])
        lines.append(f"    *[{final}] * {case.padding},  # asked again, the model repeats itself")
    lines.append("],")
    return lines


def imports(case: Case) -> list[str]:
    permissions = []
    if case.rules.course:
        permissions.append("course_permissions")
    elif case.rules:
        permissions.append("Permissions")
        if case.rules.deny_list:
            permissions.append("contains")
    from_catalog = [case.human] if isinstance(case.human, str) else []
    from_catalog += ["extra_tools"] * bool(case.tools) + ["hooks"] * bool(case.hooks)
    lines = ["from lab.chapter.experiment import Experiment"]
    if permissions:
        lines.append(f"from lab.harness.permissions import {', '.join(sorted(permissions))}")
    dsl = dsl_names(case)
    lines += [f"from lab.model import {', '.join(dsl)}", "from lab.kernel.scenario import Scenario"]
    if from_catalog:
        lines.append(f"from lab.testing.catalog import {', '.join(sorted(from_catalog))}")
    lines.append("from lab.testing.invariants import invariant_holds")
    return lines


def experiment_source(
    switch: str,
    invariant: Invariant,
    case: Case,
    reason: str,
    before: Run,
    after: Run,
    ident: str | None = None,
) -> str:
    """A ready-to-run experiment file: `lab run --dir <its folder>` reproduces it. Its id is
    `ident`, by default the switch's (`experiment_id`)."""
    value = not getattr(Switches(), switch)
    info = switch_info(switch)
    mechanism = info["mechanism"].split("/")[0]
    ident = ident or experiment_id(switch)
    # Every invariant the flip breaks here (the hunted one first), then the plain symptoms.
    broken_too = [inv for inv, _ in broken(after) if inv is not invariant and holds(inv, before)]
    names = [inv.name for inv in [invariant, *broken_too]]
    observables = "\n".join(f'        "{n}_holds": invariant_holds("{n}"),' for n in names)
    expect = {f"{n}_holds": (True, False) for n in names} | symptoms(before, after)
    indent = " " * 8
    body = "\n".join(indent + line for line in scenario_lines(case))
    expect_lines = "\n".join(f"        {literal(k)}: {literal(v)}," for k, v in expect.items())
    zh_takeaway = (
        f"hypothesis 自己找到并缩小的最小反例：关掉这道保护，「{invariant.zh}」就不再成立。"
    )
    return f'''"""{ident} · {mechanism}: found by `lab hunt {switch}`: {invariant.title} breaks.

{wrap(f"What broke: {reason}")}

{wrap(f"The promise: {invariant.promise}")}

{wrap(f"The fault ({switch}={value}): {info['fault']}")}
"""

{chr(10).join(imports(case))}

EXPERIMENT = Experiment(
    id={literal(ident)},
    mechanism={literal(mechanism)},
    title={{
        "en": {literal(f"Hunted: {invariant.title} breaks with {switch}={value}")},
        "zh": {literal(f"自动搜出：{switch}={value} 时「{invariant.zh}」被打破")},
    }},
    takeaway={{
        "en": {long_literal(invariant.promise, 8)},
        "zh": {literal(zh_takeaway)},
    }},
    flips={{{literal(switch)}: {value}}},
    scenario=Scenario(
{body}
    ),
    observables={{
{observables}
    }},
    expect={{
{expect_lines}
    }},
)
'''
