"""The move log: one move is one compare-and-set transaction (``commit_move``); a move that ends the game
writes the results and ratings in the same transaction. ``moves`` reads the log back.

A move may name the press that made it (a callback, interaction or update id): ``presses`` keeps which move it
stored, in the same transaction, so the loser of a race or a re-delivered update can tell (``press_outcome``)."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from bot.storage import integrity
from bot.storage.checks import SEAT_FIELDS, check_count, check_id, check_kind, check_time, now, state_text
from bot.storage.engine import Database
from bot.storage.errors import Conflict, InvalidInput, NotFound
from bot.storage.invitations import drop_invitations
from bot.storage.models import GAME_TABLES, MOVES, PRESSES, RATINGS, RESULTS
from bot.storage.tables import MOVE_META, seats_of, table_rec, update_seat_row, why_not
from bot.storage.values import FINISHED, PLAYING, MoveRec, ResultSpec, TableRec
from bot.storage.votes import drop_absent_votes, drop_votes
from core.base import Action, MalformedAction

PRESS_KEPT = timedelta(days=1)  # a press is re-delivered within minutes; its row is pruned after a day


async def commit_move(
    db: Database,
    table_id: int,
    version: int,
    *,
    seat: int,
    action: dict[str, Any],
    actor_user_id: int | None,
    by: str,
    state: dict[str, Any],
    deadline: datetime | None = None,
    deadline_kind: str | None = None,
    seat_updates: dict[int, dict[str, Any]] | None = None,
    results: Sequence[ResultSpec] | None = None,
    press_key: str | None = None,
) -> TableRec:
    """Store one move in one transaction, only if the table is still at ``version``.

    Writes log row ``version + 1``, the new state and its digest, seat updates, and with ``results`` the
    end of the game (status finished, results, ratings). ``Conflict`` when another move got there first.
    With ``press_key`` the press is recorded with the move (``Conflict`` ``duplicate_press`` if that press
    already stored a move: nothing is written).
    """
    check_id(table_id)
    if actor_user_id is not None:
        check_id(actor_user_id)
    if press_key is not None:
        check_press_key(press_key)
    try:
        parsed = Action.from_json(action)
    except MalformedAction as err:
        raise InvalidInput(f"not an action: {err}", "bad_action") from None
    if type(seat) is not int or parsed.seat != seat:
        raise InvalidInput("the action is not for this seat", "bad_action", seat=seat)
    if not isinstance(by, str) or not 0 < len(by) <= 16:
        raise InvalidInput("'by' names who made the move, e.g. 'player'", "bad_by")
    if type(version) is not int or version < 0:
        raise InvalidInput("a version is a non-negative integer", "bad_version")
    check_count(version)
    check_time(deadline, "deadline")
    check_kind(deadline_kind)
    if seat_updates:
        for s, fields in seat_updates.items():
            if type(s) is not int or not isinstance(fields, dict) or not set(fields) <= SEAT_FIELDS:
                raise InvalidInput("seat updates hold taken_over, timeouts and private_ref", "bad_seat_update")
    text = state_text(state)
    at = now()
    values: dict[str, Any] = {
        "state": text,
        "state_digest": integrity.digest(text),
        "version": version + 1,
        "deadline": deadline,
        "deadline_kind": deadline_kind if deadline is not None else None,
        "updated_at": at,
    }
    if results is not None:
        values.update(status=FINISHED, deadline=None, deadline_kind=None)
    stmt = (
        update(GAME_TABLES)
        .where(
            GAME_TABLES.c.id == table_id,
            GAME_TABLES.c.version == version,
            GAME_TABLES.c.status == PLAYING,
            GAME_TABLES.c.broken.is_(None),
        )
        .values(**values)
        .returning(*MOVE_META)
    )
    async with db.write() as conn:
        row = (await conn.execute(stmt)).first()
        if row is None:
            raise await why_not(conn, table_id, PLAYING)
        if not 0 <= seat < row.players:
            raise InvalidInput(f"seat {seat} does not exist at this table", "bad_seat", seat=seat)
        if parsed.type not in integrity.ACTION_TYPES[row.game]:
            raise InvalidInput(f"{row.game} has no action {parsed.type!r}", "bad_action", type=parsed.type)
        await conn.execute(
            insert(MOVES).values(
                table_id=table_id,
                seq=version + 1,
                seat=seat,
                action=parsed.to_json(),
                actor_user_id=actor_user_id,
                by=by,
                at=at,
            )
        )
        if seat_updates:
            for s, fields in seat_updates.items():
                await update_seat_row(conn, table_id, s, fields)
            if any(fields.get("taken_over") for fields in seat_updates.values()):
                await drop_absent_votes(conn, table_id)
        if results is not None:
            await write_results(db, conn, row, results, at)
            await drop_votes(conn, table_id)
            await drop_invitations(conn, table_id)
        if press_key is not None:
            await record_press(db, conn, press_key, table_id, version + 1, at)
        seats = (await seats_of(conn, [table_id]))[table_id]
    return table_rec(row, seats, state, None)


async def write_results(
    db: Database, conn: AsyncConnection, table: Any, results: Sequence[ResultSpec], at: datetime
) -> None:
    """One results row per seat, and the rating rows of the rated players upserted."""
    if sorted(r.seat for r in results) != list(range(table.players)):
        raise InvalidInput("results need exactly one entry per seat", "bad_results")
    await conn.execute(insert(RESULTS), [{"table_id": table.id, **dataclasses.asdict(r)} for r in results])
    rated = [r for r in results if r.user_id is not None and r.mu is not None and r.sigma is not None]
    if not rated:
        return
    ins = db.insert(RATINGS)
    stmt = ins.on_conflict_do_update(
        index_elements=[RATINGS.c.chat_id, RATINGS.c.game, RATINGS.c.user_id],
        set_={
            "mu": ins.excluded.mu,
            "sigma": ins.excluded.sigma,
            "rating": ins.excluded.rating,
            "points": RATINGS.c.points + ins.excluded.points,
            "games": RATINGS.c.games + 1,
            "updated_at": ins.excluded.updated_at,
        },
    )
    await conn.execute(
        stmt,
        [
            {
                "chat_id": table.chat_id,
                "game": table.game,
                "user_id": r.user_id,
                "mu": r.mu,
                "sigma": r.sigma,
                "rating": r.rating_after,
                "points": r.rating_points or 0,
                "games": 1,
                "updated_at": at,
            }
            for r in rated
        ],
    )


def check_press_key(press_key: object) -> None:
    if not isinstance(press_key, str) or not 0 < len(press_key) <= 128:
        raise InvalidInput("a press key is a string of 1 to 128 characters", "bad_press_key")


async def record_press(
    db: Database, conn: AsyncConnection, press_key: str, table_id: int, seq: int, at: datetime
) -> None:
    """Remember that this press stored move ``seq``; ``Conflict`` (``duplicate_press``) when it stored one before.

    Rows older than a day go first: only those no other transaction holds (``SKIP LOCKED`` on PostgreSQL), so
    two workers pruning at once never wait for each other."""
    old = select(PRESSES.c.press_key).where(PRESSES.c.at < at - PRESS_KEPT).limit(100).with_for_update(skip_locked=True)
    await conn.execute(delete(PRESSES).where(PRESSES.c.press_key.in_(old.scalar_subquery())))
    ins = db.insert(PRESSES).values(press_key=press_key, table_id=table_id, seq=seq, at=at)
    done = await conn.execute(ins.on_conflict_do_nothing(index_elements=[PRESSES.c.press_key]))
    if done.rowcount != 1:
        raise Conflict("this press has already stored a move", "duplicate_press", press_key=press_key)


async def press_outcome(db: Database, press_key: str) -> tuple[int, int] | None:
    """(table id, seq) of the move this press stored, or None (not stored, or pruned after a day)."""
    check_press_key(press_key)
    async with db.read() as conn:
        stmt = select(PRESSES.c.table_id, PRESSES.c.seq).where(PRESSES.c.press_key == press_key)
        row = (await conn.execute(stmt)).first()
    return None if row is None else (row.table_id, row.seq)


async def moves(db: Database, table_id: int) -> list[MoveRec]:
    """The table's move log in order."""
    check_id(table_id)
    async with db.read() as conn:
        stmt = select(MOVES).where(MOVES.c.table_id == table_id).order_by(MOVES.c.seq)
        rows = (await conn.execute(stmt)).all()
        if not rows:
            exists = select(GAME_TABLES.c.id).where(GAME_TABLES.c.id == table_id)
            if (await conn.execute(exists)).first() is None:
                raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
    return [MoveRec(r.seq, r.seat, r.action, r.actor_user_id, r.by, r.at) for r in rows]
