"""Achievements as stored: each (chat, user, code) once, with the table that gave it; the counts they are computed
from (a player's finished games and wins in a chat) and the finished tables of the chats in order (the backfill)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import case, func, select

from bot.storage.checks import check_id, check_time, now
from bot.storage.engine import Database
from bot.storage.errors import InvalidInput
from bot.storage.models import ACHIEVEMENTS, CHATS, GAME_TABLES, RESULTS
from bot.storage.values import FINISHED, SOLO_CHATS


async def award(
    db: Database, chat_id: int, user_id: int, codes: Sequence[str], table_id: int | None, at: datetime | None = None
) -> list[str]:
    """Store the achievements the user does not have yet in this chat; returns those that are new (across workers
    each is new once)."""
    check_id(chat_id, user_id, *([table_id] if table_id is not None else []))
    check_time(at, "at")
    if any(not isinstance(c, str) or not 0 < len(c) <= 32 for c in codes):
        raise InvalidInput("an achievement code is a short name", "bad_code")
    new: list[str] = []
    async with db.write() as conn:
        for code in codes:
            ins = db.insert(ACHIEVEMENTS).values(
                chat_id=chat_id, user_id=user_id, code=code, table_id=table_id, at=at or now()
            )
            if (await conn.execute(ins.on_conflict_do_nothing())).rowcount == 1:
                new.append(code)
    return new


async def earned(db: Database, chat_id: int, user_id: int) -> list[tuple[str, int | None]]:
    """(code, table id) of the user's achievements in the chat, oldest first."""
    check_id(chat_id, user_id)
    stmt = (
        select(ACHIEVEMENTS.c.code, ACHIEVEMENTS.c.table_id)
        .where(ACHIEVEMENTS.c.chat_id == chat_id, ACHIEVEMENTS.c.user_id == user_id)
        .order_by(ACHIEVEMENTS.c.at, ACHIEVEMENTS.c.code)
    )
    async with db.read() as conn:
        return [(r.code, r.table_id) for r in (await conn.execute(stmt)).all()]


async def earned_at(db: Database, table_id: int) -> list[tuple[int, str]]:
    """(user id, code) of the achievements this table gave."""
    check_id(table_id)
    stmt = select(ACHIEVEMENTS.c.user_id, ACHIEVEMENTS.c.code).where(ACHIEVEMENTS.c.table_id == table_id)
    async with db.read() as conn:
        return [(r.user_id, r.code) for r in (await conn.execute(stmt)).all()]


async def game_counts(db: Database, chat_id: int, user_id: int, upto: int) -> tuple[int, int, frozenset[str]]:
    """The user's finished games, wins and games played in the chat, up to table ``upto`` (by id) included."""
    check_id(chat_id, user_id, upto)
    stmt = (
        select(
            GAME_TABLES.c.game,
            func.count().label("games"),
            func.sum(case((RESULTS.c.place == 1, 1), else_=0)).label("wins"),
        )
        .select_from(RESULTS.join(GAME_TABLES, GAME_TABLES.c.id == RESULTS.c.table_id))
        .where(
            GAME_TABLES.c.chat_id == chat_id,
            GAME_TABLES.c.status == FINISHED,
            GAME_TABLES.c.id <= upto,
            RESULTS.c.user_id == user_id,
        )
        .group_by(GAME_TABLES.c.game)
    )
    async with db.read() as conn:
        rows = (await conn.execute(stmt)).all()
    return sum(r.games for r in rows), sum(int(r.wins or 0) for r in rows), frozenset(r.game for r in rows)


async def finished_tables(db: Database) -> list[int]:
    """Every finished table of a chat (tables played alone aside), oldest first (by id: the order they opened)."""
    stmt = (
        select(GAME_TABLES.c.id)
        .join(CHATS, CHATS.c.id == GAME_TABLES.c.chat_id)
        .where(GAME_TABLES.c.status == FINISHED, CHATS.c.platform.not_like(SOLO_CHATS))
        .order_by(GAME_TABLES.c.id)
    )
    async with db.read() as conn:
        return [r.id for r in (await conn.execute(stmt)).all()]
