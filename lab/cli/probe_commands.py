"""`lab probe`, `lab serve` and `lab peers`: their arguments and commands, hooked into `lab` by
lab/cli/parser.py and lab/cli/dispatch.py.

Nothing heavy is imported here at module level: `lab --help` stays quick.

Exit codes of `lab probe`: 0 nothing a target claims reads fail (a fail in a peer's row is a
measurement, not a failure; non-strict, info and n/a never fail a run); 1 a case a target claims
reads fail (lab-reference claims every case, lab-course the cases the seed says the course keeps,
a `--cmd` program every case it was probed with); 2 a usage error; 4 a `--cmd` program was not
reached on some case (it never got a script answer: a missing script, a crash at import, a hang,
a client posting to a path the fake answers 404), checked before 1: a gate must not pass a
harness that cannot start.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lab.kernel.errors import UsageError, at_least_one

if TYPE_CHECKING:
    from rich.console import Console

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_NOT_REACHED = 0, 1, 2, 4
DEFAULT_CALL = 'read_file={"path": "notes.txt"}'


def port_number(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"{value} is not a port number (0-65535)")
    return value


# What a --cmd program's environment holds (lab/probe/confinement.py and targets.py set it).
PROGRAM_ENV = (
    "PATH (the lab's Python first), HOME, TMPDIR (a fresh scratch folder's), LANG=C.UTF-8, "
    "ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY (a fake key), OPENAI_BASE_URL (the same server's "
    "/v1, for a program on the Chat Completions wire), OPENAI_API_KEY (the same fake key), "
    "LAB_PROBE_STREAM (0 or 1: the answer mode to use, when a case needs one), "
    "LAB_PROBE_THINKING=1, LAB_PROBE_SERVER_TOOL=1 and LAB_PROBE_IMAGE_TOOL=1 (in the cases that "
    "ask: turn extended thinking on, declare a server tool such as a web search, offer a "
    "read_image tool), LAB_PROBE_APPROVE=all and LAB_PROBE_HUMAN_LOG "
    "(the permission contract), PYTHONDONTWRITEBYTECODE=1, DO_NOT_TRACK=1, "
    "LITELLM_OFFLINE_MODE=true and LITELLM_LOCAL_MODEL_COST_MAP=True (no network tries at start)"
)
ENV_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def env_setting(text: str) -> tuple[str, str]:
    """`NAME=VALUE` for --env (an argparse type)."""
    name, sep, value = text.partition("=")
    if not sep or not ENV_NAME.fullmatch(name):
        raise argparse.ArgumentTypeError(f"{text!r}: expected NAME=VALUE, e.g. MY_AGENT_OFFLINE=1")
    return name, value


def shard_setting(text: str) -> Any:
    """`K/N` for --shard (an argparse type)."""
    from lab.probe.shards import parse_shard

    try:
        return parse_shard(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error).removeprefix("--shard ")) from None


def peers_install() -> Any:
    """lab/probe/peers/install.py (`lab peers install NAME`), when this checkout has the peers."""
    try:
        from lab.probe.peers import install
    except ModuleNotFoundError as error:
        if error.name not in ("lab.probe.peers", "lab.probe.peers.install"):
            raise
        return None
    return install


def add_parsers(sub: Any, lang: argparse.ArgumentParser) -> None:
    """Add `probe`, `serve` (and the peers' `peers install`) to the `lab` subparsers."""
    if (install := peers_install()) is not None:
        install.add_parser(sub)
    probe = sub.add_parser(
        "probe",
        help="run the conformance cases against a harness (yours, a peer, the lab's own)",
        description="Run probe cases against a target and print each case's grade (kept, "
        "fail, non-strict, info, n/a, not reached) with the evidence. TARGET is a built-in name "
        "(lab-reference, lab-course, the peers); --cmd runs any program with the prompt as its "
        "last argument. `lab probe merge FILE.json ...` joins the --json outputs of the shards "
        "of one run (--shard K/N) into the run's matrix, exit status and outputs. Exit 0: "
        "nothing claimed reads fail; 1: a claimed case reads fail; 2: a usage error; 4: a "
        "--cmd program was not reached.",
        epilog=f"The environment of a --cmd program holds only: {PROGRAM_ENV}. Add its own "
        "switches with --env NAME=VALUE. A program that ignores ANTHROPIC_BASE_URL reads a "
        "config file in its HOME instead: write one from the program itself, or wrap it in a "
        "script that does (docs: the README's `lab probe --cmd` section).",
    )
    probe.add_argument(
        "targets", nargs="*", metavar="TARGET", help="built-in target names (see --all)"
    )
    probe.add_argument("--all", action="store_true", help="every built-in target: the matrix")
    probe.add_argument(
        "--cmd",
        metavar="COMMAND",
        help="probe this program (split like a shell; it must exist: see the variables below)",
    )
    probe.add_argument(
        "--env",
        type=env_setting,
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set this variable for the program (repeatable): a harness's own switches",
    )
    probe.add_argument(
        "--shard",
        type=shard_setting,
        metavar="K/N",
        help="run only the K-th of N shares of the matrix (CI job matrices); join the shards' "
        "--json outputs with `lab probe merge`",
    )
    probe.add_argument(
        "--call",
        metavar="TOOL=JSON",
        help=f"the harmless call the probe asks --cmd for (default: {DEFAULT_CALL}; "
        "{dir} stands for the scratch folder)",
    )
    probe.add_argument(
        "--deny-call",
        metavar="TOOL=JSON",
        help="the permission contract: a call of a tool that asks --cmd's human and that its "
        "own rules deny (P11, P23); the probe sets LAB_PROBE_APPROVE=all and LAB_PROBE_HUMAN_LOG",
    )
    probe.add_argument(
        "--final-call",
        metavar="TOOL=JSON",
        help="for --cmd: the harness ends through its own tool (e.g. "
        'final_answer={"answer": "done."}); the script\'s last answer calls it',
    )
    probe.add_argument(
        "--wire",
        choices=("anthropic", "openai"),
        help="judge the targets on this wire: the Messages API (anthropic) or Chat Completions "
        "(openai) (default: a built-in target's own; a --cmd program's is read from the path "
        "of its first request)",
    )
    probe.add_argument(
        "--case", action="extend", nargs="+", default=[], metavar="ID", help="only these cases"
    )
    probe.add_argument("--json", action="store_true", help="print only JSON on stdout")
    probe.add_argument(
        "--junit", type=Path, metavar="FILE.xml", help="write the matrix as JUnit XML for CI"
    )
    probe.add_argument("--markdown", action="store_true", help="print the matrix as Markdown")
    probe.add_argument("--report", type=Path, metavar="FILE.html", help="write an HTML report")
    probe.add_argument(
        "--fuzz",
        type=at_least_one,
        metavar="N",
        help="N generated scripts; print the smallest breaker",
    )
    probe.add_argument(
        "--jobs", type=at_least_one, metavar="N", help="trials at once (default: three per core)"
    )
    probe.add_argument(
        "--timeout",
        type=at_least_one,
        default=60,
        metavar="S",
        help="seconds a trial's program may stay idle (no CPU, no request) before it is "
        "stopped (default 60; a busy program is stopped at 5 times that)",
    )
    probe.add_argument(
        "--cold", action="store_true", help="start every program afresh (no warm Python starts)"
    )
    probe.add_argument(
        "--warm",
        action="store_true",
        help="for --cmd: fork a `python SCRIPT.py` or `python -m MODULE` run by the lab's own "
        "interpreter from a warm parent, as the built-in targets start (same verdicts, faster)",
    )

    serve = sub.add_parser(
        "serve",
        parents=[lang],
        help="serve an experiment's or a probe case's script on 127.0.0.1",
        description="Serve the fake Messages API and Chat Completions API on 127.0.0.1. The "
        "first four lines printed are `export ANTHROPIC_BASE_URL=...`, `export "
        "ANTHROPIC_API_KEY=...`, `export OPENAI_BASE_URL=...` and `export OPENAI_API_KEY=...`, "
        "to paste into the harness's shell; every request is logged with the fake's verdict; "
        "the run's verdict (for a probe case: graded, with its evidence and whether the canary "
        "came back) is printed when the server stops (Ctrl-C, or --until-done).",
    )
    serve.add_argument(
        "id",
        nargs="?",
        metavar="ID",
        help="an experiment id (D1), a probe case id (P1) or a script file (SCRIPT = [...]); "
        "none: answer every request with a short text",
    )
    serve.add_argument("--port", type=port_number, default=0, help="port (default: any free one)")
    serve.add_argument("--json", action="store_true", help="after the export lines, JSON lines")
    serve.add_argument(
        "--call", metavar="TOOL=JSON", help=f"for a probe case: the call (default {DEFAULT_CALL})"
    )
    serve.add_argument(
        "--until-done",
        action="store_true",
        help="stop once the whole script has been answered and the harness hung up, or "
        "when the harness went quiet (--idle)",
    )
    serve.add_argument(
        "--idle",
        type=at_least_one,
        default=30,
        metavar="S",
        help="with --until-done: stop when S seconds pass without a request, once one came "
        "(default 30)",
    )
    serve.add_argument(
        "--replay",
        action="store_true",
        help="once the script was answered to its end, play it from the top (its fault "
        "again) to the next conversation, with a verdict per run",
    )


def usage_error(message: str) -> Exception:
    return UsageError(message)


def probe_argv(args: argparse.Namespace, *, every_flag: bool = True) -> list[str]:
    """The command line that reruns this probe: all of it (to re-enter a network namespace),
    or only what names the job (to print as a rerun hint)."""
    argv = ["probe"]
    argv += ["--all"] if args.all else ["--cmd", args.cmd] if args.cmd else list(args.targets)
    for flag in (
        "call",
        "final_call",
        "deny_call",
        "wire",
        "fuzz",
        *(("report", "junit", "jobs", "shard") if every_flag else ()),
    ):
        if getattr(args, flag) is not None:
            argv += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
    for name, value in args.env:
        argv += ["--env", f"{name}={value}"]
    if args.case:
        argv += ["--case", *args.case]
    if every_flag:
        argv += ["--timeout", str(args.timeout)]
        flags = ("json", "markdown", "cold", "warm")
        argv += [f"--{flag}" for flag in flags if getattr(args, flag)]
    return argv


def run_record(args: argparse.Namespace) -> dict[str, Any]:
    """What defines this run, for `lab probe merge`: the command without its outputs, jobs and
    shard (the same on every machine of a CI matrix), the lab's version and the shard."""
    from lab import __version__

    argv = probe_argv(args, every_flag=False) + ["--timeout", str(args.timeout)]
    argv += [f"--{flag}" for flag in ("cold", "warm") if getattr(args, flag)]
    return {"argv": argv, "lab": __version__, "shard": str(args.shard) if args.shard else None}


def chosen_targets(args: argparse.Namespace, *, here: bool = True) -> list[Any]:
    """The targets the arguments name, each with the --env settings; `here`: the --cmd
    program must exist on this machine (not so for `lab probe merge`, which runs nothing)."""
    from dataclasses import replace

    targets = [
        replace(target, env={**target.env, **dict(args.env)}) if args.env else target
        for target in named_targets(args, here)
    ]
    return [replace(t, wire=args.wire) for t in targets] if args.wire else targets


def named_targets(args: argparse.Namespace, here: bool) -> list[Any]:
    from lab.probe.target import READ_NOTES
    from lab.probe.targets import (
        TargetError,
        builtin,
        command_problem,
        command_target,
        parse_call,
        resolve,
    )

    given = [bool(args.targets), args.all, args.cmd is not None]
    if sum(given) != 1:
        raise usage_error("name the targets one way: TARGET ..., --all or --cmd COMMAND")
    if args.call is not None and args.cmd is None:
        raise usage_error("--call goes with --cmd (built-in targets declare their own call)")
    if args.deny_call is not None and args.cmd is None:
        raise usage_error("--deny-call goes with --cmd (built-in targets declare their own rules)")
    if args.final_call is not None and args.cmd is None:
        raise usage_error("--final-call goes with --cmd (built-in targets declare their own)")
    if args.warm and (args.cmd is None or args.cold):
        raise usage_error("--warm goes with --cmd, not with --cold (built-in targets start warm)")
    try:
        if args.all:
            return list(builtin().values())
        if args.cmd is not None:
            call = parse_call(args.call) if args.call else READ_NOTES
            denied = parse_call(args.deny_call, "--deny-call") if args.deny_call else None
            final = parse_call(args.final_call, "--final-call") if args.final_call else None
            target = command_target(args.cmd, call, final, denied, warm=args.warm)
            if here and (problem := command_problem(args.cmd)) is not None:
                raise usage_error(problem)
            return [target]
        return [resolve(name) for name in dict.fromkeys(args.targets)]
    except TargetError as error:
        raise usage_error(str(error)) from None


def cmd_probe(args: argparse.Namespace, out: Console) -> int:
    from lab.probe import confinement as sandbox
    from lab.probe.bench import select_cases

    if args.targets[:1] == ["merge"]:
        return cmd_merge(args, out)
    targets = chosen_targets(args)
    try:
        cases = select_cases(args.case)
    except KeyError as error:
        raise usage_error(error.args[0]) from None
    if args.fuzz and len(targets) != 1:
        raise usage_error("--fuzz needs one target")
    if args.fuzz and args.shard:
        raise usage_error("--shard shares out a matrix; --fuzz runs one target's scripts")
    check_outputs(args)  # before the run: a run of minutes is not lost to a bad file name

    if sandbox.inside():
        sandbox.end_namespace_on_signal()
        sandbox.loopback_up()
        isolation = f"network namespace, interfaces: {', '.join(sandbox.interfaces())}"
    elif not sandbox.reentered():  # run again: in namespaces, its leftovers ended afterwards
        return sandbox.reenter(probe_argv(args), sandbox.isolation_problem() is None)
    else:
        problem = sandbox.isolation_problem()
        isolation = f"none ({problem}): the targets could reach the network"
        print(f"lab probe: warning: no network isolation: {problem}", file=sys.stderr)

    if args.fuzz:
        return run_fuzz(args, targets[0], out)
    return run_probe(args, targets, cases, isolation, out)


def check_outputs(args: argparse.Namespace) -> None:
    """--report and --junit name files this process can write (one line, exit 2, otherwise)."""
    if args.report and args.report.suffix.lower() not in (".html", ".htm"):
        raise usage_error(f"--report {args.report}: the file name must end in .html")
    for flag, path in (("--report", args.report), ("--junit", args.junit)):
        if path is not None:
            writable(flag, path)


def writable(flag: str, path: Path) -> None:
    """Try it: create (and remove) a file beside it, or open it for writing without changing
    it; permissions alone do not tell (root, read-only and virtual file systems)."""
    if not path.parent.is_dir():
        raise usage_error(f"{flag} {path}: no folder {path.parent}")
    if path.is_dir():
        raise usage_error(f"{flag} {path}: a folder, not a file")
    try:
        if path.exists():
            with path.open("r+b"):
                pass
        else:
            tempfile.NamedTemporaryFile(dir=path.parent, prefix=".lab-probe-").close()
    except OSError as error:
        raise usage_error(f"{flag} {path}: cannot write there ({error.strerror})") from None


def write_output(flag: str, path: Path, text: str) -> None:
    """Write `text` whole or not at all: into a file beside `path`, then renamed over it."""
    try:
        with tempfile.NamedTemporaryFile(
            "w", encoding="utf-8", dir=path.parent, prefix=".lab-probe-", delete=False
        ) as file:
            file.write(text)
        os.replace(file.name, path)
    except OSError as error:
        Path(file.name).unlink(missing_ok=True)
        raise usage_error(f"{flag} {path}: cannot write there ({error.strerror})") from None


def run_fuzz(args: argparse.Namespace, target: Any, out: Console) -> int:
    """`--fuzz N`: print the smallest breaker as a `lab serve` script; exit 1 when one was found."""
    from lab.probe.fuzz import breaker_source, fuzz
    from lab.views.probe_fuzz import StderrProgress, fuzz_json, nothing_found

    progress = StderrProgress()
    try:
        found, trials = fuzz(target, args.fuzz, args.timeout, args.cold, progress)
    finally:
        progress.end()
    if found is None:
        if args.json:
            print(fuzz_json(target.name, trials, None, None))
        else:
            out.print(nothing_found(target.name, trials))
        return exit_of_fuzz(None)
    rerun = shlex.join(["lab", *probe_argv(args, every_flag=False)])
    script = breaker_source(found, target, trials, rerun)
    if args.json:
        print(fuzz_json(target.name, trials, found, script))
    else:
        print(script, end="")
    return exit_of_fuzz(found)


def exit_of_fuzz(found: Any) -> int:
    from lab.probe.grades import breaker_exit

    return breaker_exit(found is not None)


def run_probe(
    args: argparse.Namespace, targets: list[Any], cases: list[Any], isolation: str, out: Console
) -> int:
    """The trials (this shard's, with --shard), then every output asked for."""
    from lab.probe.bench import probe_pairs
    from lab.probe.shards import chosen, matrix_costs

    pairs = [(t, c) for t in targets for c in cases]
    if args.shard is not None:
        pairs = chosen(pairs, matrix_costs(pairs), args.shard)
    if sys.stderr.isatty():
        share = f" (shard {args.shard}: {len(pairs)} cells)" if args.shard else ""
        print(
            f"lab probe: {len(targets)} target(s) × {len(cases)} case(s){share}…", file=sys.stderr
        )
    cells = probe_pairs(pairs, jobs=args.jobs, timeout=args.timeout, cold=args.cold)
    return show_results(args, targets, cells, isolation, run_record(args), out)


def show_results(
    args: argparse.Namespace,
    targets: list[Any],
    cells: list[Any],
    isolation: str,
    run: dict[str, Any],
    out: Console,
) -> int:
    """Every output a run asked for (files first, then stdout), and its exit status: the same
    for a run on one machine and for its shards merged."""
    import json

    from lab.views.probe_matrix import markdown, matrix_view, results_json, target_view

    if args.report is not None:
        from lab.views.probe_html import report_page

        write_output("--report", args.report, report_page(targets, cells, isolation))
    if args.junit is not None:
        from lab.views.probe_junit import junit_xml

        write_output("--junit", args.junit, junit_xml(targets, cells))
    if args.json:
        result = results_json(targets, cells, isolation, run)
        print(json.dumps(result, ensure_ascii=False, indent=2))
    elif args.markdown:
        print(markdown(cells, {t.name: t.wire for t in targets}))
    else:
        out.print(f"isolation: {isolation}", soft_wrap=True)
        if len(targets) > 1 and cells:  # a shard may hold no cell (more shards than cells)
            out.print(matrix_view(cells), soft_wrap=True)
        for target in targets:
            row = [c for c in cells if c.target == target.name]
            if not row:  # a shard that holds none of this target's cells
                continue
            out.print(
                target_view(target, row, out.width, only_failures=len(targets) > 1), soft_wrap=True
            )
    if args.report is not None and not args.json:
        out.print(f"report: {args.report}", soft_wrap=True)
    return exit_status(targets, cells)


MERGE_FLAGS = ("json", "markdown", "report", "junit")  # what `lab probe merge` takes


def cmd_merge(args: argparse.Namespace, out: Console) -> int:
    """`lab probe merge FILE.json ...`: the shards of one run joined into the run's matrix,
    outputs and exit status, as one machine would have printed them."""
    from lab.cli.parser import build_parser
    from lab.probe.merge import MergeError, joined, one_run, read_shard

    defaults = vars(build_parser().parse_args(["probe"]))
    taken = [k for k, v in vars(args).items() if k not in MERGE_FLAGS and v != defaults[k]]
    if taken != ["targets"]:
        flag = "--" + next(k for k in taken if k != "targets").replace("_", "-")
        allowed = ", ".join(f"--{name}" for name in MERGE_FLAGS)
        raise usage_error(f"merge takes shard files and {allowed}, not {flag}")
    if len(args.targets) == 1:
        raise usage_error("merge: name the shard files (the --json output of each --shard K/N)")
    check_outputs(args)
    try:
        shards = one_run([read_shard(Path(name)) for name in args.targets[1:]])
        targets, cases = recorded_run(shards[0])
        cells = joined(shards, [(t, c) for t in targets for c in cases])
    except MergeError as error:
        raise usage_error(str(error)) from None
    run = {**shards[0].run, "shard": None}  # what the run on one machine records
    isolation = str(shards[0].result.get("isolation"))
    return show_results(args, targets, cells, isolation, run, out)


def recorded_run(shard: Any) -> tuple[list[Any], list[Any]]:
    """The targets and cases of the run a shard file records, each target with the versions
    and the `not installed` line recorded where the trials ran (this machine need not have
    the peers)."""
    from dataclasses import replace

    from lab.cli.parser import build_parser
    from lab.probe.bench import select_cases
    from lab.probe.merge import MergeError

    try:
        recorded = build_parser().parse_args([str(word) for word in shard.run["argv"]])
        targets = chosen_targets(recorded, here=False)
        cases = select_cases(recorded.case)
    except (UsageError, KeyError) as error:
        raise MergeError(f"{shard.path}: its run cannot be read back here ({error})") from None
    found = {t.get("name"): t for t in shard.result.get("targets") or [] if isinstance(t, dict)}

    def as_recorded(target: Any) -> Any:
        mine = found.get(target.name, {})
        missing = mine.get("missing")
        return replace(target, pinned=mine.get("versions") or {}, missing=lambda: missing)

    return [as_recorded(t) for t in targets], cases


def exit_status(targets: list[Any], cells: list[Any]) -> int:
    """The grades' exit policy (lab/probe/grades.py) over the cells that count: 4 when a --cmd
    program was not reached on some case, else 1 when a claimed case reads fail, else 0."""
    from lab.probe.grades import counts
    from lab.probe.grades import exit_status as policy

    by_name = {t.name: t for t in targets}
    return policy(
        c.verdict.kind
        for c in cells
        if counts(c.verdict.kind, c.case in by_name[c.target].claims, by_name[c.target].command)
    )


def cmd_serve(args: argparse.Namespace, out: Console) -> int:
    from lab.probe.serve import ServeError, serve_command
    from lab.views.serve_log import ServeLog

    try:
        log = ServeLog(args.json, args.lang)
        return serve_command(
            args.id, args.port, log, args.call, args.until_done, args.replay, args.idle
        )
    except ServeError as error:
        raise usage_error(str(error)) from None


def cmd_peers(args: argparse.Namespace, out: Console) -> int:
    return peers_install().cmd_peers(args, out)


COMMANDS = {"probe": cmd_probe, "serve": cmd_serve, "peers": cmd_peers}
