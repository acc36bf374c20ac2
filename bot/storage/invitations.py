"""Invitations to a private chat, kept in the database so that every worker sees them: a seated player the bot
cannot write to privately yet (``waiting``: the host's Start waits for him) and whether his invitation went out.
They go when the player is reached, leaves, or the table starts or ends."""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import delete, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.checks import check_id, now
from bot.storage.engine import Database
from bot.storage.errors import NotFound
from bot.storage.models import GAME_TABLES, INVITATIONS
from bot.storage.people import check_users


async def _check_table(conn: AsyncConnection, table_id: int) -> None:
    if (await conn.execute(select(GAME_TABLES.c.id).where(GAME_TABLES.c.id == table_id))).first() is None:
        raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)


async def add_invitation(db: Database, table_id: int, user_id: int) -> None:
    """The user's private chat is needed before the table starts (once: a second call changes nothing)."""
    check_id(table_id, user_id)
    async with db.write() as conn:
        await _check_table(conn, table_id)
        await check_users(conn, [user_id])
        ins = db.insert(INVITATIONS).values(
            table_id=table_id, user_id=user_id, waiting=True, sent_at=None, created_at=now()
        )
        await conn.execute(
            ins.on_conflict_do_update(
                index_elements=[INVITATIONS.c.table_id, INVITATIONS.c.user_id], set_={"waiting": True}
            )
        )


async def invitation_sent(db: Database, table_id: int, user_id: int) -> bool:
    """Mark the user's invitation to this table as sent; True for the one call that should send it (across
    workers), False when it was sent already. Creates the invitation if there was none (one during play)."""
    check_id(table_id, user_id)
    at = now()
    async with db.write() as conn:
        await _check_table(conn, table_id)
        await check_users(conn, [user_id])
        ins = db.insert(INVITATIONS).values(
            table_id=table_id, user_id=user_id, waiting=False, sent_at=at, created_at=at
        )
        created = await conn.execute(
            ins.on_conflict_do_nothing(index_elements=[INVITATIONS.c.table_id, INVITATIONS.c.user_id])
        )
        if created.rowcount == 1:
            return True
        marked = await conn.execute(
            update(INVITATIONS)
            .where(
                INVITATIONS.c.table_id == table_id, INVITATIONS.c.user_id == user_id, INVITATIONS.c.sent_at.is_(None)
            )
            .values(sent_at=at)
        )
        return marked.rowcount == 1


async def clear_invitation(db: Database, table_id: int, user_id: int) -> None:
    """Forget the user's invitation (he opened the private chat, was reached there, or left the table)."""
    await clear_invitations(db, table_id, [user_id])


async def clear_invitations(db: Database, table_id: int, user_ids: Iterable[int] | None = None) -> None:
    """Forget these users' invitations to the table, or all of them (None)."""
    ids = None if user_ids is None else list(user_ids)
    check_id(table_id, *(ids or ()))
    async with db.write() as conn:
        await drop_invitations(conn, table_id, ids)


async def drop_invitations(conn: AsyncConnection, table_id: int, user_ids: list[int] | None = None) -> None:
    stmt = delete(INVITATIONS).where(INVITATIONS.c.table_id == table_id)
    if user_ids is not None:
        stmt = stmt.where(INVITATIONS.c.user_id.in_(user_ids))
    await conn.execute(stmt)


async def pending_invitations(db: Database, table_id: int) -> frozenset[int]:
    """The user ids whose private chat the table still waits for before it starts."""
    check_id(table_id)
    stmt = select(INVITATIONS.c.user_id).where(INVITATIONS.c.table_id == table_id, INVITATIONS.c.waiting.is_(True))
    async with db.read() as conn:
        return frozenset((await conn.execute(stmt)).scalars())
