"""Storage under several workers (issue 26): replay checks in one snapshot and ``python -m bot repair``,
timer claims as leases, the press that stored a move, invitations in the database, ids out of range refused."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from sqlalchemy import text

from bot.storage import BrokenTable, Conflict, InvalidInput, NotFound, SeatSpec, Storage
from core import games
from core.rng import stream
from tests import storage_support
from tests.storage_support import next_move, play, setup_table

db_url = storage_support.db_url
storage = storage_support.storage
ROOT = Path(__file__).resolve().parent.parent


async def sql(st: Storage, statement: str, **params) -> None:
    async with st.engine.begin() as conn:
        await conn.execute(text(statement), params)


# ---- finding 5: the replay check reads the table and its log in one snapshot -------------------------------
async def test_checks_while_another_worker_commits_never_mark_a_healthy_table_broken(db_url: str):
    checker = await Storage.open(db_url)
    mover = await Storage.open(db_url, migrate=False)  # a second worker: its own engine and connections
    try:
        for game, players, seed in (("thousand", 3, "snap-1"), ("deberts", 2, "snap-2")):
            table, state = await setup_table(mover, game, players, seed=seed, chat=f"-{seed}")
            done = asyncio.Event()
            refused: list[str] = []

            async def move(table=table, state=state, done=done, seed=seed) -> None:
                rng = stream(seed, "snapshot")
                try:
                    for _ in range(40):
                        if state.finished:
                            break
                        state, action = next_move(state, rng)
                        state, _events = state.apply(action)
                        table = await mover.commit_move(
                            table.id,
                            table.version,
                            seat=action.seat,
                            action=action.to_json(),
                            actor_user_id=None,
                            by="player",
                            state=state.to_json(),
                        )
                        await asyncio.sleep(0)
                finally:
                    done.set()

            async def check(table_id=table.id, done=done, refused=refused) -> int:
                checks = 0
                while not done.is_set():
                    for call in (checker.verify, checker.record):
                        try:
                            await call(table_id)
                        except BrokenTable as err:
                            refused.append(err.reason)
                    if checks % 4 == 0:
                        refused.extend(str(t) for t in await checker.verify_open_tables())
                    checks += 1
                return checks

            _, checks = await asyncio.gather(move(), check())
            assert checks > 0
            assert refused == []
            assert (await checker.table(table.id)).broken is None
    finally:
        await mover.close()
        await checker.close()


async def test_repair_clears_a_mark_the_log_disproves_and_keeps_a_true_one(storage: Storage):
    table, state = await setup_table(storage, "kozel", 2, seed="rep-1")
    table, state = await play(storage, table, state, moves=6)
    await sql(storage, "UPDATE game_tables SET broken = 'a mismatch seen mid-move' WHERE id = :i", i=table.id)
    report = await storage.repair(table.id)
    assert (report.was_broken, report.broken) == ("a mismatch seen mid-move", None)
    assert (await storage.table(table.id)).broken is None
    assert (await storage.repair(table.id)).broken is None  # healthy: nothing to do
    await sql(storage, "DELETE FROM moves WHERE table_id = :i AND seq = 6", i=table.id)
    report = await storage.repair(table.id)
    assert report.broken and "5 moves" in report.broken
    assert (await storage.table(table.id)).broken == report.broken
    with pytest.raises(NotFound):
        await storage.repair(table.id + 100)


def repair_command(url: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "bot", "repair", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120
    )


async def test_python_m_bot_repair_answers_with_its_exit_code(storage: Storage, db_url: str):
    table, state = await setup_table(storage, "kozel", 2, seed="rep-2")
    await play(storage, table, state, moves=4)
    await sql(storage, "UPDATE game_tables SET broken = 'seen mid-move' WHERE id = :i", i=table.id)
    fixed = await asyncio.to_thread(repair_command, db_url, str(table.id))
    assert fixed.returncode == 0, fixed.stderr
    assert "repaired" in fixed.stdout and "seen mid-move" in fixed.stdout
    assert (await storage.table(table.id)).broken is None
    await sql(storage, "DELETE FROM moves WHERE table_id = :i AND seq = 2", i=table.id)
    still = await asyncio.to_thread(repair_command, db_url, str(table.id))
    assert still.returncode == 1 and "broken" in still.stdout
    missing = await asyncio.to_thread(repair_command, db_url, str(table.id + 50))
    assert missing.returncode == 2 and "no table" in missing.stdout + missing.stderr


# ---- finding 6: a claim is a lease ----------------------------------------------------------------------
async def test_a_timer_claimed_by_a_worker_that_dies_is_claimed_again_after_the_lease(db_url: str):
    first = await Storage.open(db_url)
    second = await Storage.open(db_url, migrate=False)
    try:
        now = datetime(2032, 3, 1, 12, 0, tzinfo=UTC)
        table, state = await setup_table(first, "kozel", 2, seed="lease-1")
        await first.set_deadline(table.id, 0, now - timedelta(seconds=1), "remind")
        [claimed] = await first.claim_due(now, lease=timedelta(seconds=30))
        assert (claimed.id, claimed.deadline_kind, claimed.deadline) == (table.id, "remind", now - timedelta(seconds=1))
        # the first worker dies here, before firing: nobody may take the timer while its lease runs ...
        assert await second.claim_due(now + timedelta(seconds=29)) == []
        # ... and after it, exactly one of two workers gets it, with the kind it had
        batches = await asyncio.gather(
            first.claim_due(now + timedelta(seconds=31)), second.claim_due(now + timedelta(seconds=31))
        )
        [again] = [t for batch in batches for t in batch]
        assert (again.id, again.deadline_kind, again.version) == (table.id, "remind", 0)
        # firing (a reminder arms the timeout) replaces the lease: the timer fires once more, as a timeout
        await second.set_deadline(table.id, 0, now + timedelta(seconds=60), "timeout")
        assert await first.claim_due(now + timedelta(seconds=59)) == []
        [timeout] = await first.claim_due(now + timedelta(seconds=61))
        assert timeout.deadline_kind == "timeout"
        # a move fires it for good: no deadline, nothing due however late
        state, action = next_move(state, stream("lease", 1))
        state, _ = state.apply(action)
        await first.commit_move(
            table.id,
            0,
            seat=action.seat,
            action=action.to_json(),
            actor_user_id=None,
            by="timeout",
            state=state.to_json(),
        )
        assert await second.claim_due(now + timedelta(days=1)) == []
    finally:
        await second.close()
        await first.close()


# ---- finding 2: the press that stored a move ------------------------------------------------------------
async def test_the_press_that_stored_a_move_is_known_to_every_worker(db_url: str):
    winner = await Storage.open(db_url)
    loser = await Storage.open(db_url, migrate=False)
    try:
        table, state = await setup_table(winner, "kozel", 2, seed="press-1")
        state, action = next_move(state, stream("press", 1))
        after, _ = state.apply(action)
        move = dict(seat=action.seat, action=action.to_json(), actor_user_id=None, by="player", state=after.to_json())
        assert await loser.press_outcome("tg:cb:1") is None
        results = await asyncio.gather(
            winner.commit_move(table.id, 0, press_key="tg:cb:1", **move),
            loser.commit_move(table.id, 0, press_key="tg:cb:1", **move),
            return_exceptions=True,
        )
        assert sorted(type(r).__name__ for r in results) == ["Conflict", "TableRec"]
        # the loser (or a re-delivered update on any worker) learns that this very press is stored
        assert await loser.press_outcome("tg:cb:1") == (table.id, 1)
        assert await winner.press_outcome("tg:cb:2") is None
        # the same press cannot store a second move, even at the new version
        state2, action2 = next_move(after, stream("press", 2))
        after2, _ = state2.apply(action2)
        with pytest.raises(Conflict) as err:
            await loser.commit_move(
                table.id,
                1,
                seat=action2.seat,
                action=action2.to_json(),
                actor_user_id=None,
                by="player",
                state=after2.to_json(),
                press_key="tg:cb:1",
            )
        assert err.value.code == "duplicate_press"
        assert [m.seq for m in await loser.moves(table.id)] == [1]
        with pytest.raises(InvalidInput):
            await loser.press_outcome("k" * 129)
        # rows older than a day are pruned when presses are written
        await sql(winner, "UPDATE presses SET at = :at", at=datetime.now(UTC).replace(tzinfo=None) - timedelta(days=2))
        await loser.commit_move(
            table.id,
            1,
            seat=action2.seat,
            action=action2.to_json(),
            actor_user_id=None,
            by="player",
            state=after2.to_json(),
            press_key="tg:cb:3",
        )
        assert await winner.press_outcome("tg:cb:1") is None
        assert await winner.press_outcome("tg:cb:3") == (table.id, 2)
    finally:
        await loser.close()
        await winner.close()


# ---- finding 3: invitations live in the database --------------------------------------------------------
async def test_the_next_deal_is_claimed_by_one_worker_of_several(db_url: str):
    """``claim_deal``: of workers that race to post a round's next deal, exactly one wins (issue 27 point 1 under
    several workers); a claim older than the lease is taken over (its worker died); once shown, none is pending."""
    stores = [await Storage.open(db_url)] + [await Storage.open(db_url, migrate=False) for _ in range(3)]
    try:
        table, _ = await setup_table(stores[0], "kozel", 2, seed="claim-1", chat="-claim")
        ref = {"platform": "telegram", "chat_id": "-claim", "message_id": "7"}
        assert not await stores[0].claim_deal(table.id, 100.0, 60.0)  # nothing pending
        await stores[0].mark_deal(table.id, 3, ref)
        won = await asyncio.gather(*(st.claim_deal(table.id, 100.0 + i, 60.0) for i, st in enumerate(stores)))
        assert sorted(won) == [False, False, False, True]
        rec = await stores[1].table(table.id)
        assert rec.deal_pending == 3 and rec.dealing_at == 100.0 + won.index(True) and rec.message_ref == ref
        assert not await stores[2].claim_deal(table.id, 150.0, 60.0)  # claimed, within the lease
        assert await stores[3].claim_deal(table.id, 200.0, 60.0)  # that worker died: taken over
        new = {**ref, "message_id": "8"}
        await stores[0].deal_shown(table.id, new)
        rec = await stores[2].table(table.id)
        assert (rec.deal_pending, rec.dealing_at, rec.message_ref) == (None, None, new)
        with pytest.raises(NotFound):
            await stores[0].claim_deal(table.id + 1000, 100.0, 60.0)
    finally:
        for st in stores:
            await st.close()


async def test_invitations_are_shared_by_workers_and_go_when_the_table_starts_or_ends(db_url: str):
    one = await Storage.open(db_url)
    two = await Storage.open(db_url, migrate=False)
    try:
        chat = await one.chat("telegram", "-5", title="Kitchen")
        ann = await one.user("telegram", "u0", "Ann")
        bob = await one.user("telegram", "u1", "Bob")
        lobby = await one.create_table(
            chat.id, "kozel", 2, {}, "inv-1", ann.id, [SeatSpec(0, ann.id), SeatSpec(1, bob.id)]
        )
        await one.add_invitation(lobby.id, bob.id)
        await one.add_invitation(lobby.id, bob.id)  # twice: one invitation
        assert await two.pending_invitations(lobby.id) == frozenset({bob.id})
        assert await two.invitation_sent(lobby.id, bob.id) is True  # this worker sends it ...
        assert await one.invitation_sent(lobby.id, bob.id) is False  # ... the other does not send it again
        await one.clear_invitation(lobby.id, bob.id)  # Bob opened the private chat (on any worker)
        assert await two.pending_invitations(lobby.id) == frozenset()
        assert await two.invitation_sent(lobby.id, bob.id) is True  # a new invitation may go out again
        await two.add_invitation(lobby.id, bob.id)
        await two.add_invitation(lobby.id, ann.id)
        await one.clear_invitations(lobby.id, [ann.id])
        assert await one.pending_invitations(lobby.id) == frozenset({bob.id})
        first = games.get("kozel").new_game(2, {}, seed="inv-1").to_json()
        started = await one.start_table(lobby.id, lobby.lobby_rev, first)
        assert await two.pending_invitations(lobby.id) == frozenset()
        assert await two.invitation_sent(started.id, bob.id) is True  # in play: an invitation of its own
        await two.abandon_table(started.id)
        assert await one.invitation_sent(started.id, bob.id) is True  # the end dropped it too
        with pytest.raises(NotFound):
            await one.add_invitation(started.id + 9, bob.id)
    finally:
        await two.close()
        await one.close()


# ---- finding 11: ids outside the database's integer range -----------------------------------------------
HUGE = 10**30


OUT_OF_RANGE = {
    "table": lambda st, t: st.table(HUGE),
    "get_user": lambda st, t: st.get_user(HUGE),
    "get_chat": lambda st, t: st.get_chat(-HUGE),
    "moves": lambda st, t: st.moves(2**63),
    "verify": lambda st, t: st.verify(HUGE),
    "record": lambda st, t: st.record(HUGE),
    "repair": lambda st, t: st.repair(HUGE),
    "vote_stop table": lambda st, t: st.vote_stop(HUGE, t.seats[0].user_id),
    "vote_stop user": lambda st, t: st.vote_stop(t.id, HUGE),
    "set_deadline version": lambda st, t: st.set_deadline(t.id, 2**31, None),
    "update_seat seat": lambda st, t: st.update_seat(t.id, 2**40, timeouts=1),
    "tables_for_user": lambda st, t: st.tables_for_user(HUGE),
    "open_table": lambda st, t: st.open_table(HUGE),
    "set_message_ref": lambda st, t: st.set_message_ref(HUGE, None),
    "abandon_table": lambda st, t: st.abandon_table(HUGE),
    "pending_invitations": lambda st, t: st.pending_invitations(HUGE),
    "add_invitation": lambda st, t: st.add_invitation(t.id, HUGE),
    "results": lambda st, t: st.results(HUGE),
    "ratings": lambda st, t: st.ratings(t.chat_id, "kozel", [HUGE]),
    "player_stats": lambda st, t: st.player_stats(HUGE, "kozel", 1),
    "commit_move version": lambda st, t: st.commit_move(
        t.id,
        2**31,
        seat=0,
        action={"seat": 0, "type": "play", "card": "AS"},
        actor_user_id=None,
        by="player",
        state={},
    ),
    "commit_move table": lambda st, t: st.commit_move(
        HUGE,
        0,
        seat=0,
        action={"seat": 0, "type": "play", "card": "AS"},
        actor_user_id=None,
        by="player",
        state={},
    ),
    "update_lobby revision": lambda st, t: st.update_lobby(t.id, 2**31),
    "create_table host": lambda st, t: st.create_table(t.chat_id, "kozel", 2, {}, "s", HUGE),
}


async def test_an_id_outside_the_integer_range_is_refused_as_invalid(storage: Storage):
    table, _ = await setup_table(storage, "kozel", 2, seed="huge")
    for name, call in OUT_OF_RANGE.items():
        with pytest.raises(InvalidInput) as err:
            await call(storage, table)
        assert err.value.code == "bad_id", name
    assert (await storage.table(table.id)) == table
    assert await storage.moves(table.id) == []
