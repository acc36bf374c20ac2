"""Helpers for the storage tests: a real SQLite file or a fresh real PostgreSQL database, and games played
through ``Storage.commit_move`` by the seeded random driver, exactly as the chat application would."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import ResultSpec, SeatSpec, Storage, TableRec
from core import games
from core.base import GameState
from core.randomplay import policy_for
from core.rng import stream
from testkit import pg

DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1:5432/test"


def _find_postgres() -> str | None:
    """``$TEST_DATABASE_URL``, else the local default server if it answers within a second, else None."""
    if os.environ.get("TEST_DATABASE_URL"):
        return os.environ["TEST_DATABASE_URL"]
    import asyncpg

    async def probe() -> bool:
        try:
            conn = await asyncpg.connect(DEFAULT_PG_URL, timeout=1)
        except (TimeoutError, OSError, asyncpg.PostgresError):
            return False
        await conn.close()
        return True

    return DEFAULT_PG_URL if asyncio.run(probe()) else None


PG_URL = _find_postgres()
PG_SKIP = (
    f"no PostgreSQL: set TEST_DATABASE_URL (postgresql://user@host:port/db) or run one at {DEFAULT_PG_URL} "
    "(.ci/run starts it)"
)
BACKENDS = ["sqlite", pytest.param("postgresql", marks=pytest.mark.skipif(not PG_URL, reason=PG_SKIP))]


def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite+aiosqlite:///{tmp_path / 'bot.sqlite3'}"


async def fresh_pg_database() -> str:
    """A new empty PostgreSQL database on the TEST_DATABASE_URL server; returns its URL."""
    assert PG_URL is not None
    return await pg.fresh_database(PG_URL)


async def drop_pg_database(url: str) -> None:
    assert PG_URL is not None
    await pg.drop_database(PG_URL, url)


async def database_url(backend: str, tmp_path: Path) -> str:
    if backend == "sqlite":
        return sqlite_url(tmp_path)
    return await fresh_pg_database()


@pytest.fixture(params=BACKENDS)
async def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[str]:
    """The URL of an empty database: a SQLite file, or a fresh PostgreSQL database."""
    url = await database_url(request.param, tmp_path)
    yield url
    if request.param == "postgresql":
        await drop_pg_database(url)


@pytest.fixture
async def storage(db_url: str) -> AsyncIterator[Storage]:
    st = await Storage.open(db_url)
    yield st
    await st.close()


async def setup_table(
    st: Storage,
    game: str = "deberts",
    players: int = 2,
    computers: int = 0,
    options: dict[str, Any] | None = None,
    seed: str = "seed-1",
    chat: str = "-100",
) -> tuple[TableRec, GameState]:
    """A chat, users and a started table; returns the table and the first state."""
    c = await st.chat("telegram", chat, title="Kitchen")
    users = [await st.user("telegram", f"{chat}:{i}", f"Player {i}", "en") for i in range(players - computers)]
    seats = [SeatSpec(i, user_id=u.id) for i, u in enumerate(users)]
    seats += [SeatSpec(i, computer="normal") for i in range(len(users), players)]
    table = await st.create_table(c.id, game, players, options or {}, seed, users[0].id if users else None, seats)
    state = games.get(game).new_game(players, options or {}, seed=seed)
    table = await st.start_table(table.id, table.lobby_rev, state.to_json())
    return table, state


def results_for(table: TableRec, state: GameState) -> list[ResultSpec]:
    """Results of a finished game as the application would compute them (ratings are made-up numbers)."""
    low_wins = table.game == "kozel"
    order = sorted(range(table.players), key=lambda s: (state.totals[s] if low_wins else -state.totals[s], s))
    out = []
    for seat in range(table.players):
        place = order.index(seat) + 1
        user_id = table.seats[seat].user_id
        out.append(
            ResultSpec(
                seat=seat,
                user_id=user_id,
                total=state.totals[seat],
                place=place,
                rating_before=0.0,
                rating_after=float(10 - place),
                mu=25.0 + (2 - place),
                sigma=8.0 - 0.5,
                barrels=1 if table.game == "thousand" else None,
                bolts=2 if table.game == "thousand" else None,
                baits=1 if table.game == "deberts" else None,
                kozel=(place == table.players) if table.game == "kozel" else None,
                rating_points=(3 - place) if table.game == "kozel" else None,
            )
        )
    return out


def next_move(state: GameState, rng: Any) -> tuple[GameState, Any]:
    """Deal a new round if one is over, then pick a guided random legal action (not yet applied)."""
    if state.phase == "round_over" and not state.finished:
        state, _events = state.next_round()
    seat = state.to_act
    assert seat is not None
    choose = policy_for(games.get(state.game), "guided")
    return state, choose(state, seat, state.legal_actions(seat), rng)


async def play(
    st: Storage, table: TableRec, state: GameState, moves: int | None = None, rng_seed: int = 7, finish: bool = True
) -> tuple[TableRec, GameState]:
    """Play ``moves`` moves (or to the end) through ``commit_move``; writes results when the game ends."""
    rng = stream(rng_seed, "policy", table.id, table.version)
    done = 0
    while not state.finished and (moves is None or done < moves):
        state, action = next_move(state, rng)
        state, _events = state.apply(action)
        results = results_for(table, state) if state.finished and finish else None
        table = await st.commit_move(
            table.id,
            table.version,
            seat=action.seat,
            action=action.to_json(),
            actor_user_id=table.seats[action.seat].user_id,
            by="player" if table.seats[action.seat].user_id else "computer",
            state=state.to_json(),
            results=results,
        )
        done += 1
    return table, state


async def vote_rows(st: Storage, table_id: int) -> int:
    """The votes to stop the database holds for a table, whoever cast them and whether they count."""
    from sqlalchemy import func, select

    from bot.storage.models import StopVote

    async with st.engine.connect() as conn:
        stmt = select(func.count()).select_from(StopVote).where(StopVote.table_id == table_id)
        return (await conn.execute(stmt)).scalar_one()


def run(coro: Any) -> Any:
    return asyncio.run(coro)
