"""Languages (issue 27 point 5), through the application and the fake port: the table speaks the chat's language;
a person's private messages (hand, reminders, notices) speak that person's; changing one's own language never
changes the chat's."""

from __future__ import annotations

import pytest

from core.i18n import t
from tests.app_support import db_path, make_world, open_table


@pytest.mark.parametrize(("chat_lang", "own"), [("ru", "en"), ("en", "ru")])
async def test_my_language_is_mine_and_the_table_keeps_the_chats(tmp_path, chat_lang, own):
    world = await make_world(db_path(tmp_path), lang=chat_lang)
    try:
        ann, bob = world.user("Ann", chat_lang), world.user("Bob", chat_lang)
        await bob.open_private()
        await bob.say(None, "lang", own)  # in his private chat: his own language
        assert world.port.private(bob.user.id)[-1].text == t(own, "I will speak English with you.")
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        await world.app.idle()
        chat = await world.app.storage.chat(world.port.platform, world.chat.id)
        assert chat.language == chat_lang  # the chat's language is left alone
        table = world.table_message()
        assert t(chat_lang, "Show my hand") in table.buttons()[0].label
        assert t(chat_lang, "The game has started: {names}.", names="Ann, Bob") in [s.text for s in world.group()]
        # each one's hand in his own language
        bob_hand = [s for s in world.port.private(bob.user.id) if s.message.image_name == "hand.jpg"][-1]
        ann_hand = [s for s in world.port.private(ann.user.id) if s.message.image_name == "hand.jpg"][-1]
        assert t(own, "Deberts") in bob_hand.text and t(chat_lang, "Deberts") in ann_hand.text
        # a refusal to him in his language, a refusal to her in hers, both privately
        await bob.say(world.chat, "new", "kozel")
        assert world.port.private(bob.user.id)[-1].text == t(own, "A table is already open here.")
        await ann.say(world.chat, "new", "kozel")
        assert world.port.private(ann.user.id)[-1].text == t(chat_lang, "A table is already open here.")
        # a press's notice too
        rec = await world.app.storage.table(1)
        text, _ = await bob.press_label(world.table_message(), t(chat_lang, "Show my hand"), world.chat)
        assert text is None
        # the group's /lang changes the chat's language and nobody's own
        await ann.say(world.chat, "lang", own)
        chat = await world.app.storage.chat(world.port.platform, world.chat.id)
        assert chat.language == own
        await ann.say(world.chat, "lang", chat_lang)
        await bob.say(world.chat, "leave")
        assert world.group()[-1].text == t(
            chat_lang, "{name} has left the table: the computer plays for them.", name="Bob"
        )
        told = world.port.private(bob.user.id)[-1]
        assert [b.label for b in told.buttons()] == [t(own, "Take my seat back")]
        assert rec.status == "playing"
    finally:
        await world.app.close()
