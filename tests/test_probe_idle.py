"""A trial's time limit counts idle time only: a working program is not stopped, a wait the fake
asked for is not idleness, and a cut cell says why it was cut and whether the program was still
making progress — inconclusive when the probe's own machine was too busy to judge."""

from __future__ import annotations

import subprocess
import sys
import time

from tapped import reply_to

from lab.kernel.record import Wire
from lab.model.script import rate_limited
from lab.probe.catalogue import BY_ID
from lab.probe.conversation import Played
from lab.probe.grades import INCONCLUSIVE, INFO
from lab.probe.idle import Progress, ended_within, session_usage, wait_while_working
from lab.probe.trial import Exchange, Exit, Setting, Trial
from lab.probe.verdict import judged_on_a_free_machine, not_waiting_to_retry, verdict
from lab.probe.wire_promises import ended

SETTING = Setting("P6", "CANARY", ("read_file", {"path": "notes.txt"}), None, "[m]", "[m] go")


def started(code: str) -> subprocess.Popen:
    """A Python program in a session of its own, as the probe starts a target."""
    return subprocess.Popen([sys.executable, "-c", code], start_new_session=True)


def stopped(process: subprocess.Popen) -> None:
    process.kill()
    process.wait()


def test_a_sleeping_program_is_stopped_once_idle_for_the_limit():
    process = started("import time; time.sleep(60)")
    try:
        progress = wait_while_working(ended_within(process), process.pid, 0.5, Wire())
    finally:
        stopped(process)
    assert progress is not None and progress.reason == "idle"
    assert progress.idle >= 0.5 and progress.last_request is None


def test_a_program_using_cpu_is_not_idle_and_its_cpu_is_counted():
    # 1.5 CPU seconds of work under a 0.5 s idle limit: it ends by itself, however long the
    # machine takes to give it those seconds (the cap set far away for the test).
    code = "import time\nwhile time.process_time() < 1.5: pass"
    process = started(code)
    try:
        progress = wait_while_working(ended_within(process), process.pid, 0.5, Wire(), cap=1000)
    finally:
        stopped(process)
    assert progress is None
    burner = started("while True: pass")
    try:
        time.sleep(0.5)
        usage = session_usage(burner.pid)
    finally:
        stopped(burner)
    assert usage is not None and usage[1] is True  # runnable (or running): not idle
    assert session_usage(-1) == (0.0, False)  # no process of ours in that session


def test_a_wait_the_fake_asked_for_is_not_idle():
    # The program sleeps 2 s as told by a retry-after of 3 s: a 1 s idle limit does not stop it.
    wire = Wire(last_request=time.monotonic(), told_until=time.monotonic() + 3.0)
    process = started("import time; time.sleep(2)")
    try:
        progress = wait_while_working(ended_within(process), process.pid, 1.0, wire)
    finally:
        stopped(process)
    assert progress is None
    # Untold, the same sleep is idle.
    process = started("import time; time.sleep(2)")
    try:
        progress = wait_while_working(ended_within(process), process.pid, 1.0, Wire())
    finally:
        stopped(process)
    assert progress is not None and progress.reason == "idle"


def test_after_a_transient_fault_a_program_may_stay_quiet_for_two_limits():
    # A back-off of its own as long as the limit (smolagents waits 60 s after a 429) is not cut
    # by a race with the clock: 1.5 s of quiet under a 1 s limit, after a 429.
    process = started("import time; time.sleep(1.5)")
    try:
        wire = Wire(last_request=time.monotonic(), after_fault=True)
        progress = wait_while_working(ended_within(process), process.pid, 1.0, wire)
    finally:
        stopped(process)
    assert progress is None


def test_a_busy_program_is_stopped_at_the_cap_and_says_it_was_still_making_progress():
    process = started("while True: pass")
    try:
        progress = wait_while_working(ended_within(process), process.pid, 0.3, Wire())
    finally:
        stopped(process)
    assert progress is not None and progress.reason == "cap"
    assert progress.wall >= 1.5 and progress.cpu > 0 and progress.computing > 0.5
    assert "while still making progress: no request" in progress.line(0.3)


# ---- what a cut cell reads ----------------------------------------------------------------------
def cut(progress: Progress, *, after_fault: bool) -> Trial:
    """A P6 trial stopped at the limit: its one request answered with a 429 (retry-after 1 s),
    or with the script's answer."""
    stages = BY_ID["P6"].script(SETTING)
    step = rate_limited(1.0) if after_fault else stages[0].answer
    kind = "fault" if after_fault else "answer"
    played = Played(1, 0, 1, kind, step, False, False)
    code = 429 if after_fault else 200
    exchange = Exchange(1, "POST", "/v1/messages", {}, code, "", played, reply=reply_to(step))
    return ended(Trial("hand", SETTING, stages, [exchange], Exit(None, "", 1.0, progress)))


P6 = BY_ID["P6"]


def test_a_run_quiet_since_a_429_when_the_limit_came_reads_info_with_that_fact():
    progress = Progress("idle", 61.0, 60.0, 0.4, 1.0, 0.1)
    trial = cut(progress, after_fault=True)
    assert not_waiting_to_retry(trial) == (
        "still waiting to ask again after request #1's 429 (retry-after 1 s) when the limit "
        "came; it may have retried"
    )
    said = verdict(P6, trial)
    assert (said.kind, said.because) == (INFO, not_waiting_to_retry(trial))
    # Still inside a long retry-after when the cap came: the same fact.
    told = Progress("cap", 300.0, 0.0, 0.4, 1.0, 20.0, computing=0.0, told=True)
    assert verdict(P6, cut(told, after_fault=True)).kind == INFO
    # Quiet after a script answer, the case's own rules decide, the limit's facts in evidence.
    answered = cut(progress, after_fault=False)
    assert not_waiting_to_retry(answered) is None and judged_on_a_free_machine(answered) is None
    own = verdict(P6, answered)
    assert own.kind not in (INFO, INCONCLUSIVE)
    assert own.evidence[-1].startswith("timed out: idle for 60 s, stopped after 61 s")


def test_a_run_still_busy_at_the_cap_on_a_loaded_machine_is_inconclusive_not_a_fail():
    busy = Progress("cap", 300.0, 0.0, 12.0, 250.0, 20.0, computing=0.9)
    said = verdict(P6, cut(busy, after_fault=False))
    assert said.kind == INCONCLUSIVE
    assert said.because.startswith("machine busy: stopped after 300 s (5× the 1 s limit)")
    assert "its last request at 250.0 s, 12.0 CPU s used, load 20.0 per core" in said.because
    # On an idle machine a run busy for five limits is the target's: no limit rule applies.
    calm = Progress("cap", 300.0, 0.0, 290.0, 250.0, 0.5, computing=1.0)
    assert judged_on_a_free_machine(cut(calm, after_fault=True)) is None
    assert not_waiting_to_retry(cut(calm, after_fault=True)) is None
    # Only talking (a retry loop: requests, little CPU), even on a loaded machine: the program's.
    talking = Progress("cap", 300.0, 0.0, 3.0, 299.0, 20.0, computing=0.1)
    assert judged_on_a_free_machine(cut(talking, after_fault=True)) is None
    assert not_waiting_to_retry(cut(talking, after_fault=True)) is None
