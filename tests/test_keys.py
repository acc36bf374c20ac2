"""Keys per purpose (bot.keys): HKDF as RFC 5869 defines it, and one key telling nothing of another."""

import base64
import hashlib
import hmac
import json
import re
import time

from aiohttp import web

from bot import keys, tablepass
from bot.config import Settings
from bot.telegram.runner import webhook_secret
from bot.webapp import install


def test_hkdf_matches_rfc5869_test_case_1():
    ikm = bytes.fromhex("0b" * 22)
    salt = bytes.fromhex("000102030405060708090a0b0c")
    info = bytes.fromhex("f0f1f2f3f4f5f6f7f8f9")
    okm = keys.hkdf(ikm, salt, info, 42)
    assert okm.hex() == ("3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")


def test_each_purpose_has_its_own_key():
    token = "123456:ABC-fake-token"
    labels = [keys.WEBHOOK_SECRET, keys.WEBAPP_SESSION, keys.TABLE_PASS, keys.WEBAPP_PICTURE]
    derived = [keys.purpose_key(token, label) for label in labels]
    assert len(set(derived)) == len(labels)
    # no key is a prefix or a piece of another
    for a in derived:
        for b in derived:
            if a is not b:
                assert a[:16] not in b
    assert keys.purpose_key(token, keys.WEBAPP_SESSION) == keys.purpose_key(token.encode(), keys.WEBAPP_SESSION)
    assert keys.purpose_key("another:token", keys.WEBAPP_SESSION) != derived[1]


# --- the keys in use (issue 33, finding 1): the webhook secret Telegram sends in every request's header told 192 of
# the 256 bits the web table's session key was made from; each purpose now has its own derived key ---

TOKEN = "123456:AAE-keys-test-token"


def _old_session_token(token: str) -> str:
    """A session signed the old way: key = sha256("tablebot webapp session\\n" + sha256(token))."""
    old_secret = hashlib.sha256(token.encode()).digest()
    old_key = hashlib.sha256(b"tablebot webapp session\n" + old_secret).digest()
    body = {"p": "telegram", "u": "4242", "n": "Anna", "l": "en", "t": [1], "r": None, "e": int(time.time()) + 3600}
    raw = json.dumps(body, separators=(",", ":")).encode()
    sig = hmac.new(old_key, raw, hashlib.sha256).digest()
    b64 = lambda data: base64.urlsafe_b64encode(data).rstrip(b"=").decode()  # noqa: E731
    return b64(raw) + "." + b64(sig)


def test_the_webhook_secret_tells_nothing_of_the_session_key_or_the_table_passes():
    secret = webhook_secret(Settings(_env_file=None), TOKEN)
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,256}", secret)  # what Telegram allows in secret_token
    raw = bytes.fromhex(secret)
    whole = hashlib.sha256(TOKEN.encode()).digest()  # what the session key used to be made from
    table = install(web.Application(), object(), bot_token=TOKEN)
    session_key, pass_key = table.sessions.key, tablepass.key_of(TOKEN)
    assert session_key == keys.purpose_key(TOKEN, keys.WEBAPP_SESSION)
    assert pass_key == keys.purpose_key(TOKEN, keys.TABLE_PASS)
    for other in (whole, session_key, pass_key):
        assert raw[:8] not in other and other[:8] not in raw
    # a secret chosen by the operator is used as it is
    assert webhook_secret(Settings(_env_file=None, telegram_webhook_secret="my-own_Secret"), TOKEN) == "my-own_Secret"


def test_a_session_or_a_table_pass_signed_the_old_way_is_refused():
    table = install(web.Application(), object(), bot_token=TOKEN)
    old = _old_session_token(TOKEN)
    assert table.sessions.check(old) is None
    old_pass_key = hashlib.sha256(b"tablebot table pass\n" + TOKEN.encode()).digest()
    assert tablepass.check(tablepass.key_of(TOKEN), tablepass.make(old_pass_key, 17)) is None
    assert tablepass.check(tablepass.key_of(TOKEN), tablepass.make(tablepass.key_of(TOKEN), 17)) == 17
