"""Results and ratings read back, and per chat and game: the leaderboard, one player's statistics and the chat's
recent games — each ONE query."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Iterable
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.checks import check_id
from bot.storage.models import GAME_TABLES, RATINGS, RESULTS, SEATS, USERS
from bot.storage.values import (
    ABANDONED,
    FINISHED,
    GamePlayer,
    LeaderRow,
    PlayerStats,
    RatingRec,
    RecentGame,
    ResultSpec,
)


async def ratings(conn: AsyncConnection, chat_id: int, game: str, user_ids: Iterable[int]) -> dict[int, RatingRec]:
    """Current ratings of these users in this chat and game (absent: not rated yet)."""
    ids = list(user_ids)
    check_id(chat_id, *ids)
    if not ids:
        return {}
    stmt = select(RATINGS).where(RATINGS.c.chat_id == chat_id, RATINGS.c.game == game, RATINGS.c.user_id.in_(ids))
    rows = (await conn.execute(stmt)).all()
    return {r.user_id: RatingRec(r.mu, r.sigma, r.points, r.games, r.rating) for r in rows}


async def results(conn: AsyncConnection, table_id: int) -> list[ResultSpec]:
    """The results of a finished table, one per seat in seat order."""
    check_id(table_id)
    stmt = select(RESULTS).where(RESULTS.c.table_id == table_id).order_by(RESULTS.c.seat)
    rows = (await conn.execute(stmt)).all()
    fields = [f.name for f in dataclasses.fields(ResultSpec)]
    return [ResultSpec(**{f: getattr(r, f) for f in fields}) for r in rows]


def _win() -> Any:
    return case((RESULTS.c.place == 1, 1), else_=0)


async def leaderboard(conn: AsyncConnection, chat_id: int, game: str, limit: int = 10) -> list[LeaderRow]:
    """Rated players of this chat and game, best rating first, with their finished games and wins."""
    check_id(chat_id)
    played = (
        select(RESULTS.c.user_id, func.count().label("games"), func.sum(_win()).label("wins"))
        .select_from(RESULTS.join(GAME_TABLES, GAME_TABLES.c.id == RESULTS.c.table_id))
        .where(
            GAME_TABLES.c.chat_id == chat_id,
            GAME_TABLES.c.game == game,
            GAME_TABLES.c.status == FINISHED,
            RESULTS.c.user_id.is_not(None),
        )
        .group_by(RESULTS.c.user_id)
        .subquery("played")
    )
    stmt = (
        select(
            RATINGS.c.user_id,
            USERS.c.name,
            RATINGS.c.rating,
            RATINGS.c.mu,
            RATINGS.c.sigma,
            RATINGS.c.points,
            func.coalesce(played.c.games, RATINGS.c.games).label("games"),
            func.coalesce(played.c.wins, 0).label("wins"),
        )
        .select_from(
            RATINGS.join(USERS, USERS.c.id == RATINGS.c.user_id).outerjoin(
                played, played.c.user_id == RATINGS.c.user_id
            )
        )
        .where(RATINGS.c.chat_id == chat_id, RATINGS.c.game == game)
        .order_by(RATINGS.c.rating.desc().nulls_last(), RATINGS.c.mu.desc(), RATINGS.c.user_id)
        .limit(limit)
    )
    rows = (await conn.execute(stmt)).all()
    return [LeaderRow(r.user_id, r.name, r.rating, r.mu, r.sigma, r.points, int(r.games), int(r.wins)) for r in rows]


async def player_stats(conn: AsyncConnection, chat_id: int, game: str, user_id: int) -> PlayerStats:
    """Games, wins, win share, average total and the game's own counters of one player in one chat and game."""
    check_id(chat_id, user_id)
    rating = (
        select(RATINGS.c.rating)
        .where(RATINGS.c.chat_id == chat_id, RATINGS.c.game == game, RATINGS.c.user_id == user_id)
        .scalar_subquery()
    )
    stmt = (
        select(
            func.count(RESULTS.c.seat).label("games"),
            func.coalesce(func.sum(_win()), 0).label("wins"),
            func.avg(RESULTS.c.total).label("average_total"),
            func.coalesce(func.sum(RESULTS.c.barrels), 0).label("barrels"),
            func.coalesce(func.sum(RESULTS.c.bolts), 0).label("bolts"),
            func.coalesce(func.sum(RESULTS.c.baits), 0).label("baits"),
            func.coalesce(func.sum(case((RESULTS.c.kozel.is_(True), 1), else_=0)), 0).label("kozel"),
            func.coalesce(func.sum(RESULTS.c.rating_points), 0).label("rating_points"),
            rating.label("rating"),
        )
        .select_from(
            RESULTS.join(GAME_TABLES, and_(GAME_TABLES.c.id == RESULTS.c.table_id, GAME_TABLES.c.status == FINISHED))
        )
        .where(GAME_TABLES.c.chat_id == chat_id, GAME_TABLES.c.game == game, RESULTS.c.user_id == user_id)
    )
    r = (await conn.execute(stmt)).one()
    games = int(r.games)
    wins = int(r.wins)
    return PlayerStats(
        user_id=user_id,
        games=games,
        wins=wins,
        win_share=wins / games if games else 0.0,
        average_total=float(r.average_total) if r.average_total is not None else None,
        barrels=int(r.barrels),
        bolts=int(r.bolts),
        baits=int(r.baits),
        kozel=int(r.kozel),
        rating_points=int(r.rating_points),
        rating=r.rating,
    )


async def recent_games(conn: AsyncConnection, chat_id: int, limit: int = 10) -> list[RecentGame]:
    """The chat's last finished or abandoned games, newest first, with every seat's name, total and place."""
    check_id(chat_id)
    recent = (
        select(
            GAME_TABLES.c.id, GAME_TABLES.c.game, GAME_TABLES.c.status, GAME_TABLES.c.updated_at, GAME_TABLES.c.state
        )
        .where(GAME_TABLES.c.chat_id == chat_id, GAME_TABLES.c.status.in_((FINISHED, ABANDONED)))
        .order_by(GAME_TABLES.c.updated_at.desc(), GAME_TABLES.c.id.desc())
        .limit(limit)
        .cte("recent")
    )
    stmt = (
        select(
            recent.c.id,
            recent.c.game,
            recent.c.status,
            recent.c.updated_at,
            recent.c.state,
            SEATS.c.seat,
            SEATS.c.user_id,
            SEATS.c.computer,
            USERS.c.name,
            RESULTS.c.total,
            RESULTS.c.place,
        )
        .select_from(
            recent.join(SEATS, SEATS.c.table_id == recent.c.id)
            .outerjoin(USERS, USERS.c.id == SEATS.c.user_id)
            .outerjoin(RESULTS, and_(RESULTS.c.table_id == SEATS.c.table_id, RESULTS.c.seat == SEATS.c.seat))
        )
        .order_by(recent.c.updated_at.desc(), recent.c.id.desc(), SEATS.c.seat)
    )
    games: dict[int, RecentGame] = {}
    totals: dict[int, list[Any]] = {}
    for r in await conn.execute(stmt):
        g = games.get(r.id)
        if g is None:
            g = games[r.id] = RecentGame(r.id, r.game, r.status, r.updated_at, [], [])
            totals[r.id] = _state_totals(r.state)
        total = r.total
        if total is None and r.seat < len(totals[r.id]):
            total = totals[r.id][r.seat]
        g.players.append(GamePlayer(r.seat, r.user_id, r.name or "", r.computer, total, r.place))
        if r.place == 1:
            g.winner_seats.append(r.seat)
    return list(games.values())


def _state_totals(state: str | None) -> list[Any]:
    """Totals so far of an abandoned game, read from its stored state (empty when there is none)."""
    if not state:
        return []
    try:
        totals = json.loads(state).get("totals")
    except (ValueError, AttributeError):
        return []
    return [t if type(t) is int else None for t in totals] if isinstance(totals, list) else []


async def rating_history(conn: AsyncConnection, chat_id: int, user_id: int) -> dict[str, list[float]]:
    """Per game, the player's rating before his first rated finished game in the chat, then after each, oldest
    first."""
    check_id(chat_id, user_id)
    stmt = (
        select(GAME_TABLES.c.game, RESULTS.c.rating_before, RESULTS.c.rating_after)
        .select_from(RESULTS.join(GAME_TABLES, GAME_TABLES.c.id == RESULTS.c.table_id))
        .where(
            GAME_TABLES.c.chat_id == chat_id,
            GAME_TABLES.c.status == FINISHED,
            RESULTS.c.user_id == user_id,
            RESULTS.c.rating_after.is_not(None),
        )
        .order_by(GAME_TABLES.c.id)
    )
    out: dict[str, list[float]] = {}
    for r in (await conn.execute(stmt)).all():
        line = out.setdefault(r.game, [])
        if not line and r.rating_before is not None:
            line.append(float(r.rating_before))
        line.append(float(r.rating_after))
    return out
