"""The small ordered tables generated cases draw from: commands, paths, calls, rules, answers.

Each table's first entry is the harmless one, so hypothesis shrinks a counterexample towards
`bash ls`, no rules, no hooks: what is left is only what the failure needs.
"""

from __future__ import annotations

from typing import Any

# ---- shell commands: harmless first, then writes, dangers and lines the shell rejects ------
HARMLESS_COMMANDS = [
    "ls",
    "cat notes.txt",
    "wc -l notes.txt",
    "echo hi",
    "grep keep notes.txt",
    "head -n 1 src/app.py",
    "cat big.log",
    "cat missing.txt",
    "ls src",
    "pwd",
]
WRITING_COMMANDS = [
    "echo hi > out.txt",
    "echo more >> notes.txt",
    "touch new.txt",
    "mkdir -p build",
    "rm notes.txt",
    "rm -rf src",
    "cat notes.txt > copy.txt",
]
DANGEROUS_COMMANDS = [
    "rm -rf /",
    "sudo rm -rf /var/log",
    "echo pwned > /etc/hosts",
    "rm /etc/passwd",
    "cat /etc/passwd",
]
BROKEN_COMMANDS = ["ls &&", "echo 'unclosed", "frobnicate --now"]
RULED_COMMANDS = [  # what shell permission rules are about: removals, hidden or alone
    "ls && rm -rf src",
    "rm notes.txt",
    "cat notes.txt; rm notes.txt",
    "rm -rf /",
    "echo ok || rm -rf /",
    "sudo rm -rf /var/log",
    "ls",
]
COMPOUND_COMMANDS = [  # the shapes public bug reports show slipping past command rules
    "ls && rm -rf src",
    "cat notes.txt; rm notes.txt",
    "echo ok || rm -rf /",
    "ls | wc -l",
]
SEPARATORS = [" && ", "; ", " || ", " | ", "\n"]

# ---- paths, patterns and texts -------------------------------------------------------------
INSIDE_PATHS = [
    "notes.txt",
    "src/app.py",
    "missing.txt",
    "./notes.txt",
    "/workspace/notes.txt",
    "big.log",
    "out.txt",
    "src",
    ".spill/toolu_001.txt",  # where the result cap spills the first call's output
    ".spill",  # the harness's own folder, as a file
]
EXISTING_PATHS = ["notes.txt", "src/app.py", "big.log"]  # the catalog's files
OUTSIDE_PATHS = ["/etc/passwd", "../etc/hosts", "/tmp/out.txt", "/workspace/../etc/passwd"]
GLOB_PATTERNS = ["*", "*.txt", "**/*.py", "src/*", "**", "../*", "/etc/*"]
CONTENTS = ["hello\n", "", "print('bye')\n"]
OLD_TEXTS = ["keep", "hi", "absent", ""]
NEW_TEXTS = ["gone", ""]
TEXTS = ["Done.", "Let me look.", "All finished."]

# ---- malformed and unknown calls, as fixed readable examples -------------------------------
INVALID_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("write_file", {"path": "notes.txt"}),  # content missing
    ("write_file", {"path": "notes.txt", "content": 42}),  # wrong type
    ("bash", {}),  # command missing
    ("bash", {"command": ["ls"]}),  # wrong type
    ("bash", {"command": "ls", "timeout": 5}),  # unknown field
    ("read_file", {"path": 42}),
    ("read_file", {"path": "notes.txt", "limit": "all"}),
    ("edit_file", {"path": "notes.txt", "old_text": "keep"}),
    ("glob", {"pattern": None}),
]
UNKNOWN_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("check_disk", {"device": "/dev/sda"}),
    ("Bash", {"command": "ls"}),  # a rule's name, not the tool's
    ("run_python", {"code": "print(1)"}),
]
EXTRA_TOOL_CALLS: list[tuple[str, dict[str, Any]]] = [
    ("line_count", {"path": "notes.txt"}),
    ("line_count", {"path": "big.log"}),
    ("word_count", {"file_path": "notes.txt"}),
    ("explode", {}),
]

# ---- permissions, the human, hooks ---------------------------------------------------------
SHELL_RULES = ["Bash(rm *)", "Bash(ls *)", "Bash(cat *)", "Bash"]  # small pools, so rules collide
PATH_RULES = ["Read(/etc/**)", "Write", "Edit(src/**)", "Read"]
RULES = [
    "Bash(rm *)",
    "Bash",
    "Bash(ls *)",
    "Bash(cat *)",
    "Read(/etc/**)",
    "Read",
    "Edit(src/**)",
    "Write",
    "read_file",
    "glob",
]
DENY_LIST = ["rm -rf /", "sudo", "> /etc/"]  # the course's kind of deny list: substrings
DEFAULTS = ["allow", "ask", "deny"]
ANSWERS = ["y", "n", "yes", "no", ""]
STOP_REASONS = [None, "end_turn", "tool_use", "max_tokens"]  # None: what the content implies
