"""A probe target that leaves things behind, for the leftovers test.

    python leaver.py MARKER OUTSIDE_FILE [SLEEP] PROMPT

It starts a grandchild in a session of its own (a double fork: its child forks, the grandchild
calls setsid and sleeps with MARKER in its command line, the child exits), writes OUTSIDE_FILE
(outside its scratch folder), sleeps SLEEP seconds (default 0), then asks the model once. It
imports the SDK after the sleep: a run stopped mid-sleep (the Ctrl-C tests) never pays for it."""

import subprocess
import sys
import time
from pathlib import Path

marker, outside = sys.argv[1], Path(sys.argv[2])
pause = float(sys.argv[3]) if len(sys.argv) > 4 else 0.0
grandchild = "import os, sys, time\nif os.fork() == 0:\n    os.setsid()\n    time.sleep(600)\n"
subprocess.run([sys.executable, "-c", grandchild, marker], check=True)
outside.write_text("written outside the scratch folder\n", encoding="utf-8")
time.sleep(pause)
import anthropic  # noqa: E402  (after the sleep, see above)

client = anthropic.Anthropic(max_retries=0)
# It offers the probe's tool and sends the prompt: a request the script answers, not a side call.
tool = {"name": "read_file", "input_schema": {"type": "object", "properties": {"path": {}}}}
prompt = [{"role": "user", "content": sys.argv[-1]}]
client.messages.create(model="any", max_tokens=64, messages=prompt, tools=[tool])
