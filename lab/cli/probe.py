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
import shlex
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lab.errors import UsageError, at_least_one

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
        "last argument. Exit 0: nothing claimed reads fail; 1: a claimed case reads fail; 2: a "
        "usage error; 4: a --cmd program was not reached.",
    )
    probe.add_argument(
        "targets", nargs="*", metavar="TARGET", help="built-in target names (see --all)"
    )
    probe.add_argument("--all", action="store_true", help="every built-in target: the matrix")
    probe.add_argument("--cmd", metavar="COMMAND", help="probe this program (split like a shell)")
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
        description="Serve the fake Messages API on 127.0.0.1. The first two lines printed are "
        "`export ANTHROPIC_BASE_URL=...` and `export ANTHROPIC_API_KEY=...`, to paste into the "
        "harness's shell; every request is logged with the fake's verdict; the run's verdict "
        "(for a probe case: graded, with its evidence and whether the canary came back) is "
        "printed when the server stops (Ctrl-C, or --until-done).",
    )
    serve.add_argument(
        "id",
        nargs="?",
        metavar="ID",
        help="an experiment id (D1), a probe case id (P1) or a script file (SCRIPT = [...]); "
        "none: answer every request with a short text",
    )
    serve.add_argument("--port", type=port_number, default=0, help="port (default: any free one)")
    serve.add_argument("--json", action="store_true", help="after the two export lines, JSON lines")
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
        "fuzz",
        *(("report", "junit", "jobs") if every_flag else ()),
    ):
        if getattr(args, flag) is not None:
            argv += [f"--{flag.replace('_', '-')}", str(getattr(args, flag))]
    if args.case:
        argv += ["--case", *args.case]
    if every_flag:
        argv += ["--timeout", str(args.timeout)]
        flags = ("json", "markdown", "cold", "warm")
        argv += [f"--{flag}" for flag in flags if getattr(args, flag)]
    return argv


def chosen_targets(args: argparse.Namespace) -> list[Any]:
    from lab.probe.target import READ_NOTES
    from lab.probe.targets import TargetError, builtin, command_target, parse_call, resolve

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
            return [command_target(args.cmd, call, final, denied, warm=args.warm)]
        return [resolve(name) for name in dict.fromkeys(args.targets)]
    except TargetError as error:
        raise usage_error(str(error)) from None


def cmd_probe(args: argparse.Namespace, out: Console) -> int:
    from lab.probe import sandbox
    from lab.probe.bench import select_cases

    targets = chosen_targets(args)
    try:
        cases = select_cases(args.case)
    except KeyError as error:
        raise usage_error(error.args[0]) from None
    if args.fuzz and len(targets) != 1:
        raise usage_error("--fuzz needs one target")
    if args.report and args.report.suffix.lower() not in (".html", ".htm"):
        raise usage_error(f"--report {args.report}: the file name must end in .html")
    if args.report and not args.report.parent.is_dir():
        raise usage_error(f"--report {args.report}: no folder {args.report.parent}")
    if args.junit and not args.junit.parent.is_dir():
        raise usage_error(f"--junit {args.junit}: no folder {args.junit.parent}")

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
        return 0
    rerun = shlex.join(["lab", *probe_argv(args, every_flag=False)])
    script = breaker_source(found, target, trials, rerun)
    if args.json:
        print(fuzz_json(target.name, trials, found, script))
    else:
        print(script, end="")
    return 1


def run_probe(
    args: argparse.Namespace, targets: list[Any], cases: list[Any], isolation: str, out: Console
) -> int:
    import json

    from lab.probe.bench import probe
    from lab.views.probe import markdown, matrix_view, results_json, target_view

    if sys.stderr.isatty():
        print(f"lab probe: {len(targets)} target(s) × {len(cases)} case(s)…", file=sys.stderr)
    cells = probe(targets, cases, jobs=args.jobs, timeout=args.timeout, cold=args.cold)
    if args.report is not None:
        from lab.views.probe_html import report_page

        args.report.write_text(report_page(targets, cells, isolation), encoding="utf-8")
    if args.junit is not None:
        from lab.views.probe_junit import junit_xml

        args.junit.write_text(junit_xml(targets, cells), encoding="utf-8")
    if args.json:
        print(json.dumps(results_json(targets, cells, isolation), ensure_ascii=False, indent=2))
    elif args.markdown:
        print(markdown(cells))
    else:
        out.print(f"isolation: {isolation}", soft_wrap=True)
        if len(targets) > 1:
            out.print(matrix_view(cells), soft_wrap=True)
        for target in targets:
            row = [c for c in cells if c.target == target.name]
            out.print(
                target_view(target, row, out.width, only_failures=len(targets) > 1), soft_wrap=True
            )
    if args.report is not None and not args.json:
        out.print(f"report: {args.report}", soft_wrap=True)
    return exit_status(targets, cells)


def exit_status(targets: list[Any], cells: list[Any]) -> int:
    """4 when a --cmd program was not reached on some case, else 1 when a claimed case reads
    fail, else 0."""
    from lab.probe.grades import FAIL, NOT_REACHED

    by_name = {t.name: t for t in targets}
    if any(c.verdict.kind == NOT_REACHED and by_name[c.target].command for c in cells):
        return EXIT_NOT_REACHED
    if any(c.verdict.kind == FAIL and c.case in by_name[c.target].claims for c in cells):
        return EXIT_FAIL
    return EXIT_OK


def cmd_serve(args: argparse.Namespace, out: Console) -> int:
    from lab.probe.serve import ServeError, serve_command
    from lab.views.serve import ServeLog

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
