"""State and log never disagree: a corrupt state row, an illegal action in the log and a missing log row are
each found, reported and the table is never played on again; ``record()`` rebuilds the game from the log."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import text

from bot.storage import BrokenTable, Storage
from bot.storage.integrity import canonical, digest
from core.records import result_of
from core.rng import stream
from tests import storage_support
from tests.storage_support import next_move, play, setup_table

db_url = storage_support.db_url
storage = storage_support.storage


async def sql(st: Storage, statement: str, **params) -> None:
    async with st.engine.begin() as conn:
        await conn.execute(text(statement), params)


async def assert_never_played_on(st: Storage, table_id: int) -> None:
    table = await st.table(table_id)
    assert table.broken
    assert table_id not in [t.id for t in await st.playing_tables()]
    assert table_id not in [t.id for t in await st.claim_due(datetime.now(UTC) + timedelta(days=1))]
    with pytest.raises(BrokenTable):
        await st.commit_move(
            table_id,
            table.version,
            seat=0,
            action={"seat": 0, "type": "pass"},
            actor_user_id=None,
            by="player",
            state={"any": 1},
        )
    with pytest.raises(BrokenTable):
        await st.set_deadline(table_id, table.version, datetime.now(UTC), "turn")


async def test_record_rebuilt_from_the_log_replays_to_the_stored_state(storage: Storage):
    table, state = await setup_table(storage, "deberts", 2, seed="rec-1")
    table, state = await play(storage, table, state, moves=30)
    record = await storage.record(table.id)
    assert record["game"] == "deberts" and record["players"] == 2
    assert result_of(record) == state.result()
    assert (await storage.verify(table.id)).broken is None
    assert await storage.verify_open_tables() == []


async def test_a_state_stored_after_dealing_the_next_round_also_verifies(storage: Storage):
    table, state = await setup_table(storage, "deberts", 2, seed="rec-2")
    rng = stream(9)
    while True:
        state, action = next_move(state, rng)
        state, _ = state.apply(action)
        stored = state
        if state.phase == "round_over" and not state.finished:
            stored, _ = state.next_round()  # the application deals before it stores
        table = await storage.commit_move(
            table.id,
            table.version,
            seat=action.seat,
            action=action.to_json(),
            actor_user_id=None,
            by="player",
            state=stored.to_json(),
        )
        if stored is not state:
            break
    assert (await storage.verify(table.id)).broken is None
    assert result_of(await storage.record(table.id)) == stored.result()


async def test_a_corrupt_state_row_is_caught_on_load(storage: Storage):
    table, state = await setup_table(storage, "kozel", 2, seed="bad-1")
    table, state = await play(storage, table, state, moves=6)
    await sql(
        storage, "UPDATE game_tables SET state = replace(state, '\"totals\"', '\"totalz\"') WHERE id = :i", i=table.id
    )
    loaded = await storage.table(table.id)  # the cheap digest check
    assert loaded.broken == "the state does not match its digest" and loaded.state is None
    await assert_never_played_on(storage, table.id)
    assert await storage.verify_open_tables() == [table.id]


async def test_a_state_rewritten_with_a_matching_digest_fails_the_full_replay(storage: Storage):
    table, state = await setup_table(storage, "kozel", 2, seed="bad-2")
    table, state = await play(storage, table, state, moves=6)
    forged = dict(state.to_json(), totals=[99, 0])
    body = canonical(forged)
    await sql(
        storage,
        "UPDATE game_tables SET state = :s, state_digest = :d WHERE id = :i",
        s=body,
        d=digest(body),
        i=table.id,
    )
    assert (await storage.table(table.id)).broken is None  # consistent on its own...
    with pytest.raises(BrokenTable) as err:  # ...but not what the log says
        await storage.verify(table.id)
    assert err.value.table_id == table.id and "differs" in err.value.reason
    await assert_never_played_on(storage, table.id)


async def test_an_illegal_action_in_the_log_is_reported(storage: Storage):
    table, state = await setup_table(storage, "deberts", 2, seed="bad-3")
    table, state = await play(storage, table, state, moves=12)
    moves = await storage.moves(table.id)
    seq = next(m.seq for m in moves if m.action["type"] == "play")
    wrong = dict(moves[seq - 1].action, card="XX")
    await sql(
        storage, "UPDATE moves SET action = :a WHERE table_id = :i AND seq = :s", a=json.dumps(wrong), i=table.id, s=seq
    )
    assert await storage.verify_open_tables() == [table.id]
    reason = (await storage.table(table.id)).broken
    assert f"move {seq}" in reason and "refused by the rules" in reason
    with pytest.raises(BrokenTable):
        await storage.record(table.id)
    await assert_never_played_on(storage, table.id)


async def test_a_missing_log_row_is_reported(storage: Storage):
    table, state = await setup_table(storage, "kozel", 3, computers=1, seed="bad-4")
    table, state = await play(storage, table, state, moves=8)
    await sql(storage, "DELETE FROM moves WHERE table_id = :i AND seq = 3", i=table.id)
    healthy, _ = await setup_table(storage, "kozel", 2, seed="ok", chat="-200")
    assert await storage.verify_open_tables() == [table.id]
    assert "7 moves" in (await storage.table(table.id)).broken
    await assert_never_played_on(storage, table.id)
    assert (await storage.table(healthy.id)).broken is None
    # the chat is not stuck: the broken table can be stopped and a new one opened
    await storage.abandon_table(table.id)
    again, _ = await setup_table(storage, "kozel", 2, seed="new", chat="-100")
    assert again.chat_id == table.chat_id


async def test_a_due_table_with_a_corrupt_state_is_marked_not_handed_out(storage: Storage):
    table, state = await setup_table(storage, "kozel", 2, seed="bad-5")
    now = datetime.now(UTC)
    await storage.set_deadline(table.id, 0, now - timedelta(seconds=1), "turn")
    await sql(storage, "UPDATE game_tables SET state = '{\"broken\": true}' WHERE id = :i", i=table.id)
    assert await storage.claim_due(now) == []  # found by the claim itself, inside its write transaction
    assert (await storage.table(table.id)).broken == "the state does not match its digest"
