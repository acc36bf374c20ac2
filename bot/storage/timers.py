"""Turn timers: a table's deadline (and its kind, e.g. ``remind`` or ``timeout``), armed with the table's
version and claimed by exactly one worker when it is due."""

from __future__ import annotations

import dataclasses
from datetime import datetime

from sqlalchemy import select, update

from bot.storage.checks import check_kind, check_time
from bot.storage.engine import Database
from bot.storage.models import GAME_TABLES
from bot.storage.tables import load, why_not
from bot.storage.values import OPEN_STATUSES, TableRec


async def set_deadline(
    db: Database, table_id: int, version: int, deadline: datetime | None, kind: str | None = None
) -> None:
    """Arm (or clear with None) the table's timer, only if it is open and still at ``version``."""
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


async def claim_due(db: Database, now: datetime, limit: int = 50) -> list[TableRec]:
    """Tables whose deadline has passed, each handed to exactly one caller across workers.

    The claim clears the deadline in the database; the records returned show the deadline and kind
    that were claimed. PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite: the write transaction is exclusive.
    """
    check_time(now, "now")
    pick = (
        select(GAME_TABLES.c.id, GAME_TABLES.c.deadline, GAME_TABLES.c.deadline_kind)
        .where(
            GAME_TABLES.c.deadline <= now,
            GAME_TABLES.c.status.in_(OPEN_STATUSES),
            GAME_TABLES.c.broken.is_(None),
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
            .values(deadline=None, deadline_kind=None)
        )
        recs = await load(db, conn, GAME_TABLES.c.id.in_(ids), GAME_TABLES.c.id, in_write=True)
    claimed = {r.id: r for r in due}
    recs = [t for t in recs if t.broken is None]  # a state that fails its digest now: marked, not handed out
    out = [
        dataclasses.replace(t, deadline=claimed[t.id].deadline, deadline_kind=claimed[t.id].deadline_kind) for t in recs
    ]
    out.sort(key=lambda t: (t.deadline, t.id))
    return out
