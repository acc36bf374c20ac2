"""``python -m bench.storage``: seconds per committed move against seconds per bare INSERT, SQLite and PostgreSQL.

A move is ``Storage.commit_move`` (compare-and-set UPDATE of the table with the new state and digest, the log
row, the seats read back, in one transaction) replaying a real Deberts game. The baseline, in the same run,
on the same engine and connection settings (WAL, busy timeout, fsync; the same write transaction), is one
bare ``INSERT`` per transaction of a row of the same size (the state text and the action). Both are timed
with one table (moves one after another) and with 100 tables at once (100 coroutines on the connection pool).
Blocks of moves and of inserts alternate, so a busy machine slows both alike; ``time_ratio`` is the median
over the blocks of s/move ÷ s/insert (goal: ≤ 2.5 on both databases).

PostgreSQL runs when ``--pg URL`` or ``$TEST_DATABASE_URL`` names a server: the benchmark creates a fresh
database there and drops it afterwards. Last line: one JSON object with every figure.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from sqlalchemy import Column, Integer, MetaData, Table, Text, insert
from sqlalchemy.engine import make_url

from bench import add_quick
from bot.storage import SeatSpec, Storage, TableRec
from bot.storage.integrity import canonical
from core import games
from core.randomplay import policy_for
from core.rng import stream

GAME, PLAYERS, SEED = "deberts", 2, "bench"

bare_meta = MetaData()
bare_rows = Table(
    "bench_bare_rows",
    bare_meta,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("payload", Text, nullable=False),
    Column("action", Text, nullable=False),
)


def game_moves() -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """(action JSON, state JSON after it) for every move of one seeded guided game, as the application stores."""
    rules = games.get(GAME)
    state = rules.new_game(PLAYERS, {}, seed=SEED)
    choose = policy_for(rules, "guided")
    rng = stream(SEED, "policy")
    out = []
    while not state.finished:
        if state.phase == "round_over":
            state, _ = state.next_round()
        seat = state.to_act
        action = choose(state, seat, state.legal_actions(seat), rng)
        state, _ = state.apply(action)
        out.append((action.to_json(), state.to_json()))
    return out


async def new_tables(st: Storage, n: int, tag: str) -> list[TableRec]:
    rules = games.get(GAME)
    first = rules.new_game(PLAYERS, {}, seed=SEED).to_json()
    users = [await st.user("bench", f"u{i}", f"User {i}") for i in range(PLAYERS)]
    out = []
    for i in range(n):
        chat = await st.chat("bench", f"{tag}-{i}")
        seats = [SeatSpec(s, users[s].id) for s in range(PLAYERS)]
        t = await st.create_table(chat.id, GAME, PLAYERS, {}, SEED, users[0].id, seats)
        out.append(await st.start_table(t.id, t.lobby_rev, first))
    return out


class Bench:
    def __init__(self, st: Storage, moves: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
        self.st = st
        self.moves = moves
        self.tables: dict[int, TableRec] = {}

    async def commit(self, table: TableRec) -> None:
        t = self.tables.get(table.id, table)
        action, state = self.moves[t.version % len(self.moves)]
        if t.version >= len(self.moves):
            raise RuntimeError("the benchmark game is over: use fewer moves per block")
        self.tables[t.id] = await self.st.commit_move(
            t.id, t.version, seat=action["seat"], action=action, actor_user_id=None, by="player", state=state
        )

    async def bare_insert(self, i: int) -> None:
        action, state = self.moves[i % len(self.moves)]
        async with self.st._write() as conn:
            await conn.execute(insert(bare_rows).values(payload=canonical(state), action=canonical(action)))


async def timed(coros: list[Any]) -> float:
    start = time.perf_counter()
    await asyncio.gather(*coros)
    return time.perf_counter() - start


async def measure(url: str, blocks: int, per_block: int, wide: int) -> dict[str, Any]:
    st = await Storage.open(url)
    try:
        async with st._write() as conn:
            await conn.run_sync(bare_meta.create_all)
        moves = game_moves()
        bench = Bench(st, moves)
        [one] = await new_tables(st, 1, "one")
        many = await new_tables(st, wide, "many")
        await bench.commit(one)  # warm-up: connections, statement caches
        await bench.bare_insert(0)
        figures: dict[str, Any] = {}
        for name, tables, n in (("one_table", [one], per_block), (f"{wide}_tables", many, 1)):
            ratios, per_move, per_insert = [], [], []
            for b in range(blocks):
                moves_n = n * len(tables)
                if len(tables) == 1:
                    t_move = 0.0
                    for _ in range(n):
                        t_move += await timed([bench.commit(tables[0])])
                    t_ins = 0.0
                    for i in range(n):
                        t_ins += await timed([bench.bare_insert(b * n + i)])
                else:
                    t_move = await timed([bench.commit(t) for t in tables])
                    t_ins = await timed([bench.bare_insert(i) for i in range(len(tables))])
                per_move.append(t_move / moves_n)
                per_insert.append(t_ins / moves_n)
                ratios.append(per_move[-1] / per_insert[-1])
            figures[name] = {
                "s_per_move": statistics.median(per_move),
                "s_per_insert": statistics.median(per_insert),
                "time_ratio": statistics.median(ratios),
                "moves": blocks * n * len(tables),
            }
        figures["time_ratio"] = max(f["time_ratio"] for f in figures.values() if isinstance(f, dict))
        figures["row_bytes"] = statistics.mean(len(canonical(s)) + len(canonical(a)) for a, s in moves)
        return figures
    finally:
        await st.close()


async def pg_database(server: str) -> tuple[str, Any]:
    import asyncpg

    u = make_url(server)
    name = f"tablebot_bench_{uuid.uuid4().hex[:10]}"
    kw = dict(host=u.host or "127.0.0.1", port=u.port or 5432, user=u.username or "postgres", password=u.password)
    admin = await asyncpg.connect(database=u.database or "postgres", **kw)
    await admin.execute(f'CREATE DATABASE "{name}"')

    async def drop() -> None:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await admin.close()

    return u.set(drivername="postgresql+asyncpg", database=name).render_as_string(hide_password=False), drop


async def main_async(args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    with tempfile.TemporaryDirectory() as tmp:
        out["sqlite"] = await measure(
            f"sqlite+aiosqlite:///{Path(tmp) / 'bench.sqlite3'}", args.blocks, args.moves, args.tables
        )
    server = args.pg or os.environ.get("TEST_DATABASE_URL")
    if server:
        url, drop = await pg_database(server)
        try:
            out["postgresql"] = await measure(url, args.blocks, args.moves, args.tables)
        finally:
            await drop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--blocks", type=int, default=5, help="alternating blocks of moves and inserts")
    parser.add_argument("--moves", type=int, default=15, help="moves per block on the single table")
    parser.add_argument("--tables", type=int, default=100, help="tables moved at once")
    parser.add_argument("--pg", help="PostgreSQL server URL (default: $TEST_DATABASE_URL)")
    add_quick(parser, blocks=1, moves=3, tables=5)
    args = parser.parse_args()
    result = asyncio.run(main_async(args))
    print(f"{'database':<11} {'case':<11} {'s/move':>10} {'s/insert':>10} {'ratio':>6}")
    for db, figures in result.items():
        for case, f in figures.items():
            if isinstance(f, dict):
                print(
                    f"{db:<11} {case:<11} {f['s_per_move']:>10.5f} {f['s_per_insert']:>10.5f} {f['time_ratio']:>6.2f}"
                )
    if "postgresql" not in result:
        print("postgresql: skipped (give --pg URL or set TEST_DATABASE_URL)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()
