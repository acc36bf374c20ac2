"""The chat's daily deal: each person's one attempt a day and game (claimed once, across workers) and the group's
one message of the day (claimed by the worker that posts it)."""

from __future__ import annotations

import re
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from bot.storage.checks import check_id, check_time, now
from bot.storage.engine import Database
from bot.storage.errors import InvalidInput
from bot.storage.models import DAILY_ATTEMPTS, DAILY_POSTS, USERS
from bot.storage.values import DAILY_DONE, DAILY_PLAYING, DAILY_STOPPED, DailyAttemptRec
from core import games

_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def _check(chat_id: int, game: str, day: str, *ids: int) -> None:
    check_id(chat_id, *ids)
    if game not in games.NAMES:
        raise InvalidInput(f"no game {game!r}", "bad_game", game=game)
    if not isinstance(day, str) or not _DAY.match(day):
        raise InvalidInput("a day is written YYYY-MM-DD", "bad_day", day=day)


def _rec(row: Any) -> DailyAttemptRec:
    return DailyAttemptRec(
        row.chat_id,
        row.game,
        row.day,
        row.user_id,
        row.name,
        row.table_id,
        row.status,
        row.score,
        row.line,
        row.started_at,
        row.ended_at,
    )


def _select() -> Any:
    return select(DAILY_ATTEMPTS, USERS.c.name).join(USERS, USERS.c.id == DAILY_ATTEMPTS.c.user_id)


async def claim_attempt(
    db: Database, chat_id: int, game: str, day: str, user_id: int, at: datetime | None = None
) -> tuple[DailyAttemptRec, bool]:
    """The person's attempt of this day and game, and True when this call created it (the one counted attempt:
    of two workers racing, one creates it)."""
    _check(chat_id, game, day, user_id)
    check_time(at, "at")
    async with db.write() as conn:
        ins = db.insert(DAILY_ATTEMPTS).values(
            chat_id=chat_id,
            game=game,
            day=day,
            user_id=user_id,
            table_id=None,
            status=DAILY_PLAYING,
            score=None,
            line=None,
            started_at=at or now(),
            ended_at=None,
        )
        done = await conn.execute(ins.on_conflict_do_nothing())
        key = (
            DAILY_ATTEMPTS.c.chat_id == chat_id,
            DAILY_ATTEMPTS.c.game == game,
            DAILY_ATTEMPTS.c.day == day,
            DAILY_ATTEMPTS.c.user_id == user_id,
        )
        row = (await conn.execute(_select().where(*key))).one()
    return _rec(row), done.rowcount == 1


async def set_attempt_table(db: Database, chat_id: int, game: str, day: str, user_id: int, table_id: int) -> None:
    _check(chat_id, game, day, user_id, table_id)
    async with db.write() as conn:
        await conn.execute(
            update(DAILY_ATTEMPTS)
            .where(
                DAILY_ATTEMPTS.c.chat_id == chat_id,
                DAILY_ATTEMPTS.c.game == game,
                DAILY_ATTEMPTS.c.day == day,
                DAILY_ATTEMPTS.c.user_id == user_id,
            )
            .values(table_id=table_id)
        )


async def end_attempt(
    db: Database,
    table_id: int,
    status: str,
    score: int | None,
    line: dict[str, Any] | None,
    at: datetime | None = None,
) -> DailyAttemptRec | None:
    """The attempt played on ``table_id`` ends (``done`` with its score and line, or ``stopped``); once: an ended
    attempt is left as it is. Returns the attempt as it now is (None: the table is no daily attempt)."""
    check_id(table_id)
    check_time(at, "at")
    if status not in (DAILY_DONE, DAILY_STOPPED):
        raise InvalidInput("an attempt ends done or stopped", "bad_status", status=status)
    async with db.write() as conn:
        await conn.execute(
            update(DAILY_ATTEMPTS)
            .where(DAILY_ATTEMPTS.c.table_id == table_id, DAILY_ATTEMPTS.c.status == DAILY_PLAYING)
            .values(status=status, score=score, line=line, ended_at=at or now())
        )
        row = (await conn.execute(_select().where(DAILY_ATTEMPTS.c.table_id == table_id))).first()
    return None if row is None else _rec(row)


async def attempt_of_table(db: Database, table_id: int) -> DailyAttemptRec | None:
    check_id(table_id)
    async with db.read() as conn:
        row = (await conn.execute(_select().where(DAILY_ATTEMPTS.c.table_id == table_id))).first()
    return None if row is None else _rec(row)


async def attempts(
    db: Database, chat_id: int, *, day: str | None = None, user_id: int | None = None, status: str | None = None
) -> list[DailyAttemptRec]:
    """The chat's attempts (of one day, one person, one status), oldest first."""
    check_id(chat_id, *([user_id] if user_id is not None else []))
    stmt = _select().where(DAILY_ATTEMPTS.c.chat_id == chat_id)
    if day is not None:
        stmt = stmt.where(DAILY_ATTEMPTS.c.day == day)
    if user_id is not None:
        stmt = stmt.where(DAILY_ATTEMPTS.c.user_id == user_id)
    if status is not None:
        stmt = stmt.where(DAILY_ATTEMPTS.c.status == status)
    async with db.read() as conn:
        rows = (await conn.execute(stmt.order_by(DAILY_ATTEMPTS.c.started_at, DAILY_ATTEMPTS.c.user_id))).all()
    return [_rec(r) for r in rows]


async def claim_post(db: Database, chat_id: int, day: str) -> bool:
    """True for the one call (across workers) that is to post the chat's daily message of ``day``."""
    _check(chat_id, games.NAMES[0], day)
    async with db.write() as conn:
        ins = db.insert(DAILY_POSTS).values(chat_id=chat_id, day=day, message_ref=None, created_at=now())
        done = await conn.execute(ins.on_conflict_do_nothing())
    return done.rowcount == 1


async def set_post_ref(db: Database, chat_id: int, day: str, ref: dict[str, Any] | None) -> None:
    _check(chat_id, games.NAMES[0], day)
    async with db.write() as conn:
        await conn.execute(
            update(DAILY_POSTS)
            .where(DAILY_POSTS.c.chat_id == chat_id, DAILY_POSTS.c.day == day)
            .values(message_ref=ref)
        )


async def post_ref(db: Database, chat_id: int, day: str) -> tuple[bool, dict[str, Any] | None]:
    """Whether the chat's daily message of ``day`` was claimed, and where it is (None while being posted)."""
    _check(chat_id, games.NAMES[0], day)
    async with db.read() as conn:
        stmt = select(DAILY_POSTS.c.message_ref).where(DAILY_POSTS.c.chat_id == chat_id, DAILY_POSTS.c.day == day)
        row = (await conn.execute(stmt)).first()
    return (row is not None, None if row is None else row.message_ref)
