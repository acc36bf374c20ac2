"""The bot token's shape, checked before anything is started: ``<bot id>:<secret>`` as BotFather issues it."""

from __future__ import annotations

import re

TOKEN_RE = re.compile(r"^\d{1,20}:[A-Za-z0-9_-]{30,64}$")


class BadToken(ValueError):
    """TELEGRAM_BOT_TOKEN is set but cannot be a Telegram bot token."""


def check_token(token: str | None) -> str:
    """The token, stripped; ``BadToken`` with a message a person can act on when it is malformed."""
    value = (token or "").strip()
    if not TOKEN_RE.match(value):
        shown = value[:12] + "…" if len(value) > 12 else value
        raise BadToken(
            f"TELEGRAM_BOT_TOKEN is malformed ({shown!r}): a bot token looks like "
            "'123456789:AAH…' (digits, a colon, then 35 letters, digits, '_' or '-'); copy it from @BotFather"
        )
    return value
