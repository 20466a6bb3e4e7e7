"""The request's rules beyond its shape: headers, tool schemas, thinking and sampling settings.

Each rule is one row of a table: a function that reads the request and returns the real API's
text when the rule is broken, else None. The first broken row wins, in table order:

  HEADER_RULES   the `anthropic-version` and `anthropic-beta` headers, judged only when the
                 request carries credentials (an API key or a bearer token): the SDK always sends
                 both correctly, and a bare request (a fuzz frame, a health probe) is not a client;
  BODY_RULES     the body's own fields, once their shapes passed (`request_shape.body_problem`);
  HISTORY_RULES  the body with what the history walk found (`validation.HistoryCheck`): tool
                 blocks without tools, and the count of cache breakpoints.

The texts and their public sources are listed in docs/api-rules.md.
"""

from __future__ import annotations

import marshal
import re
from collections.abc import Callable, Mapping
from typing import Any, get_args

from anthropic.types.anthropic_beta_param import AnthropicBetaParam

from lab.kernel.schema import jsonschema

Body = dict[str, Any]
Headers = Mapping[str, str]

# ---------------------------------------------------------------- headers

# A version is a date. The fake cannot know every date the API takes (each SDK release sends
# its own: anthropic 2.16 sends 2026-10-21), so it refuses only what is not a date at all.
VERSION = re.compile(r"\d{4}-\d{2}-\d{2}")
# The beta names the installed SDK declares. The API knows more (Claude Code sends
# `claude-code-20250219`, which no SDK declares), so a name the SDK does not declare is refused
# only when it is no beta name at all: a feature's name ending in its date.
KNOWN_BETAS = frozenset(v for v in get_args(get_args(AnthropicBetaParam)[1]) if isinstance(v, str))
BETA_NAME = re.compile(r"[a-z][a-z0-9-]*-\d{4}-?\d{2}-?\d{2}")
DOCS_HINT = (
    "Please consult our documentation at docs.anthropic.com or try again without the header."
)


def has_credentials(headers: Headers) -> bool:
    return "x-api-key" in headers or "authorization" in headers


def _version(headers: Headers) -> str | None:
    version = headers.get("anthropic-version")
    if version is None:
        return "anthropic-version: header is required"
    if not VERSION.fullmatch(version):
        return f'anthropic-version: "{version}" is not a valid version'
    return None


def _betas(headers: Headers) -> str | None:
    names = [n.strip() for n in headers.get("anthropic-beta", "").split(",") if n.strip()]
    unknown = [n for n in names if n not in KNOWN_BETAS and not BETA_NAME.fullmatch(n)]
    if not unknown:
        return None
    listed = ", ".join(f"`{name}`" for name in unknown)
    return f"Unexpected value(s) {listed} for the `anthropic-beta` header. {DOCS_HINT}"


HEADER_RULES: tuple[Callable[[Headers], str | None], ...] = (_version, _betas)


def header_problem(headers: Headers) -> str | None:
    """The first broken header rule of a request with credentials, or None."""
    if not has_credentials(headers):
        return None
    return next(filter(None, (rule(headers) for rule in HEADER_RULES)), None)


# ---------------------------------------------------------------- the body's fields

SCHEMA_TEXT = (
    "JSON schema is invalid. It must match JSON Schema draft 2020-12 "
    "(https://json-schema.org/draft/2020-12). Learn more about tool use at "
    "https://docs.anthropic.com/en/docs/tool-use."
)
BUDGET_TEXT = (
    "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our "
    "documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking"
    "#max-tokens-and-context-window-size"
)
TEMPERATURE_TEXT = (
    "`temperature` may only be set to 1 when thinking is enabled. Please consult our "
    "documentation at https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking"
    "#important-considerations-when-using-extended-thinking"
)
FORCED_TOOL_TEXT = "Thinking may not be enabled when tool_choice forces tool use."
SAMPLING_TEXT = (
    "`temperature` and `top_p` cannot both be specified for this model. Please use only one."
)
SCHEMA_VERDICTS: dict[bytes, bool] = {}  # a schema's bytes -> valid: harnesses resend their tools
SCHEMA_MEMORY = 4096  # schemas remembered before the memory starts over


def thinking_mode(body: Body) -> str:
    """The request's thinking: "enabled" (a budget), "adaptive" or "disabled"."""
    return (body.get("thinking") or {}).get("type", "disabled")


def thinking_on(body: Body) -> bool:
    """Whether the request turns extended thinking on (a budget, or adaptive)."""
    return thinking_mode(body) in ("enabled", "adaptive")


def thinking_budget(body: Body) -> bool:
    """Whether the request gives thinking a budget: every answer then starts with thinking.
    (Adaptive thinking lets the model answer without: the API cannot demand it back.)"""
    return thinking_mode(body) == "enabled"


def _valid_schema(schema: Any) -> bool:
    key = marshal.dumps(schema)
    if key not in SCHEMA_VERDICTS:
        # Imported on first use (lab/kernel/schema.py): jsonschema costs startup, and most requests
        # reuse a known schema.
        validators = jsonschema()
        if len(SCHEMA_VERDICTS) >= SCHEMA_MEMORY:
            SCHEMA_VERDICTS.clear()
        try:
            validators.Draft202012Validator.check_schema(schema)
            SCHEMA_VERDICTS[key] = True
        except validators.exceptions.SchemaError:
            SCHEMA_VERDICTS[key] = False
    return SCHEMA_VERDICTS[key]


def _schemas(body: Body, counting: bool) -> str | None:
    for n, tool in enumerate(body.get("tools") or []):
        custom = tool.get("type") in (None, "custom")
        if custom and not _valid_schema(tool["input_schema"]):
            return f"tools.{n}.custom.input_schema: {SCHEMA_TEXT}"
    return None


def _budget(body: Body, counting: bool) -> str | None:
    thinking = body.get("thinking") or {}
    if counting or thinking.get("type") != "enabled":
        return None  # a token count has no max_tokens
    return BUDGET_TEXT if body["max_tokens"] <= thinking["budget_tokens"] else None


def _temperature(body: Body, counting: bool) -> str | None:
    temperature = body.get("temperature")
    if thinking_on(body) and temperature is not None and temperature != 1:
        return TEMPERATURE_TEXT
    return None


def _forced_tool(body: Body, counting: bool) -> str | None:
    forced = (body.get("tool_choice") or {}).get("type") in ("any", "tool")
    return FORCED_TOOL_TEXT if thinking_on(body) and forced else None


def _sampling(body: Body, counting: bool) -> str | None:
    # The fake plays a current model: every Claude model since Opus 4.1 refuses both.
    both = body.get("temperature") is not None and body.get("top_p") is not None
    return SAMPLING_TEXT if both else None


BODY_RULES: tuple[Callable[[Body, bool], str | None], ...] = (
    _schemas,
    _budget,
    _temperature,
    _forced_tool,
    _sampling,
)


def body_rule_problem(body: Body, *, counting: bool = False) -> str | None:
    """The first broken rule of a body whose shape passed, or None (`counting`: a token count,
    which carries no `max_tokens`)."""
    return next(filter(None, (rule(body, counting) for rule in BODY_RULES)), None)


# ---------------------------------------------------------------- the body with its history

TOOLS_TEXT = "Requests which include tool_use or tool_result blocks must define tools."
MAX_BREAKPOINTS = 4


def _cache_marks(blocks: object) -> int:
    """Blocks of a list (the system prompt, the tools) that carry a cache_control."""
    if not isinstance(blocks, list):
        return 0
    return sum(1 for b in blocks if isinstance(b, dict) and b.get("cache_control") is not None)


def _tools_defined(body: Body, tool_blocks: bool, marks: int) -> str | None:
    return TOOLS_TEXT if tool_blocks and not body.get("tools") else None


def _breakpoints(body: Body, tool_blocks: bool, marks: int) -> str | None:
    found = marks + _cache_marks(body.get("system")) + _cache_marks(body.get("tools"))
    if found <= MAX_BREAKPOINTS:
        return None
    return (
        f"A maximum of {MAX_BREAKPOINTS} blocks with cache_control may be provided. Found {found}."
    )


HISTORY_RULES: tuple[Callable[[Body, bool, int], str | None], ...] = (
    _tools_defined,
    _breakpoints,
)


def history_rule_problem(body: Body, tool_blocks: bool, marks: int) -> str | None:
    """The first broken rule that needs both the body and its history: `tool_blocks`, whether the
    messages hold a tool_use or tool_result block; `marks`, their blocks with a cache_control."""
    rules = (rule(body, tool_blocks, marks) for rule in HISTORY_RULES)
    return next(filter(None, rules), None)
