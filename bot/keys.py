"""One key per purpose, derived from one secret (the bot token): knowing one key tells nothing of another.

HKDF (RFC 5869, SHA-256) with a fixed salt and the purpose's label as ``info``. Every worker derives the same keys
from the same token and none is stored. Labels in use are the constants below; a new purpose gets a new label.
"""

from __future__ import annotations

import hashlib
import hmac

SALT = b"tablebot keys v1"

WEBHOOK_SECRET = "telegram webhook secret"
WEBAPP_SESSION = "webapp session"
TABLE_PASS = "table pass"
WEBAPP_PICTURE = "webapp picture url"
DAILY_SEED = "daily deal seed"


def hkdf(ikm: bytes, salt: bytes, info: bytes, length: int = 32) -> bytes:
    """HKDF-SHA256 (RFC 5869): extract with ``salt``, expand with ``info`` to ``length`` bytes (at most 8,160)."""
    if not 0 < length <= 255 * 32:
        raise ValueError("HKDF length out of range")
    prk = hmac.new(salt, ikm, hashlib.sha256).digest()
    out, block, counter = b"", b"", 1
    while len(out) < length:
        block = hmac.new(prk, block + info + bytes([counter]), hashlib.sha256).digest()
        out += block
        counter += 1
    return out[:length]


def purpose_key(secret: str | bytes, label: str, length: int = 32) -> bytes:
    """The key for one purpose: HKDF-SHA256 of ``secret`` with the salt ``SALT`` and the label as info."""
    ikm = secret.encode() if isinstance(secret, str) else secret
    return hkdf(ikm, SALT, label.encode(), length)
