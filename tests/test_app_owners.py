"""Issue 36, "a rare race between workers leaves a hand without buttons": work a worker picks up by itself (a turn
timer, a computer seat resumed after a restart, a season's summary) goes only to a worker that can publish it, one
with an adapter of the table's platform attached. Two workers on one database: one with the table's platform (the
fake port), one with only another platform (Telegram's place in a deployment that runs Discord workers beside it).
"""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta

import pytest

from bot import seasons
from bot.storage import Storage
from testkit.fakeport import FakePort, FakeUser
from tests.app_support import Clock, World, db_path, make_world, open_table, worker
from tests.test_app_seasons import finished_game


def mover_of(world: World, rec, seat: int) -> FakeUser:
    return next(u for u in world.users.values() if rec.seats[seat].user.platform_id == u.user.id)


async def look(*apps) -> None:
    """Each worker looks at the due timers, in this order, and finishes what it fired."""
    for app in apps:
        await app.tick()
        await app.idle()


@pytest.mark.parametrize("first_seen", ["remind", "timeout"])
async def test_a_turn_timer_is_fired_by_a_worker_that_can_show_it(tmp_path, caplog, first_seen):
    """The other worker looks first, at the reminder or at the timeout: the player still gets his reminder, and
    after the timeout's computer move the player to act holds the new version's buttons and the group sees it."""
    caplog.set_level(logging.WARNING)
    world = await make_world(db_path(tmp_path))
    other = await worker(world.url, FakePort("telegram"), world.clock)  # no adapter of the table's platform
    try:
        await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
        await world.app.idle()
        rec = await world.app.storage.table(1)
        assert rec.deadline_kind == "remind"
        seat = (await world.app.live(rec)).state.to_act
        player = mover_of(world, rec, seat)
        world.clock.advance(91)
        await look(*((other, world.app) if first_seen == "remind" else (world.app,)))
        assert "your move — 30 s left" in world.port.private(player.user.id)[-1].text
        world.clock.advance(31)
        await look(other, world.app)
        after = await world.app.storage.table(1)
        assert after.version == rec.version + 1  # the computer moved for him
        to_act = (await world.app.live(after)).state.to_act
        hand = mover_of(world, after, to_act).hands()[0]
        assert {b.payload.split(".")[2] for b in hand.buttons() if b.payload.startswith("a.")} == {str(after.version)}
        assert "ran out of time" in world.table_message().text
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    finally:
        await other.close()
        await world.app.close()


async def test_after_a_restart_the_computer_seats_are_played_by_a_worker_that_can_show_them(tmp_path, caplog):
    """Both workers restart while a computer is to play a seat (its player left while they were down). The other
    worker starts first and leaves the table alone; the worker of the table's platform plays the seat, and the
    player to act next holds the new version's buttons."""
    caplog.set_level(logging.WARNING)
    world = await make_world(db_path(tmp_path))
    await open_table(world, "deberts", ["Ann", "Bob"], [], 2)
    await world.app.idle()
    rec = await world.app.storage.table(1)
    seat = (await world.app.live(rec)).state.to_act
    await world.app.close()
    storage = await Storage.open(world.url)
    await storage.update_seat(1, seat, taken_over=True)
    await storage.close()
    other = await worker(world.url, FakePort("telegram"), world.clock)
    try:
        await other.idle()
        assert (await other.storage.table(1)).version == rec.version  # not its platform: not its table to play
        world.app = await worker(world.url, world.port, world.clock)
        for u in world.users.values():
            u.app = world.app
        await world.app.idle()
        after = await world.app.storage.table(1)
        assert after.version > rec.version  # the computer played the seat
        to_act = (await world.app.live(after)).state.to_act
        hand = mover_of(world, after, to_act).hands()[0]
        assert {b.payload.split(".")[2] for b in hand.buttons() if b.payload.startswith("a.")} == {str(after.version)}
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    finally:
        await other.close()
        await world.app.close()


async def test_a_seasons_summary_is_posted_by_a_worker_that_can_post_it(tmp_path, caplog):
    """The other worker looks for ended seasons first: it leaves the chat's summary to the worker of its platform,
    and the chat gets it (a summary is claimed once: a worker that claimed it and could not post it lost it)."""
    caplog.set_level(logging.WARNING)
    clock = Clock()
    clock.now = datetime.now(UTC)
    world = await make_world(db_path(tmp_path), clock=clock)
    other = await worker(world.url, FakePort("telegram"), clock)
    try:
        await finished_game(world, "Ann", "Bob", "s-1")
        ended = seasons.season_of("month", clock.now)
        assert ended is not None
        clock.now = ended.end + timedelta(minutes=1)
        assert await other.seasons.tick() == 0
        assert await world.app.seasons.tick() == 1
        await world.app.idle()
        assert world.group()[-1].text.startswith(f"🏁 Season {ended.key} is over.")
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], [r.getMessage() for r in caplog.records]
    finally:
        await other.close()
        await world.app.close()
