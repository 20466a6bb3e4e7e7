"""The teacher's answer key, written from the question bank: per question the answer, the words
also accepted, and the misconception it targets, in Chinese and English.

    python -m lab.classroom.answer_key > docs/teacher/answer-key.md

Most answers are computed here, by running the experiments, exactly as `check` computes them in
class. A few are computed in the notebook from a run made there (a hunt, the kill matrix, a probe
of a real harness); for those the key gives the value such a run yields, and tests check it.
"""

from __future__ import annotations

import sys
from typing import Any

from lab.classroom.predict import shown, synonyms
from lab.classroom.questions import BANK, Question
from lab.classroom.reading import glossed

# The answers that need a run made in the notebook, as those runs give them.
HUNT = ("追猎找到的用例", "the hunt's finding")
MATRIX = ("杀伤矩阵", "the kill matrix")
PROBE = ("对 tool runner 的 `lab probe`", "`lab probe` on the anthropic tool runner")
FROM_THE_NOTEBOOK_RUN: dict[str, tuple[Any, tuple[str, str]]] = {
    "H.1": (True, HUNT),
    "H.2": (True, MATRIX),
    "H.3": (0, MATRIX),
    "R.1": (1, PROBE),
    "R.3": (0, PROBE),
}

HEADER = """\
# 答案与误解 / Answer key

教师用。每个问题：答案、也算对的说法、它针对的误解。由 `lab/classroom/questions/` 生成
（`python -m lab.classroom.answer_key > docs/teacher/answer-key.md`），请勿手改；
测试会检查它是最新的。

For the teacher. Each question: the answer, the words also accepted, and the misconception it
targets. Written from `lab/classroom/questions/`
(`python -m lab.classroom.answer_key > docs/teacher/answer-key.md`); do not edit by hand, a test
checks that it is current.

学生怎么写都行：数字可以写成 `2`、"2"、「第二轮」「三处」，两个数写成 "1, 8"
或「1秒和8秒」，是／否写成是、否、会、没执行……，阶段和门禁写本章的名字（结构校验、
硬拒绝……）。`None`、`""` 和 `...` 算还没预测，什么都不揭晓。答错时，若这个错答有
典型原因，显示的是它自己的误解（下面的「典型错答」）。

Students' answers are read as they type them: numbers as `2`, "2", 「第二轮」, pairs as "1, 8" or
「1秒和8秒」, yes and no in either language, stages and gates by the chapter's names. `None`, `""`
and `...` are no prediction and reveal nothing. A wrong answer with a typical cause is shown its
own misconception (the "typical wrong answer" lines below).
"""


def answer_of(question: Question) -> tuple[Any, tuple[str, str] | None]:
    """The answer, and (zh, en) where it comes from when the notebook's own run computes it."""
    if question.id in FROM_THE_NOTEBOOK_RUN:
        return FROM_THE_NOTEBOOK_RUN[question.id]
    return question.compute(), None


def chapter_word(answer: Any) -> str:
    """The chapter's word for an answer that has one (被丢弃, 是), to lead the code's word."""
    word = glossed(answer, "zh")
    return "" if word == shown(answer) else f"{word.split('（')[0]} · "


def entry(question: Question) -> str:
    answer, source = answer_of(question)
    also = [shown(w) for w in synonyms(answer, question.groups) if shown(w) != shown(answer)]
    lines = [
        f"### {question.id}",
        "",
        f"- 问题：{question.ask['zh']}",
        f"- Question: {question.ask['en']}",
        f"- 答的形式 / form: {question.form}",
        f"- **答案 / answer: {chapter_word(answer)}`{shown(answer)}`**"
        + (
            f"（在笔记本里由{source[0]}算出 / computed in the notebook from {source[1]}）"
            if source
            else ""
        ),
    ]
    if also:
        lines.append("- 也算对 / also accepted: " + "、".join(f"`{w}`" for w in also))
    lines += [
        f"- 针对的误解：{question.misconception['zh']}",
        f"- Misconception: {question.misconception['en']}",
    ]
    for typical, belief in question.wrong:
        lines += [
            f"- 典型错答 {chapter_word(typical)}`{shown(typical)}`：{belief['zh']}",
            f"- Typical wrong answer `{shown(typical)}`: {belief['en']}",
        ]
    lines += [
        f"- 为什么：{question.why['zh'].format(answer=glossed(answer, 'zh'))}",
        f"- Why: {question.why['en'].format(answer=shown(answer))}",
    ]
    return "\n".join(lines)


def answer_key() -> str:
    parts, notebook = [HEADER.rstrip()], None
    for question in BANK:
        if question.notebook != notebook:
            notebook = question.notebook
            parts.append(f"## `{notebook}`")
        parts.append(entry(question))
    return "\n\n".join(parts) + "\n"


if __name__ == "__main__":
    sys.stdout.write(answer_key())
