"""The Chat Completions request rules: what the real API refuses, with its status, type, param,
code and text (docs/api-rules.md, "The Chat Completions wire", lists each with its source).

Each rule is one row of a table: a function that reads the request and returns a ChatError when
the rule is broken, else None; the first broken row wins, in table order (BODY_RULES, then the
messages one by one, then the pairing of `tool` messages to `tool_calls`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

Body = dict[str, Any]


@dataclass(frozen=True)
class ChatError:
    """One error answer of the Chat Completions API."""

    status: int
    message: str
    type: str = "invalid_request_error"
    param: str | None = None
    code: str | None = None

    def body(self) -> dict:
        """The API's error body: `{"error": {"message", "type", "param", "code"}}`."""
        error = {"message": self.message, "type": self.type, "param": self.param}
        return {"error": {**error, "code": self.code}}


# ---------------------------------------------------------------- the texts

JSON_TEXT = (
    "We could not parse the JSON body of your request. (HINT: This likely means you aren't "
    "using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent "
    "was not valid JSON. If you have trouble figuring out how to fix this, please contact us "
    "through our help center at help.openai.com.)"
)
NO_KEY_TEXT = (
    "You didn't provide an API key. You need to provide your API key in an Authorization header "
    "using Bearer auth (i.e. Authorization: Bearer YOUR_KEY), or as the password field (with "
    "blank username) if you're accessing the API from your browser and are prompted for a "
    "username and password. You can obtain an API key from "
    "https://platform.openai.com/account/api-keys."
)
UNANSWERED_TEXT = (
    "An assistant message with 'tool_calls' must be followed by tool messages responding to "
    "each 'tool_call_id'. The following tool_call_ids did not have response messages: {ids}"
)
ORPHAN_TEXT = (
    "Invalid parameter: messages with role 'tool' must be a response to a preceeding message "
    "with 'tool_calls'."
)
NO_CALL_ID_TEXT = (
    "Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'."
)
UNKNOWN_CALL_TEXT = (
    "Invalid parameter: 'tool_call_id' of '{id}' not found in 'tool_calls' of previous message."
)
TOOL_NAME_PATTERN = "^[a-zA-Z0-9_-]+$"
TOOL_NAME = re.compile(TOOL_NAME_PATTERN)
TOOL_NAME_MAX = 64
MAX_OUTPUT_TOKENS = 16384  # what the lab model supports, as gpt-4o does
ROLES = ("system", "assistant", "user", "function", "tool", "developer")
KNOWN_FIELDS = frozenset(
    "model messages max_tokens max_completion_tokens stream stream_options tools tool_choice "
    "parallel_tool_calls temperature top_p n stop presence_penalty frequency_penalty logit_bias "
    "logprobs top_logprobs response_format seed user metadata store service_tier "
    "reasoning_effort modalities audio prediction web_search_options verbosity "
    "prompt_cache_key safety_identifier function_call functions".split()
)
JSON_NAMES = {
    bool: "a boolean",
    int: "an integer",
    float: "a decimal",
    str: "a string",
    list: "an array",
    dict: "an object",
    type(None): "null",
}


def _json_name(value: object) -> str:
    return JSON_NAMES.get(type(value), "an unknown value")


_MISSING = "missing_required_parameter"


def _missing(param: str) -> ChatError:
    return ChatError(400, f"Missing required parameter: '{param}'.", param=param, code=_MISSING)


def _wrong_type(param: str, expected: str, value: object) -> ChatError:
    text = f"Invalid type for '{param}': expected {expected}, but got {_json_name(value)} instead."
    return ChatError(400, text, param=param, code="invalid_type")


# ---------------------------------------------------------------- the wire a client speaks


def speaks_chat(headers: Mapping[str, str]) -> bool:
    """Whether a client speaks this wire: a bearer token and none of the Messages wire's
    headers (`anthropic-version`, `x-api-key`)."""
    if "anthropic-version" in headers or "x-api-key" in headers:
        return False
    return headers.get("authorization", "").lower().startswith("bearer ")


# ---------------------------------------------------------------- the body's fields


def _model(body: Body) -> ChatError | None:
    if "model" not in body:  # the real text names no param
        return ChatError(400, "you must provide a model parameter")
    if not isinstance(body["model"], str):
        return _wrong_type("model", "a string", body["model"])
    return None


def _unknown_field(body: Body) -> ChatError | None:
    unknown = [key for key in body if key not in KNOWN_FIELDS]
    if unknown:
        return ChatError(400, f"Unrecognized request argument supplied: {unknown[0]}")
    return None


def _messages(body: Body) -> ChatError | None:
    if "messages" not in body:
        return _missing("messages")
    messages = body["messages"]
    if not isinstance(messages, list):
        return _wrong_type("messages", "an array of objects", messages)
    if not messages:
        text = (
            "Invalid 'messages': empty array. Expected an array with minimum length 1, "
            "but got an empty array instead."
        )
        return ChatError(400, text, param="messages", code="empty_array")
    return None


def _token_limit(name: str) -> Callable[[Body], ChatError | None]:
    def rule(body: Body) -> ChatError | None:
        value = body.get(name)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            return _wrong_type(name, "an integer", value)
        if value < 1:
            text = (
                f"Invalid '{name}': integer below minimum value. Expected a value >= 1, "
                f"but got {value} instead."
            )
            return ChatError(400, text, param=name, code="integer_below_min_value")
        if value > MAX_OUTPUT_TOKENS:
            text = (
                f"{name} is too large: {value}. This model supports at most "
                f"{MAX_OUTPUT_TOKENS} completion tokens, whereas you provided {value}."
            )
            return ChatError(400, text, param=name)
        return None

    rule.__name__ = f"_{name}"
    return rule


def _both_limits(body: Body) -> ChatError | None:
    if body.get("max_tokens") is not None and body.get("max_completion_tokens") is not None:
        text = (
            "max_tokens and max_completion_tokens cannot both be set. "
            "Please use max_completion_tokens."
        )
        return ChatError(400, text, param="max_tokens", code="invalid_request_error")
    return None


# Fields judged only by their JSON type (the others the rules below judge, or the fake ignores).
FIELD_TYPES: dict[str, tuple[type | tuple[type, ...], str]] = {
    "stream": (bool, "a boolean"),
    "stream_options": (dict, "an object"),
    "parallel_tool_calls": (bool, "a boolean"),
    "temperature": ((int, float), "a decimal"),
    "top_p": ((int, float), "a decimal"),
}


def _field_types(body: Body) -> ChatError | None:
    for name, (kind, expected) in FIELD_TYPES.items():
        value = body.get(name)
        wrong_bool = isinstance(value, bool) and kind is not bool
        if value is not None and (wrong_bool or not isinstance(value, kind)):
            return _wrong_type(name, expected, value)
    return None


def _stream_options(body: Body) -> ChatError | None:
    if body.get("stream_options") is not None and not body.get("stream"):
        text = "The 'stream_options' parameter is only allowed when 'stream' is enabled."
        return ChatError(400, text, param="stream_options")
    return None


def _tools(body: Body) -> ChatError | None:
    tools = body.get("tools")
    if tools is None:
        return None
    if not isinstance(tools, list):
        return _wrong_type("tools", "an array of objects", tools)
    for n, tool in enumerate(tools):
        where = f"tools[{n}]"
        if not isinstance(tool, dict):
            return _wrong_type(where, "an object", tool)
        function = tool.get("function")
        if function is None:
            return _missing(f"{where}.function")
        if not isinstance(function, dict):
            return _wrong_type(f"{where}.function", "an object", function)
        problem = _name_problem(f"{where}.function.name", function.get("name"))
        if problem:
            return problem
    return None


def _name_problem(param: str, name: object) -> ChatError | None:
    if name is None:
        return _missing(param)
    if not isinstance(name, str):
        return _wrong_type(param, "a string", name)
    if len(name) > TOOL_NAME_MAX:
        text = (
            f"Invalid '{param}': string too long. Expected a string with maximum length "
            f"{TOOL_NAME_MAX}, but got a string with length {len(name)} instead."
        )
        return ChatError(400, text, param=param, code="string_above_max_length")
    if not TOOL_NAME.match(name):
        text = (
            f"Invalid '{param}': string does not match pattern. Expected a string that matches "
            f"the pattern '{TOOL_NAME_PATTERN}'."
        )
        return ChatError(400, text, param=param, code="invalid_value")
    return None


BODY_RULES: tuple[Callable[[Body], ChatError | None], ...] = (
    _model,
    _messages,
    _unknown_field,
    _token_limit("max_tokens"),
    _token_limit("max_completion_tokens"),
    _both_limits,
    _field_types,
    _stream_options,
    _tools,
)


# ---------------------------------------------------------------- one message


def message_problem(n: int, message: object) -> ChatError | None:
    """The first thing wrong with message `n` on its own (its shape, role and content)."""
    where = f"messages[{n}]"
    if not isinstance(message, dict):
        return _wrong_type(where, "an object", message)
    role = message.get("role")
    if role is None:
        return _missing(f"{where}.role")
    if not isinstance(role, str):
        return _wrong_type(f"{where}.role", "a string", role)
    if role not in ROLES:
        supported = ", ".join(f"'{r}'" for r in ROLES[:-1]) + f", and '{ROLES[-1]}'"
        text = f"Invalid value: '{role}'. Supported values are: {supported}."
        return ChatError(400, text, param=f"{where}.role", code="invalid_value")
    content = message.get("content")
    if content is None and role != "assistant":
        return _missing(f"{where}.content")
    if content is not None and not isinstance(content, str | list):
        expected = "one of a string or array of objects"
        return _wrong_type(f"{where}.content", expected, content)
    if role == "tool" and not isinstance(message.get("tool_call_id"), str):
        return ChatError(400, NO_CALL_ID_TEXT, param=f"messages.[{n}].tool_call_id")
    if role == "assistant":
        return _calls_problem(where, message.get("tool_calls"))
    return None


def _calls_problem(where: str, calls: object) -> ChatError | None:
    if calls is None:
        return None
    if not isinstance(calls, list):
        return _wrong_type(f"{where}.tool_calls", "an array of objects", calls)
    for k, call in enumerate(calls):
        at = f"{where}.tool_calls[{k}]"
        if not isinstance(call, dict):
            return _wrong_type(at, "an object", call)
        if not isinstance(call.get("id"), str):
            return _missing(f"{at}.id")
        function = call.get("function")
        if not isinstance(function, dict):
            return _missing(f"{at}.function")
        problem = _name_problem(f"{at}.function.name", function.get("name"))
        if problem:
            return problem
        if not isinstance(function.get("arguments"), str):
            return _missing(f"{at}.function.arguments")
    return None


# ---------------------------------------------------------------- the pairing


def pairing_problem(messages: list[dict]) -> ChatError | None:
    """Every call of an assistant message is answered by the `tool` messages right after it,
    and a `tool` message answers a call of the assistant message right before its run."""
    calls: list[str] = []  # the calls of the assistant message the current tool run answers
    answered: set[str] = set()
    in_run = False  # inside the run of tool messages that follows an assistant's calls
    for n, message in enumerate(messages):
        role = message["role"]
        if role == "tool":
            if not in_run:
                return ChatError(400, ORPHAN_TEXT, param=f"messages.[{n}].role")
            if message["tool_call_id"] not in calls:
                text = UNKNOWN_CALL_TEXT.format(id=message["tool_call_id"])
                return ChatError(400, text, param=f"messages.[{n}].tool_call_id")
            answered.add(message["tool_call_id"])
            continue
        problem = _unanswered(calls, answered, n)
        if problem:
            return problem
        calls = [c["id"] for c in message.get("tool_calls") or []] if role == "assistant" else []
        answered, in_run = set(), bool(calls)
    return _unanswered(calls, answered, len(messages))


def _unanswered(calls: list[str], answered: set[str], n: int) -> ChatError | None:
    missing = [c for c in calls if c not in answered]
    if not missing:
        return None
    text = UNANSWERED_TEXT.format(ids=", ".join(missing))
    return ChatError(400, text, param=f"messages.[{n}].role")


# ---------------------------------------------------------------- the whole request


def request_problem(body: Body) -> ChatError | None:
    """The first rule `body` (a JSON object) breaks, or None."""
    for rule in BODY_RULES:
        problem = rule(body)
        if problem:
            return problem
    for n, message in enumerate(body["messages"]):
        problem = message_problem(n, message)
        if problem:
            return problem
    return pairing_problem(body["messages"])
