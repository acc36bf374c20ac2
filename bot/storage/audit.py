"""The full check of a table: its move log replayed through the core must give the stored state; a table that
fails is marked broken (``BrokenTable``) and never played on. ``repair`` re-checks and clears a mark the log
disproves. Also the game record rebuilt from the log.

The table row and its log are read in one snapshot (PostgreSQL: one REPEATABLE READ transaction; SQLite's read
transaction is a snapshot), so a move committed meanwhile is either wholly seen or not at all. A table is marked
broken only when a re-check under its row lock (the write transaction that marks it) disagrees too.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import integrity
from bot.storage.checks import check_id, now
from bot.storage.engine import Database
from bot.storage.errors import BrokenTable, InvalidInput, NotFound
from bot.storage.models import GAME_TABLES, MOVES
from bot.storage.tables import broken_stmt, parse_state, table
from bot.storage.values import PLAYING, RepairReport, TableRec


async def _read(conn: AsyncConnection, table_id: int, *, lock: bool = False) -> tuple[Any, list[Any] | None]:
    """The table's row and its log rows (None when a log row is not JSON); ``NotFound``."""
    stmt = select(GAME_TABLES).where(GAME_TABLES.c.id == table_id)
    if lock:
        stmt = stmt.with_for_update()
    row = (await conn.execute(stmt)).first()
    if row is None:
        raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
    log = select(MOVES.c.seq, MOVES.c.seat, MOVES.c.action).where(MOVES.c.table_id == table_id).order_by(MOVES.c.seq)
    try:
        return row, list((await conn.execute(log)).all())
    except ValueError:
        return row, None


def _check(row: Any, moves: list[Any] | None) -> tuple[Any, str | None]:
    """(the game state that matches the stored state, None) or (None, the reason the table is broken).

    The broken mark itself is not looked at: this is what the row and the log say."""
    if moves is None:
        return None, "a log row is not JSON"
    stored, reason = parse_state(row)
    if reason is not None:
        return None, reason
    if stored is None:
        return None, ("a table that never started has moves" if moves or row.version else None)
    if len(moves) != row.version:
        return None, f"the log holds {len(moves)} moves but the table is at version {row.version}"
    try:
        state = integrity.replay_log(row.game, row.players, row.options, row.seed, [tuple(m) for m in moves])
        return integrity.check_state(state, stored), None
    except integrity.LogMismatch as err:
        return None, str(err)


async def replayed(db: Database, table_id: int) -> tuple[Any, Any]:
    """(row, the game state that matches the stored state) or raises ``BrokenTable`` (marked)."""
    check_id(table_id)
    async with db.snapshot() as conn:
        row, moves = await _read(conn, table_id)
    if row.broken is not None:
        raise BrokenTable(table_id, row.broken)
    state, reason = _check(row, moves)
    if reason is None:
        return row, state
    # a disagreement: look again under the row lock, where no move can come in between, and mark it there
    async with db.write() as conn:
        row, moves = await _read(conn, table_id, lock=True)
        state, reason = (None, row.broken) if row.broken is not None else _check(row, moves)
        if reason is not None and row.broken is None:
            await conn.execute(broken_stmt(table_id, reason))
    if reason is not None:
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


async def repair(db: Database, table_id: int) -> RepairReport:
    """Re-check a table under its row lock, ignoring its broken mark: clear the mark when the log replays to the
    stored state, else (re)write the reason found. ``NotFound`` when there is no such table."""
    check_id(table_id)
    async with db.write() as conn:
        row, moves = await _read(conn, table_id, lock=True)
        _state, reason = _check(row, moves)
        if reason != row.broken:
            stmt = update(GAME_TABLES).where(GAME_TABLES.c.id == table_id).values(broken=reason, updated_at=now())
            await conn.execute(stmt)
    return RepairReport(table_id, row.broken, reason)


async def record(db: Database, table_id: int) -> dict[str, Any]:
    """The game record (docs/records.md) of a started table, rebuilt from its move log."""
    _row, state = await replayed(db, table_id)
    if state is None:
        raise InvalidInput("the game has not started yet", "not_started", table_id=table_id)
    return state.record()
