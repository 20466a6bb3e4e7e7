"""Evidence that belongs to the target: a Node program's thrown message, whether a harness asked for
fine-grained tool streaming (P4), and the HTML page quoting the deciding requests whole."""

from __future__ import annotations

import sys

from lab.probe.bench import Cell, error_line, run_trial, with_facts
from lab.probe.catalogue import BY_ID
from lab.probe.grades import FAIL, Verdict
from lab.probe.targets import command_target
from lab.probe.trial import Exchange, Exit, Setting, Trial
from lab.probe.wire_promises import ended
from lab.views.probe_html import cell_section
from lab.views.probe_matrix import cell_json

SETTING = Setting("P4", "CANARY", ("read_file", {"path": "notes.txt"}), None, "[m]", "[m] go")

# A Node program that throws an SDK-like error: Node prints the message, the stack, then every
# property of the error object (here 40 headers), so the message is far above the last lines.
THROWER = """
const error = new Error("400 invalid_request_error: tool_use ids must be unique");
error.status = 400;
error.headers = {};
for (let i = 0; i < 40; i++) error.headers["x-header-" + i] = "value " + i;
error.error = { type: "error", error: { type: "invalid_request_error", message: "unique" } };
throw error;
"""


def trial_of(*exchanges: Exchange) -> Trial:
    return ended(Trial("hand", SETTING, BY_ID["P4"].script(SETTING), exchanges, Exit(0)))


def request(number: int, body: dict, betas: str = "") -> Exchange:
    return Exchange(number, "POST", "/v1/messages", body, 200, "200", None, betas=betas)


def test_the_error_line_is_the_message_above_a_long_dumped_error_object():
    props = "".join(f"  h{i}: 'v{i}',\n" for i in range(40))
    output = f"x.js:5\n    throw error;\n    ^\n\nError: boom\n    at x (x.js:5) {{\n{props}}}\n"
    output += "\nNode.js v20.20.2\n"
    assert error_line(output, 1) == "Error: boom"
    # Even when only the dump is left, a closing bracket is never the line.
    assert error_line("{\n  a: 1,\n}\n", 1) == "a: 1,"


def test_a_node_programs_cell_and_json_exit_show_the_thrown_message(tmp_path):
    script = tmp_path / "thrower.js"
    script.write_text(THROWER, encoding="utf-8")
    target = command_target(f"node {script}")
    cell = run_trial(target, BY_ID["P1"], timeout=30)
    assert cell.trial is not None
    wanted = "exit status 1: Error: 400 invalid_request_error: tool_use ids must be unique"
    assert cell.trial.exit.line() == wanted
    assert cell_json(cell)["exit"] == wanted


def test_p4_says_the_harness_did_not_ask_for_fine_grained_streaming():
    trial = trial_of(request(1, {"tools": [{"name": "read_file"}], "stream": True}))
    verdict = with_facts(Verdict("kept", "ok"), "P4", trial)
    assert verdict.evidence[-1].startswith("fine-grained tool streaming: not asked for")


def test_p4_names_the_beta_header_or_the_tool_flag_that_asked_for_it():
    header = "fine-grained-tool-streaming-2025-05-14"
    by_header = trial_of(request(1, {"stream": True}, betas=f"other-beta, {header}"))
    assert by_header.fine_grained_streaming() == (
        f"fine-grained tool streaming: asked for (anthropic-beta: {header})"
    )
    flagged = {"tools": [{"name": "write_file", "eager_input_streaming": True}]}
    by_flag = trial_of(request(1, flagged))
    assert by_flag.fine_grained_streaming() == (
        "fine-grained tool streaming: asked for (eager_input_streaming on tool write_file)"
    )
    # Another case's cell carries no such line.
    assert with_facts(Verdict("kept", "ok"), "P5", by_flag).evidence == ()


def test_the_html_page_quotes_every_message_of_a_request_not_only_the_last_two():
    call = {"type": "tool_use", "id": "toolu_decisive", "name": "read_file", "input": {}}
    result = {"type": "tool_result", "tool_use_id": "toolu_decisive", "content": "CANARY"}
    messages = [
        {"role": "user", "content": "[m] go"},
        {"role": "assistant", "content": [call]},
        {"role": "user", "content": [result]},
        {"role": "assistant", "content": "after"},
        {"role": "user", "content": "and again"},
    ]
    trial = trial_of(request(1, {"model": "m", "messages": messages, "system": "be brief"}))
    cell = Cell("hand", "P4", Verdict(FAIL, "because"), trial)
    page = cell_section(command_target(f"{sys.executable} x.py"), cell)
    for index in range(5):
        assert f"messages.{index} " in page
    assert "tool_use read_file toolu_decisive" in page
    assert "tool_result toolu_decisive" in page
    assert "system: &#x27;be brief&#x27;" in page
