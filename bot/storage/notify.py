""" "Call me when a table opens": the subscribers of a chat, and the one message a table sends each of them (claimed
once across workers)."""

from __future__ import annotations

from sqlalchemy import and_, delete, exists, select

from bot.storage.checks import check_id, now
from bot.storage.engine import Database
from bot.storage.models import CHATS, GAME_TABLES, NOTIFY_SENT, NOTIFY_SUBS, SEATS, USERS
from bot.storage.people import check_users, user_rec
from bot.storage.values import OPEN_STATUSES, SOLO_CHATS, UserRec


async def set_notify(db: Database, chat_id: int, user_id: int, on: bool) -> None:
    """Subscribe (``on``) or unsubscribe the user in this chat; repeating either changes nothing."""
    check_id(chat_id, user_id)
    async with db.write() as conn:
        await check_users(conn, [user_id])
        if on:
            ins = db.insert(NOTIFY_SUBS).values(chat_id=chat_id, user_id=user_id, created_at=now())
            await conn.execute(ins.on_conflict_do_nothing())
        else:
            await conn.execute(
                delete(NOTIFY_SUBS).where(NOTIFY_SUBS.c.chat_id == chat_id, NOTIFY_SUBS.c.user_id == user_id)
            )


async def notify_on(db: Database, chat_id: int, user_id: int) -> bool:
    check_id(chat_id, user_id)
    async with db.read() as conn:
        stmt = select(NOTIFY_SUBS.c.user_id).where(NOTIFY_SUBS.c.chat_id == chat_id, NOTIFY_SUBS.c.user_id == user_id)
        return (await conn.execute(stmt)).first() is not None


async def free_subscribers(db: Database, chat_id: int) -> list[UserRec]:
    """The chat's subscribers who sit at no open table (tables played alone aside), in one query."""
    check_id(chat_id)
    seated = (
        select(SEATS.c.user_id)
        .select_from(SEATS.join(GAME_TABLES, GAME_TABLES.c.id == SEATS.c.table_id))
        .join(CHATS, CHATS.c.id == GAME_TABLES.c.chat_id)
        .where(
            SEATS.c.user_id == NOTIFY_SUBS.c.user_id,
            GAME_TABLES.c.status.in_(OPEN_STATUSES),
            CHATS.c.platform.not_like(SOLO_CHATS),
        )
    )
    stmt = (
        select(USERS)
        .join(NOTIFY_SUBS, and_(NOTIFY_SUBS.c.user_id == USERS.c.id, NOTIFY_SUBS.c.chat_id == chat_id))
        .where(~exists(seated))
        .order_by(NOTIFY_SUBS.c.created_at, USERS.c.id)
    )
    async with db.read() as conn:
        return [user_rec(r) for r in (await conn.execute(stmt)).all()]


async def claim_notice(db: Database, table_id: int, user_id: int) -> bool:
    """True for the one call (across workers) that is to tell this user about this table."""
    check_id(table_id, user_id)
    async with db.write() as conn:
        ins = db.insert(NOTIFY_SENT).values(table_id=table_id, user_id=user_id, at=now())
        done = await conn.execute(ins.on_conflict_do_nothing())
    return done.rowcount == 1
