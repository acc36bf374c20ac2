"""Leaderboards, player statistics and recent games on real finished games played by the engine through the
storage; each is one SQL statement however many games and players there are."""

from __future__ import annotations

from contextlib import contextmanager

import pytest
from sqlalchemy import event

from bot.storage import ABANDONED, FINISHED, Storage
from tests import storage_support
from tests.storage_support import play, setup_table

db_url = storage_support.db_url
storage = storage_support.storage


@contextmanager
def count_statements(st: Storage):
    seen: list[str] = []

    def before(conn, cursor, statement, params, context, executemany):
        if statement.split()[0].upper() not in ("BEGIN", "COMMIT", "ROLLBACK"):
            seen.append(statement)

    event.listen(st.engine.sync_engine, "before_cursor_execute", before)
    try:
        yield seen
    finally:
        event.remove(st.engine.sync_engine, "before_cursor_execute", before)


async def test_stats_of_finished_deberts_and_kozel_games(storage: Storage):
    games_played = []
    for seed in ("d-1", "d-2"):
        table, state = await setup_table(storage, "deberts", 2, seed=seed)
        games_played.append(await play(storage, table, state))
    kozel, kstate = await setup_table(storage, "kozel", 3, computers=1, seed="k-1")
    kozel, kstate = await play(storage, kozel, kstate)
    stopped, _ = await setup_table(storage, "kozel", 2, seed="k-2")
    stopped, stopped_state = await play(storage, stopped, _, moves=4)
    await storage.abandon_table(stopped.id)
    chat_id = kozel.chat_id
    ann = games_played[0][0].seats[0].user_id  # the same two users sat at both Deberts tables

    with count_statements(storage) as seen:
        board = await storage.leaderboard(chat_id, "deberts")
    assert len(seen) == 1
    assert [row.games for row in board] == [2, 2]
    expected_wins = {}
    for table, state in games_played:
        winner = max(range(2), key=lambda s: (state.totals[s], -s))
        uid = table.seats[winner].user_id
        expected_wins[uid] = expected_wins.get(uid, 0) + 1
    assert {row.user_id: row.wins for row in board if row.wins} == expected_wins
    assert board == sorted(board, key=lambda r: -r.rating)
    assert {row.name for row in board} == {"Player 0", "Player 1"}

    with count_statements(storage) as seen:
        me = await storage.player_stats(chat_id, "deberts", ann)
    assert len(seen) == 1
    totals = [state.totals[0] for _table, state in games_played]
    assert (me.games, me.baits, me.kozel, me.barrels) == (2, 2, 0, 0)
    assert me.wins == expected_wins.get(ann, 0) and me.win_share == pytest.approx(me.wins / 2)
    assert me.average_total == pytest.approx(sum(totals) / 2)

    kozel_user = kozel.seats[0].user_id
    mine = await storage.player_stats(chat_id, "kozel", kozel_user)
    results = await storage.results(kozel.id)
    assert mine.games == 1 and mine.kozel == int(bool(results[0].kozel))
    assert mine.rating_points == results[0].rating_points
    assert (await storage.ratings(chat_id, "kozel", [kozel_user]))[kozel_user].points == results[0].rating_points
    nobody = await storage.player_stats(chat_id, "thousand", kozel_user)
    assert (nobody.games, nobody.wins, nobody.win_share, nobody.average_total) == (0, 0, 0.0, None)

    with count_statements(storage) as seen:
        recent = await storage.recent_games(chat_id, limit=3)
    assert len(seen) == 1
    assert [(g.table_id, g.status) for g in recent] == [
        (stopped.id, ABANDONED),
        (kozel.id, FINISHED),
        (games_played[1][0].id, FINISHED),
    ]
    assert [p.total for p in recent[0].players] == stopped_state.totals and recent[0].winner_seats == []
    assert [(p.name, p.computer, p.total) for p in recent[1].players] == [
        ("Player 0", None, kstate.totals[0]),
        ("Player 1", None, kstate.totals[1]),
        ("", "normal", kstate.totals[2]),
    ]
    assert recent[1].winner_seats == [r.seat for r in results if r.place == 1]
