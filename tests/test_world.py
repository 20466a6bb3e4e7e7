"""The simulated world: virtual disk, simulated shell, virtual clock, copies and merges."""

from __future__ import annotations

import pytest

from lab.world import (
    COMMAND_SECONDS,
    Changes,
    ShellResult,
    VirtualClock,
    VirtualFS,
    World,
    is_read_only,
    split_commands,
)
from lab.world.fs import normalize


@pytest.fixture
def world() -> World:
    return World.create(
        {
            "README.md": "# demo\nhello world\nbye\n",
            "src/app.py": "import os\nprint('hello')\nx = 1\n",
            "src/util.py": "def helper():\n    return 42\n",
            ".env": "SECRET=1\n",
        }
    )


def run(world: World, command: str) -> ShellResult:
    return world.run_shell(command)


# ---- paths and the disk ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("path", "cwd", "expected"),
    [
        ("/a/b/../c", "/", "/a/c"),
        ("//a///b/./c/", "/", "/a/b/c"),
        ("/../../etc", "/", "/etc"),
        ("src/x.py", "/workspace", "/workspace/src/x.py"),
        ("../etc/passwd", "/workspace", "/etc/passwd"),
        (".", "/workspace", "/workspace"),
        ("/etc/hosts", "/workspace", "/etc/hosts"),
    ],
)
def test_normalize(path: str, cwd: str, expected: str) -> None:
    assert normalize(path, cwd) == expected


def test_write_creates_parents_and_root_always_exists() -> None:
    fs = VirtualFS()
    assert fs.is_dir("/") and fs.listdir("/") == []
    fs.write("/a/b/c.txt", "hi")
    assert fs.is_dir("/a") and fs.is_dir("/a/b") and fs.is_file("/a/b/c.txt")
    assert fs.read("//a/./b/../b/c.txt") == "hi"
    fs.write("/a/b/c.txt", " there", append=True)
    assert fs.read("/a/b/c.txt") == "hi there"
    assert fs.listdir("/a") == ["b"]


def test_fs_errors_are_precise_and_shell_like() -> None:
    fs = VirtualFS()
    fs.write("/d/f.txt", "x")
    with pytest.raises(FileNotFoundError, match="/nope: No such file or directory"):
        fs.read("/nope")
    with pytest.raises(IsADirectoryError, match="/d: Is a directory"):
        fs.read("/d")
    with pytest.raises(NotADirectoryError):
        fs.write("/d/f.txt/inner", "x")
    with pytest.raises(FileExistsError):
        fs.mkdir("/d")
    with pytest.raises(FileNotFoundError):
        fs.mkdir("/x/y")
    with pytest.raises(IsADirectoryError):
        fs.remove("/d")
    fs.mkdir("/x/y", parents=True)
    fs.mkdir("/x/y", parents=True)  # -p: no error when it exists
    assert fs.is_dir("/x/y")


def test_listdir_sorted_and_remove_recursive() -> None:
    fs = VirtualFS()
    for path in ["/w/b.txt", "/w/a.txt", "/w/sub/c.txt", "/w2/z.txt"]:
        fs.write(path, "")
    assert fs.listdir("/w") == ["a.txt", "b.txt", "sub"]
    fs.remove("/w", recursive=True)
    assert fs.files() == {"/w2/z.txt": ""}  # /w2 shares a prefix with /w but survives
    assert not fs.exists("/w/sub")


GLOB_FILES = ["/w/a.py", "/w/b.txt", "/w/src/c.py", "/w/src/deep/d.py", "/w/.hidden.py"]


@pytest.mark.parametrize(
    ("pattern", "expected"),
    [
        ("*.py", ["a.py"]),  # * neither crosses "/" nor matches dotfiles
        ("**/*.py", ["a.py", "src/c.py", "src/deep/d.py"]),
        ("src/*", ["src/c.py", "src/deep"]),
        ("src/**", ["src", "src/deep"]),  # trailing ** matches directories, like pathlib
        ("?.txt", ["b.txt"]),
        ("[ab].*", ["a.py", "b.txt"]),
        (".*", [".hidden.py"]),
        ("nothing*", []),
        ("/w/src/*.py", ["/w/src/c.py"]),  # absolute pattern -> absolute results
        ("../w/a.py", ["../w/a.py"]),
    ],
)
def test_glob(pattern: str, expected: list[str]) -> None:
    fs = VirtualFS()
    for path in GLOB_FILES:
        fs.write(path, "")
    assert fs.glob(pattern, "/w") == expected


def test_copy_is_independent_and_wipe_empties() -> None:
    fs = VirtualFS()
    fs.write("/a.txt", "1")
    twin = fs.copy()
    twin.write("/a.txt", "2")
    twin.write("/b.txt", "3")
    assert fs.files() == {"/a.txt": "1"}
    twin.wipe()
    assert twin.file_count == 0 and twin.listdir("/") == [] and fs.file_count == 1


def test_diff_and_apply_round_trip() -> None:
    base = VirtualFS()
    for path in ["/w/keep.txt", "/w/change.txt", "/w/gone.txt", "/w/olddir/x.txt", "/w/flip"]:
        base.write(path, "old")
    copy = base.copy()
    copy.write("/w/change.txt", "new")
    copy.write("/w/new/deep.txt", "made")
    copy.remove("/w/gone.txt")
    copy.remove("/w/olddir", recursive=True)
    copy.mkdir("/w/empty")
    copy.remove("/w/flip")
    copy.mkdir("/w/flip")  # a file became a directory

    changes = copy.diff(base)
    assert changes.written == {"/w/change.txt": "new", "/w/new/deep.txt": "made"}
    assert changes.removed == ["/w/flip", "/w/gone.txt", "/w/olddir", "/w/olddir/x.txt"]
    assert "/w/empty" in changes.created_dirs and "/w/flip" in changes.created_dirs
    assert copy.diff(copy.copy()).is_empty

    target = base.copy()
    target.apply(changes)
    assert target.files() == copy.files()
    assert target.listdir("/w") == copy.listdir("/w")


def test_apply_merges_two_copies_in_call_order() -> None:
    base = VirtualFS()
    base.write("/w/shared.txt", "base")
    first, second = base.copy(), base.copy()
    first.write("/w/shared.txt", "first")
    first.write("/w/one.txt", "1")
    second.write("/w/shared.txt", "second")
    second.write("/w/two.txt", "2")
    merged = base.copy()
    for changes in [first.diff(base), second.diff(base)]:
        merged.apply(changes)
    assert merged.files() == {"/w/one.txt": "1", "/w/shared.txt": "second", "/w/two.txt": "2"}
    assert Changes().is_empty


# ---- the world ---------------------------------------------------------------------------
def test_world_create_places_files_and_system_files(world: World) -> None:
    assert world.fs.read("/workspace/src/app.py").startswith("import os")
    assert world.fs.is_file("/etc/passwd") and world.fs.is_file("/etc/hosts")
    assert not world.inside_workspace("/etc/passwd")
    assert not world.inside_workspace("../etc/passwd")
    assert not world.inside_workspace("/workspace2/x")  # a shared prefix is not inside
    assert world.inside_workspace("src/../README.md") and world.inside_workspace("/workspace")
    assert world.resolve("src/../README.md") == "/workspace/README.md"
    bare = World.create({"a.txt": "x"}, workspace="/home/me/", with_system_files=False)
    assert bare.snapshot() == {"/home/me/a.txt": "x"}
    assert World.create().fs.is_dir("/workspace")


def test_world_copy_is_independent(world: World) -> None:
    world.clock.advance(5)
    twin = world.copy()
    twin.run_shell("rm README.md")
    assert twin.clock.now == 6.0 and world.clock.now == 5.0
    assert "/workspace/README.md" in world.snapshot()
    assert "/workspace/README.md" not in twin.snapshot()
    world.fs.apply(twin.fs.diff(world.fs))
    assert "/workspace/README.md" not in world.snapshot()


def test_clock_only_moves_forward() -> None:
    clock = VirtualClock()
    assert clock.advance(1.5) == 1.5 and clock.now == 1.5
    with pytest.raises(ValueError):
        clock.advance(-1)


# ---- shell commands ----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "output", "status"),
    [
        ("ls", "README.md\nsrc\n", 0),
        ("ls -a", ".env\nREADME.md\nsrc\n", 0),
        ("ls -la src", "-rw-r--r--       31 app.py\n-rw-r--r--       28 util.py\n", 0),
        ("ls src/app.py", "src/app.py\n", 0),
        ("ls nope", "ls: cannot access 'nope': No such file or directory\n", 2),
        ("ls /", "etc\nworkspace\n", 0),
        ("ls *.md src/*.py", "README.md\nsrc/app.py\nsrc/util.py\n", 0),
        ("ls 'src/*'", "ls: cannot access 'src/*': No such file or directory\n", 2),
        ("cat README.md", "# demo\nhello world\nbye\n", 0),
        ("cat nope", "cat: nope: No such file or directory\n", 1),
        ("cat src", "cat: src: Is a directory\n", 1),
        ("cat ../etc/hosts", "127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost\n", 0),
        ("cat -n src/util.py", "     1\tdef helper():\n     2\t    return 42\n", 0),
        ("echo hello   world", "hello world\n", 0),
        ("echo 'a  b' \"c d\" e\\ f", "a  b c d e f\n", 0),
        ("echo -n hi", "hi", 0),
        ("pwd", "/workspace\n", 0),
        ("true", "", 0),
        ("false", "", 1),
        (
            "grep hello README.md src/app.py",
            "README.md:hello world\nsrc/app.py:print('hello')\n",
            0,
        ),
        ("grep -n bye README.md", "3:bye\n", 0),
        ("grep -i HELLO README.md", "hello world\n", 0),
        ("grep -c o README.md", "2\n", 0),
        ("grep -v o README.md", "bye\n", 0),
        ("grep -rn 42 src", "src/util.py:2:    return 42\n", 0),
        ("grep -l hello -r .", "./README.md\n./src/app.py\n", 0),
        (
            "grep 'os\\|42' src/app.py src/util.py",
            "src/app.py:import os\nsrc/util.py:    return 42\n",
            0,
        ),
        ("grep zzz README.md", "", 1),
        ("grep x nope", "grep: nope: No such file or directory\n", 2),
        ("head -n 1 README.md", "# demo\n", 0),
        ("head -2 README.md", "# demo\nhello world\n", 0),
        ("tail -n 1 README.md", "bye\n", 0),
        ("tail -n +2 README.md", "hello world\nbye\n", 0),
        ("head -n x README.md", "head: invalid number of lines: 'x'\n", 1),
        ("wc README.md", "3 5 23 README.md\n", 0),
        ("wc -l README.md src/app.py", "3 README.md\n3 src/app.py\n6 total\n", 0),
        ("wc -c src/util.py", "28 src/util.py\n", 0),
        ("sleep 2", "", 0),
        ("sleep x", "sleep: invalid time interval 'x'\n", 1),
        ("cd src && pwd && ls", "/workspace/src\napp.py\nutil.py\n", 0),
        ("cd nope", "bash: cd: nope: No such file or directory\n", 1),
        ("cd README.md", "bash: cd: README.md: Not a directory\n", 1),
        ("foo --bar", "bash: foo: command not found\n", 127),
        ("echo 'oops", "bash: -c: line 1: unexpected EOF while looking for matching `''\n", 2),
        ('echo "oops', "bash: -c: line 1: unexpected EOF while looking for matching `\"'\n", 2),
        ("&& ls", "bash: -c: line 1: syntax error near unexpected token `&&'\n", 2),
        ("ls &&", "bash: -c: line 1: syntax error: unexpected end of file\n", 2),
        ("echo >", "bash: -c: line 1: syntax error near unexpected token `newline'\n", 2),
        ("echo hi # rm -rf /", "hi\n", 0),
    ],
)
def test_shell_commands(world: World, command: str, output: str, status: int) -> None:
    result = run(world, command)
    assert (result.output, result.status) == (output, status)


def test_cd_lasts_one_run(world: World) -> None:
    shell = world.shell()
    assert shell.run("cd src; pwd").output == "/workspace/src\n"
    assert shell.run("pwd").output == "/workspace\n"


def test_redirections_write_the_virtual_disk(world: World) -> None:
    assert run(world, "echo one > out.txt").output == ""
    run(world, "echo two >> out.txt")
    assert world.fs.read("/workspace/out.txt") == "one\ntwo\n"
    run(world, "echo three > out.txt")  # > truncates
    assert world.fs.read("/workspace/out.txt") == "three\n"
    run(world, "cat nope 2> err.txt")
    assert world.fs.read("/workspace/err.txt") == "cat: nope: No such file or directory\n"
    result = run(world, "cat README.md nope > both.txt 2>&1")
    assert result.output == "" and "No such file" in world.fs.read("/workspace/both.txt")
    assert run(world, "cat nope 2>/dev/null").output == ""
    assert run(world, "wc -l < README.md").output == "3\n"
    run(world, "> empty.txt")
    assert world.fs.read("/workspace/empty.txt") == ""


def test_redirection_errors(world: World) -> None:
    result = run(world, "echo x > src")
    assert (result.output, result.status) == ("bash: src: Is a directory\n", 1)
    result = run(world, "echo x > no/dir/f.txt")
    assert result.status == 1 and not world.fs.exists("/workspace/no")
    result = run(world, "cat < nope")
    assert (result.output, result.status) == ("bash: nope: No such file or directory\n", 1)


def test_redirection_outside_workspace_reaches_system_files(world: World) -> None:
    run(world, "echo 'evil::0:0::/:/bin/sh' >> /etc/passwd")
    assert world.fs.read("/etc/passwd").endswith("evil::0:0::/:/bin/sh\n")


def test_pipes_feed_stdin(world: World) -> None:
    assert run(world, "cat README.md | grep o | wc -l").output == "2\n"
    assert run(world, "cat src/app.py | head -n 2 | tail -n 1").output == "print('hello')\n"
    assert run(world, "echo a b c | wc -w").output == "3\n"
    assert run(world, "echo hi | cat").output == "hi\n"
    # stderr skips a plain pipe but travels down |&
    assert run(world, "cat nope | wc -l").output == "0\ncat: nope: No such file or directory\n"
    assert run(world, "cat nope |& wc -l").output == "1\n"
    # a pipeline's status is its last command's
    assert run(world, "false | true").status == 0
    assert run(world, "true | false").status == 1


@pytest.mark.parametrize(
    ("command", "output", "status"),
    [
        ("true && echo yes", "yes\n", 0),
        ("false && echo yes", "", 1),
        ("false || echo rescued", "rescued\n", 0),
        ("true || echo never", "", 0),
        ("false; echo always", "always\n", 0),
        ("false && echo a || echo b", "b\n", 0),
        ("true && false || echo c", "c\n", 0),
        ("false || false && echo d", "", 1),
        ("echo 'x && y' && echo z", "x && y\nz\n", 0),
        ("echo a\necho b", "a\nb\n", 0),
        ("echo a &\necho b", "a\nb\n", 0),
        ("true &&\necho continued", "continued\n", 0),
        ("cat nope; echo after", "after\ncat: nope: No such file or directory\n", 0),
    ],
)
def test_lists_short_circuit_like_bash(world: World, command: str, output: str, status: int):
    result = run(world, command)
    assert (result.output, result.status) == (output, status)


def test_skipped_commands_have_no_effect(world: World) -> None:
    run(world, "false && rm README.md")
    run(world, "true || rm README.md")
    assert world.fs.is_file("/workspace/README.md")


def test_rm_mkdir_touch(world: World) -> None:
    result = run(world, "rm nope")
    assert result.status == 1 and "cannot remove 'nope': No such file" in result.output
    assert run(world, "rm -f nope").status == 0
    result = run(world, "rm src")
    assert (result.status, result.output) == (1, "rm: cannot remove 'src': Is a directory\n")
    assert run(world, "rm").output == "rm: missing operand\n"
    assert run(world, "rm -r src && ls").output == "README.md\n"
    assert run(world, "rm README.md && ls -a").output == ".env\n"
    result = run(world, "mkdir a/b")
    assert result.status == 1 and "No such file or directory" in result.output
    assert run(world, "mkdir -p a/b && touch a/b/c.txt && ls a/b").output == "c.txt\n"
    assert run(world, "mkdir a").output == "mkdir: cannot create directory 'a': File exists\n"
    run(world, "echo keep > k.txt; touch k.txt")
    assert world.fs.read("/workspace/k.txt") == "keep\n"  # touch never empties a file
    assert run(world, "touch no/such").status == 1


def test_rm_rf_root_wipes_the_virtual_disk(world: World) -> None:
    assert world.fs.file_count == 6
    result = run(world, "rm -rf /")
    assert result.status == 0
    assert world.fs.file_count == 0 and world.fs.listdir("/") == []
    assert run(world, "ls").status == 2  # even the workspace is gone


def test_rm_rf_star_and_dot(world: World) -> None:
    assert run(world, "rm -rf .").status == 1  # rm refuses "." as coreutils does
    assert world.fs.file_count == 6
    run(world, "rm -rf /*")
    assert world.fs.file_count == 0


def test_unknown_command_answers_127(world: World) -> None:
    result = run(world, "python3 -c 'print(1)'")
    assert result == ShellResult("bash: python3: command not found\n", 127, 1.0)


def test_unbalanced_quote_is_status_2_not_an_exception(world: World) -> None:
    result = run(world, "echo \"it's")
    assert result.status == 2 and result.output.startswith("bash: -c: line 1:")
    assert result.seconds == 0.0 and world.clock.now == 0.0


# ---- virtual time ------------------------------------------------------------------------
def test_sleep_advances_the_clock_exactly(world: World) -> None:
    assert COMMAND_SECONDS["sleep"] == 0.0
    result = run(world, "sleep 7")
    assert result.seconds == 7.0 and world.clock.now == 7.0
    run(world, "sleep 0.5 1m")  # sleep sums its operands, with units
    assert world.clock.now == 67.5


def test_each_command_that_runs_costs_its_declared_seconds(world: World) -> None:
    assert all(COMMAND_SECONDS[name] == 1.0 for name in ["ls", "cat", "grep", "rm"])
    assert run(world, "ls; cat README.md | wc -l").seconds == 3.0
    assert run(world, "false && sleep 100").seconds == 1.0  # the skipped sleep costs nothing
    assert run(world, "nope").seconds == 1.0
    assert world.clock.now == 5.0


# ---- command analysis --------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ls", True),
        ("ls -la && cat README.md | grep x | wc -l", True),
        ("head -n 3 a; tail b || pwd", True),
        ("echo hi; sleep 1; true; false", True),
        ("cat < README.md", True),
        ("grep x nope 2>&1", True),
        ("echo hi > out.txt", False),
        ("cat a >> b", False),
        ("ls 2> errors.txt", False),
        ("ls && rm -rf /", False),
        ("rm x", False),
        ("mkdir d", False),
        ("touch f", False),
        ("cd src && ls", False),
        ("python3 x.py", False),
        ("echo 'x > y'", True),  # a quoted > is not a redirection
        ("echo 'unbalanced", False),
        ("&& ls", False),
    ],
)
def test_is_read_only(command: str, expected: bool) -> None:
    assert is_read_only(command) is expected


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        ("ls && rm -rf /", ["ls", "rm -rf /"]),
        ("a || b; c | d |& e & f", ["a", "b", "c", "d", "e", "f"]),
        ("ls\nrm x", ["ls", "rm x"]),
        ("echo 'a && b' && rm x", ["echo 'a && b'", "rm x"]),
        ('echo "x; y" ;rm z', ['echo "x; y"', "rm z"]),
        ("cat a > b && ls", ["cat a > b", "ls"]),
        ("cmd 2>&1 | grep x", ["cmd 2>&1", "grep x"]),
        ("ls # && rm -rf /", ["ls"]),
        ("  ls  ", ["ls"]),
        ("", []),
        ("echo 'open && rm x", ["echo 'open && rm x"]),
    ],
)
def test_split_commands(command: str, expected: list[str]) -> None:
    assert split_commands(command) == expected
