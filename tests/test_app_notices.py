"""Notices to one person go to that person (issue 27 point 4), through the application and the fake port: `leave`,
join refusals and errors are private; the group gets at most a third-person line; "Take my seat back" is on the
message that tells the leaver. Each in English and Russian."""

from __future__ import annotations

import pytest

from bot.storage import PLAYING
from core.i18n import t
from tests.app_support import db_path, make_world, open_table

SECOND_PERSON = {"en": ("You have", "you have", "You are"), "ru": ("Вы ", "вы ")}


def _no_second_person(texts: list[str], lang: str) -> None:
    for text in texts:
        assert not any(word in text for word in SECOND_PERSON[lang]), text


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_leave_tells_the_leaver_privately_with_the_button_to_come_back(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        ann, bob = world.user("Ann", lang), world.user("Bob", lang)
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        await world.app.idle()
        before, told_before = len(world.group()), len(world.port.private(bob.user.id))
        await bob.say(world.chat, "leave")
        await world.app.idle()
        # told once: one new private message, his hand, saying the computer plays for him (the older hand only
        # points to it and keeps no button)
        new_private = world.port.private(bob.user.id)[told_before:]
        assert len(new_private) == 1, [s.text for s in new_private]
        away = t(lang, "The computer plays for you. Press “Take my seat back” to return.")
        assert away in new_private[0].text
        assert t(lang, "Your turn: {what}", what="")[:8] not in new_private[0].text
        carrying = [s for s in world.port.private(bob.user.id) if s.buttons()]
        assert carrying == new_private
        new = [s.text for s in world.group()[before:]]
        # the others learn it in one third-person line; nothing in the group speaks to Bob
        assert new == [t(lang, "{name} has left the table: the computer plays for them.", name="Bob")]
        _no_second_person([s.text for s in world.group()], lang)
        told = world.port.private(bob.user.id)[-1]
        assert t(lang, "Take my seat back") in [b.label for b in told.buttons()]
        assert "#1 · Kitchen table" in told.text  # which table it is
        assert not any(
            t(lang, "Take my seat back") in b.label for s in world.port.private(ann.user.id) for b in s.buttons()
        )
        rec = await world.app.storage.table(1)
        assert rec.status == PLAYING and next(s for s in rec.seats if s.user.name == "Bob").taken_over
        # his hand shows no moves while the computer plays, and carries the way back too
        hand = [s for s in world.port.private(bob.user.id) if s.message.image_name == "hand.jpg"][-1]
        assert [b.label for b in hand.buttons()] == [t(lang, "Take my seat back")]
        text, _alert = await bob.press_label(told, t(lang, "Take my seat back"))
        assert text == t(lang, "Welcome back: your seat is yours again.")
        assert t(lang, "Take my seat back") not in [b.label for b in told.buttons()]  # his hand plays again
        assert away not in told.text
        rec = await world.app.storage.table(1)
        assert not next(s for s in rec.seats if s.user.name == "Bob").taken_over
    finally:
        await world.app.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_join_and_its_refusals_are_private(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        ann, bob, cid = world.user("Ann", lang), world.user("Bob", lang), world.user("Cid", lang)
        await ann.say(world.chat, "new", "kozel 2")
        await bob.say(world.chat, "join")
        assert t(lang, "You have joined the table.") in [s.text for s in world.port.private(bob.user.id)]
        await cid.say(world.chat, "join")
        assert world.port.private(cid.user.id)[-1].text == t(lang, "The table is full.")
        await ann.say(world.chat, "join")
        assert world.port.private(ann.user.id)[-1].text == t(lang, "You already have a seat at this table.")
        await ann.say(world.chat, "new", "thousand")
        assert world.port.private(ann.user.id)[-1].text == t(lang, "A table is already open here.")
        # the group saw only its lobby change (Bob's seat): no new message, nothing addressed to one person
        assert [s.id for s in world.group()] == [world.lobby().id]
        _no_second_person([s.text for s in world.group()], lang)
        await bob.say(world.chat, "leave")
        assert world.port.private(bob.user.id)[-1].text == t(lang, "You have left the table.")
        assert [s.id for s in world.group()] == [world.lobby().id]
    finally:
        await world.app.close()


async def test_someone_who_cannot_be_reached_privately_is_named_in_one_short_group_line(tmp_path):
    world = await make_world(db_path(tmp_path), lang="ru")
    try:
        ann, bob, dan = world.user("Аня", "ru"), world.user("Боря", "ru"), world.user("Даня", "ru")
        await ann.say(world.chat, "new", "kozel 2")
        await bob.say(world.chat, "join")
        world.port.blocked.add(dan.user.id)  # never opened the private chat (Telegram)
        await dan.say(world.chat, "join")
        assert world.group()[-1].text == "Даня: Все места заняты."
        assert world.port.private(dan.user.id) == []
    finally:
        await world.app.close()
