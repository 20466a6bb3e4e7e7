"""Sign the thinking blocks the fake sends, and check the ones a harness sends back.

The real API signs each `thinking` block (its `signature`) and seals each `redacted_thinking`
block (its opaque `data`), and refuses a block that comes back changed. The fake does the same
with a keyed hash (HMAC-SHA256): a signature is valid only for the very text it was made for,
and only the key's holder can make one. The default key is fixed, so every fake (and every run)
signs alike: a verdict never depends on which fake judged the request.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
from dataclasses import dataclass

DEFAULT_KEY = b"harness-lab fake Messages API: thinking signatures"
TAG = 32  # bytes of an HMAC-SHA256 tag
SEALED = b"\x01"  # the version byte that opens a sealed redacted_thinking blob


@dataclass(frozen=True)
class Signer:
    """Signs and checks with one key (`DEFAULT_KEY` unless a server is given its own)."""

    key: bytes = DEFAULT_KEY

    def _tag(self, kind: bytes, payload: bytes) -> bytes:
        return hmac.new(self.key, kind + b"\x00" + payload, hashlib.sha256).digest()

    def sign(self, thinking: str) -> str:
        """The `signature` of a thinking block whose text is `thinking`."""
        return base64.b64encode(self._tag(b"thinking", thinking.encode())).decode()

    def signed(self, thinking: str, signature: object) -> bool:
        """Whether `signature` is this key's signature of exactly `thinking`."""
        if not isinstance(signature, str):
            return False
        return hmac.compare_digest(signature.encode(), self.sign(thinking).encode())

    def seal(self, text: str) -> str:
        """An opaque `data` blob for a redacted_thinking block: the text with its tag."""
        payload = text.encode()
        blob = SEALED + self._tag(b"redacted", payload) + payload
        return base64.b64encode(blob).decode()

    def sealed(self, data: object) -> bool:
        """Whether `data` is a blob this key sealed, unchanged."""
        if not isinstance(data, str):
            return False
        try:
            blob = base64.b64decode(data, validate=True)
        except (binascii.Error, ValueError):
            return False
        tag, payload = blob[1 : 1 + TAG], blob[1 + TAG :]
        good = self._tag(b"redacted", payload)
        return blob[:1] == SEALED and hmac.compare_digest(tag, good)


SIGNER = Signer()
