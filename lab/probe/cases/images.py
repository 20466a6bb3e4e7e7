"""The case of a tool that returns an image (P26): its result goes back as an image the API takes.

The probe asks the program for a tool `read_image(path)` that returns an image file as an image
(LAB_PROBE_IMAGE_TOOL=1), puts a small PNG in the working folder and calls the tool on it. Its
bytes are the canary: seen in a later request as an image, the call ran and its image came back.
A program that offers no such tool reads n/a (the script then answers without calling it).
Anthropic wire only: the image block inside a tool_result is the Messages API's.
"""

from __future__ import annotations

import base64
import struct
import zlib

from lab.kernel.record import blocks_in
from lab.model.script import text, tool_use, turn
from lab.probe.cases.endings import ended_badly, rejected, the_end
from lab.probe.conversation import IMAGE_TOOL, Stage, offered_names
from lab.probe.grades import FAIL, INFO, NA, NON_STRICT
from lab.probe.scripts import final_turn, finish, ids
from lab.probe.trial import Exchange, Setting, Trial
from lab.probe.verdict import Case, Rule
from lab.probe.which_wire import CHAT

IMAGE_ASKED = (("LAB_PROBE_IMAGE_TOOL", "1"),)
PICTURE = "notes.png"


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width: int = 2, height: int = 2) -> bytes:
    """A small valid PNG (8-bit greyscale, a gradient): real bytes a decoder accepts."""
    rows = b"".join(
        b"\x00" + bytes((x * 97 + y * 41) % 256 for x in range(width)) for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


IMAGE = png()
DATA = base64.b64encode(IMAGE).decode()


def look_at_picture(setting: Setting) -> list[Stage]:
    (call,) = ids(setting, 1)
    look = turn(
        text("I will look at the picture."), tool_use(IMAGE_TOOL, {"path": PICTURE}, id=call)
    )
    return [Stage(look, needs="image tool", instead=final_turn(setting)), finish(setting)]


# ---------------------------------------------------------------- where the image came back
def images_in(blocks: list) -> list[dict]:
    """The image blocks of a content list, inside tool_results too."""
    found = []
    for block in blocks:
        if not isinstance(block, dict):
            continue
        if block.get("type") == "image":
            found.append(block)
        inner = block.get("content") if block.get("type") == "tool_result" else None
        found += images_in(inner) if isinstance(inner, list) else []
    return found


def ours(image: dict) -> bool:
    source = image.get("source")
    return isinstance(source, dict) and source.get("data") == DATA


def result_of(trial: Trial) -> tuple[Exchange | None, dict | None]:
    """(the request after the call, the call's tool_result in it)."""
    (call,) = trial.stage_ids(0)
    after = trial.reached(1)
    found = next(((e, b) for e, b in trial.results(call)), None)
    return (found[0], found[1]) if found else (after, None)


def no_image_tool(trial: Trial) -> str | None:
    offered = any(
        IMAGE_TOOL in offered_names(e.body.get("tools"))
        for e in trial.conversation()
        if isinstance(e.body, dict)
    )
    return (
        None if offered else f"the program offers no {IMAGE_TOOL} tool (nothing returns an image)"
    )


def image_lost(trial: Trial) -> str | None:
    """The picture's bytes came back as an image somewhere in the request after the call."""
    after, _ = result_of(trial)
    if after is None:
        return None  # the run ended before: ended_badly says how
    seen = [i for m in after.messages for i in images_in(blocks_in(m)) if ours(i)]
    return None if seen else "the picture never came back as an image (text only, or nothing)"


def image_beside_result(trial: Trial) -> str | None:
    """The picture came back, but beside the tool_result, not inside it."""
    _, result = result_of(trial)
    inside = result is not None and any(ours(i) for i in images_in([result]))
    return None if inside else "the picture came back as an image beside the tool_result"


def image_evidence(trial: Trial) -> list:
    after, result = result_of(trial)
    return [trial.quoted(after), *the_end(trial)]


IMAGE_CASES: list[Case] = [
    Case(
        id="P26",
        title="an image from a tool",
        checks="API: a tool_result may hold image blocks (base64 jpeg, png, gif or webp); the "
        "image a tool returns goes back as one",
        kept_when="the call's tool_result holds the picture as an image block the API takes, "
        "and the run completes",
        script=look_at_picture,
        rules=(
            Rule(no_image_tool, NA),
            Rule(rejected(), FAIL),
            Rule(ended_badly(1), FAIL),
            Rule(image_lost, NON_STRICT),
            Rule(image_beside_result, INFO),
        ),
        kept=lambda trial: "the picture came back inside the call's tool_result, the run finished",
        evidence=image_evidence,
        asks=IMAGE_ASKED,
        files=((PICTURE, IMAGE),),
        off_wire={CHAT: "a Chat Completions tool message holds text only, no image"},
    )
]
