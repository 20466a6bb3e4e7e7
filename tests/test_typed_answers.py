"""The checker reads answers as students type them: for every question of the bank, forms a class
types in English and Chinese, each with the mark it must get (✓ or ✗), compared with the answer
the code computes (or, for the questions a notebook's own run answers, the teacher key's value)."""

from __future__ import annotations

import re

import pytest

from lab.classroom.answer_key import answer_of
from lab.classroom.predict import Verdict, check
from lab.classroom.questions import QUESTIONS
from lab.classroom.reading import glossed, same, shown
from lab.teacher.one_language import pick

RIGHT, WRONG = True, False

# question: (forms marked right, forms marked wrong), as typed (text) or as written in a cell.
TYPED: dict[str, tuple[tuple[object, ...], tuple[object, ...]]] = {
    "C.1": (("11", 11, "十一", "十一个", "11 个开关", "eleven", " 11 "), ("10", "十", "两个", 0)),
    "M1.1": (
        ("2", 2, "第二轮", "第 2 轮", "turn 2", "二", "two"),
        ("1", "第一轮", "3", "end_turn"),
    ),
    "M1.2": (
        ("dropped", "丢弃", "被丢弃", "丢了", "Dropped", "lost", "被丢掉"),
        ("ran", "执行了", "stopped", "被拦下", "跑了"),
    ),
    "M1.3": (
        ("(3, 400)", (3, 400), [3, 400], "3, 400", "三次，400", "3 次 HTTP 400", "3和400"),
        ("(2, 400)", "3, 200", "400, 3", "三次"),
    ),
    "M2.1": (
        ("at registration", "注册时", "在注册时", "registration", "登记时", "At Registration"),
        ("at the first call", "第一次调用时", "调用时", "first call"),
    ),
    "M2.3": (
        (True, "True", "true", "是", "能", "yes", "能读到", "会"),
        (False, "False", "否", "不能", "读不到", "no"),
    ),
    "M2.2": (
        ("1, 8", "(1, 8)", (1, 8), "1秒和8秒", "一秒和八秒", "1 和 8", "1.0, 8.0", "1 8"),
        ("8, 1", "(8, 8)", "1秒", "1, 1"),
    ),
    "M3.1": (
        ("validation", "结构校验", "在结构校验", "结构校验阶段", "schema validation", "Validation"),
        ("tool_check", "工具自校验", "权限判定", "前置钩子", "ask"),
    ),
    "M3.2": (
        ("(0, 2)", (0, 2), "0, 2", "0 和 2", "零个和两个", "0个，2个", "没有, 2"),
        ("(2, 0)", "(0, 0)", "2, 2", "两个"),
    ),
    "M3.3": (
        ("(4, 3)", (4, 3), "4, 3", "四个和三轮", "4个溢写文件，3轮", "四、三"),
        ("(3, 4)", "(1, 1)", "4", "五和三"),
    ),
    "M4.1": (
        ("deny", "硬拒绝", "拒绝清单", "拒绝", "the deny gate", "Deny", "deny list", "硬拒绝门"),
        ("ask", "需询问", "allow", "放行", "工具自校验"),
    ),
    "M4.2": (
        (True, "True", "是", "执行了", "会", "yes", "执行"),
        (False, "否", "没执行", "没有执行", "不会", "no"),
    ),
    "M4.3": (
        ("tool_check", "工具自校验", "tool check", "自校验", "the tool's own check", "Tool-Check"),
        ("validation", "结构校验", "deny", "需询问", "权限判定"),
    ),
    "M5.1": (
        ('["toolu_001"]', ["toolu_001"], "toolu_001", ("toolu_001",), "001", "只有 toolu_001"),
        (
            '["toolu_001", "toolu_002"]',
            "toolu_001 和 toolu_003",
            "toolu_002",
            "toolu_001, toolu_002, toolu_003",
            "[]",
        ),
    ),
    "M5.2": (
        ("deny", "硬拒绝", "拒绝规则", "拒绝", "the deny rule", "deny rule"),
        ("hook", "钩子", "allow", "放行", "ask"),
    ),
    "M5.3": (
        ("(2, 12)", (2, 12), "2, 12", "2次和12次", "两次、十二次", "2 12"),
        ("(12, 2)", "(2, 2)", "12", "1, 12"),
    ),
    "P.2": (
        (True, "True", "是", "标了", "yes", "对"),
        (False, "False", "否", "没标", "没有"),
    ),
    "P.1": (
        ("toolu_002", "002", "2", "第二个", "Toolu_002", "`toolu_002`"),
        ("toolu_001", "toolu_003", "1", "第三个"),
    ),
    "P.3": (
        ("toolu_002", "002", "2", "第二个调用", "toolu_002 ", "2号"),
        ("toolu_001", "toolu_004", "第一个", "3"),
    ),
    "H.1": (
        (True, "True", "是", "守住", "会", "yes", "能守住"),
        (False, "False", "否", "守不住", "no"),
    ),
    "H.2": (
        (True, "True", "会", "是", "抓得住", "yes"),
        (False, "False", "不会", "抓不住", "no"),
    ),
    "H.3": (
        ("0", 0, "零", "0 个", "没有", "none", "zero"),
        ("1", "一个", "3", "两个"),
    ),
    "R.1": (("1", 1, "一个", "1 个请求", "one", "一"), ("2", "两个", "0", "three")),
    "R.2": (
        (
            "trust_stop_reason",
            "trust stop reason",
            "`trust_stop_reason`",
            "Trust_Stop_Reason",
            " trust_stop_reason ",
        ),
        ("parallel_batches", "stop_reason", "validate_before_gate"),
    ),
    "R.3": (("0", 0, "零", "退出码 0", "zero", "exit 0"), ("1", "2", "一", "非零")),
    "A.1": (("1", 1, "一件", "1 件", "one", "一个"), ("2", "两件", "0", "没有")),
    "A.2": (("3", 3, "三处", "3 处", "three", "三个地方", "三"), ("2", "两处", "4", "two")),
    "A.3": (
        ("question", "问一下用户", "对讲机", "问人", "ask", "一句问话", "a question"),
        ("wall", "墙", "硬墙", "nothing", "什么都没有"),
    ),
    "A.4": (("0", 0, "零", "0 个", "没有", "none", "一个也没有"), ("1", "一个", "3", "全部")),
}

CASES = [
    (id, form, mark)
    for id, (rights, wrongs) in TYPED.items()
    for forms, mark in ((rights, RIGHT), (wrongs, WRONG))
    for form in forms
]


def answer(id: str) -> object:
    return answer_of(QUESTIONS[id])[0]


def test_the_table_covers_every_question_with_enough_forms():
    assert set(TYPED) == set(QUESTIONS)
    for id, (rights, wrongs) in TYPED.items():
        assert len(rights) >= 5 and len(wrongs) >= 3, id
        chinese = [f for f in (*rights, *wrongs) if isinstance(f, str) and not f.isascii()]
        assert chinese or id in ("R.2",), f"{id}: no Chinese form"  # R.2 names a switch


@pytest.mark.parametrize(("id", "typed", "mark"), CASES, ids=[f"{c[0]}:{c[1]!r}" for c in CASES])
def test_a_typed_answer_gets_its_mark(id, typed, mark):
    question = QUESTIONS[id]
    verdict = Verdict(question, typed, answer(id), "zh")
    assert verdict.right is mark
    if not mark:  # a ✗ never shows two equal values
        table = repr(verdict).split("为什么")[0]
        lines = [line.split(None, 1)[-1].strip() for line in table.splitlines()[2:4]]
        assert lines[0].split("  (")[0] != lines[1], table


def test_the_counts_printed_for_the_report(capsys):
    rights = sum(mark for _, _, mark in CASES)
    with capsys.disabled():
        print(
            f"\ntyped answers: {rights} right forms, {len(CASES) - rights} wrong forms, "
            f"{len(TYPED)} questions"
        )
    assert rights >= 5 * len(TYPED) and len(CASES) - rights >= 3 * len(TYPED)


@pytest.mark.parametrize("nothing", [None, "", "   ", ...])
def test_no_prediction_reveals_nothing(nothing):
    shown = repr(check("M4.1", nothing, "zh"))
    assert "还没有预测" in shown and "deny" not in shown and "硬拒绝" not in shown
    assert not check("M4.1", nothing, "en").right


@pytest.mark.parametrize(
    ("id", "typed", "belief"),
    [("M4.1", "放行", "allow"), ("M1.2", "执行了", "ran"), ("M4.3", "结构校验", "validation")],
)
def test_a_wrong_answer_with_a_typical_cause_is_told_its_own_misconception(id, typed, belief):
    question = QUESTIONS[id]
    (own,) = [b for answer, b in question.wrong if answer == belief]
    shown = repr(check(id, typed, "zh"))
    assert own["zh"].split("：")[0] in shown
    assert question.misconception["zh"].split("：")[0] not in shown


def test_the_stage_names_of_the_chapter_read_as_the_stages():
    stages = {
        "号码簿查名": "known_tool",
        "结构校验": "validation",
        "工具自校验": "tool_check",
        "前置钩子": "hooks",
        "权限判定": "permission",
    }
    for name, stage in stages.items():
        assert same(name, stage) and same(stage.replace("_", " "), stage)
        assert not any(same(name, other) for other in stages.values() if other != stage)


def test_predict_on_the_command_line_reads_yes_and_no_in_chinese(monkeypatch, capsys):
    import io

    from lab.cli import main

    monkeypatch.setattr("sys.stdin", io.StringIO("否\n一\n"))
    code = main(["run", "D1", "--predict", "--lang", "zh"])
    out = capsys.readouterr().out
    assert code == 0 and "你的预测：2 个中对了 2 个" in out
    monkeypatch.setattr("sys.stdin", io.StringIO("是\n一\n"))
    main(["run", "D1", "--predict", "--lang", "zh"])
    assert "你的预测：2 个中对了 1 个" in capsys.readouterr().out


# -- in Chinese, the chapter's words lead -------------------------------------------------------
CJK = re.compile(r"[\u4e00-\u9fff]")


@pytest.mark.parametrize("id", sorted(QUESTIONS))
def test_in_chinese_the_form_of_an_answer_is_the_chapter_s_words(id):
    """The zh edition keeps the Chinese half of the form: no answer word in English there."""
    zh = pick(QUESTIONS[id].form, "zh")
    assert CJK.search(zh) and not re.search(r"[A-Za-z]{3,}", zh.replace("toolu", "")), zh


@pytest.mark.parametrize("id", sorted(QUESTIONS))
def test_in_chinese_every_why_opens_with_a_chinese_word(id):
    question = QUESTIONS[id]
    answer, _ = answer_of(question)
    verdict = Verdict(question, answer, answer, "zh")
    why = next(line for line in repr(verdict).splitlines() if line.startswith("为什么"))
    opening = why.removeprefix("为什么：").strip()
    assert CJK.match(opening), why


@pytest.mark.parametrize(
    "value, shown_zh",
    [
        ("dropped", "被丢弃（dropped）"),
        ("stopped", "被拦下（stopped）"),
        ("ran", "执行了（ran）"),
        (True, "是（True）"),
        (False, "否（False）"),
        ("deny", "硬拒绝（deny）"),
        ("validation", "结构校验（validation）"),
        (("known_tool", "hooks"), "号码簿查名（known_tool）、前置钩子（hooks）"),
        (3, "3"),
        ("toolu_002", "toolu_002"),
    ],
)
def test_a_value_shown_in_chinese_leads_with_the_chapter_s_word(value, shown_zh):
    assert glossed(value, "zh") == shown_zh
    assert glossed(value, "en") == shown(value)


def test_the_computed_line_of_a_chinese_verdict_leads_with_the_chapter_s_term():
    text = re.sub(r" +", " ", repr(check("M1.2", "ran", "zh")))
    assert "代码算出 被丢弃（dropped）" in text
    assert "你的预测 ran (读作 执行了（ran）)" in text
    assert "为什么：被丢弃（dropped）：" in text
    assert "why: dropped:" in repr(check("M1.2", "ran", "en"))
