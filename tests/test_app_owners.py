"""Issue 36, "a rare race between workers leaves a hand without buttons": work a worker picks up by itself (a turn
timer, a computer seat resumed after a restart, a season's summary) goes only to a worker that can publish it, one
with an adapter of the table's platform attached. Two workers on one database: one with the table's platform (the
fake port), one with only another platform (Telegram's place in a deployment that runs Discord workers beside it).
"""

from __future__ import annotations

import logging

import pytest

from testkit.fakeport import FakePort, FakeUser
from tests.app_support import World, db_path, make_world, open_table, worker


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
