"""Votes to stop an open table: counted one after another under the table's row lock, dropped when they stop
counting (a player left, the game started, finished or was abandoned)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.checks import check_id, check_time, now
from bot.storage.engine import Database
from bot.storage.errors import Conflict, InvalidInput, NotFound
from bot.storage.models import GAME_TABLES, SEATS, STOP_VOTES
from bot.storage.values import OPEN_STATUSES, StopVotes


def present(table_id: int) -> Any:
    """The user ids of the table's present players: seated people whose seat the computer has not taken."""
    return select(SEATS.c.user_id).where(
        SEATS.c.table_id == table_id, SEATS.c.user_id.is_not(None), SEATS.c.taken_over.is_(False)
    )


async def drop_votes(conn: AsyncConnection, table_id: int) -> None:
    """Forget every vote to stop the table (its game starts, finishes or is abandoned)."""
    await conn.execute(delete(STOP_VOTES).where(STOP_VOTES.c.table_id == table_id))


async def drop_absent_votes(conn: AsyncConnection, table_id: int) -> None:
    """Forget the votes of players who have left (a lobby seat given up, a seat taken over by the computer)."""
    await conn.execute(
        delete(STOP_VOTES).where(STOP_VOTES.c.table_id == table_id, STOP_VOTES.c.user_id.not_in(present(table_id)))
    )


async def vote_stop(
    db: Database, table_id: int, user_id: int, *, at: datetime | None = None, since: datetime | None = None
) -> StopVotes:
    """Record a present player's vote to stop an open table (once: a repeated vote changes nothing) and
    return the votes now standing. ``at`` is the vote's time (default now); votes cast before ``since`` have
    expired: they are dropped first and do not count. ``Conflict`` when the table is no longer open,
    ``InvalidInput`` (``not_seated``) when the user is not a present player, ``NotFound`` when there is no such
    table.

    The table's row is locked first (PostgreSQL ``FOR UPDATE``; SQLite's write transaction is exclusive), so
    votes on one table are counted one after another: two at once cannot each miss the other's."""
    check_id(table_id, user_id)
    check_time(at, "a vote's time")
    check_time(since, "the oldest vote that counts")
    lock = select(GAME_TABLES.c.status).where(GAME_TABLES.c.id == table_id).with_for_update()
    async with db.write() as conn:
        row = (await conn.execute(lock)).first()
        if row is None:
            raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        if row.status not in OPEN_STATUSES:
            raise Conflict(f"table {table_id} is {row.status}", "wrong_status", status=row.status)
        players = set((await conn.execute(present(table_id))).scalars())
        if user_id not in players:
            raise InvalidInput(f"user {user_id} does not play at table {table_id}", "not_seated", user_id=user_id)
        if since is not None:
            await conn.execute(delete(STOP_VOTES).where(STOP_VOTES.c.table_id == table_id, STOP_VOTES.c.at < since))
        vote = db.insert(STOP_VOTES).values(table_id=table_id, user_id=user_id, at=at or now())
        await conn.execute(vote.on_conflict_do_nothing(index_elements=[STOP_VOTES.c.table_id, STOP_VOTES.c.user_id]))
        stmt = select(STOP_VOTES.c.user_id).where(STOP_VOTES.c.table_id == table_id)
        voters = set((await conn.execute(stmt)).scalars())
    return StopVotes(tuple(sorted(voters & players)), len(players))


async def stop_votes(db: Database, table_id: int, *, since: datetime | None = None) -> StopVotes:
    """The votes to stop the table standing now (cast at ``since`` or later, by present players), read only: what
    a page shows of a running vote. No votes: ``voters`` is empty and ``newest`` None."""
    check_id(table_id)
    check_time(since, "the oldest vote that counts")
    stmt = select(STOP_VOTES.c.user_id, STOP_VOTES.c.at).where(STOP_VOTES.c.table_id == table_id)
    if since is not None:
        stmt = stmt.where(STOP_VOTES.c.at >= since)
    async with db.read() as conn:
        players = set((await conn.execute(present(table_id))).scalars())
        rows = [row for row in (await conn.execute(stmt)).all() if row.user_id in players]
    newest = max((row.at for row in rows), default=None)
    return StopVotes(tuple(sorted(row.user_id for row in rows)), len(players), newest)


async def drop_stop_votes(db: Database, table_id: int) -> None:
    """Forget every vote to stop the table (a player chose to keep playing)."""
    check_id(table_id)
    async with db.write() as conn:
        await drop_votes(conn, table_id)
