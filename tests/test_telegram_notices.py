"""Notices to one person and languages through the Telegram adapter (real aiogram over the fake Bot API; issue 27
points 4 and 5): `leave` writes nothing to the group in the second person and the leaver gets "Take my seat back"
in his private chat on the message that tells him; a join refusal is private; someone who never opened the bot is
named in one short group line; a player's own language leaves the group's alone."""

from __future__ import annotations

import pytest

from core.i18n import t
from testkit.telegram_players import Player
from tests.telegram_bot_support import LiveBot
from tests.telegram_support import KITCHEN
from tests.test_telegram_games import Here, lobby_of, table_of

GROUP = KITCHEN  # the shared ``api`` fixture's group (tests/conftest.py)
OTHER = {"en": "ru", "ru": "en"}


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_leave_and_refusals_are_private_and_my_language_is_mine(api, tmp_path, lang):
    here = Here(await LiveBot(api, tmp_path / "bot.sqlite3").start())
    try:
        own = OTHER[lang]
        ann = Player(api, api.add_user(11, "Ann", language=lang), here.settle)
        bob = Player(api, api.add_user(12, "Bob", language=lang), here.settle)
        cid = Player(api, api.add_user(13, "Cid", language=lang), here.settle)
        dan = Player(api, api.add_user(14, "Dan", language=lang, started=False), here.settle)
        await ann.say(GROUP, "/lang " + lang)
        await bob.say(12, "/lang " + own)  # Bob's own language, in his private chat
        await ann.say(GROUP, "/new deberts")
        await bob.press_label(lobby_of(api, GROUP), t(lang, "Join"))
        await cid.say(GROUP, "/join")
        assert cid.private()[-1].text == t(lang, "The table is full.")  # to him alone
        await dan.say(GROUP, "/join")  # never opened the bot: one short line that names him
        assert api.visible(GROUP)[-1].text == "Dan: " + t(lang, "The table is full.")
        await ann.press_label(lobby_of(api, GROUP), t(lang, "Start"))
        table = table_of(api, GROUP)
        assert t(lang, "Show my hand") in [b["text"] for b in table.callback_buttons()][0]  # the chat's language
        assert any(t(own, "Deberts") in (s.text or "") for s in bob.private())  # Bob's hand in his

        before = len(api.visible(GROUP))
        await bob.say(GROUP, "/leave")
        await here.settle()
        group = [s.text or "" for s in api.visible(GROUP)]
        assert group[before:] == [t(lang, "{name} has left the table: the computer plays for them.", name="Bob")]
        you = {"en": ("You have", "you have"), "ru": ("Вы ушли", "вы ушли")}
        assert not any(w in x for x in group for w in you["en"] + you["ru"])
        told = bob.private()[-1]
        assert t(own, "Take my seat back") in [b["text"] for b in told.callback_buttons()]
        reply = await bob.press_label(told, t(own, "Take my seat back"))
        assert reply.get("text") == t(own, "Welcome back: your seat is yours again.")
        rec = await here.bot.app.storage.table(1)
        assert not next(s for s in rec.seats if s.user.name == "Bob").taken_over
        chat = await here.bot.app.storage.chat("telegram", str(GROUP))
        assert chat.language == lang
    finally:
        await here.bot.stop()
