"""The notebooks' questions: what each asks, the answers that mean the same, the misconception it
targets, and (hidden until the student has predicted) how the answer is computed and why it is so.

A notebook asks in Markdown (the `ask` text, word for word) and calls `check("ID", prediction)`.
One question's shape is in question.py, the bank in bank.py, what each notebook shows before a
question (for the worksheet) in settings.py. The computations are in lab/classroom/answers.py; the teacher's
answer key (docs/teacher/answer-key.md) is written from this bank by lab/classroom/answer_key.py.
"""

from lab.classroom.questions.bank import BANK, QUESTIONS
from lab.classroom.questions.question import Question

__all__ = ["BANK", "QUESTIONS", "Question"]
