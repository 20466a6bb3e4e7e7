"""Chinese in the student's line of sight: every observable name, a run's end and a block the
harness wrote carry a Chinese gloss in the zh edition; the name and the wire text stay exact."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from lab.chapter.experiment import load_all, run_experiment
from lab.kernel.observables import STANDARD
from lab.kernel.scenario import Setup
from lab.kernel.trace import ApiRejected, ModelAnswered, RunStarted, StopContinued
from lab.testing.pools import TEXTS
from lab.views import api_words, harness_words
from lab.views.observable_words import GLOSSES, named
from lab.views.report import messages_view
from lab.views.scenario_words import COURSE_SAID, HOOK_SAID, SAID
from lab.views.transcript import transcript

EXPERIMENTS = {e.id: e for e in load_all()}
SHOWN = sorted({name for e in EXPERIMENTS.values() for name in e.expect})
HAN = range(0x4E00, 0xA000)


@pytest.mark.parametrize("name", sorted(set(STANDARD) | set(SHOWN)))
def test_every_observable_has_a_chinese_gloss(name):
    gloss = GLOSSES.get(name, "")
    assert any(ord(c) in HAN for c in gloss), name
    assert named(name, "zh") == f"{name}（{gloss}）" and named(name, "en") == name


def test_lab_run_and_compare_show_the_gloss_beside_the_name(lab):
    code, out, _ = lab("run", "D9", "--lang", "zh")
    assert code == 0 and "（为不合法调用问用户的次数）" in out
    code, out, _ = lab("compare", "course", "--lang", "zh")
    assert code == 0 and "（审计日志记下的被拒调用数）" in out
    joined = out.replace("\n", "")  # the course's crash, as raised, then its Chinese
    assert "“TypeError: course_tools.<locals>.write_file() missing 1 required" in joined
    assert "（TypeError（类型错误）：course_tools.<locals>.write_file() 缺少 1 个必需的" in joined
    # a narrow Chinese column never stacks one character per line
    assert not any(len(line.strip()) == 1 and ord(line.strip()) in HAN for line in out.split("\n"))


@pytest.mark.parametrize("reason", ["done", "turn_limit", "api_error", "bad_answer", "crash"])
def test_every_run_end_is_glossed(reason):
    assert harness_words.ending(reason, "zh").startswith(f"{reason}（")
    assert harness_words.ending(reason, "en") == reason


def test_a_blocked_result_keeps_its_wire_text_and_gains_a_gloss():
    outcome = run_experiment(EXPERIMENTS["D4"])
    console = Console(width=200, record=True, color_system=None)
    console.print(transcript(outcome.before, "zh"))
    text = " ".join(console.export_text().split())
    assert "Blocked at permission: Permission denied." in text  # the wire text, exact
    assert "（在「权限判定」这一关被拦下" in text
    assert "运行结束：done（完成）" in text
    assert harness_words.result_gloss("Wrote 8 bytes", "zh") == ""  # a tool's own output


# -- the scenarios' words: the wire text exact, its Chinese beside it ----------------------------
def said_in(run) -> list[str]:
    """Every prompt the run sent, every text (and thinking) the model said and every reason a
    Stop hook gave to go on, as on the wire."""
    texts = [e.prompt for e in run.trace.of(RunStarted)]
    texts += [e.reason for e in run.trace.of(StopContinued)]  # a Stop hook's reason to go on
    for answer in run.trace.of(ModelAnswered):
        texts += [b["text"] for b in answer.blocks if b["type"] == "text"]
        texts += [b["thinking"] for b in answer.blocks if b["type"] == "thinking"]
    return texts


@pytest.fixture(scope="module")
def runs():
    outcomes = [run_experiment(e) for e in EXPERIMENTS.values()]
    return {o.experiment.id: [r for r in (o.before, o.after) if r is not None] for o in outcomes}


def test_every_prompt_and_model_text_of_every_experiment_has_its_chinese(runs):
    missing = {
        (id, text)
        for id, pair in runs.items()
        for run in pair
        for text in said_in(run)
        if not any(ord(c) in HAN for c in SAID.get(text, ""))
    }
    assert missing == set()
    assert Setup().prompt in SAID  # the default prompt too
    used = {text for pair in runs.values() for run in pair for text in said_in(run)}
    assert set(TEXTS) <= set(SAID)  # what a hunted script says
    # nothing in the table that nothing says (the notebooks' own scripts say "ok")
    assert set(SAID) - used <= {Setup().prompt, *TEXTS, *COURSE_SAID, *HOOK_SAID, "ok"}


def transcript_text(run, lang: str) -> str:
    console = Console(width=200, color_system=None)
    with console.capture() as captured:
        console.print(transcript(run, lang))
    return captured.get()


def test_a_zh_transcript_shows_the_wire_text_then_its_chinese(runs):
    zh, en = (transcript_text(runs["D1"][0], lang) for lang in ("zh", "en"))
    assert (
        "提示词“Summarise the quarterly report in the workspace.”（总结工作区里的季度报告。）" in zh
    )
    assert "文本“Let me look around first.”（我先四处看看。）" in zh
    assert "Let me look around first." in en and "我先四处看看" not in en


def test_the_history_view_in_chinese_glosses_the_prompt_and_the_model_s_text(runs):
    run = runs["D1"][0]
    console = Console(width=200, color_system=None)
    with console.capture() as captured:
        console.print(messages_view(run.messages, lang="zh"))
    shown = captured.get()
    assert "（总结工作区里的季度报告。）" in shown and "（我先四处看看。）" in shown


def test_the_api_s_refusal_stays_exact_and_is_explained_in_chinese(runs):
    zh, en = (" ".join(transcript_text(runs["D29"][1], lang).split()) for lang in ("zh", "en"))
    exact = "Expected `thinking` or `redacted_thinking`, but found `tool_use`."
    assert exact in zh and exact in en
    assert "（API 的意思：开启思考时，工具循环续上的那条助手消息必须以思考块开头）" in zh
    assert "API 的意思" not in en
    # a message the table does not know gets no made-up meaning
    assert api_words.meaning("overloaded", "zh") == ""


def test_every_400_an_experiment_gets_has_its_meaning_in_chinese(runs):
    refused = {
        e.message
        for pair in runs.values()
        for run in pair
        for e in run.trace.of(ApiRejected)
        if e.status == 400
    }
    assert refused and {m for m in refused if not api_words.meaning(m, "zh")} == set()


def test_a_zh_verdict_table_leads_with_the_chapter_s_yes_and_no(lab, monkeypatch):
    monkeypatch.setattr("sys.stdin", io.StringIO("否\n1\n"))
    code, zh, _ = lab("run", "D1", "--predict", "--lang", "zh")
    assert code == 0 and "是 → 否" in zh and "是（True）" in zh and "否（False）" in zh
    assert "True → False" not in zh
    code, en, _ = lab("run", "D1")
    assert code == 0 and "True → False" in en and "是" not in en


def test_the_context_a_hook_adds_to_the_first_message_has_its_chinese(runs):
    zh, en = (" ".join(transcript_text(runs["D14"][0], lang).split()) for lang in ("zh", "en"))
    said = "“Team convention: answers cite the file they come from.”"
    assert said in zh and said in en
    assert f"{said}（团队约定：回答要注明出自哪个文件。）" in zh and "团队约定" not in en


def test_the_hunt_s_finding_and_case_read_in_chinese():
    from lab.notebook import case_view, finding_view
    from lab.testing.search import hunt
    from lab.views.rich_html import to_text

    found = hunt("workspace_wall", examples=40, shrinks=60)
    assert found is not None and found.invariant.name == "containment"
    zh = " ".join(to_text(finding_view(found, "zh").renderable, 200).split())
    assert "被打破的承诺：containment · 工作区围墙" in zh
    assert f"“{found.reason}”（文件工具" in zh  # the check's words exact, then their Chinese
    case = to_text(case_view(found.case, lang="zh").renderable, 200)
    assert "hypothesis 找到的最小用例" in case and "end_turn（隐含）" in case
    assert "文本“Done.”（完成了。）" in case and "(implied)" not in case
    en = to_text(case_view(found.case, lang="en").renderable, 200)
    assert "end_turn (implied)" in en and "text  “Done.”" in en and "完成" not in en


def test_a_hook_s_words_are_quoted_and_glossed_in_chinese():
    from lab.chapter.compare import as_the_course

    course = as_the_course(EXPERIMENTS["D12"].scenario)
    zh, en = (" ".join(transcript_text(course, lang).split()) for lang in ("zh", "en"))
    said = "Permission denied. (deny rule deny list: 'rm -rf /')"
    assert f"permission_hook → “{said}”（权限拒绝（拒绝清单 'rm -rf /'））" in zh
    assert f'permission_hook → "{said}"' in en and "拒绝清单" not in en


def test_what_a_crash_raised_is_quoted_as_data_in_chinese(runs):
    zh, en = (" ".join(transcript_text(runs["D7"][1], lang).split()) for lang in ("zh", "en"))
    assert "运行结束：crash（崩溃） “KeyError" in zh
    assert "”（KeyError（键错误）：号码簿里没有工具 'check_disk' 的处理函数）" in zh  # its Chinese
    assert "run ended: crash KeyError" in en and "键错误" not in en


def test_the_shell_s_complaint_is_quoted_then_said_in_chinese():
    from lab.kernel.scenario import Scenario, run_scenario
    from lab.kernel.switches import Switches
    from lab.model.script import text, tool_use, turn

    script = [turn(tool_use("bash", {"command": "rm /etc/passwd"})), turn(text("Done."))]
    run = run_scenario(Scenario(script=script), Switches())
    zh, en = (" ".join(transcript_text(run, lang).split()) for lang in ("zh", "en"))
    said = "rm: cannot remove '/etc/passwd': Read-only file system"
    gloss = "（rm：无法删除 '/etc/passwd'：只读文件系统；退出状态 1：命令失败了）"
    assert f"执行 0s→1s：“{said} (exit status 1)”{gloss}" in zh  # as sent, then its Chinese
    assert f"tool_result：“{said} (exit status 1)”{gloss}" in zh
    assert said in en and "无法删除" not in en


def test_the_model_s_thinking_has_its_chinese_beside_it(runs):
    zh, en = (" ".join(transcript_text(runs["D29"][0], lang).split()) for lang in ("zh", "en"))
    thought = "“The user wants the notes: read notes.txt before answering.”"
    assert f"思考{thought}（用户想知道笔记内容：先读 notes.txt 再回答。）" in zh
    assert f"thinking {thought}" in en and "用户想知道" not in en
