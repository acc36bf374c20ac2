"""Keys per purpose (bot.keys): HKDF as RFC 5869 defines it, and one key telling nothing of another."""

from bot import keys


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
