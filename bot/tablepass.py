"""A table's pass: the start parameter of its "Open the table" link (``t17-Xy…``), signed so that only a link the
bot gave out (in the group, or under a player's hand) opens that table's web view.

Table ids are small consecutive numbers: without a signature anyone who can open the bot's Mini App could watch
any chat's game by counting. The signature is an HMAC of ``t<id>`` with the bot token's ``TABLE_PASS`` key
(``bot.keys``: every worker agrees, nothing is stored, and no other secret tells it), cut to 12 base64url
characters: a Telegram start parameter allows 64 of ``[A-Za-z0-9_-]``; the number is ASCII digits only. Without
a bot token (the playground) a pass is the bare ``t<id>``, and nothing checks it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac

from bot import keys

SIG_CHARS = 12


def key_of(bot_token: str | None) -> bytes | None:
    """The signing key for this bot (None without a token)."""
    if not bot_token:
        return None
    return keys.purpose_key(bot_token, keys.TABLE_PASS)


def _sig(key: bytes, table_id: int) -> str:
    mac = hmac.new(key, f"t{table_id}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode()[:SIG_CHARS]


def make(key: bytes | None, table_id: int) -> str:
    """``t17-<signature>`` (``t17`` without a key)."""
    return f"t{table_id}" if key is None else f"t{table_id}-{_sig(key, table_id)}"


def check(key: bytes | None, text: object) -> int | None:
    """The table a pass opens, or None: malformed, or (with a key) not signed by this bot."""
    if not isinstance(text, str) or not 1 < len(text) <= 64 or text[0] != "t":
        return None
    number, _, sig = text[1:].partition("-")
    if not (number.isascii() and number.isdigit()) or len(number) > 10:  # "²".isdigit() too
        return None
    table_id = int(number)
    if key is not None and not hmac.compare_digest(sig.encode(), _sig(key, table_id).encode()):
        return None
    return table_id
