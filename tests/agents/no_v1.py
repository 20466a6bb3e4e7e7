"""A client that expects `/v1` inside the base URL: it posts to ANTHROPIC_BASE_URL + "/messages",
so the lab's fake API answers 404 and the program fails before any answer of the script.

    python no_v1.py PROMPT      (ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY set)
"""

import json
import os
import sys
import urllib.request

body = {
    "model": "any",
    "max_tokens": 256,
    "messages": [{"role": "user", "content": sys.argv[-1]}],
}
request = urllib.request.Request(
    os.environ["ANTHROPIC_BASE_URL"].rstrip("/") + "/messages",
    data=json.dumps(body).encode(),
    headers={
        "content-type": "application/json",
        "x-api-key": os.environ["ANTHROPIC_API_KEY"],
        "anthropic-version": "2023-06-01",
    },
)
with urllib.request.urlopen(request, timeout=30) as response:  # HTTPError 404: exit 1
    print(json.load(response)["content"][0]["text"])
