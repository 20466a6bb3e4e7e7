"""Write the teaching notebooks, without outputs: python notebooks/build_notebooks.py [NAME ...]

Markdown carries the seed's analogies, invariants and takeaways; every code cell draws from the
lab itself (its source, its runs, its trace), so nothing shown here can drift from the code.
"""

from __future__ import annotations

import sys
from pathlib import Path

import nbformat
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

HERE = Path(__file__).resolve().parent
Cell = tuple[str, str]  # ("md" | "py", source)


def md(text: str) -> Cell:
    return ("md", text.strip("\n"))


def py(text: str) -> Cell:
    return ("py", text.strip("\n"))


def write(name: str, cells: list[Cell]) -> Path:
    """One notebook with stable cell ids, so regenerating changes nothing that did not change."""
    notebook = new_notebook(
        metadata={
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
            "language_info": {"name": "python"},
        }
    )
    stem = name.removesuffix(".ipynb")
    for i, (kind, source) in enumerate(cells):
        cell_id = f"{stem[:2]}-{i:02d}"
        if kind == "md":
            notebook.cells.append(new_markdown_cell(source, id=cell_id))
        else:
            notebook.cells.append(new_code_cell(source, id=cell_id))
    nbformat.validate(notebook)
    path = HERE / name
    path.write_text(nbformat.writes(notebook) + "\n", encoding="utf-8")
    return path


def questions_intro() -> Cell:
    return md(
        "## Questions\n\nEach answer is computed from a run and asserted, so a broken lab fails "
        "this notebook. Try to answer before you run the cell."
    )


OVERVIEW: list[Cell] = [
    md("""
# 00 · Overview — one loop, and what hangs outside it

> 一句话本质：它敢在你机器上动手，靠的不是更聪明，是传送带外面挂着的三层可拆卸装置。
>
> *It dares to act on your machine not because it is smarter, but because of the detachable
> layers hung outside the conveyor belt.*

An agent harness is a tiny loop: call the model, run the tool calls in its answer, send the
results back, again. The chapter's point is that the answer to "how do we make it safe and
extensible?" is never a cleverer loop. The loop (**M1 传送带**, the conveyor belt) stays minimal;
capabilities go into a dispatch table (**M2 转接号码簿**, the number book, with calls carried on
**托盘** trays), checks become a row of scanners (**M3 扫码口**), and the gates (**M4 门禁**)
and all extension logic hang on sockets beside the belt (**M5 插线口**).

Each notebook that follows takes one mechanism: the lab's own code for it, the harness stepped
one turn at a time, then one switch flipped and the two runs side by side.
"""),
    py("""
from lab.experiment import load_all, run_experiment
from lab.notebook import Stepper, html, mechanism_map
from lab.report import outcomes_table, switches_view
from lab.scenario import run_scenario
from lab.switches import Switches
"""),
    md("""
## The five mechanisms on one picture

The picture is generated from the code each time this notebook runs: the module docstrings (each
harness module opens with its mechanism tag), the chain's `ORDER`, the gates' order, the hook
events, the switch metadata and the experiment files. The dashed lines name the calls the loop
makes to reach each layer: the loop itself names no check, gate or hook.
"""),
    py("mechanism_map()"),
    md("""
## The switchboard

`Switches()` is the reference harness: every protection on, production semantics. Each flag
breaks exactly one guarantee; its fault, mechanism and experiments are written on the flag itself
(`lab/switches.py`), and this table reads them from there.
"""),
    py("html(switches_view())"),
    md("""
## Every experiment, run now

An experiment is one scenario (a scripted model, a virtual disk, a prompt) run twice: on the
reference harness, then with one switch flipped. The observables are plain-named measurements over
the two runs. This is `lab run` in one table, computed now, not pasted.
"""),
    py("""
outcomes = [run_experiment(e) for e in load_all()]
html(outcomes_table(outcomes))
"""),
    py("""
assert all(o.reproduced for o in outcomes), [o.experiment.id for o in outcomes if not o.reproduced]
len(outcomes)
"""),
    md("""
## Stepping by hand

The mechanism notebooks step the harness one turn at a time with `Stepper` (`lab/notebook.py`).
It wires the harness with the same `build_harness` that `run_scenario` uses, so a stepped run is
the very same run, event for event. Checked here for every experiment, on both sides of its switch:
"""),
    py("""
for e in load_all():
    for switches in (Switches(), Switches().flipped(**e.flips)):
        stepped = Stepper(e.scenario, switches).finish()
        assert stepped.trace.events == run_scenario(e.scenario, switches).trace.events, e.id
"""),
    md("""
## The notebooks

| notebook | what you will see |
|---|---|
| `01_conveyor_belt_M1` | M1 传送带: continue on the content, not `stop_reason` (D1, D1b) |
| `02_dispatch_table_M2` | M2 转接号码簿 + 托盘: the third contract, trays (D7, D8, D18, D19) |
| `03_chain_of_checks_M3` | M3 扫码口: cheap checks first, the human last; the read cap (D9, D17) |
| `04_gates_M4` | M4 门禁: deny → ask → allow; the workspace wall (D4, D10, D11) |
| `05_sockets_M5` | M5 插线口: audit loss, hooks only tighten, the Stop guard (D12–D16) |
| `06_pairing_D3` | the pairing obligation: every tool_use owes a tool_result (D23, D3) |
| `07_hypothesis_hunt` | hypothesis finds a fault by itself and shrinks it to the smallest script |
"""),
]


M1: list[Cell] = [
    md("""
# 01 · M1 传送带 — the conveyor belt (the loop)

**Analogy (类比).** The conveyor belt does one thing: it brings the work to the craftsman (师傅)
and takes back what he hands over. Every turn it makes the same check (验活动作): is there still
work *in his hands*? Yes: keep turning. No: then think about stopping. It looks at his hands, not
at what he says about being done.

**Invariant (不变式).** The loop body answers one question: does this answer's content hold a
`tool_use` block? That is a structural fact (结构事实) the harness observes itself; `stop_reason`
is a declaration (声明) by the model and the transport, and while streaming the two can disagree:
the content already holds a tool call while the marker says `end_turn`.
"""),
    py("""
from lab.harness.loop import Harness
from lab.harness.model_call import ask
from lab.notebook import (
    Pair,
    Stepper,
    call_fates,
    code,
    experiment,
    outcome,
    side_by_side,
    timeline,
    verdict,
)
from lab.observables import turns
from lab.trace import ModelAnswered
"""),
    md("""
## The code

`Harness.step` is one turn. The continue test is `holds_tool_calls`; the marked line is the only
place that reads the switch `trust_stop_reason`.
"""),
    py('code(Harness.step, Harness.holds_tool_calls, highlight="trust_stop_reason")'),
    md("""
The content fact is raised while the stream arrives: `tool_use_seen` turns true the moment a
`tool_use` block *starts*, whatever `stop_reason` the message ends with.
"""),
    py('code(ask, highlight="tool_use_seen = True")'),
    md("""
## One turn at a time

The scenario of experiment D1: the model is asked to summarise a report. Its second answer is the
streaming distortion: it holds a tool call (`cat report.md`) but declares `stop_reason=end_turn`.
Each `step()` runs one turn: one model call and its tool calls. Read a turn as: the model's blocks
and declared stop_reason, each call down the chain (✓ passed, ✗ stopped), the gates, what ran
(in virtual seconds) and the `tool_result` sent back.
"""),
    py("""
d1 = experiment("D1")
belt = Stepper(d1.scenario)
belt.step()
"""),
    md("""
Turn 2: note the warning, the declaration disagrees with the content. The reference loop looks at
the content, so the call goes down the chain and runs.
"""),
    py("belt.step()"),
    md("Turn 3 holds text only: nothing in the craftsman's hands, so the belt stops."),
    py("belt.step()"),
    py('timeline(belt.finish(), "reference harness")'),
    md("""
## Flip the switch: trust the declaration

`Pair.of(d1)` steps the same scenario twice, on the reference harness and with
`trust_stop_reason=True`, and shows each turn side by side. The first event where the two runs
part ways is marked ◀ on both sides.
"""),
    py("""
pair = Pair.of(d1)
pair.step()
"""),
    md("Turn 2 is where they part: the left looks at the content, the right believes `end_turn`."),
    py("pair.step()"),
    py("pair.step()"),
    py("""
reference, trusting = pair.finish()
timeline(trusting, "trust_stop_reason=True")
"""),
    py('verdict(outcome("D1"))'),
    md("""
### The other disagreement (D1b)

Real streams also do the opposite: the declaration says `tool_use` while the content holds no tool
block. A loop that believes the declaration runs zero calls, sends an empty result message, and the
API rejects it.
"""),
    py("""
d1b = outcome("D1b")
titles = ("reference harness", "trust_stop_reason=True")
side_by_side(d1b.before, d1b.after, titles, turns=[2, 3])
"""),
    py("verdict(d1b)"),
    md("""
## Takeaway (口播落点)

> **停止标记是声明，内容块是事实；信声明就会丢活。**
>
> `stop_reason` is a declaration, the content blocks are the fact: trust the declaration and work
> is lost.

There is a second way to keep the belt turning: when the answer holds no tool call, the loop still
asks the Stop socket (`layers.stop_continuation`) whether it may stop. Stopping is not the loop's
decision alone (notebook 05, D16).
"""),
    questions_intro(),
    md(
        "**Q1.** In the D1 scenario, which turn's declaration disagrees with its content, "
        "and what does each say?"
    ),
    py("""
run = outcome("D1").before
disagree = [
    (e.turn, e.stop_reason, e.tool_use_seen)
    for e in run.trace.of(ModelAnswered)
    if (e.stop_reason == "tool_use") != e.tool_use_seen
]
assert disagree == [(2, "end_turn", True)]
disagree
"""),
    md("""
*Answer:* turn 2 declares `end_turn` while its content holds a `tool_use` block: the declaration
lags behind the fact.

**Q2.** What exactly does the trusting loop lose?
"""),
    py("""
fates = call_fates(outcome("D1").after)
assert fates == {"toolu_001": "ran", "toolu_002": "dropped"}
fates
"""),
    md("""
*Answer:* the `cat report.md` call (`toolu_002`) is never looked at: not checked, not run, no
result. The run ends "done", and the report was never read.

**Q3.** In D1b the trusting loop calls the model once more than the reference. Why, and what does
the API answer?
"""),
    py("""
d1b = outcome("D1b")
(rejection,) = d1b.after.api.rejections
assert (turns(d1b.before), turns(d1b.after), rejection.status) == (2, 3, 400)
assert "non-empty content" in rejection.message
rejection.message
"""),
    md("""
*Answer:* believing `tool_use`, it appends an empty result message and asks again; the API rejects
a history with an empty message (HTTP 400). The content said there was nothing to run.
"""),
]


M2: list[Cell] = [
    md("""
# 02 · M2 转接号码簿 — the dispatch table, and its 托盘 trays

**Analogy (类比).** The craftsman uses more and more machines, but the belt needs to know none of
them: it looks the job's name up in a number book (转接号码簿), where each name leads to a handler,
and puts the call through. A batch of jobs is one tray (托盘); in the course a tray carries one job
at a time.

**Invariant (不变式).** Capabilities grow in the table, never in the loop. "Adding a tool touches
two places" (a schema entry, a handler entry) hides a third, implicit contract: since the call is
`handler(**block.input)`, the schema's property names must equal the handler's parameter names
(签名对齐). A name not in the book comes back as an "unknown tool" result, not an exception, so the
loop is immune to invented names. In production, calls are cut into consecutive trays: parallel
inside a tray, strictly ordered between trays, and whether a call may share a tray is decided by
*its input*, not by the tool (`ls` may, `rm` may not).
"""),
    py("""
from lab.harness.batching import Trays
from lab.harness.tools import ToolRegistry, contract_mismatch, invoke
from lab.notebook import Pair, Stepper, code, experiment, outcome, side_by_side, tray_chart, verdict
from lab.observables import makespan_s, stale_reads
from lab.trace import ToolExecuted, ToolRefused
"""),
    md("""
## The code

Registration checks the third contract (the switch `contract_checked`); dispatch turns every
failure of a tool into a result, never an exception.
"""),
    py('code(ToolRegistry.register, contract_mismatch, invoke, highlight="check_contract")'),
    md("""
The trays: `cut` gathers consecutive safe calls, an unsafe call stands alone; `is_safe` asks the
tool about *this call's input* (the switch `concurrency_from_input`).
"""),
    py('code(Trays.is_safe, Trays.cut, highlight="from_input")'),
    md("""
## One turn at a time

Experiment D18's scenario: the model retires `notes.txt` and, in the same answer, checks that it is
gone: `rm notes.txt`, then `cat notes.txt`. `rm` is not read-only, so it gets a tray of its own,
and the `cat` runs after it has finished.
"""),
    py("""
d18 = experiment("D18")
trays = Stepper(d18.scenario)
trays.step()
"""),
    py("trays.step()"),
    md("""
## Flip the switch: concurrency decided by the tool

With `concurrency_from_input=False` a per-tool table says "bash is safe" (because `ls` and `cat`
are), so `rm` and `cat` share a parallel tray. Parallel calls start at the same virtual instant on
the same disk, so the `cat` still sees the file that the `rm` deletes.
"""),
    py("""
pair = Pair.of(d18)
pair.step()
"""),
    md("The same two calls on the virtual clock, both runs on one time axis:"),
    py("""
reference, per_tool = pair.finish()
tray_chart(reference, per_tool, titles=["reference harness", "concurrency_from_input=False"])
"""),
    py('verdict(outcome("D18"))'),
    md("""
### Trays earn their keep (D19)

Eight independent reads: in one parallel tray they take one virtual second; with
`parallel_batches=False` (the course: strictly one call after another) they take eight.
"""),
    py("""
d19 = outcome("D19")
tray_chart(d19.before, d19.after, titles=["reference harness", "parallel_batches=False"])
"""),
    md("""
### A name not in the book (D7), and the unchecked contract (D8)

The model calls `check_disk`, a tool nobody offered. The reference answers with an `is_error`
result and runs the rest of the answer; with `unknown_tool_result=False` the lookup raises and the
run crashes in the middle of the answer.
"""),
    py("""
d7 = outcome("D7")
side_by_side(d7.before, d7.after, ("reference harness", "unknown_tool_result=False"), turns=[1])
"""),
    md("""
D8: a tool whose schema says `file_path` while its handler takes `path`. Checked, it is refused at
registration, at the start of the run; unchecked, and called the course's way (`handler(**input)`
with no `try`), the first call blows up the whole run (运行时直接炸).
"""),
    py("""
d8 = outcome("D8")
side_by_side(d8.before, d8.after, ("reference harness", "the course's dispatch"), turns=[0, 1])
"""),
    md("""
## Takeaway (口播落点)

> **加一个工具，改的是号码簿，不是传送带。**
>
> Adding a tool changes the number book, not the belt.
"""),
    questions_intro(),
    md(
        '**Q1.** "Adding a tool touches two places." What does the registry say about the third '
        "one, for D8's `word_count` tool?"
    ),
    py("""
(refused,) = outcome("D8").before.trace.of(ToolRefused)
assert "['file_path']" in refused.reason and "['path']" in refused.reason
refused.reason
"""),
    md("""
*Answer:* the schema's property names must equal the handler's parameter names. The registry
refuses `word_count` before the model can ever call it.

**Q2.** How long do eight one-second reads take with parallel trays, and without?
"""),
    py("""
d19 = outcome("D19")
answer = (makespan_s(d19.before), makespan_s(d19.after))
assert answer == (1.0, 8.0)
answer
"""),
    md("""
*Answer:* 1 virtual second in one parallel tray, 8 one after another.

**Q3.** In D18, what did `cat notes.txt` return in each run, and which answer is stale?
"""),
    py("""
def cat_output(run):
    cats = [e for e in run.trace.of(ToolExecuted) if e.input == {"command": "cat notes.txt"}]
    return cats[0].output


d18 = outcome("D18")
assert "No such file" in cat_output(d18.before) and cat_output(d18.after) == "old notes"
assert (stale_reads(d18.before), stale_reads(d18.after)) == (0, 1)
cat_output(d18.before), cat_output(d18.after)
"""),
    md("""
*Answer:* the reference reports "No such file": the model's order was kept. The per-tool harness
returns "old notes", a file its predecessor in the same answer had already deleted.
"""),
]


M3: list[Cell] = [
    md("""
# 03 · M3 扫码口 — the chain of checks

**Analogy (类比).** Before a job goes onto the machine it passes a row of scanners (扫码口): is its
shape right (structure), does this machine take it (meaning), is it allowed today (permission)?
Only when all have passed is the power switched on. The cheaper and the less negotiable a check,
the earlier it stands.

**Invariant (顺序不变式).** Structure validation → the tool's own check → pre-hooks → permission →
execution: shape before meaning, meaning before permission, permission before acting. What is
stable is the *order*, not the number of stages. Structural checks are local computation and nearly
free; asking a human is the only step that costs human time, so it comes last, and by then the
obviously illegal calls are gone.
"""),
    py("""
from lab.harness.checks import GATE_FIRST, ORDER, CheckChain, build_chain
from lab.harness.results import ResultCaps
from lab.notebook import Pair, Stepper, code, experiment, outcome, side_by_side, timeline, verdict
from lab.observables import human_prompts_for_invalid_calls, spill_files, wasted_turns
from lab.trace import CheckFailed
"""),
    md("""
## The code

The order lives in one place. The switch `validate_before_gate` swaps in `GATE_FIRST`:
"""),
    py("ORDER, GATE_FIRST"),
    py('code(build_chain, CheckChain.judge, highlight="validate_before_gate")'),
    md("""
## One turn at a time

D9's scenario: the model saves meeting notes with three `write_file` calls. The first lacks
`content`, the second passes a number as `content`, the third is fine. The permissions ask the
human about every call that reaches the gate (`default="ask"`), and the human says yes to all.
"""),
    py("""
d9 = experiment("D9")
chain = Stepper(d9.scenario)
chain.step()
"""),
    md("""
The two malformed calls stop at `validation` and the later stages never see them; only the valid
call reaches the permission stage, and only it costs the human a question.
"""),
    py("chain.step()"),
    md("## Flip the switch: the gate before validation"),
    py("""
pair = Pair.of(d9)
pair.step()
"""),
    md("""
The human now answers three questions, and two of them are about calls that fail validation right
after the "yes".
"""),
    py('verdict(outcome("D9"))'),
    md("""
### A protection that feeds on itself (D17)

A result over the size cap is spilled to a file, and the model gets a preview plus the file's path.
The read tool is exempt (it pages instead), because otherwise reading a big file spills, the model
reads the spill file, which spills again, and so on.
"""),
    py('code(ResultCaps.result, highlight="read_exempt")'),
    py("""
d17 = outcome("D17")
titles = ("reference harness", "read_exempt_from_cap=False")
side_by_side(d17.before, d17.after, titles, turns=[1, 2])
"""),
    py('timeline(d17.after, "read_exempt_from_cap=False")'),
    md("""
## Takeaway (口播落点)

> **越便宜的检查排越前面，人的时间放在最后。**
>
> The cheaper the check, the earlier it stands; the human's time comes last.

Every call stopped anywhere on this chain still owes the model a result: that obligation has its
own notebook, `06_pairing_D3`.
"""),
    questions_intro(),
    md("**Q1.** In the reference run of D9, where was each call stopped?"),
    py("""
run = outcome("D9").before
stopped = {e.call_id: e.stage for e in run.trace.of(CheckFailed)}
assert stopped == {"toolu_001": "validation", "toolu_002": "validation"}
stopped
"""),
    md("""
*Answer:* both malformed calls at `validation`; `toolu_003` passed every stage and ran.

**Q2.** How many questions did the human answer about calls that were malformed anyway, with
validation first and with the gate first?
"""),
    py("""
d9 = outcome("D9")
answer = (human_prompts_for_invalid_calls(d9.before), human_prompts_for_invalid_calls(d9.after))
assert answer == (0, 2)
answer
"""),
    md("""
*Answer:* none with validation first, two with the gate first: the human's time spent on junk.

**Q3.** Reading one big file with the read tool not exempt from the cap: how many spill files, and
how many turns spent chasing them?
"""),
    py("""
d17 = outcome("D17")
answer = {"spill files": spill_files(d17.after), "wasted turns": wasted_turns(d17.after)}
assert answer == {"spill files": 4, "wasted turns": 3} and spill_files(d17.before) == 0
answer
"""),
    md("""
*Answer:* four spill files and three turns spent reading the harness's own pointers; the reference
spills nothing, because the read tool pages instead.
"""),
]


M4: list[Cell] = [
    md("""
# 04 · M4 门禁 — the permission gates, and the workspace wall

**Analogy (类比).** Three gates at the door open in a fixed order: first a welded iron door (hard
deny), then an intercom (ask), only then the open door (allow). Whichever you reach first decides,
and the iron door always stands before the one you can talk your way through.

**Invariant (顺序不变式).** deny → ask → allow; the first match decides, and no amount of rule
detail changes the order: a broad deny covers a narrower allow, and allow cannot punch a hole into
deny. Deny is non-negotiable, consent is negotiable; put the negotiable first and one "yes" voids
the whole deny list. A lesson on net effects too: when the course added the gates (s03), its file
tools lost their hard workspace boundary (`safe_path`), and the wall became a question
(硬墙变成了对讲机).
"""),
    py("""
from lab.harness.permissions import Gates, course_permissions
from lab.notebook import Pair, Stepper, code, experiment, outcome, side_by_side, verdict
from lab.observables import files_lost, human_prompts
from lab.trace import CheckFailed, GateDecision, HumanAsked
"""),
    md("## The code"),
    py('code(Gates.__init__, Gates.judge, highlight="gate_order_correct")'),
    md("The course's gates (s03): a bash-only deny list of substrings, two ask rules, a y/N."),
    py("code(course_permissions)"),
    md("""
## One turn at a time

D4: "tidy up the build output". The model lists the files, then wants a thorough clean:
`rm -rf /`. The human in this replay is unattended and answers `y` to anything.
"""),
    py("""
d4 = experiment("D4")
door = Stepper(d4.scenario)
door.step()
"""),
    md("Turn 2: `rm -rf /` meets the iron door first and is denied without a question."),
    py("door.step()"),
    py("door.step()"),
    md("## Flip the switch: the intercom before the iron door"),
    py("""
pair = Pair.of(d4)
pair.step()
"""),
    py("pair.step()"),
    md("""
The human said `y`; the deny list was never consulted. The workspace is gone (the virtual one: the lab
never touches the host).
"""),
    py('verdict(outcome("D4"))'),
    md("""
## The workspace wall (D10)

The reference keeps the wall in the file tools' own check, a stage *before* any gate, so nobody is
ever asked about an escape. With `workspace_wall=False` (the course since s03), reading
`/etc/passwd` is one "yes" away.
"""),
    py("""
d10 = outcome("D10")
side_by_side(d10.before, d10.after, ("reference harness", "workspace_wall=False"), turns=[1])
"""),
    py("verdict(d10)"),
    md("""
Rules that match command text are no security boundary either: a compound command judged as one
string slips past both an allow and a deny rule (D11), and other spellings slip past any text rule;
only the sandbox holds (D28).
"""),
    py('verdict(outcome("D11"))'),
    md("""
## Takeaway (口播落点)

> **不可协商的拒绝，必须排在可协商的同意前面。**
>
> The non-negotiable deny must come before the negotiable yes.
"""),
    questions_intro(),
    md(
        "**Q1.** In the reference run of D4, which gate decided about `rm -rf /`, and how often "
        "was the human asked?"
    ),
    py("""
run = outcome("D4").before
decision = next(e for e in run.trace.of(GateDecision) if e.call_id == "toolu_002")
assert (decision.gate, decision.decision, human_prompts(run)) == ("deny", "deny", 0)
decision
"""),
    md("""
*Answer:* the deny gate, on the course's deny list; the human was never asked.

**Q2.** With the gates inverted, what was the human asked, what did they answer, and what did it
cost?
"""),
    py("""
run = outcome("D4").after
(asked,) = run.trace.of(HumanAsked)
assert asked.answer == "y" and files_lost(run) == 2
asked.question
"""),
    md("""
*Answer:* the ask rule "Potentially destructive command" put the question first; one `y` and both
files of the workspace were lost (the sandbox kept the system files outside it: D28).

**Q3.** With the wall in place, where is the read of `/etc/passwd` stopped, and does any gate
see it?
"""),
    py("""
run = outcome("D10").before
(stop,) = run.trace.of(CheckFailed)
assert stop.stage == "tool_check" and run.trace.of(GateDecision) == []
stop.reason
"""),
    md("""
*Answer:* at `tool_check`, the tool's own check, before the gates: no gate decides and no human is
asked. Without the wall only the ask gate stands in the way.
"""),
]


M5: list[Cell] = [
    md("""
# 05 · M5 插线口 — the hook sockets

**Analogy (类比).** Beside the belt runs a row of sockets (插线口): devices can be plugged in before
and after each kind of job. In the course they power up in plug order, and the first one that says
"stop" cuts the power: the ones after it do not run this time. Sockets can add devices; they cannot
change the belt's lock (锁芯).

**Invariant (不变式).** Event name → callbacks in registration order. In the course the first
non-None result short-circuits, permission is simply the first PreToolUse callback, and what
UserPromptSubmit and PostToolUse return is thrown away. In production (the reference harness here)
every matching hook runs, decisions merge deny > ask > allow, and a hook's "allow" never gets past a
deny or ask rule: sockets can only tighten. A Stop hook can send the loop round again, so the loop
needs a guard: `stop_hook_active`, and a cap on consecutive blocks.
"""),
    py("""
from lab.harness.hooks import Sockets
from lab.notebook import (
    Pair,
    Stepper,
    code,
    experiment,
    html,
    outcome,
    side_by_side,
    timeline,
    verdict,
)
from lab.observables import files_lost, turns
from lab.report import outcomes_table
from lab.trace import GateDecision, HookFired
"""),
    md("""
## The code

`fire` runs one event's callbacks; the switch decides whether the first answer short-circuits.
"""),
    py('code(Sockets.fire, highlight="self.course")'),
    md("The Stop socket, with its guard:"),
    py('code(Sockets.stop, highlight="guard")'),
    md("""
## One turn at a time: the audit log (D12)

An audit hook records every call it sees, beside deny rules for `rm` and `sudo`. The model lists
the files, then tries two removals.
"""),
    py("""
d12 = experiment("D12")
sockets = Stepper(d12.scenario)
sockets.step()
"""),
    md("""
Every PreToolUse hook runs, and permission is a stage of its own after the hooks: the audit log
sees all three calls, including the two that are then denied.
"""),
    py("sockets.step()"),
    md("## Flip the switch: the course's hook semantics"),
    py("""
pair = Pair.of(d12)
pair.step()
"""),
    md("""
With `course_hook_semantics=True`, permission is just the first PreToolUse callback; its denial
short-circuits, and `audit_log` is skipped for exactly the calls it most needed to record.
"""),
    py('verdict(outcome("D12"))'),
    md("""
## Hooks only tighten (D15)

A convenience hook approves every shell command, and a deny rule covers `rm`. Before Claude Code
v2.1.77 a hook's "allow" skipped the rules (`hooks_may_loosen=True`).
"""),
    py("""
d15 = outcome("D15")
side_by_side(d15.before, d15.after, ("reference harness", "hooks_may_loosen=True"), turns=[1])
"""),
    py("verdict(d15)"),
    md("""
## The Stop guard (D16)

A Stop hook asks for one more pass and relies on `stop_hook_active` to let the loop stop the second
time. Without the guard the flag never comes, and the loop runs to its turn limit.
"""),
    py("""
d16 = outcome("D16")
timeline(d16.before, "reference harness")
"""),
    py('timeline(d16.after, "stop_hook_guard=False")'),
    md("""
The course's two other socket quirks, measured: a PostToolUse result that silently skips the later
callbacks (D13), and a "context" hook whose return value nobody reads (D14).
"""),
    py('html(outcomes_table([outcome("D13"), outcome("D14"), d16]))'),
    md("""
## Takeaway (口播落点)

> **插线口只能收紧，不能放松。**
>
> Sockets can only tighten, never loosen.
"""),
    questions_intro(),
    md("**Q1.** Which calls did the audit log see under each semantics?"),
    py("""
def audited(run):
    return [e.call_id for e in run.trace.of(HookFired) if e.hook == "audit_log"]


d12 = outcome("D12")
assert audited(d12.before) == ["toolu_001", "toolu_002", "toolu_003"]
assert audited(d12.after) == ["toolu_001"]
audited(d12.before), audited(d12.after)
"""),
    md("""
*Answer:* the reference logs all three; the course logs only the `ls`. The two denied calls, the
ones an audit exists for, vanish from the log.

**Q2.** A hook answers "allow" to `rm -rf src` while a deny rule covers `rm`. Who decides?
"""),
    py("""
d15 = outcome("D15")
gates = [(e.gate, e.decision) for e in d15.before.trace.of(GateDecision)]
assert gates == [("deny", "deny")] and files_lost(d15.before) == 0
assert files_lost(d15.after) == 1
gates
"""),
    md("""
*Answer:* the deny rule: the hook's allow only goes on to the gates, and the deny gate comes first.
With hooks that may loosen, `src` is gone.

**Q3.** How many model calls does one "double-check" Stop hook cost, with and without the guard?
"""),
    py("""
d16 = outcome("D16")
answer = (turns(d16.before), turns(d16.after), d16.after.ended)
assert answer == (2, 12, "turn_limit")
answer
"""),
    md("""
*Answer:* two with the guard (the second Stop sees `stop_hook_active` and lets go), twelve without:
the run only ends at the turn limit.
"""),
]


PAIRING: list[Cell] = [
    md("""
# 06 · The pairing obligation (D23, D3): every tool_use owes a tool_result

From the seed's gates section: a denied call is not simply skipped. First a tool result saying
"denied" is appended (被拒也要补一条结果), then the loop goes on. This is the obligation the
execution layer leaves to the memory layer (③ 记忆管理): every tool call is answered by exactly one
result in the very next message, or the history is no longer legal and the API refuses it. The same
holds when the history is trimmed: a `tool_use` and its `tool_result` are kept or dropped together.
"""),
    py("""
from lab.harness.pairing import Pairing
from lab.notebook import Pair, Stepper, code, experiment, html, outcome, side_by_side, verdict
from lab.observables import pairs_intact
from lab.report import messages_view
from lab.trace import ResultAppended
"""),
    md("## The code\n\nThe result owed to a stopped call, and trimming in pairs:"),
    py('code(Pairing, highlight="self.protected")'),
    md("The observable that checks the obligation on a final history:"),
    py("code(pairs_intact)"),
    md("""
## One turn at a time

D23: "clean up the workspace", with a deny rule for `rm`. The model lists the files and, in the same
answer, tries to remove the cache.
"""),
    py("""
d3 = experiment("D23")
ledger = Stepper(d3.scenario)
ledger.step()
"""),
    md("""
The denied `rm -rf tmp` gets its own `tool_result`, marked `is_error`, so the model learns it was
blocked and says so.
"""),
    py("ledger.step()"),
    py('html(messages_view(ledger.finish().messages, "the history, every tool_use answered"))'),
    md("## Flip the switch: no result for a stopped call"),
    py("""
pair = Pair.of(d3)
pair.step()
"""),
    py("pair.step()"),
    py("""
protected, unprotected = pair.finish()
html(messages_view(unprotected.messages, "the history the API rejected"))
"""),
    py('verdict(outcome("D23"))'),
    md("""
## Trimming in pairs (D3)

The history is trimmed to the last 3 messages before each call (`keep_last=3`), an odd window: the
kept tail opens on a `tool_result` message. Protected, the trimmer pulls its `tool_use` message in
as well; unprotected, it cuts between them.
"""),
    py("""
d3b = outcome("D3")
side_by_side(d3b.before, d3b.after, ("reference harness", "pair_protection=False"), turns=[4])
"""),
    py("""
sent = d3b.after.api.requests[-1]["messages"]
html(messages_view(sent, "sent in turn 4, unprotected"))
"""),
    py("verdict(d3b)"),
    md("""
## Takeaway (口播落点)

> **被拒也要补一条结果。**
>
> A denial is a result too: every `tool_use` owes a `tool_result`, or the history is invalid and
> the API rejects the next request.
"""),
    questions_intro(),
    md("**Q1.** Which call was left without a result, and what did the API say?"),
    py("""
(rejection,) = outcome("D23").after.api.rejections
assert rejection.status == 400 and "toolu_002" in rejection.message
rejection.message
"""),
    md("""
*Answer:* `toolu_002`, the denied `rm -rf tmp`: the API names it and refuses the whole request.

**Q2.** What did the reference send back for the denied call?
"""),
    py("""
run = outcome("D23").before
denied = next(e for e in run.trace.of(ResultAppended) if e.call_id == "toolu_002")
assert denied.is_error and denied.content.startswith("Blocked at permission")
assert pairs_intact(run)
denied.content
"""),
    md("""
*Answer:* an `is_error` result naming the stage that stopped it and why.

**Q3.** Why is the unprotected trimmed history of D3 illegal?
"""),
    py("""
sent = outcome("D3").after.api.requests[-1]["messages"]
kept_result = sent[2]["content"][0]
uses = [b["id"] for m in sent if isinstance(m["content"], list) for b in m["content"] if "id" in b]
assert kept_result["type"] == "tool_result" and kept_result["tool_use_id"] == "toolu_002"
assert "toolu_002" not in uses
kept_result
"""),
    md("""
*Answer:* it keeps `toolu_002`'s result but trimmed away the assistant message holding
`toolu_002`'s `tool_use`: a result that answers nothing.
"""),
]


HUNT: list[Cell] = [
    md("""
# 07 · Hypothesis hunts a fault down by itself

Every notebook so far used a hand-written scenario that already knew where to look. Here nobody
writes the scenario. `lab/testing` states the reference harness's promises once, as named
invariants (不变式), each a plain query over a finished run. Hypothesis then generates whole
conversations (a script of turns with tool calls, files, permission rules, the human's answers,
hooks), runs each one under a set of switches, and checks every invariant. When one breaks,
hypothesis shrinks the conversation to the smallest one that still breaks it.

The search is deterministic (derandomized, no example database) and bounded, so this notebook
finds the same cases every time it runs.
"""),
    py("""
from lab.notebook import Pair, case_view, code, invariants_view, matrix_view
from lab.switches import Switches
from lab.testing import BY_NAME
from lab.testing.search import hunt, kill_matrix, search
"""),
    md("""
## The promises

The lab's invariants, read from `lab/testing/invariants.py`. The last column but one says whether
the course's harness (`Switches.course()`) keeps the promise too.
"""),
    py("invariants_view()"),
    md("Each one is a function over a `Run`; the wall, for example:"),
    py('code(BY_NAME["containment"].check)'),
    md("""
## The reference harness keeps them

A short search against `Switches()`: generated cases, every invariant checked on every run.
"""),
    py("""
clean = search(Switches(), examples=30, shrinks=0)
assert clean == {}, sorted(clean)
"""),
    md("""
## The hunt: take the wall down

`hunt` flips one switch and searches for the smallest case that breaks any invariant. Here it is
`workspace_wall`, the boundary the course's s03 dropped when it added the gates.
"""),
    py("code(hunt)"),
    py("""
finding = hunt("workspace_wall", examples=40, shrinks=60)
finding.invariant.title, finding.reason
"""),
    py('case_view(finding.case, "the smallest case hypothesis found")'),
    md("""
It was found, not written. Compare it with D10, the hand-written experiment of notebook 04.

## The found case, stepped both ways

A found case is an ordinary scenario, so the same `Pair` as in the other notebooks steps it on the
reference harness and with the switch flipped.
"""),
    py("""
pair = Pair(finding.case.scenario(), Switches(), Switches(workspace_wall=False))
pair.step()
"""),
    py("""
reference, without_wall = pair.finish()
pair.view()
"""),
    md("""
## A second hunt: hooks that loosen

The switch of D15: a PreToolUse hook's "allow" skips the rules.
"""),
    py("""
loosen = hunt("hooks_may_loosen", examples=30, shrinks=40)
case_view(loosen.case, f"breaks {loosen.invariant.title}: {loosen.reason}")
"""),
    md("""
## The kill matrix

Every switch flipped alone against every invariant: ✗ where hypothesis found a case that breaks it.
The budget here is tiny (a few cases per switch) so that it runs in seconds; a bigger budget
catches more.
"""),
    py("""
matrix = kill_matrix(examples=5, shrinks=3)
matrix_view(matrix)
"""),
    py('f"{matrix.caught} of {len(matrix.rows)} switches caught with this budget"'),
    md("""
## Takeaway

> An invariant (不变式) is a promise stated once for every run. Hypothesis is the tireless student
> who tries the conversations nobody thought of, and brings back the smallest one that breaks it.
"""),
    questions_intro(),
    md("**Q1.** Is the fault in the found case, or in the switch?"),
    py("""
check = finding.invariant.check
assert check(finding.case.run(Switches())) is None
assert check(finding.case.run(Switches(workspace_wall=False))) is not None
finding.invariant.name
"""),
    md("""
*Answer:* in the switch: on the reference harness the same case keeps the promise.

**Q2.** Which invariants catch D1's switch, `trust_stop_reason`, in the matrix?
"""),
    py("""
row = next(r for r in matrix.rows if r.switch == "trust_stop_reason")
assert "continuation" in row.findings
sorted(row.findings)
"""),
    md("""
*Answer:* at least `continuation`, the promise of M1: the model is called again exactly when the
content held a tool call.

**Q3.** Does the reference harness break any invariant in the matrix?
"""),
    py("""
assert matrix.reference.findings == {}
matrix.reference.findings
"""),
    md("*Answer:* no: every ✗ in the matrix is the work of one flipped switch."),
]


NOTEBOOKS: dict[str, list[Cell]] = {
    "00_overview.ipynb": OVERVIEW,
    "01_conveyor_belt_M1.ipynb": M1,
    "02_dispatch_table_M2.ipynb": M2,
    "03_chain_of_checks_M3.ipynb": M3,
    "04_gates_M4.ipynb": M4,
    "05_sockets_M5.ipynb": M5,
    "06_pairing_D3.ipynb": PAIRING,
    "07_hypothesis_hunt.ipynb": HUNT,
}


def main(names: list[str]) -> None:
    for name, cells in NOTEBOOKS.items():
        if not names or name in names:
            print(write(name, cells).relative_to(HERE.parent))


if __name__ == "__main__":
    main(sys.argv[1:])
