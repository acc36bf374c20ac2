"""Untimed play (issue 27 point 7), through the application, the fake port and the app's clock moved by hand: a
12 h or 24 h turn timer ("play when you have time") reminds the player to move and then nudges him once a day; the
computer moves for him at the end only if the table chose so."""

from __future__ import annotations

import pytest

from bot.storage import PLAYING
from core.base import Action
from core.i18n import t
from tests.app_support import World, db_path, make_world, press_kind

HOUR = 3600


async def _open_long_table(world: World, lang: str, *, computer_moves: bool) -> None:
    ann, bob = world.user("Ann", lang), world.user("Bob", lang)
    await ann.say(world.chat, "new", "deberts")
    await press_kind(world, bob, "j")
    await ann.press_label(world.lobby(), t(lang, "Settings"), world.chat)
    shown = ""
    while t(lang, "{n} h, play when you have time", n=24) not in shown:
        shown, _ = await ann.press_label(world.lobby(), t(lang, "Turn timer"), world.chat)
    assert t(lang, "When the time is up: we wait, with a daily reminder") in world.lobby().text  # the default
    if computer_moves:
        shown, _ = await ann.press_label(
            world.lobby(), t(lang, "When the time is up: we wait, with a daily reminder"), world.chat
        )
        assert shown == t(lang, "When the time is up: the computer moves")
    await ann.press_label(world.lobby(), t(lang, "Back"), world.chat)
    text, _ = await press_kind(world, ann, "s")
    assert text is None, text


async def _mover(world: World):
    rec = await world.app.storage.table(1)
    live = await world.app.live(rec)
    uid = next(s.user.platform_id for s in rec.seats if s.seat == live.state.to_act)
    return rec, next(u for u in world.users.values() if u.user.id == uid)


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_24_hour_timer_reminds_and_nudges_daily_without_the_computer_moving(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    app = world.app
    try:
        await _open_long_table(world, lang, computer_moves=False)
        rec, mover = await _mover(world)
        assert rec.deadline_kind == "remind"
        version = rec.version
        world.clock.advance(18 * HOUR - 1)
        assert await app.tick() == 0
        world.clock.advance(1)
        assert await app.tick() == 1  # a quarter of the time left: the reminder
        where = f"{t(lang, 'Deberts')} #1 · Kitchen table"
        assert world.port.private(mover.user.id)[-1].text == t(
            lang, "⏰ {where}: your move — {n} h left.", where=where, n=6
        )
        world.clock.advance(6 * HOUR)
        assert await app.tick() == 1  # the time is up: a nudge, and no move for him
        nudge = t(
            lang,
            "⏰ {where}: the table is waiting for your move. No hurry: I will remind you once a day.",
            where=where,
        )
        assert world.port.private(mover.user.id)[-1].text == nudge
        for _day in range(2):  # then once a day, still without the computer
            world.clock.advance(24 * HOUR - 1)
            assert await app.tick() == 0
            world.clock.advance(1)
            assert await app.tick() == 1
            assert world.port.private(mover.user.id)[-1].text == nudge
        await app.idle()
        rec = await app.storage.table(1)
        assert rec.status == PLAYING and rec.version == version and await app.storage.moves(1) == []
        assert all(s.timeouts == 0 and not s.taken_over for s in rec.seats)
        nudges = [s for s in world.port.private(mover.user.id) if s.text == nudge]
        assert len(nudges) == 3 and not any("⏰" in s.text for s in world.group())
        # he moves when he has time: the next player's turn gets its own 24 hours
        live = await app.live(rec)
        assert await mover.play_code(Action.from_json(live.state.view(live.state.to_act)["legal"][0]).code())
        await app.idle()
        rec = await app.storage.table(1)
        assert rec.version == version + 1
        assert rec.deadline_kind == "remind" and (rec.deadline - world.clock.now).total_seconds() == 18 * HOUR
    finally:
        await app.close()


@pytest.mark.parametrize("lang", ["en", "ru"])
async def test_a_long_timer_hands_the_move_to_the_computer_when_the_table_chose_so(tmp_path, lang):
    world = await make_world(db_path(tmp_path), lang=lang)
    app = world.app
    try:
        await _open_long_table(world, lang, computer_moves=True)
        assert t(lang, "When the time is up: the computer moves") in world.group()[0].history[-2].text
        rec, mover = await _mover(world)
        version = rec.version
        world.clock.advance(18 * HOUR)
        assert await app.tick() == 1
        world.clock.advance(6 * HOUR)
        assert await app.tick() == 1
        await app.idle()
        moves = await app.storage.moves(1)
        assert moves and moves[0].by == "timeout"
        assert (await app.storage.table(1)).version > version
        assert t(lang, "⏰ {name} ran out of time: the computer moved for them.", name=mover.user.name) in (
            world.table_message().text
        )
    finally:
        await app.close()
