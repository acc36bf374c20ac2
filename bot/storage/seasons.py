"""Seasons as stored: a chat's season length, the season leaderboard and counts read from the results of the games
that ended in a season (the all-time ratings are never touched), and each season's summary claimed once."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import case, func, select

from bot.storage.checks import check_id, check_time, now
from bot.storage.engine import Database
from bot.storage.errors import InvalidInput
from bot.storage.models import CHATS, GAME_TABLES, RESULTS, SEASON_POSTS, SEASON_SETTINGS, USERS
from bot.storage.reach import chats_in, check_reach
from bot.storage.values import FINISHED, SOLO_CHATS, Reach

KINDS = ("month", "quarter", "none")


async def set_season_kind(db: Database, chat_id: int, kind: str) -> None:
    check_id(chat_id)
    if kind not in KINDS:
        raise InvalidInput("a season is a month, a quarter or none", "bad_season", kind=kind)
    async with db.write() as conn:
        ins = db.insert(SEASON_SETTINGS).values(chat_id=chat_id, kind=kind)
        await conn.execute(ins.on_conflict_do_update(index_elements=[SEASON_SETTINGS.c.chat_id], set_={"kind": kind}))


async def season_kind(db: Database, chat_id: int) -> str | None:
    """The chat's season length, or None when it never chose one (a month)."""
    check_id(chat_id)
    async with db.read() as conn:
        row = (await conn.execute(select(SEASON_SETTINGS.c.kind).where(SEASON_SETTINGS.c.chat_id == chat_id))).first()
    return None if row is None else row.kind


def _in(chat_id: int, start: datetime, end: datetime) -> Any:
    return (
        (GAME_TABLES.c.chat_id == chat_id)
        & (GAME_TABLES.c.status == FINISHED)
        & (GAME_TABLES.c.updated_at >= start)
        & (GAME_TABLES.c.updated_at < end)
        & RESULTS.c.user_id.is_not(None)
    )


async def season_board(
    db: Database, chat_id: int, game: str | None, start: datetime, end: datetime, limit: int = 10
) -> list[dict[str, Any]]:
    """Per player of the chat (and ``game``; None: every game) over the games that ended in [start, end): name,
    games, wins, the rating gained (the sum of each game's rating change) and Kozel's rating points; the most
    rating gained first, then the most wins."""
    check_id(chat_id)
    check_time(start, "start")
    check_time(end, "end")
    gained = func.sum(func.coalesce(RESULTS.c.rating_after, 0.0) - func.coalesce(RESULTS.c.rating_before, 0.0))
    wins = func.sum(case((RESULTS.c.place == 1, 1), else_=0))
    where = _in(chat_id, start, end)
    if game is not None:
        where = where & (GAME_TABLES.c.game == game)
    stmt = (
        select(
            RESULTS.c.user_id,
            USERS.c.name,
            func.count().label("games"),
            wins.label("wins"),
            gained.label("gained"),
            func.sum(func.coalesce(RESULTS.c.rating_points, 0)).label("points"),
        )
        .select_from(
            RESULTS.join(GAME_TABLES, GAME_TABLES.c.id == RESULTS.c.table_id).join(
                USERS, USERS.c.id == RESULTS.c.user_id
            )
        )
        .where(where)
        .group_by(RESULTS.c.user_id, USERS.c.name)
        .order_by(gained.desc(), wins.desc(), func.count().desc(), RESULTS.c.user_id)
        .limit(limit)
    )
    async with db.read() as conn:
        rows = (await conn.execute(stmt)).all()
    return [
        {
            "user_id": r.user_id,
            "name": r.name,
            "games": int(r.games),
            "wins": int(r.wins or 0),
            "gained": float(r.gained or 0.0),
            "points": int(r.points or 0),
        }
        for r in rows
    ]


async def active_chats(db: Database, since: datetime, reach: Reach | None = None) -> list[int]:
    """Chats (tables played alone aside) with a game that ended since ``since``; with ``reach``, only those the
    caller can publish to."""
    check_time(since, "since")
    check_reach(reach)
    stmt = (
        select(GAME_TABLES.c.chat_id)
        .distinct()
        .join(CHATS, CHATS.c.id == GAME_TABLES.c.chat_id)
        .where(
            GAME_TABLES.c.status == FINISHED,
            GAME_TABLES.c.updated_at >= since,
            CHATS.c.platform.not_like(SOLO_CHATS),
            *([] if reach is None else [chats_in(reach)]),
        )
    )
    async with db.read() as conn:
        return sorted(r[0] for r in (await conn.execute(stmt)).all())


async def claim_season_post(db: Database, chat_id: int, season: str) -> bool:
    """True for the one call (across workers) that is to post the summary of this chat's season."""
    check_id(chat_id)
    async with db.write() as conn:
        ins = db.insert(SEASON_POSTS).values(chat_id=chat_id, season=season, at=now())
        return (await conn.execute(ins.on_conflict_do_nothing())).rowcount == 1
