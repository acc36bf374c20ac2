"""Play again (issue 27 point 2) through the application and the fake port: at a game's end the final sheet offers
"Play again", which opens a lobby with the same seats, computers and options; every other person confirms with one
tap (the button again, or Join); a seat not confirmed is held until the host starts, when a computer takes it."""

from __future__ import annotations

import pytest

from bot.storage import FINISHED, LOBBY, PLAYING
from core.i18n import t
from tests.app_support import World, db_path, make_world, play_to_end, press_kind


async def finished_game(world: World, lang: str) -> None:
    """Ann hosts Kozel for three (Ann, Bob and an easy computer) with a five-minute turn timer, played to its end."""
    ann, bob = world.user("Ann", lang), world.user("Bob", lang)
    await ann.say(world.chat, "new", "kozel 3")
    await press_kind(world, bob, "j")
    await press_kind(world, ann, "c", ".easy")
    await press_kind(world, ann, "m", ".set")
    timer = next(b for b in world.lobby().buttons() if b.label.startswith(t(lang, "Turn timer")))
    await ann.press(world.lobby(), timer, world.chat)  # 2 min -> 5 min
    await press_kind(world, ann, "m", ".main")
    await press_kind(world, ann, "s")
    await play_to_end(world, ["Ann", "Bob"], 1)
    await world.app.idle()
    assert (await world.app.storage.table(1)).status == FINISHED


def play_again(world: World):
    sheet = world.group()[-1]
    assert sheet.message.image_name == "sheet.jpg"
    return sheet, next(b for b in sheet.buttons() if b.payload == "p.1")


@pytest.mark.parametrize("lang,confirm", [("en", "play_again"), ("ru", "join")])
async def test_play_again_opens_the_same_table_and_needs_one_tap_each(tmp_path, lang, confirm):
    world = await make_world(db_path(tmp_path), lang=lang)
    try:
        await finished_game(world, lang)
        old = await world.app.storage.table(1)
        sheet, again = play_again(world)
        assert again.label == "🔁 " + t(lang, "Play again")
        text, _alert = await world.users["Bob"].press(sheet, again, world.chat)
        assert text == t(lang, "You are in: the others confirm with one tap.")
        new = await world.app.storage.open_table(old.chat_id)
        assert new is not None and new.id == 2 and new.status == LOBBY and new.host_user_id == old.seats[1].user_id
        assert [(s.seat, s.user_id, s.computer) for s in new.seats] == [
            (s.seat, s.user_id, s.computer) for s in old.seats
        ]
        assert world.app.ctx.timer_of(new) == 300 and new.game == old.game and new.players == old.players
        lobby = world.lobby()
        assert "Ann" in lobby.text and t(lang, "Computer {n}", n=3) in lobby.text
        # Ann's seat is held for her: one tap confirms it
        if confirm == "play_again":
            text, _alert = await world.users["Ann"].press(sheet, again, world.chat)
        else:
            text, _alert = await press_kind(world, world.users["Ann"], "j")
        assert text == t(lang, "You are in.")
        assert "⏳" not in world.lobby().text
        text, _alert = await world.users["Bob"].press(sheet, again, world.chat)  # Bob is in already
        assert text == t(lang, "You already have a seat at this table.")
        text, _alert = await press_kind(world, world.users["Bob"], "s")
        assert text is None
        started = await world.app.storage.table(2)
        assert started.status == PLAYING
        assert [(s.seat, s.user_id, s.computer) for s in started.seats] == [
            (s.seat, s.user_id, s.computer) for s in old.seats
        ]
    finally:
        await world.app.close()


async def test_the_host_starts_without_a_player_who_did_not_confirm(tmp_path):
    world = await make_world(db_path(tmp_path))
    try:
        await finished_game(world, "en")
        sheet, again = play_again(world)
        await world.users["Ann"].press(sheet, again, world.chat)
        assert "⏳ Seats held for Bob" in world.lobby().text
        # a stranger cannot take the rematch's button
        text, alert = await world.user("Eve").press(sheet, again, world.chat)
        assert text == "Only the players of this table can answer." and alert
        text, _alert = await press_kind(world, world.users["Ann"], "s")
        assert text is None
        started = await world.app.storage.table(2)
        assert started.status == PLAYING and "held" not in started.options
        assert [(s.user.name if s.user else None, s.computer) for s in started.seats] == [
            ("Ann", None),
            (None, "normal"),
            (None, "easy"),
        ]
    finally:
        await world.app.close()
