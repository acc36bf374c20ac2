"""Votes to stop a table (``Storage.vote_stop``) on a real SQLite file and a real PostgreSQL database: counted
once, shared by every worker on the database, only present players count, gone when the table stops."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import delete, select

from bot.storage import ABANDONED, FINISHED, Conflict, InvalidInput, NotFound, SeatSpec, StopVotes, Storage
from bot.storage.models import StopVote, Table
from tests import storage_support
from tests.storage_support import play, setup_table, vote_rows

db_url = storage_support.db_url
storage = storage_support.storage


async def test_a_repeated_vote_counts_once(storage: Storage):
    table, _ = await setup_table(storage, "thousand", 3)
    bob, cid = table.seats[1].user_id, table.seats[2].user_id
    first = await storage.vote_stop(table.id, bob)
    assert first == StopVotes((bob,), 3) and not first.majority
    assert await storage.vote_stop(table.id, bob) == first  # the same player again, or a redelivered update
    assert await vote_rows(storage, table.id) == 1
    both = await storage.vote_stop(table.id, cid)
    assert both == StopVotes(tuple(sorted((bob, cid))), 3) and both.majority


async def test_votes_are_shared_by_workers_and_counted_one_after_another(db_url: str):
    one, two = await Storage.open(db_url), await Storage.open(db_url)
    try:
        table, _ = await setup_table(one, "thousand", 3)
        ann, bob = table.seats[0].user_id, table.seats[1].user_id
        # the same vote reaching two workers at once: stored once, neither fails
        same = await asyncio.gather(one.vote_stop(table.id, bob), two.vote_stop(table.id, bob))
        assert [v.voters for v in same] == [(bob,), (bob,)] and await vote_rows(one, table.id) == 1
        # two more tables' worth of races: two players voting at once on two workers; exactly the later one
        # sees both votes, so the majority is never missed
        for n in range(3):
            t, _ = await setup_table(one, "thousand", 3, chat=f"-2{n}")
            p1, p2 = t.seats[1].user_id, t.seats[2].user_id
            got = await asyncio.gather(one.vote_stop(t.id, p1), two.vote_stop(t.id, p2))
            assert sorted(len(v.voters) for v in got) == [1, 2]
            assert [v.majority for v in got].count(True) == 1
        assert (await two.vote_stop(table.id, ann)).voters == tuple(sorted((ann, bob)))
    finally:
        await one.close()
        await two.close()


async def test_votes_survive_a_restart(db_url: str):
    st = await Storage.open(db_url)
    table, _ = await setup_table(st, "kozel", 4)
    voters = [s.user_id for s in table.seats[1:3]]
    for user_id in voters:
        await st.vote_stop(table.id, user_id)
    await st.close()
    st = await Storage.open(db_url)
    try:
        last = await st.vote_stop(table.id, table.seats[3].user_id)
        assert len(last.voters) == 3 and last.players == 4 and last.majority
    finally:
        await st.close()


async def test_only_present_players_count(storage: Storage):
    table, _ = await setup_table(storage, "kozel", 4)
    ann, bob, cid, dan = (s.user_id for s in table.seats)
    await storage.vote_stop(table.id, bob)
    await storage.vote_stop(table.id, cid)
    await storage.update_seat(table.id, 1, taken_over=True)  # Bob leaves: the computer plays for him
    assert await vote_rows(storage, table.id) == 1
    with pytest.raises(InvalidInput) as err:
        await storage.vote_stop(table.id, bob)
    assert err.value.code == "not_seated" and await vote_rows(storage, table.id) == 1
    assert await storage.vote_stop(table.id, dan) == StopVotes(tuple(sorted((cid, dan))), 3)
    await storage.update_seat(table.id, 1, taken_over=False)  # back at the table: his old vote stays forgotten
    assert (await storage.vote_stop(table.id, dan)).voters == tuple(sorted((cid, dan)))
    outsider = await storage.user("telegram", "nobody", "Nobody")
    with pytest.raises(InvalidInput):
        await storage.vote_stop(table.id, outsider.id)
    with pytest.raises(NotFound):
        await storage.vote_stop(table.id + 99, dan)


async def test_a_timeout_takeover_drops_the_vote(storage: Storage):
    table, state = await setup_table(storage, "deberts", 3, options={})
    seat = state.to_act
    voter = table.seats[(seat + 1) % 3].user_id
    mover = table.seats[seat].user_id
    await storage.vote_stop(table.id, voter)
    await storage.vote_stop(table.id, mover)
    action = state.legal_actions(seat)[0]
    new, _ = state.apply(action)
    await storage.commit_move(
        table.id,
        table.version,
        seat=seat,
        action=action.to_json(),
        actor_user_id=None,
        by="timeout",
        state=new.to_json(),
        seat_updates={seat: {"timeouts": 3, "taken_over": True}},
    )
    async with storage.engine.connect() as conn:
        left = set((await conn.execute(select(StopVote.user_id).where(StopVote.table_id == table.id))).scalars())
    assert left == {voter}


async def test_a_lobby_leaver_loses_the_vote(storage: Storage):
    c = await storage.chat("telegram", "-300", title="Lobby")
    users = [await storage.user("telegram", f"l{i}", f"L{i}") for i in range(3)]
    seats = [SeatSpec(i, user_id=u.id) for i, u in enumerate(users)]
    table = await storage.create_table(c.id, "thousand", 3, {}, "s", users[0].id, seats)
    await storage.vote_stop(table.id, users[1].id)
    await storage.vote_stop(table.id, users[2].id)
    table = await storage.update_lobby(table.id, table.lobby_rev, seats=seats[:2])
    assert await storage.vote_stop(table.id, users[1].id) == StopVotes((users[1].id,), 2)
    assert await vote_rows(storage, table.id) == 1


async def test_votes_are_gone_when_the_table_stops(storage: Storage):
    finished, state = await setup_table(storage, "kozel", 2, seed="votes-end")
    await storage.vote_stop(finished.id, finished.seats[1].user_id)
    finished, _ = await play(storage, finished, state)
    assert finished.status == FINISHED and await vote_rows(storage, finished.id) == 0
    with pytest.raises(Conflict):
        await storage.vote_stop(finished.id, finished.seats[1].user_id)
    assert await vote_rows(storage, finished.id) == 0

    stopped, _ = await setup_table(storage, "kozel", 3, chat="-301")
    await storage.vote_stop(stopped.id, stopped.seats[1].user_id)
    assert (await storage.abandon_table(stopped.id)).status == ABANDONED
    assert await vote_rows(storage, stopped.id) == 0

    deleted, _ = await setup_table(storage, "kozel", 3, chat="-302")
    await storage.vote_stop(deleted.id, deleted.seats[2].user_id)
    async with storage._write() as conn:  # a table removed by hand takes its votes with it (ON DELETE CASCADE)
        await conn.execute(delete(Table).where(Table.id == deleted.id))
    assert await vote_rows(storage, deleted.id) == 0


async def test_the_standing_votes_are_read_without_changing_them(storage: Storage):
    """What a web table shows of a running vote (``stop_votes``): the present players' votes cast since a time,
    their number of present players and when the newest was cast; reading changes nothing."""
    from datetime import UTC, datetime, timedelta

    table, _ = await setup_table(storage, "kozel", 4)
    ann, bob, cid, _dan = (s.user_id for s in table.seats)
    assert await storage.stop_votes(table.id) == StopVotes((), 4, None)
    early = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)
    await storage.vote_stop(table.id, bob, at=early)
    await storage.vote_stop(table.id, cid, at=early + timedelta(seconds=90))
    standing = await storage.stop_votes(table.id, since=early)
    assert standing == StopVotes(tuple(sorted((bob, cid))), 4, early + timedelta(seconds=90))
    later = await storage.stop_votes(table.id, since=early + timedelta(seconds=60))  # Bob's has expired by then
    assert later.voters == (cid,) and await vote_rows(storage, table.id) == 2
    await storage.update_seat(table.id, 2, taken_over=True)  # Cid left: his vote no longer counts
    assert await storage.stop_votes(table.id) == StopVotes((bob,), 3, early)
    assert ann not in standing.voters
