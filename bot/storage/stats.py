"""Per chat and game: the leaderboard, one player's statistics and the chat's recent games — each ONE query."""

from __future__ import annotations

import json
from typing import Any

from sqlalchemy import and_, case, func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage.models import Rating, Result, Seat, Table, User
from bot.storage.values import ABANDONED, FINISHED, GamePlayer, LeaderRow, PlayerStats, RecentGame

U = User.__table__
T = Table.__table__
S = Seat.__table__
R = Result.__table__
RT = Rating.__table__


def _win() -> Any:
    return case((R.c.place == 1, 1), else_=0)


async def leaderboard(conn: AsyncConnection, chat_id: int, game: str, limit: int = 10) -> list[LeaderRow]:
    """Rated players of this chat and game, best rating first, with their finished games and wins."""
    played = (
        select(R.c.user_id, func.count().label("games"), func.sum(_win()).label("wins"))
        .select_from(R.join(T, T.c.id == R.c.table_id))
        .where(T.c.chat_id == chat_id, T.c.game == game, T.c.status == FINISHED, R.c.user_id.is_not(None))
        .group_by(R.c.user_id)
        .subquery("played")
    )
    stmt = (
        select(
            RT.c.user_id,
            U.c.name,
            RT.c.rating,
            RT.c.mu,
            RT.c.sigma,
            RT.c.points,
            func.coalesce(played.c.games, RT.c.games).label("games"),
            func.coalesce(played.c.wins, 0).label("wins"),
        )
        .select_from(RT.join(U, U.c.id == RT.c.user_id).outerjoin(played, played.c.user_id == RT.c.user_id))
        .where(RT.c.chat_id == chat_id, RT.c.game == game)
        .order_by(RT.c.rating.desc().nulls_last(), RT.c.mu.desc(), RT.c.user_id)
        .limit(limit)
    )
    rows = (await conn.execute(stmt)).all()
    return [LeaderRow(r.user_id, r.name, r.rating, r.mu, r.sigma, r.points, int(r.games), int(r.wins)) for r in rows]


async def player_stats(conn: AsyncConnection, chat_id: int, game: str, user_id: int) -> PlayerStats:
    """Games, wins, win share, average total and the game's own counters of one player in one chat and game."""
    rating = (
        select(RT.c.rating).where(RT.c.chat_id == chat_id, RT.c.game == game, RT.c.user_id == user_id).scalar_subquery()
    )
    stmt = (
        select(
            func.count(R.c.seat).label("games"),
            func.coalesce(func.sum(_win()), 0).label("wins"),
            func.avg(R.c.total).label("average_total"),
            func.coalesce(func.sum(R.c.barrels), 0).label("barrels"),
            func.coalesce(func.sum(R.c.bolts), 0).label("bolts"),
            func.coalesce(func.sum(R.c.baits), 0).label("baits"),
            func.coalesce(func.sum(case((R.c.kozel.is_(True), 1), else_=0)), 0).label("kozel"),
            func.coalesce(func.sum(R.c.rating_points), 0).label("rating_points"),
            rating.label("rating"),
        )
        .select_from(R.join(T, and_(T.c.id == R.c.table_id, T.c.status == FINISHED)))
        .where(T.c.chat_id == chat_id, T.c.game == game, R.c.user_id == user_id)
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
    recent = (
        select(T.c.id, T.c.game, T.c.status, T.c.updated_at, T.c.state)
        .where(T.c.chat_id == chat_id, T.c.status.in_((FINISHED, ABANDONED)))
        .order_by(T.c.updated_at.desc(), T.c.id.desc())
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
            S.c.seat,
            S.c.user_id,
            S.c.computer,
            U.c.name,
            R.c.total,
            R.c.place,
        )
        .select_from(
            recent.join(S, S.c.table_id == recent.c.id)
            .outerjoin(U, U.c.id == S.c.user_id)
            .outerjoin(R, and_(R.c.table_id == S.c.table_id, R.c.seat == S.c.seat))
        )
        .order_by(recent.c.updated_at.desc(), recent.c.id.desc(), S.c.seat)
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
