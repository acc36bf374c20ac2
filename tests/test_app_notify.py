""" "Call me when a table opens" through the fake port: one private message per subscriber and table, with a Join
button that seats him; none to the host, none to someone seated elsewhere, none after ``notify off``."""

from __future__ import annotations

from bot.port import Chat
from tests.app_support import db_path, make_world
from tests.test_app_daily import press_daily


def told(world, name: str) -> list:
    return [s for s in world.port.private(world.users[name].user.id) if "opened a table" in s.text]


async def test_one_message_per_subscriber_none_to_the_host_none_to_the_seated(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        garage = Chat(world.port.platform, "g2", None, "Garage", "en")
        for name in ("Ann", "Bob", "Cid", "Dan", "Eve"):
            await world.user(name).say(world.chat, "notify", "on")
        assert "I will write to you when a table opens in Kitchen table" in world.port.private("u2")[-1].text
        await world.user("Fay").say(garage, "new", "kozel")  # Eve sits at the garage's table: busy elsewhere
        lobby = next(s for s in world.port.public("g2") if any(b.payload.startswith("j.") for b in s.buttons()))
        await world.users["Eve"].press_label(lobby, "Join", garage)
        await press_daily(world, "Cid", "deberts")  # a daily deal played alone is not "seated elsewhere"
        await world.app.idle()
        await world.users["Ann"].say(world.chat, "new", "thousand")
        await world.app.idle()
        assert [len(told(world, n)) for n in ("Ann", "Bob", "Cid", "Dan", "Eve")] == [0, 1, 1, 1, 0]
        assert "Ann opened a table of Thousand in Kitchen table: join?" in told(world, "Bob")[0].text
        # the same table told again (another worker, a repeated hook): nobody gets a second message
        rec = await world.app.storage.open_table((await world.app.storage.chat("fake", "g1", None)).id)
        assert rec is not None
        await world.app.notify.tell_subscribers(rec)
        assert [len(told(world, n)) for n in ("Bob", "Cid", "Dan")] == [1, 1, 1]
        # Join in the private message seats him; the group's lobby shows it
        text, _alert = await world.users["Bob"].press_label(told(world, "Bob")[0], "Join")
        assert text == "You have joined the table."
        assert (
            world.app.ctx.seat_of(
                await world.app.storage.table(rec.id), (await world.app.storage.user("fake", "u2", "Bob")).id
            )
            is not None
        )
        # Dan says off: the next table does not tell him
        await world.users["Dan"].say(world.chat, "notify", "off")
        await world.users["Ann"].say(world.chat, "stop")
        await world.users["Cid"].say(world.chat, "notify")  # tells Cid his state, changes nothing
        assert "I will write to you" in world.port.private("u3")[-1].text
        await world.users["Eve"].say(world.chat, "new", "kozel")  # Eve hosts: Ann, free again, is told now
        await world.app.idle()
        assert [len(told(world, n)) for n in ("Ann", "Bob", "Cid", "Dan", "Eve")] == [1, 2, 2, 1, 0]
    finally:
        await world.app.close()


async def test_notify_is_asked_for_in_a_group(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        ann = world.user("Ann")
        await ann.say(None, "notify", "on")
        assert world.port.private(ann.user.id)[-1].text == "Ask for it in a group: type /notify on there."
        await ann.say(world.chat, "notify", "maybe")
        assert world.port.private(ann.user.id)[-1].text == "Type /notify on or /notify off."
    finally:
        await world.app.close()
