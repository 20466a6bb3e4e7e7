"""The shape of a Messages API request, declared once and judged with pydantic like the real API.

The real API judges a request body with pydantic and answers with pydantic's own words and
the dotted path of the first error, a tagged union's tag included:
`messages.0.content.1.text.text: Input should be a valid string`,
`tools.0.custom.input_schema: Field required`, `response_format: Extra inputs are not permitted`.
So the shapes below are pydantic types, and a problem is reported the same way.

Only what the lab reads is judged closely (the request's scalars and thinking configuration,
the messages, text, tool_use, tool_result, thinking, redacted_thinking, image and server_tool_use
blocks, custom tools). Every other block type, tool type and top-level field
that the installed SDK's (beta) param types declare is accepted as it comes: the fake must take
whatever a real client may send, and judge only what the lab needs.
"""

from typing import (
    TYPE_CHECKING,
    Annotated,
    Any,
    Literal,
    NotRequired,
    TypeAlias,
    get_args,
    get_type_hints,
)

import pydantic
from anthropic.types.beta import (
    BetaContentBlockParam,
    BetaToolResultBlockParam,
    BetaToolUnionParam,
    message_create_params,
)
from anthropic.types.beta.beta_system_message_param import ContentBlock as BetaSystemBlockParam
from pydantic import BeforeValidator, ConfigDict, Field, StrictBool, StrictInt, StrictStr
from typing_extensions import TypedDict, is_typeddict

# ---------------------------------------------------------------- what the SDK declares


def _tags(union: object) -> tuple[str, ...]:
    """The `type` tags of one of the SDK's unions, in order: its param TypedDicts, and the
    response models it also takes (a nested, annotated union)."""
    tags: dict[str, None] = {}
    for member in get_args(union):
        if is_typeddict(member):
            tag = get_type_hints(member)["type"]
        elif isinstance(member, type) and issubclass(member, pydantic.BaseModel):
            tag = member.model_fields["type"].annotation
        else:  # Annotated[Union[...], ...]
            tags.update(dict.fromkeys(_tags(get_args(member)[0])))
            continue
        tags.update(dict.fromkeys(t for t in get_args(tag) if isinstance(t, str)))
    return tuple(tags)


BLOCK_TYPES = _tags(BetaContentBlockParam)  # in a user or assistant message
SYSTEM_BLOCK_TYPES = _tags(BetaSystemBlockParam)  # in a role "system" message
_RESULT_LIST = get_args(get_type_hints(BetaToolResultBlockParam)["content"])[1]  # Iterable[Union]
RESULT_BLOCK_TYPES = _tags(get_args(_RESULT_LIST)[0])  # in a tool_result's content
TOOL_TYPES = _tags(BetaToolUnionParam)  # "custom" included

# Every top-level field the SDK's beta `messages.create` sends, plus the sampling fields older
# clients still send (SDK 2.16 declares none of them; the API accepted them for years).
# `betas` is not one: the SDK turns it into the `anthropic-beta` header.
KNOWN_FIELDS = (
    set(message_create_params.MessageCreateParamsStreaming.__annotations__) - {"betas"}
) | {"temperature", "top_k", "top_p"}


def _others(tags: tuple[str, ...], *judged: str) -> Any:
    """The Literal of the tags the lab does not judge."""
    return Literal[tuple(t for t in tags if t not in judged)]


# The block types judged closely below; every other type the SDK declares passes on its tag.
JUDGED_BLOCKS = (
    *("text", "tool_use", "tool_result", "thinking", "redacted_thinking", "image"),
    "server_tool_use",
)

if TYPE_CHECKING:  # the Literals are read off the installed SDK: a checker sees a tag
    OtherBlockType: TypeAlias = str
    OtherSystemBlockType: TypeAlias = str
    OtherResultBlockType: TypeAlias = str
    OtherToolType: TypeAlias = str
else:
    OtherBlockType = _others(BLOCK_TYPES, *JUDGED_BLOCKS)
    OtherSystemBlockType = _others(SYSTEM_BLOCK_TYPES, "text")
    OtherResultBlockType = _others(RESULT_BLOCK_TYPES, "text", "image")
    OtherToolType = _others(TOOL_TYPES, "custom")


# ---------------------------------------------------------------- the judged shapes

STRICT = ConfigDict(extra="forbid")  # the real API refuses keys a shape does not declare
OPEN = ConfigDict(extra="allow")  # a shape the lab does not judge beyond its tag


def _text_shorthand(value: object) -> object:
    # A string stands for one text block, wherever the API takes a list of blocks.
    return [{"type": "text", "text": value}] if isinstance(value, str) else value


# The real API's patterns, as its pydantic answers quote them (docs/api-rules.md).
TOOL_NAME_PATTERN = "^[a-zA-Z0-9_-]{1,128}$"
TOOL_USE_ID_PATTERN = "^[a-zA-Z0-9_-]+$"
SERVER_TOOL_USE_ID_PATTERN = "^srvtoolu_[a-zA-Z0-9_]+$"
ToolName = Annotated[StrictStr, Field(max_length=128, pattern=TOOL_NAME_PATTERN)]
ToolUseId = Annotated[StrictStr, Field(pattern=TOOL_USE_ID_PATTERN)]
ServerToolUseId = Annotated[StrictStr, Field(pattern=SERVER_TOOL_USE_ID_PATTERN)]
# The image types the API reads (pydantic's Literal error lists them as the real answer does).
ImageMediaType = Literal["image/jpeg", "image/png", "image/gif", "image/webp"]
Unit = Annotated[float, Field(ge=0, le=1)]  # temperature and top_p
# Not an object: pydantic's own "Input should be a valid dictionary" (null is declared optional).
CacheControl = dict[str, object] | None


def _custom_tool(value: object) -> object:
    # A tool without a `type` (or with `type: null`) is a custom tool.
    if isinstance(value, dict) and value.get("type") is None:
        return {**value, "type": "custom"}
    return value


@pydantic.with_config(STRICT)
class TextBlock(TypedDict):
    type: Literal["text"]
    text: StrictStr
    cache_control: NotRequired[CacheControl]
    citations: NotRequired[object]


@pydantic.with_config(STRICT)
class ToolUseBlock(TypedDict):
    type: Literal["tool_use"]
    id: ToolUseId
    name: StrictStr
    input: dict[str, object]
    cache_control: NotRequired[CacheControl]
    caller: NotRequired[object]
    toolset_name: NotRequired[object]


@pydantic.with_config(STRICT)
class ThinkingBlock(TypedDict):
    type: Literal["thinking"]
    thinking: StrictStr
    signature: StrictStr


@pydantic.with_config(STRICT)
class RedactedThinkingBlock(TypedDict):
    type: Literal["redacted_thinking"]
    data: StrictStr


@pydantic.with_config(STRICT)
class ServerToolUseBlock(TypedDict):
    type: Literal["server_tool_use"]
    id: ServerToolUseId
    name: StrictStr
    input: dict[str, object]
    cache_control: NotRequired[CacheControl]
    caller: NotRequired[object]


@pydantic.with_config(STRICT)
class Base64Source(TypedDict):
    type: Literal["base64"]
    media_type: ImageMediaType
    data: StrictStr


@pydantic.with_config(OPEN)
class OtherImageSource(TypedDict):
    type: Literal["url", "file"]


@pydantic.with_config(STRICT)
class ImageBlock(TypedDict):
    type: Literal["image"]
    source: Annotated[Base64Source | OtherImageSource, Field(discriminator="type")]
    cache_control: NotRequired[CacheControl]
    transformations: NotRequired[object]


@pydantic.with_config(OPEN)
class OtherResultBlock(TypedDict):
    type: OtherResultBlockType


ResultContent = Annotated[
    list[Annotated[TextBlock | ImageBlock | OtherResultBlock, Field(discriminator="type")]],
    BeforeValidator(_text_shorthand),
]


@pydantic.with_config(STRICT)
class ToolResultBlock(TypedDict):
    type: Literal["tool_result"]
    tool_use_id: StrictStr
    content: NotRequired[ResultContent]
    is_error: NotRequired[StrictBool]
    cache_control: NotRequired[CacheControl]
    toolset_name: NotRequired[object]


@pydantic.with_config(OPEN)
class OtherBlock(TypedDict):
    type: OtherBlockType


@pydantic.with_config(OPEN)
class OtherSystemBlock(TypedDict):
    type: OtherSystemBlockType


Block = (
    TextBlock
    | ToolUseBlock
    | ToolResultBlock
    | ThinkingBlock
    | RedactedThinkingBlock
    | ImageBlock
    | ServerToolUseBlock
    | OtherBlock
)
Content = Annotated[
    list[Annotated[Block, Field(discriminator="type")]], BeforeValidator(_text_shorthand)
]
SystemContent = Annotated[
    list[Annotated[TextBlock | OtherSystemBlock, Field(discriminator="type")]],
    BeforeValidator(_text_shorthand),
]


@pydantic.with_config(OPEN)
class Role(TypedDict):
    role: Literal["user", "assistant", "system"]


@pydantic.with_config(STRICT)
class ChatMessage(TypedDict):
    role: Literal["user", "assistant"]
    content: Content


@pydantic.with_config(STRICT)
class SystemMessage(TypedDict):
    """A mid-conversation system message (SDK 2.16 `SystemMessageParam` and its beta)."""

    role: Literal["system"]
    content: NotRequired[SystemContent]
    clear_at: NotRequired[Literal["next_user_message", "never"] | None]
    output_config: NotRequired[dict[str, object] | None]


@pydantic.with_config(OPEN)
class InputSchema(TypedDict):
    type: Literal["object"]


@pydantic.with_config(STRICT)
class CustomTool(TypedDict):
    type: Literal["custom"]
    name: ToolName
    input_schema: InputSchema
    description: NotRequired[StrictStr]
    allowed_callers: NotRequired[object]
    cache_control: NotRequired[CacheControl]
    defer_loading: NotRequired[object]
    eager_input_streaming: NotRequired[object]
    input_examples: NotRequired[object]
    strict: NotRequired[object]


@pydantic.with_config(OPEN)
class OtherTool(TypedDict):
    type: OtherToolType


Tool = Annotated[
    Annotated[CustomTool | OtherTool, Field(discriminator="type")], BeforeValidator(_custom_tool)
]


@pydantic.with_config(STRICT)
class ToolChoiceAutoOrAny(TypedDict):
    type: Literal["auto", "any"]
    disable_parallel_tool_use: NotRequired[StrictBool]


@pydantic.with_config(STRICT)
class ToolChoiceTool(TypedDict):
    type: Literal["tool"]
    name: StrictStr
    disable_parallel_tool_use: NotRequired[StrictBool]


@pydantic.with_config(STRICT)
class ToolChoiceNone(TypedDict):
    type: Literal["none"]


@pydantic.with_config(STRICT)
class ThinkingEnabled(TypedDict):
    type: Literal["enabled"]
    budget_tokens: Annotated[StrictInt, Field(ge=1024)]
    display: NotRequired[Literal["summarized", "omitted"] | None]


@pydantic.with_config(STRICT)
class ThinkingAdaptive(TypedDict):
    type: Literal["adaptive"]
    display: NotRequired[Literal["summarized", "omitted"] | None]


@pydantic.with_config(STRICT)
class ThinkingDisabled(TypedDict):
    type: Literal["disabled"]


Thinking = Annotated[
    ThinkingEnabled | ThinkingAdaptive | ThinkingDisabled, Field(discriminator="type")
]


@pydantic.with_config(STRICT)
class ThreadCreate(TypedDict):
    type: Literal["create"]


@pydantic.with_config(STRICT)
class ThreadContinue(TypedDict):
    type: Literal["continue"]
    previous_message_id: StrictStr


@pydantic.with_config(OPEN)  # every other field the SDK declares is checked by name below
class Request(TypedDict):
    model: StrictStr
    max_tokens: Annotated[StrictInt, Field(ge=1)]
    messages: list[object]  # each message is judged on its own: see `message_problem`
    system: NotRequired[Annotated[list[TextBlock], BeforeValidator(_text_shorthand)]]
    tools: NotRequired[list[Tool]]
    tool_choice: NotRequired[
        Annotated[
            ToolChoiceAutoOrAny | ToolChoiceTool | ToolChoiceNone, Field(discriminator="type")
        ]
    ]
    stream: NotRequired[StrictBool]
    metadata: NotRequired[dict[str, object] | None]
    stop_sequences: NotRequired[list[StrictStr]]
    thread: NotRequired[
        Annotated[ThreadCreate | ThreadContinue, Field(discriminator="type")] | None
    ]
    thinking: NotRequired[Thinking | None]
    temperature: NotRequired[Unit]
    top_p: NotRequired[Unit]
    top_k: NotRequired[StrictInt]


REQUEST = pydantic.TypeAdapter(Request)
ROLE = pydantic.TypeAdapter(Role)
MESSAGE_BY_ROLE: dict[str, pydantic.TypeAdapter[Any]] = {
    "user": pydantic.TypeAdapter(ChatMessage),
    "assistant": pydantic.TypeAdapter(ChatMessage),
    "system": pydantic.TypeAdapter(SystemMessage),
}

# ---------------------------------------------------------------- judging


def _first_error(adapter: pydantic.TypeAdapter, value: object, *where: str | int) -> str | None:
    """`path: message` of the first problem pydantic finds, or None; `where` prefixes the path."""
    try:
        adapter.validate_python(value)
    except pydantic.ValidationError as error:
        first = error.errors(include_url=False)[0]
        return ".".join(str(part) for part in (*where, *first["loc"])) + ": " + first["msg"]
    return None


def body_problem(body: dict[str, Any]) -> str | None:
    """The first problem of the body's own fields (each message is judged apart), or None."""
    problem = _first_error(REQUEST, body)
    if problem:
        return problem
    unknown = next((name for name in body if name not in KNOWN_FIELDS), None)
    if unknown:
        return f"{unknown}: Extra inputs are not permitted"
    names = [tool["name"] for tool in body.get("tools", []) if isinstance(tool.get("name"), str)]
    return "tools: Tool names must be unique." if len(names) != len(set(names)) else None


def message_problem(n: int, message: Any) -> str | None:
    """The first shape problem of `messages[n]`, or None: its role, then the shape of that role."""
    return _first_error(ROLE, message, "messages", n) or _first_error(
        MESSAGE_BY_ROLE[message["role"]], message, "messages", n
    )
