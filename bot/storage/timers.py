"""Turn timers: a table's deadline (and its kind, e.g. ``remind`` or ``timeout``), armed with the table's
version and claimed by exactly one worker when it is due."""

from __future__ import annotations

import dataclasses
from datetime import datetime, timedelta

from sqlalchemy import select, update

from bot.storage.checks import check_count, check_id, check_kind, check_time
from bot.storage.engine import Database
from bot.storage.errors import InvalidInput
from bot.storage.models import GAME_TABLES
from bot.storage.reach import tables_in
from bot.storage.tables import load, why_not
from bot.storage.values import OPEN_STATUSES, Reach, TableRec


async def set_deadline(
    db: Database, table_id: int, version: int, deadline: datetime | None, kind: str | None = None
) -> None:
    """Arm (or clear with None) the table's timer, only if it is open and still at ``version``."""
    check_id(table_id)
    check_count(version)
    check_time(deadline, "deadline")
    check_kind(kind)
    async with db.write() as conn:
        done = await conn.execute(
            update(GAME_TABLES)
            .where(
                GAME_TABLES.c.id == table_id,
                GAME_TABLES.c.version == version,
                GAME_TABLES.c.status.in_(OPEN_STATUSES),
                GAME_TABLES.c.broken.is_(None),
            )
            .values(deadline=deadline, deadline_kind=kind if deadline is not None else None)
        )
        if done.rowcount != 1:
            raise await why_not(conn, table_id, "open")


LEASE = timedelta(seconds=30)


async def claim_due(
    db: Database, now: datetime, limit: int = 50, lease: timedelta = LEASE, reach: Reach | None = None
) -> list[TableRec]:
    """Tables whose deadline has passed, each handed to one caller at a time across workers; with ``reach``, only
    those of the chats the caller can publish to (the others are left due for a worker that can).

    A claim is a lease: it moves the deadline to ``now + lease`` (the kind stays), so a worker that dies before
    firing loses the claim when the lease runs out and another worker claims the timer again. Firing replaces
    the lease: the move (``commit_move``) or the new deadline (``set_deadline``) the firing writes. The records
    returned show the deadline and kind that were claimed. PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite: the
    write transaction is exclusive.
    """
    check_time(now, "now")
    if not isinstance(lease, timedelta) or lease <= timedelta(0):
        raise InvalidInput("a lease is a positive timedelta", "bad_lease")
    mine = tables_in(reach)
    pick = (
        select(GAME_TABLES.c.id, GAME_TABLES.c.deadline, GAME_TABLES.c.deadline_kind)
        .where(
            GAME_TABLES.c.deadline <= now,
            GAME_TABLES.c.status.in_(OPEN_STATUSES),
            GAME_TABLES.c.broken.is_(None),
            *([] if mine is None else [mine]),
        )
        .order_by(GAME_TABLES.c.deadline, GAME_TABLES.c.id)
        .limit(limit)
        .with_for_update(skip_locked=True)
    )
    async with db.write() as conn:
        due = (await conn.execute(pick)).all()
        if not due:
            return []
        ids = [r.id for r in due]
        await conn.execute(
            update(GAME_TABLES)
            .where(GAME_TABLES.c.id.in_(ids), GAME_TABLES.c.deadline.is_not(None))
            .values(deadline=now + lease)
        )
        recs = await load(db, conn, GAME_TABLES.c.id.in_(ids), GAME_TABLES.c.id, in_write=True)
    claimed = {r.id: r for r in due}
    recs = [t for t in recs if t.broken is None]  # a state that fails its digest now: marked, not handed out
    out = [
        dataclasses.replace(t, deadline=claimed[t.id].deadline, deadline_kind=claimed[t.id].deadline_kind) for t in recs
    ]
    out.sort(key=lambda t: (t.deadline, t.id))
    return out
