"""The probe's cases, as data: each one fault the seed or the API names, one script, one table.

A case (lab/probe/verdict.py) is its script, built from the run's Setting, an ordered table of
(promise, grade when broken) rows, and the evidence to show; `verdict(case, trial)` grades every
case the same way. The rows read only the wire, the exit status and the scratch folder, through
the trial's one Record, so a new target needs no new judging code. The files are named for the
cases' subject: stop_reasons, bad_calls, transient (the API's faults), resending, long_runs,
thinking, images.
"""

from __future__ import annotations

from dataclasses import replace

from lab.probe.cases.bad_calls import BAD_CALL_CASES
from lab.probe.cases.images import IMAGE_CASES
from lab.probe.cases.long_runs import LONG_RUN_CASES
from lab.probe.cases.resending import RESENDING_CASES
from lab.probe.cases.stop_reasons import STOP_REASON_CASES
from lab.probe.cases.thinking_loop import THINKING_CASES
from lab.probe.cases.transient import TRANSIENT_CASES
from lab.probe.trial import Setting
from lab.probe.verdict import Case

__all__ = ["CASES", "MORE_OUTCOMES", "Case", "script_tools"]

# The later cases' graded outcomes, and why (the README's "More cases" table).
MORE_OUTCOMES: dict[str, str] = {
    "P13": "fail: a tool_use rewritten or missing (the history lies about what ran); non-strict: "
    "text dropped, changed or moved, or the turn split (the API accepts it; the model loses its "
    "own words); info: the history written as text",
    "P14": "non-strict: asked again sooner, or never (a SHOULD: the API's header is advice); "
    "fail: gave up and exited 0",
    "P15": "fail: exit 0 after giving up, or still asking at the time limit after "
    "20+ tries; info: still waiting at the limit after fewer tries",
    "P16": "fail: a crash parsing the page, or exit 0 after giving up; non-strict: reported but "
    "not retried (a 5xx is transient)",
    "P17": "non-strict: the identical request sent again (wasted, bounded here: the retry gets an "
    "answer the real API would not give); fail: exit 0 without the final answer",
    "P18": "non-strict: the paused text presented as final, or the turn not sent back as is; "
    "info: stopped and said so; fail: a request rejected; n/a: no request declares a server "
    "tool (pause_turn comes only in a server tool's loop: LAB_PROBE_SERVER_TOOL=1 asks for one)",
    "P19": "non-strict: the half answer presented as final (exit 0; a library may mark it on "
    "its result, which the probe cannot see); fail: a request rejected",
    "P20": "non-strict: went on with the refused turn in the history (the docs say continued "
    "refusals follow), or exited 0 (the refusal unreported); fail: a request rejected, or the "
    "run never ended",
    "P21": "non-strict: requests after the final answer; fail: still asking at the time limit, "
    "or the final answer never reached",
    "P22": "fail: a request rejected (an orphaned tool_result) or exit 0 short of the end; info: "
    "gave up and said so",
    "P23": "fail: the human asked (a line in the log), the call run, or no result for it",
    "P10s": "fail: the cut call ran (its canary came back), a rejected request, a hang; info: "
    "not run, and the run ended there. Told apart from P10: a harness that refuses only a cut "
    "input it cannot parse keeps P10s and runs P10's call, whose JSON a lenient parse completes. "
    "Without fine-grained tool streaming the API buffers each parameter until it is whole "
    "(anthropics/anthropic-sdk-python#794): the evidence says whether the harness asked for it",
    "P24": "fail: a request rejected (the thinking dropped, moved or changed with a budget); "
    "non-strict: dropped, moved or changed, and the API took it (adaptive thinking: the model "
    "loses its reasoning); n/a: no request asks for thinking (LAB_PROBE_THINKING=1 asks)",
    "P25": "as P24, for the opaque redacted_thinking block (its data sealed by the fake)",
    "P26": "fail: a request rejected (an image of another type than declared, say), or the run "
    "not ended well; non-strict: the picture never came back as an image (the model cannot see "
    "it); info: it came back as an image beside the tool_result; n/a: the program offers no "
    "read_image tool (LAB_PROBE_IMAGE_TOOL=1 asks for one)",
}
# The evidence grade of the later cases' claims: the API's documented behaviour (【二】), or the
# loop's own rule as the course code has it (【一】).
MORE_GRADES = {case: "【二】" for case in MORE_OUTCOMES} | {"P21": "【一】"}

ORDER = (
    *("P1", "P1s", "P1b", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9", "P10", "P11", "P12"),
    *("P13", "P14", "P15", "P16", "P17", "P18", "P19", "P20", "P21", "P22", "P23"),
    *("P10s", "P24", "P25", "P26"),
)
_ALL = {
    case.id: case
    for case in (
        *STOP_REASON_CASES,
        *BAD_CALL_CASES,
        *TRANSIENT_CASES,
        *RESENDING_CASES,
        *LONG_RUN_CASES,
        *THINKING_CASES,
        *IMAGE_CASES,
    )
}
CASES: list[Case] = [
    replace(_ALL[id], grade=MORE_GRADES[id], outcomes=MORE_OUTCOMES[id])
    if id in MORE_OUTCOMES
    else _ALL[id]
    for id in ORDER
]


def script_tools(setting: Setting) -> frozenset[str]:
    """The tools a request must offer to be the conversation (others are side calls)."""
    names = {setting.call[0]}
    if setting.final is not None:
        names.add(setting.final[0])
    return frozenset(names)
