"""The full check of a table: its move log replayed through the core must give the stored state; a table that
fails is marked broken (``BrokenTable``) and never played on. Also the game record rebuilt from the log."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.storage import integrity
from bot.storage.engine import Database
from bot.storage.errors import BrokenTable, InvalidInput, NotFound
from bot.storage.models import GAME_TABLES, MOVES
from bot.storage.tables import mark_broken, parse_state, table
from bot.storage.values import PLAYING, TableRec


async def replayed(db: Database, table_id: int) -> tuple[Any, Any]:
    """(row, the game state that matches the stored state) or raises ``BrokenTable`` after marking it."""
    async with db.read() as conn:
        row = (await conn.execute(select(GAME_TABLES).where(GAME_TABLES.c.id == table_id))).first()
        if row is None:
            raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        try:
            stmt = (
                select(MOVES.c.seq, MOVES.c.seat, MOVES.c.action)
                .where(MOVES.c.table_id == table_id)
                .order_by(MOVES.c.seq)
            )
            moves = (await conn.execute(stmt)).all()
        except ValueError:
            moves = None
    reason = row.broken
    state = None
    if reason is None and moves is None:
        reason = "a log row is not JSON"
    if reason is None:
        stored, reason = parse_state(row)
    if reason is None and stored is None and (moves or row.version):
        reason = "a table that never started has moves"
    elif reason is None and stored is not None:
        if len(moves) != row.version:
            reason = f"the log holds {len(moves)} moves but the table is at version {row.version}"
        else:
            try:
                state = integrity.replay_log(row.game, row.players, row.options, row.seed, [tuple(m) for m in moves])
                state = integrity.check_state(state, stored)
            except integrity.LogMismatch as err:
                reason = str(err)
    if reason is not None:
        await mark_broken(db, table_id, reason)
        raise BrokenTable(table_id, reason)
    return row, state


async def verify(db: Database, table_id: int) -> TableRec:
    """Full check: the move log replayed through the core equals the stored state; else ``BrokenTable``."""
    await replayed(db, table_id)
    return await table(db, table_id)


async def verify_open_tables(db: Database) -> list[int]:
    """Check every table in play (at start-up); returns the ids of the broken ones, now marked."""
    stmt = select(GAME_TABLES.c.id).where(GAME_TABLES.c.status == PLAYING).order_by(GAME_TABLES.c.id)
    async with db.read() as conn:
        ids = list((await conn.execute(stmt)).scalars())
    broken = []
    for table_id in ids:
        try:
            await replayed(db, table_id)
        except BrokenTable:
            broken.append(table_id)
    return broken


async def record(db: Database, table_id: int) -> dict[str, Any]:
    """The SCENARIOS.md game record of a started table, rebuilt from its move log."""
    _row, state = await replayed(db, table_id)
    if state is None:
        raise InvalidInput("the game has not started yet", "not_started", table_id=table_id)
    return state.record()
