"""An agent that ignores ANTHROPIC_BASE_URL: it reads its endpoint and key from a config file in
its home folder, as many CLI harnesses do (the README's worked example for `lab probe --cmd`).

    python config_agent.py PROMPT      ($HOME/.config/config-agent/config.json must exist)

The probe gives every trial a fresh scratch HOME, so the file must be written for each run:
tests/agents/with_config.sh does it from the probe's variables, then runs this program.
"""

import json
import os
import sys
from pathlib import Path

import anthropic

CONFIG = Path.home() / ".config" / "config-agent" / "config.json"

if __name__ == "__main__":
    for name in ("ANTHROPIC_BASE_URL", "ANTHROPIC_API_KEY"):
        os.environ.pop(name, None)  # ignored, as such a harness ignores them
    config = json.loads(CONFIG.read_text(encoding="utf-8"))  # no file: the program fails here
    sys.path.insert(0, str(Path(__file__).parent))
    import hand_loop

    client = anthropic.Anthropic(base_url=config["base_url"], api_key=config["api_key"])
    hand_loop.anthropic.Anthropic = lambda **options: client  # the careful loop, on this client
    hand_loop.run(sys.argv[-1], "careful")
