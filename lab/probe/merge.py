"""`lab probe merge FILE.json...`: the shards' `--json` outputs checked and read back into cells.

Each shard of a run (`lab probe ... --shard K/N --json`) records the run it belongs to: the
command line that defines it, the lab's version and its K/N. Merging refuses files that do not
make one run together (a shard twice, a shard missing, two runs, two versions, a file that is
not a shard's output), each with one line naming the file. The cells come back as the views
print them: a trial read back keeps what the views show (its requests with their bodies, the
exit, the new files, the program's output), already with this run's paths hidden.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lab.probe.bench import Cell
from lab.probe.cases import Case
from lab.probe.grades import recorded
from lab.probe.shards import Shard, deal, matrix_costs, parse_shard
from lab.probe.trial import Exchange, Exit, Setting, Trial
from lab.probe.which_wire import wire_of
from lab.probe.wire_promises import ended


class MergeError(Exception):
    """Shard files that do not make one run: one readable line."""


@dataclass(frozen=True)
class ShardFile:
    """One shard's `--json` output."""

    path: Path
    shard: Shard
    run: dict[str, Any]  # the run's definition: {"argv": [...], "lab": version, "shard": "K/N"}
    result: dict[str, Any]  # the whole JSON


def read_shard(path: Path) -> ShardFile:
    """A shard file, or MergeError saying why it is not one."""
    try:
        result = json.loads(path.read_text(encoding="utf-8"))
    except OSError as error:
        raise MergeError(f"{path}: cannot read it: {error.strerror or error}") from None
    except (UnicodeDecodeError, ValueError):
        raise MergeError(f"{path}: not the JSON of `lab probe --shard K/N --json`") from None
    run = result.get("run") if isinstance(result, dict) else None
    if not isinstance(run, dict) or not isinstance(run.get("argv"), list):
        raise MergeError(f"{path}: not the JSON of `lab probe --shard K/N --json`")
    if not run.get("shard"):
        raise MergeError(f"{path}: a whole run, not a shard (it ran without --shard K/N)")
    try:
        shard = parse_shard(str(run["shard"]))
    except ValueError as error:
        raise MergeError(f"{path}: {error}") from None
    return ShardFile(path, shard, run, result)


def one_run(files: Sequence[ShardFile]) -> list[ShardFile]:
    """The files in shard order, once each is known to be a shard of the same run, and every
    shard of it is there."""
    first = files[0]

    def differs(what: str, value: Any) -> None:
        for other in files[1:]:
            if value(other) != value(first):
                raise MergeError(
                    f"{other.path} and {first.path} are shards of different runs "
                    f"({what}: {value(other)} vs {value(first)})"
                )

    differs("the lab's version", lambda f: f.run.get("lab"))
    differs("the command", lambda f: " ".join(map(str, f.run["argv"])))
    differs("shards", lambda f: f.shard.n)
    differs("isolation", lambda f: f.result.get("isolation"))
    differs("installed versions", lambda f: pins(f.result))
    seen: dict[int, ShardFile] = {}
    for file in files:
        if file.shard.k in seen:
            raise MergeError(
                f"{file.path} and {seen[file.shard.k].path} are both shard {file.shard}"
            )
        seen[file.shard.k] = file
    missing = [str(Shard(k, first.shard.n)) for k in range(1, first.shard.n + 1) if k not in seen]
    if missing:
        raise MergeError(f"shard {', '.join(missing)} missing (give every shard of the run)")
    return [seen[k] for k in sorted(seen)]


def joined(shards: Sequence[ShardFile], pairs: Sequence[tuple[Any, Case]]) -> list[Cell]:
    """The run's cells in matrix order (`pairs`: its targets × cases), each read from the shard
    that `--shard` dealt it to; MergeError when a file holds other cells."""
    dealt = deal(matrix_costs(pairs), shards[0].shard.n)
    records: dict[tuple[str, str], Any] = {}
    for shard in shards:
        mine = [
            (t.name, c.id) for (t, c), k in zip(pairs, dealt, strict=True) if k == shard.shard.k
        ]
        cells = shard.result.get("cells") or []
        found = [(c.get("target"), c.get("case")) for c in cells if isinstance(c, dict)]
        if found != mine:
            raise MergeError(f"{shard.path}: its cells are not shard {shard.shard}'s of this run")
        records.update(zip(mine, cells, strict=True))
    try:
        return [cell_from_json(records[(t.name, c.id)]) for t, c in pairs]
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        raise MergeError(f"a shard file's cell cannot be read: {error!r}") from None


def pins(result: dict[str, Any]) -> str:
    targets = result.get("targets") or []
    return ", ".join(f"{t.get('name')}: {t.get('versions')}" for t in targets)


def cell_from_json(record: dict[str, Any]) -> Cell:
    """A cell as `results_json` wrote it."""
    verdict = recorded(record["verdict"], record["because"], record["evidence"])
    other = cell_from_json(record["other"]) if "other" in record else None
    stream = record.get("stream")
    return Cell(
        record["target"],
        record["case"],
        verdict,
        trial_from_json(record),
        record["mode"],
        other,
        tuple(record.get("argv") or ()),
        stream if isinstance(stream, bool) else None,
    )


# A trial read back from a shard file: the views never read its script, so it keeps none.
READ_BACK = Setting("", "", ("", {}), None, "", "")


def trial_from_json(record: dict[str, Any]) -> Trial | None:
    how = record.get("ended")
    if how is None:
        return None  # the cell had no trial (n/a before anything ran)
    exchanges = []
    for request in record["requests"]:
        method, _, path = request["request"].partition(" ")
        exchanges.append(
            Exchange(
                request["number"],
                method,
                path,
                request["body"],
                request["status"],
                request["answer"],
                None,
                request["at"],
                wire=wire_of(path),
            )
        )
    return ended(
        Trial(
            record["target"],
            READ_BACK,
            (),
            exchanges,
            Exit(how["status"], how["error"], how["timeout"]),
            tuple(record["new_files"]),
            record.get("output", ""),
        )
    )
