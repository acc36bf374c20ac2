"""After a stop or the end of a game no private message of that game keeps buttons (issue 27 point 10), through
the application and the fake port, in en and ru."""

from __future__ import annotations

import pytest

from core.i18n import t
from tests.app_support import World, db_path, make_world, open_table, play_to_end


def private_buttons(world: World) -> dict[str, list[str]]:
    """Every user's private messages that still carry buttons (their texts)."""
    out = {}
    for name, user in world.users.items():
        live = [s.text for s in world.port.private(user.user.id) if s.buttons()]
        if live:
            out[name] = live
    return out


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_after_a_stop_no_private_message_keeps_buttons(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    for name in ("Ann", "Bob", "Cid"):
        world.user(name, lang)
    try:
        await open_table(world, "thousand", ["Ann", "Bob", "Cid"], [], 3)
        await world.app.idle()
        assert private_buttons(world)  # the bidder has his choices
        await world.users["Ann"].say(world.chat, "stop")  # the host stops at once
        await world.app.idle()
        assert private_buttons(world) == {}
        for user in world.users.values():
            hand = [s for s in world.port.private(user.user.id) if s.message.image_name == "hand.jpg"][-1]
            assert t(lang, "The game was stopped.") in hand.text  # the picture stays, the buttons go
    finally:
        await world.app.close()


async def test_after_the_end_no_private_message_keeps_buttons(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await open_table(world, "kozel", ["Ann", "Bob"], [], 2)
        await play_to_end(world, ["Ann", "Bob"], 1)
        await world.app.idle()
        assert (await world.app.storage.table(1)).status == "finished"
        assert private_buttons(world) == {}
    finally:
        await world.app.close()
