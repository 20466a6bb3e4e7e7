"""The built-in peers, run for real against the fake API: a harmless read, and the D1 shape.

Every peer's behaviour is read from the session's one `lab probe --all` run (tests/shared_probe.py,
watched by strace in tests/test_probe_all.py): on P5 each peer runs the harmless call (twice, in
each answer mode) and finishes; on P1 and P1s (the seed's D1, as JSON and streamed) it runs or
drops the call as reference/peers.md recorded. The claims are checked on the raw requests, the
exit and the output, not on the probe's verdicts.

One peer is also run by this file's own child, independent of the probe's machinery: a child
process inside its own network namespace (`unshare -n`, loopback up) that serves the fake API
and starts the peer there, so the peer reaches 127.0.0.1 and nothing else. It runs in a scratch
folder with a scratch HOME and a minimal environment, and the verdict comes only from the fake
API's request log, the exit status and the scratch folder; it must agree with the probe.

Run directly, this file is that child: `python tests/test_peers.py FOLDER netns|host PEER:SHAPE...`.
"""

from __future__ import annotations

import argparse
import functools
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import patience
import pytest
import shared_probe

from lab.model import FakeMessagesAPI, ScriptedModel, tool_use, turn
from lab.model.server import FakeServer
from lab.probe.bench import canary_for
from lab.probe.peers import PEERS
from lab.probe.peers.approvals import DENIED_CALL, decide
from lab.probe.peers.install import (
    COMMANDS,
    NPM_PEERS,
    PIP_PEERS,
    add_parser,
    install,
    installed_version,
    npm_missing,
    peers_home,
)
from lab.probe.peers.program import read_file, run
from lab.probe.target import CONTRACT_ENV

ROOT = Path(__file__).resolve().parent.parent
CANARY = "canary-5d41402a"
PROMPT = "Read notes.txt and tell me what it says."

# The model's side of each run, given the target's harmless call and the answer that ends a run.
SHAPES = {
    # the call, then "done." (each turn's stop_reason follows its content)
    "read": lambda call, final: [turn("Reading.", call), final],
    # the seed's D1: the same call, but the answer declares end_turn
    "d1": lambda call, final: [turn("Reading.", call, stop_reason="end_turn"), final],
}

# How the model ends a run: a text answer, or, for a harness that ends only through its own tool
# (smolagents forces a tool call every turn), that tool's call.
FINAL = {"smolagents": turn(tool_use("final_answer", {"answer": "done."}))}

# Whether the D1 call ran (its result came back), as reference/peers.md recorded it by hand.
D1_CALL_RUNS = {
    "anthropic-tool-runner": False,  # decides by stop_reason: the call is silently dropped
    "pydantic-ai": True,
    "langgraph-react": True,
    "langchain-agent": True,
    "openai-agents": True,
    "smolagents": True,
    "agno": False,  # decides by stop_reason when not streaming: the call is dropped
    "haystack": True,
    "ai-sdk": True,
    "anthropic-ts-tool-runner": False,  # the TypeScript runner decides by stop_reason too
    "langchain-js": True,
    "claude-code": True,
    # The Chat Completions wire: D1 is finish_reason "stop" with tool_calls present.
    "openai-tool-loop": True,  # decides by the message's tool_calls
    "openai-agents-chat": True,
    "langchain-openai": True,
    "pydantic-ai-openai": True,
    "smolagents-openai": True,
    "ai-sdk-openai": True,
}
CHAT_PEERS = list(D1_CALL_RUNS)[-6:]


# ------------------------------------------------------------------ the child


def session(name: str, shape: str, scratch: Path) -> None:
    """Serve the fake API, run peer `name` once in `scratch/work`, write `scratch/session.json`."""
    target = PEERS[name]
    folder, home = scratch / "work", scratch / "home"
    folder.mkdir(parents=True)
    home.mkdir()
    (folder / "notes.txt").write_text(f"The canary is {CANARY}.\n")
    tool, raw_input = target.call
    call = tool_use(tool, json.loads(raw_input.replace("{dir}", str(folder))))
    final = FINAL.get(name, turn("done."))
    api = FakeMessagesAPI(ScriptedModel(SHAPES[shape](call, final)))
    with FakeServer(api) as server:
        env = {
            "PATH": "/usr/bin:/bin",
            "HOME": str(home),
            "ANTHROPIC_BASE_URL": server.url,
            "ANTHROPIC_API_KEY": "sk-lab-peers-test",
            **target.env,
        }
        done = subprocess.run(
            target.argv(PROMPT, folder), cwd=folder, env=env, capture_output=True, text=True
        )
    log = {
        "exit": done.returncode,
        "stdout": done.stdout,
        "stderr": done.stderr,
        "requests": list(api.requests),
        "rejected": [r.request_index for r in api.rejections],
    }
    (scratch / "session.json").write_text(json.dumps(log))


def sessions(scratch: Path, runs: list[str]) -> None:
    """Run every "PEER:SHAPE" in `runs`, two at a time (the machine has two cores)."""

    def one(run_: str) -> None:
        name, shape = run_.split(":")
        session(name, shape, scratch / name / shape)

    with ThreadPoolExecutor(max_workers=2) as pool:
        list(pool.map(one, runs))  # re-raises the first failure


# ------------------------------------------------------------------ the parent


@functools.cache
def namespace() -> tuple[str, ...]:
    """`unshare -n` (as root) or `unshare -rn` (in a user namespace) where allowed, else nothing."""
    for prefix in (("unshare", "-n"), ("unshare", "-rn")):
        if shutil.which(prefix[0]) and subprocess.run([*prefix, "true"]).returncode == 0:
            return prefix
    return ()


def installed(name: str) -> bool:
    """True when the peer can run here. In CI every peer must be (.ci/run installs them)."""
    problem = PEERS[name].missing()
    if problem is not None:
        assert not os.environ.get("CI"), f"{name}: {problem}"
        assert problem.startswith("not installed: ")
    return problem is None


# The peer this file's own child runs, on both shapes: the one whose D1 run drops the call.
OWN = "anthropic-tool-runner"


@pytest.fixture(scope="module")
def logs(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict]:
    """Peer OWN on every shape, in one child inside one network namespace."""
    scratch = tmp_path_factory.mktemp("peers")
    runs = [(OWN, shape) for shape in SHAPES] if installed(OWN) else []
    where = "netns" if namespace() else "host"
    child = [*namespace(), sys.executable, __file__, str(scratch), where]
    command = [*child, *(f"{name}:{shape}" for name, shape in runs)]
    code = patience.wait(subprocess.Popen(command), 600, f"the child running {OWN} on every shape")
    subprocess.CompletedProcess(command, code).check_returncode()  # as `check=True`
    return {
        run_: json.loads((scratch / run_[0] / run_[1] / "session.json").read_text())
        for run_ in runs
    }


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], dict]:
    """The session's shared probe verdicts (CI's one whole run, or the traced slice): (target,
    case) -> its cell."""
    result = shared_probe.verdicts(tmp_path_factory)
    return {(c["target"], c["case"]): c for c in result["cells"]}


def results(requests: list[dict]) -> list[dict]:
    """Every tool_result block the peer sent, in order."""
    return [
        block
        for request in requests
        for message in request["messages"]
        if message["role"] == "user" and isinstance(message["content"], list)
        for block in message["content"]
        if block.get("type") == "tool_result"
    ]


def carries_canary(result: dict, canary: str = CANARY) -> bool:
    content = result.get("content")
    if isinstance(content, list):
        content = "".join(block.get("text", "") for block in content)
    return canary in (content or "")


def canary_came_back(requests: list[dict], canary: str = CANARY) -> bool:
    """The call ran: its canary came back in a tool_result, or (a harness that writes its history
    as text, like smolagents' "Observation: ...") anywhere in a later request."""
    return any(carries_canary(r, canary) for r in results(requests)) or any(
        canary in json.dumps(request["messages"]) for request in requests
    )


def trials(cell: dict) -> list[dict]:
    """The probe's runs behind a cell: the deciding one, and the other answer mode's."""
    return [found for found in (cell, cell.get("other")) if found and found["exit"] is not None]


def bodies(trial: dict) -> list[dict]:
    """The Messages requests a probe run received, as the fake API saw them."""
    return [
        r["body"]
        for r in trial["requests"]
        if isinstance(r["body"], dict) and "messages" in r["body"]
    ]


def rejected(request: dict) -> bool:
    """The fake API refused the request itself (a 4xx but 404, a path it does not serve)."""
    return 400 <= request["status"] < 500 and request["status"] != 404


@pytest.mark.parametrize("name", list(PEERS))
def test_peer_runs_the_harmless_call_and_finishes(name: str, probed: dict) -> None:
    if not installed(name):
        return
    canary = canary_for(name, "P5")
    ran = trials(probed[name, "P5"])  # the harmless call, twice in one answer, in both modes
    assert len(ran) == 2
    for trial in ran:
        assert trial["exit"] == "exit status 0", trial["output"]
        assert "done." in trial["output"]
        assert canary_came_back(bodies(trial), canary), "the canary never came back"
        assert not rejected(trial["requests"][-1]), "the fake API rejected the last request"


@pytest.mark.parametrize("name", list(PEERS))
def test_peer_on_the_d1_shape_does_what_peers_md_recorded(name: str, probed: dict) -> None:
    if not installed(name):
        return
    ran_every_time = True
    for case in ("P1", "P1s"):  # D1 as JSON and streamed: a peer that ignores the mode is n/a
        cell = probed[name, case]
        for trial in trials(cell) if cell["verdict"] != "n/a" else []:
            assert trial["exit"] == "exit status 0", trial["output"]
            ran = canary_came_back(bodies(trial), canary_for(name, case))
            if not ran:  # it stopped at the declaration: one request, and the run "succeeded"
                assert len(trial["requests"]) == 1
            ran_every_time &= ran
    assert ran_every_time is D1_CALL_RUNS[name]


def test_the_own_child_runs_the_harmless_call_and_finishes(logs: dict) -> None:
    if not installed(OWN):
        return
    log = logs[OWN, "read"]
    assert log["exit"] == 0, log["stderr"]
    assert "done." in log["stdout"]
    assert canary_came_back(log["requests"]), "the canary never came back"
    last = len(log["requests"]) - 1
    assert last not in log["rejected"], "the fake API rejected the peer's last request"


def test_the_own_child_on_the_d1_shape_agrees_with_the_probe(logs: dict, probed: dict) -> None:
    if not installed(OWN):
        return
    log = logs[OWN, "d1"]
    assert log["exit"] == 0, log["stderr"]
    ran = canary_came_back(log["requests"])
    assert ran is D1_CALL_RUNS[OWN]
    if not ran:
        assert len(log["requests"]) == 1
    # the probe's P1 (the same D1 answer, in the mode this peer uses by default) saw the same
    (trial,) = trials(probed[OWN, "P1"])
    assert canary_came_back(bodies(trial), canary_for(OWN, "P1")) is ran


# ------------------------------------------------------------------ the table and the installer


def test_every_peer_is_in_the_table_with_its_packages() -> None:
    assert list(PEERS) == list(D1_CALL_RUNS)
    for target in PEERS.values():
        assert target.distributions and target.about
    assert PEERS["claude-code"].distributions == ("npm:@anthropic-ai/claude-code",)
    approving = {"claude-code", "pydantic-ai", "langchain-agent", "openai-agents"}
    approving |= {"pydantic-ai-openai", "langchain-openai", "openai-agents-chat"}
    assert {n for n, t in PEERS.items() if t.denied_call is not None} == approving
    for name in approving - {"claude-code"}:  # the framework's approvals keep the contract
        assert PEERS[name].denied_call == DENIED_CALL
        assert dict(PEERS[name].env).items() >= CONTRACT_ENV.items()
    assert PEERS["smolagents"].final_call == ("final_answer", '{"answer": "done."}')
    assert PEERS["smolagents-openai"].final_call == PEERS["smolagents"].final_call
    assert {n for n, t in PEERS.items() if t.wire == "openai"} == set(CHAT_PEERS)
    assert {t.wire for n, t in PEERS.items() if n not in CHAT_PEERS} == {"anthropic"}


def test_the_peers_deny_rule_comes_before_their_human(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LAB_PROBE_HUMAN_LOG", "asked.log")
    monkeypatch.setenv("LAB_PROBE_APPROVE", "all")
    assert decide("touch", {"path": "denied.canary"}) == "denied by the rule touch(denied.*)"
    assert not (tmp_path / "asked.log").exists()  # the human never heard of the denied call
    assert decide("touch", {"path": "other.txt"}) is None  # the human said yes
    assert decide("touch", {"path": 12345}) is None  # a malformed call, if the framework asks
    assert (tmp_path / "asked.log").read_text().splitlines() == [
        'allow touch {"path": "other.txt"}?',
        'allow touch {"path": 12345}?',
    ]
    monkeypatch.setenv("LAB_PROBE_APPROVE", "none")
    assert decide("touch", {"path": "other.txt"}) == "the human said no"


def test_a_missing_peer_names_the_command_that_installs_it(monkeypatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HARNESS_LAB_HOME", str(tmp_path))
    assert peers_home() == tmp_path / "peers"
    assert PEERS["claude-code"].missing() == "not installed: lab peers install claude-code"
    for name in NPM_PEERS:
        expected = f"not installed: lab peers install {name}"
        assert PEERS[name].missing() == npm_missing(name) == expected
    assert installed_version("npm:@anthropic-ai/claude-code") is None
    assert installed_version("no-such-distribution-here") is None
    assert f"not installed: {PIP_PEERS}" == "not installed: pip install 'harness-lab[peers]'"


def test_lab_peers_install_refuses_what_it_does_not_install(capsys) -> None:
    assert install("pydantic-ai") == 2
    assert install("nonesuch") == 2
    lines = capsys.readouterr().err.splitlines()
    assert lines == [
        "lab: error: pydantic-ai is a Python peer: pip install 'harness-lab[peers]'",
        "lab: error: unknown peer 'nonesuch' (lab peers install knows: claude-code, ai-sdk,"
        " ai-sdk-openai, anthropic-ts-tool-runner, langchain-js, all)",
    ]


def test_lab_peers_install_parses_into_the_install_command(capsys) -> None:
    parser = argparse.ArgumentParser(prog="lab")
    add_parser(parser.add_subparsers(dest="command", required=True))
    args = parser.parse_args(["peers", "install", "nonesuch"])
    assert COMMANDS[args.command](args) == 2
    assert "unknown peer 'nonesuch'" in capsys.readouterr().err


def readme_peers() -> str:
    return (ROOT / "README.md").read_text().split("## Peers", 1)[1].split("\n## ", 1)[0]


def test_readme_peer_installs_are_what_ci_runs() -> None:
    block = re.search(r"```bash\n(.*?)```", readme_peers(), re.DOTALL).group(1)
    commands = [line for line in block.splitlines() if line.strip()]
    assert commands == [
        ".venv/bin/pip install -q -e '.[peers]'",
        ".venv/bin/lab peers install all",
    ]
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert all(command in ci for command in commands)


def test_readme_peer_table_shows_the_pinned_versions() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    pins = dict(
        re.fullmatch(r"([\w-]+)(?:\[\w+\])?==(.+)", spec).groups()
        for spec in pyproject["project"]["optional-dependencies"]["peers"]
    )
    rows = {
        row.split("|")[1].strip(" `"): row.split("|")[3]
        for row in readme_peers().splitlines()
        if row.startswith("| `")
    }
    assert list(rows) == list(PEERS)
    shown = " ".join(rows.values())
    for name, version in pins.items():
        assert f"{name} {version}" in shown
    for name, packages in NPM_PEERS.items():
        for package, version in packages.items():
            assert f"{package} {version}" in rows[name]


# ------------------------------------------------------------------ the peers' shared glue


def test_the_read_file_tool_reads_inside_the_working_folder_only(monkeypatch, tmp_path) -> None:
    (tmp_path / "notes.txt").write_text(CANARY)
    monkeypatch.chdir(tmp_path)
    assert read_file("notes.txt") == CANARY
    with pytest.raises(ValueError, match="outside the working folder"):
        read_file("../secret.txt")


def test_a_node_peer_that_throws_exits_1_with_the_errors_own_line(tmp_path: Path) -> None:
    # The probe shows a program's last error line; Node's own last line is its version banner.
    program = (ROOT / "lab" / "probe" / "peers" / "node" / "program.mjs").as_uri()
    script = tmp_path / "failing.mjs"
    script.write_text(
        f"import {{ run }} from '{program}';\n"
        "await run(async (p) => { throw new TypeError(`no luck with ${p}\\nsecond`); });\n"
    )
    node = shutil.which("node")
    assert node is not None or not os.environ.get("CI"), "CI installs node (npm)"
    if node is None:
        return
    done = subprocess.run([node, str(script), "hello"], capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "TypeError: no luck with hello\n")


def test_every_node_peer_ships_its_program() -> None:
    for name in NPM_PEERS:
        if name == "claude-code":
            continue
        argv = PEERS[name].argv("the prompt", Path("."))
        assert Path(argv[1]).is_file() and argv[1].endswith(".mjs") and argv[-1] == "the prompt"
        assert PEERS[name].env["LAB_PEER_NODE_MODULES"].endswith(f"{name}/node_modules")


def test_a_peer_that_raises_exits_1_with_one_line(monkeypatch, capsys) -> None:
    def failing(prompt: str) -> str:
        raise RuntimeError(f"no luck with {prompt!r}\nsecond line")

    monkeypatch.setattr(sys, "argv", ["peer", "hello"])
    with pytest.raises(SystemExit) as ended:
        run(failing)
    assert ended.value.code == 1
    assert capsys.readouterr().err == "RuntimeError: no luck with 'hello'\n"


if __name__ == "__main__":
    scratch, where, *runs = sys.argv[1:]
    if where == "netns":  # a fresh network namespace starts with loopback down
        subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    sessions(Path(scratch), runs)
