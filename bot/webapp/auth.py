"""Who is at the web table: Telegram's signed ``initData`` checked, and the page's session token.

``telegram_user(token, init_data)`` checks a Mini App's ``initData`` with aiogram's checker (the signature made
with the bot token) and its age (``auth_date``, 24 hours by default), and returns the same ``bot.port.User`` the
chat adapter makes for that person, with the ``start_param`` it was opened with. Anything else raises
``BadInitData`` with a stable code (the HTTP answer is a 401).

A session is a signed token (HMAC-SHA256 over compact JSON) naming one user and the tables or the chat it may
watch, with an expiry: any worker that knows the secret can check it, none has to remember it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from datetime import UTC

from aiogram.utils.web_app import safe_parse_webapp_init_data

from bot.port import User

MAX_AGE = 24 * 3600  # seconds an initData stays good (Telegram's own advice: check auth_date)
SESSION_AGE = 12 * 3600  # seconds a page's session lasts
MAX_INIT_DATA = 4096


class BadInitData(Exception):
    """``initData`` that does not prove who the user is; ``code`` says why (for the JSON error)."""

    def __init__(self, code: str) -> None:
        super().__init__(code)
        self.code = code


@dataclass(frozen=True, slots=True)
class Launch:
    """A checked Mini App launch: the user and the ``start_param`` (``t<table>``) it was opened with, if any."""

    user: User
    start_param: str | None


def telegram_user(token: str, init_data: str, *, max_age: int = MAX_AGE, now: float | None = None) -> Launch:
    """The Telegram user that ``init_data`` proves, or ``BadInitData``."""
    if not init_data or len(init_data) > MAX_INIT_DATA:
        raise BadInitData("empty" if not init_data else "too_long")
    try:
        data = safe_parse_webapp_init_data(token, init_data)
    except ValueError:
        raise BadInitData("bad_signature") from None
    except Exception:  # signed but not the shape Telegram sends (cannot come from Telegram)
        raise BadInitData("malformed") from None
    if data.user is None:
        raise BadInitData("no_user")
    signed = data.auth_date if data.auth_date.tzinfo else data.auth_date.replace(tzinfo=UTC)
    age = (now if now is not None else time.time()) - signed.timestamp()
    if age > max_age:
        raise BadInitData("expired")
    u = data.user
    name = " ".join(p for p in (u.first_name, u.last_name) if p) or str(u.id)
    return Launch(User("telegram", str(u.id), name, u.language_code), data.start_param)


@dataclass(frozen=True, slots=True)
class Session:
    """What a page may do: act as ``user``, watch ``tables`` (ids) or the open table of ``room`` (a chat id
    on the user's platform, playground only)."""

    user: User
    tables: tuple[int, ...] = ()
    room: str | None = None
    expires: int = 0


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Sessions:
    """Makes and checks session tokens with one key: the bot token's ``WEBAPP_SESSION`` key (``bot.keys``), so
    every worker agrees and no other secret (the webhook's, the table passes') tells it."""

    def __init__(self, key: bytes, *, age: int = SESSION_AGE) -> None:
        self.key = key
        self.age = age

    def issue(self, session: Session, *, now: float | None = None) -> str:
        u = session.user
        body = {
            "p": u.platform,
            "u": u.id,
            "n": u.name,
            "l": u.language,
            "t": list(session.tables),
            "r": session.room,
            "e": int((now if now is not None else time.time()) + self.age),
        }
        raw = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode()
        sig = hmac.new(self.key, raw, hashlib.sha256).digest()
        return _b64(raw) + "." + _b64(sig)

    def check(self, token: object, *, now: float | None = None) -> Session | None:
        """The session a token carries, or None (forged, expired, malformed)."""
        if not isinstance(token, str) or len(token) > 2048 or token.count(".") != 1:
            return None
        body_text, sig_text = token.split(".")
        try:
            raw, sig = _unb64(body_text), _unb64(sig_text)
        except ValueError:
            return None
        if not hmac.compare_digest(hmac.new(self.key, raw, hashlib.sha256).digest(), sig):
            return None
        try:
            body = json.loads(raw)
            user = User(str(body["p"]), str(body["u"]), str(body["n"]), body["l"])
            tables = tuple(int(x) for x in body["t"])
            room = None if body["r"] is None else str(body["r"])
            expires = int(body["e"])
        except (ValueError, KeyError, TypeError):
            return None
        if expires < (now if now is not None else time.time()):
            return None
        return Session(user, tables, room, expires)
