"""The course's loop chapter by chapter (lab/chapter/course_steps.py): s01 runs whatever it is
asked, s02 looks names up, s03 checks permission in the loop body, s04 in the first PreToolUse
hook."""

from __future__ import annotations

import inspect

import pytest

from lab.chapter.course_steps import STEPS, run_course, s01_step, s02_step, s03_step, s04_step
from lab.model import text, tool_use, turn
from lab.world import World

FILES = {"src/app.py": "print('hi')\n", "notes.txt": "keep me\n"}


def world() -> World:
    return World.create(FILES)


def bash(command: str) -> dict:
    return tool_use("bash", {"command": command})


def test_the_bare_s01_loop_runs_a_deletion_like_a_listing():
    script = [turn(bash("ls"), bash("rm -rf src")), turn(text("Done."))]
    run = run_course("s01", script, world())
    assert [c[2] for c in run.calls] == ["notes.txt\nsrc", "(no output)"]
    assert "/workspace/src/app.py" not in run.world.snapshot()  # gone from the virtual disk
    assert run.asked == [] and run.log == []  # nothing stood in between


def test_s01_refuses_only_its_few_strings():
    script = [turn(bash("rm -rf /workspace"), bash("rm -r src")), turn(text("Done."))]
    run = run_course("s01", script, world())
    assert run.calls[0][2] == "Error: Dangerous command blocked"
    assert run.calls[1][2] == "(no output)" and "/workspace/src/app.py" not in run.world.snapshot()


def test_s01_offers_bash_alone_and_s02_the_table_of_five():
    script = [turn(text("Nothing to do."))]
    s01, s02 = (run_course(c, script, world()) for c in ("s01", "s02"))
    assert s01.calls == s02.calls == []
    assert len(s01.messages) == len(s02.messages) == 2


def test_s02_looks_the_name_up_and_answers_an_unknown_one():
    script = [
        turn(tool_use("read_file", {"path": "notes.txt"}), tool_use("check_disk", {})),
        turn(text("Done.")),
    ]
    run = run_course("s02", script, world())
    assert [c[2] for c in run.calls] == ["keep me", "Unknown: check_disk"]
    with pytest.raises(KeyError):  # s01's hard-coded run_bash knows one input only
        run_course("s01", script, world())


def test_the_step_is_the_one_line_that_changes():
    assert inspect.getsource(s01_step).count("run_bash(") == 1
    assert "handler(**block.input)" in inspect.getsource(s02_step)
    assert "check_permission(" in inspect.getsource(s03_step)
    s04 = inspect.getsource(s04_step)
    assert 'trigger_hooks(desk, "PreToolUse", block)' in s04 and "check_permission" not in s04
    loop = inspect.getsource(run_course)
    assert not any(name in loop for name in ("check_permission", "trigger_hooks", "run_bash("))
    assert list(STEPS) == ["s01", "s02", "s03", "s04"]


CALLS = [
    tool_use("read_file", {"path": "notes.txt"}),
    tool_use("bash", {"command": "rm -rf src"}),
    tool_use("bash", {"command": "sudo reboot"}),
    tool_use("read_file", {"path": "/etc/passwd"}),
]


def test_s03_to_s04_decides_the_same_but_the_log_loses_the_denied_calls():
    script = [turn(*CALLS), turn(text("Done."))]
    s03 = run_course("s03", script, world(), human=["n", "y"])
    s04 = run_course("s04", script, world(), human=["n", "y"])
    assert [c[2] for c in s03.calls][1:3] == ["Permission denied.", "Permission denied."]
    assert [c[2] for c in s04.calls][1:3] == [
        "Permission denied by user",
        "Permission denied by deny list",
    ]
    assert s03.asked == s04.asked and len(s03.asked) == 2  # rm, then the path outside
    assert s03.world.snapshot() == s04.world.snapshot()
    assert s03.calls[3][2].startswith("root:")  # the wall is gone: a "y" reads /etc/passwd
    assert s03.log == [] and s04.log == [
        'read_file {"path": "notes.txt"}',
        'read_file {"path": "/etc/passwd"}',
    ]


def test_s02_s_wall_refuses_what_s03_only_asks_about():
    script = [turn(tool_use("read_file", {"path": "/etc/passwd"})), turn(text("Done."))]
    assert run_course("s02", script, world()).calls[0][2].startswith("Error: Path escapes")
    s03 = run_course("s03", script, world(), human=["y"])
    assert len(s03.asked) == 1 and s03.calls[0][2].startswith("root:")


def test_the_view_shows_the_wire_text_as_it_is_and_glosses_it_in_chinese():
    from lab.notebook import course_run_view
    from lab.views.rich_html import to_text

    script = [turn(*CALLS[1:3]), turn(text("Done."))]
    run = run_course("s04", script, world(), human=["n"])
    en, zh = (to_text(course_run_view(run, lang).renderable, 200) for lang in ("en", "zh"))
    assert "Allow? [y/N] n" in en and "Allow? [y/N] n" in zh  # never read as rich markup
    assert "Permission denied by user" in en and "（人说了不）" not in en
    assert "“Permission denied by user”（人说了不）" in zh  # the wire text quoted, then its gloss
    assert "“Potentially destructive command" in zh and "（可能有破坏性的命令" in zh
    # the prompt and the model's last words, exact, with their Chinese in zh only
    prompt = "用户：“Please help with the files in the workspace.”（请帮忙处理工作区里的文件。）"
    assert prompt in zh
    assert "模型最后说：“Done.”（完成了。）" in zh
    assert "the model, last: “Done.”" in en and "完成了" not in en
    assert "s04 的循环：2 个调用，虚拟磁盘上少了 0 个文件" in zh
    assert "log_hook" in zh and "什么也没有" in zh  # both calls refused: the log saw nothing
