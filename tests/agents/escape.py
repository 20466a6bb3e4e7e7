"""A probe target that tries to get out, for the isolation test. Exit status says what it saw:
0 every escape failed; 3 it reached an address beyond loopback; 4 its environment held more than
the probe sets, or its HOME is not its own. Then it asks the model once, as a harness would."""

import os
import socket
import sys

import anthropic

ALLOWED = {"PATH", "HOME", "TMPDIR", "LANG", "ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"}
ALLOWED |= {"OPENAI_BASE_URL", "OPENAI_API_KEY"}  # the same fake API, its other wire
ALLOWED |= {"PYTHONDONTWRITEBYTECODE", "DO_NOT_TRACK", "LAB_PROBE_STREAM"}
ALLOWED |= {"LAB_PROBE_APPROVE", "LAB_PROBE_HUMAN_LOG"}  # the permission contract
ALLOWED |= {"LAB_PROBE_THINKING", "LAB_PROBE_SERVER_TOOL", "LAB_PROBE_IMAGE_TOOL"}  # P18, P24-P26
ALLOWED |= {"LITELLM_OFFLINE_MODE", "LITELLM_LOCAL_MODEL_COST_MAP"}  # no network tries at start

for address in (("192.0.2.1", 80), ("1.1.1.1", 53)):
    try:
        socket.create_connection(address, timeout=2).close()
    except OSError as error:
        print(f"{address[0]}: {error.strerror}")
    else:
        sys.exit(3)
print("interfaces:", sorted(name for _, name in socket.if_nameindex()))
if set(os.environ) - ALLOWED or os.path.realpath(os.environ["HOME"]).startswith(os.getcwd()):
    sys.exit(4)
client = anthropic.Anthropic(max_retries=0)
# The prompt, and the tool the probe's script calls: a request without it would be a side call.
tool = {"name": "read_file", "input_schema": {"type": "object"}}
prompt = [{"role": "user", "content": sys.argv[-1]}]
client.messages.create(model="any", max_tokens=64, messages=prompt, tools=[tool])
