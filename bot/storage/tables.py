"""Tables and their seats: loading (every load checks the state's digest), the lobby, the start, seat flags,
the public message's reference, abandoning. A table's moves are in ``moves.py``, its timer in ``timers.py``."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from bot import metrics
from bot.storage import integrity
from bot.storage.checks import (
    check_count,
    check_id,
    check_kind,
    check_seats,
    check_table_setup,
    check_time,
    now,
    rules_of,
    state_text,
)
from bot.storage.engine import Database
from bot.storage.errors import BrokenTable, Conflict, InvalidInput, NotFound, StorageError, TableBusy
from bot.storage.invitations import drop_invitations
from bot.storage.models import CHATS, GAME_TABLES, SEATS, USERS
from bot.storage.people import check_users
from bot.storage.reach import tables_in
from bot.storage.values import (
    ABANDONED,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    Reach,
    SeatRec,
    SeatSpec,
    TableRec,
    UserRec,
)
from bot.storage.votes import drop_absent_votes, drop_votes
from core.base import GameError

# every column of a table row but the (large) state text
TABLE_META = [c for c in GAME_TABLES.c if c.name != "state"]
KEEP: Any = object()  # "leave this field as it is"


async def seats_of(conn: AsyncConnection, table_ids: Iterable[int]) -> dict[int, list[SeatRec]]:
    ids = list(table_ids)
    out: dict[int, list[SeatRec]] = {i: [] for i in ids}
    if not ids:
        return out
    stmt = (
        select(SEATS, USERS.c.platform, USERS.c.platform_id, USERS.c.name, USERS.c.language)
        .select_from(SEATS.outerjoin(USERS, USERS.c.id == SEATS.c.user_id))
        .where(SEATS.c.table_id.in_(ids))
        .order_by(SEATS.c.table_id, SEATS.c.seat)
    )
    for r in await conn.execute(stmt):
        user = None
        if r.user_id is not None:
            user = UserRec(r.user_id, r.platform, r.platform_id, r.name, r.language)
        out[r.table_id].append(
            SeatRec(r.seat, r.user_id, user, r.computer, bool(r.taken_over), r.timeouts, r.private_ref)
        )
    return out


def table_rec(r: Any, seats: list[SeatRec], state: dict[str, Any] | None, broken: str | None) -> TableRec:
    return TableRec(
        id=r.id,
        chat_id=r.chat_id,
        game=r.game,
        players=r.players,
        options=r.options or {},
        status=r.status,
        seed=r.seed,
        host_user_id=r.host_user_id,
        state=state,
        version=r.version,
        lobby_rev=r.lobby_rev,
        deadline=r.deadline,
        deadline_kind=r.deadline_kind,
        message_ref=r.message_ref,
        broken=broken,
        created_at=r.created_at,
        updated_at=r.updated_at,
        seats=seats,
    )


def parse_state(r: Any) -> tuple[dict[str, Any] | None, str | None]:
    """The state of a row and, if it fails the cheap check, the reason it is broken."""
    if r.state is None:
        if r.status in (PLAYING, FINISHED):
            return None, "the state row is empty"
        return None, None
    if r.state_digest != integrity.digest(r.state):
        return None, "the state does not match its digest"
    try:
        data = json.loads(r.state)
    except ValueError:
        return None, "the state is not JSON"
    if not isinstance(data, dict):
        return None, "the state is not a JSON object"
    return data, None


async def load(
    db: Database, conn: AsyncConnection, where: Any, order: Any = None, *, in_write: bool = False
) -> list[TableRec]:
    """Tables matching ``where`` with their seats; a state failing its digest marks the table broken
    (on ``conn`` itself when it is a write transaction, else in a transaction of its own)."""
    stmt = select(GAME_TABLES).where(where)
    if order is not None:
        stmt = stmt.order_by(order)
    rows = (await conn.execute(stmt)).all()
    metrics.TABLE_READS.inc(len(rows))
    seats = await seats_of(conn, (r.id for r in rows))
    out = []
    newly_broken: list[tuple[int, str]] = []
    for r in rows:
        state, reason = parse_state(r)
        if reason is not None and r.broken is None:
            newly_broken.append((r.id, reason))
        out.append(table_rec(r, seats[r.id], state, r.broken or reason))
    for table_id, reason in newly_broken:
        if in_write:
            await conn.execute(broken_stmt(table_id, reason))
        else:
            await mark_broken(db, table_id, reason)
    return out


def broken_stmt(table_id: int, reason: str) -> Any:
    return (
        update(GAME_TABLES)
        .where(GAME_TABLES.c.id == table_id, GAME_TABLES.c.broken.is_(None))
        .values(broken=reason, updated_at=now())
    )


async def mark_broken(db: Database, table_id: int, reason: str) -> None:
    async with db.write() as conn:
        await conn.execute(broken_stmt(table_id, reason))


async def why_not(conn: AsyncConnection, table_id: int, want: str) -> StorageError:
    """The typed error for a compare-and-set that matched no row."""
    stmt = select(GAME_TABLES.c.status, GAME_TABLES.c.broken).where(GAME_TABLES.c.id == table_id)
    row = (await conn.execute(stmt)).first()
    if row is None:
        return NotFound(f"no table {table_id}", "no_table", table_id=table_id)
    if row.broken is not None:
        return BrokenTable(table_id, row.broken)
    if row.status != want and not (want == "open" and row.status in OPEN_STATUSES):
        return Conflict(f"table {table_id} is {row.status}", "wrong_status", status=row.status)
    return Conflict(f"table {table_id} changed meanwhile", "out_of_date")


# ---- reading tables ------------------------------------------------------------------------------
async def table(db: Database, table_id: int) -> TableRec:
    """One table with its seats; ``NotFound`` if there is none. A state failing its digest marks it broken."""
    check_id(table_id)
    async with db.read() as conn:
        recs = await load(db, conn, GAME_TABLES.c.id == table_id)
    if not recs:
        raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
    return recs[0]


async def versions(db: Database, table_ids: Iterable[int]) -> dict[int, tuple[int, str]]:
    """The version and status of each of these tables that exists, in one query (to see which moved on)."""
    ids = sorted(set(table_ids))
    check_id(*ids)
    if not ids:
        return {}
    cols = GAME_TABLES.c
    async with db.read() as conn:
        rows = await conn.execute(select(cols.id, cols.version, cols.status).where(cols.id.in_(ids)))
        return {row.id: (row.version, row.status) for row in rows}


async def open_table(db: Database, chat_id: int) -> TableRec | None:
    """The chat's table in the lobby or in play (broken ones too, flagged), or None."""
    check_id(chat_id)
    async with db.read() as conn:
        recs = await load(db, conn, (GAME_TABLES.c.chat_id == chat_id) & GAME_TABLES.c.status.in_(OPEN_STATUSES))
    return recs[0] if recs else None


async def tables_for_user(db: Database, user_id: int) -> list[TableRec]:
    """Open tables where this user has a seat."""
    check_id(user_id)
    sub = select(SEATS.c.table_id).where(SEATS.c.user_id == user_id)
    where = GAME_TABLES.c.id.in_(sub) & GAME_TABLES.c.status.in_(OPEN_STATUSES)
    async with db.read() as conn:
        return await load(db, conn, where, GAME_TABLES.c.id)


async def playing_tables(db: Database, reach: Reach | None = None) -> list[TableRec]:
    """Every table in play that is not broken (to resume after a restart); with ``reach``, only those of the chats
    the caller can publish to."""
    where = (GAME_TABLES.c.status == PLAYING) & GAME_TABLES.c.broken.is_(None)
    mine = tables_in(reach)
    if mine is not None:
        where = where & mine
    async with db.read() as conn:
        return await load(db, conn, where, GAME_TABLES.c.id)


async def open_counts(db: Database) -> dict[str, int]:
    """How many tables are in their lobby and in play (broken ones left out): the operator's gauge."""
    query = (
        select(GAME_TABLES.c.status, func.count())
        .where(GAME_TABLES.c.status.in_((LOBBY, PLAYING)) & GAME_TABLES.c.broken.is_(None))
        .group_by(GAME_TABLES.c.status)
    )
    async with db.read() as conn:
        found = {str(status): int(n) for status, n in (await conn.execute(query)).all()}
    return {LOBBY: found.get(LOBBY, 0), PLAYING: found.get(PLAYING, 0)}


async def ping(db: Database) -> None:
    """One round trip to the database (readiness); raises when it cannot be reached."""
    async with db.read() as conn:
        await conn.execute(select(1))


# ---- the lobby -----------------------------------------------------------------------------------
async def write_seats(conn: AsyncConnection, table_id: int, seats: Sequence[SeatSpec]) -> None:
    await conn.execute(delete(SEATS).where(SEATS.c.table_id == table_id))
    if seats:
        await conn.execute(
            insert(SEATS),
            [
                {
                    "table_id": table_id,
                    "seat": s.seat,
                    "user_id": s.user_id,
                    "computer": s.computer,
                    "taken_over": False,
                    "timeouts": 0,
                    "private_ref": None,
                }
                for s in seats
            ],
        )


async def create_table(
    db: Database,
    chat_id: int,
    game: str,
    players: int,
    options: dict[str, Any],
    seed: str,
    host_user_id: int | None,
    seats: Sequence[SeatSpec] = (),
) -> TableRec:
    """A new table in the lobby; ``TableBusy`` when the chat already has one open (checked by the database)."""
    check_id(chat_id)
    check_table_setup(game, players, options)
    check_seats(seats, players)
    if not isinstance(seed, str) or not seed or len(seed) > 128:
        raise InvalidInput("a seed is a non-empty string of at most 128 characters", "bad_seed")
    at = now()
    try:
        async with db.write() as conn:
            if (await conn.execute(select(CHATS.c.id).where(CHATS.c.id == chat_id))).first() is None:
                raise NotFound(f"no chat {chat_id}", "no_chat", chat_id=chat_id)
            await check_users(conn, [host_user_id, *(s.user_id for s in seats)])
            busy = select(GAME_TABLES.c.id).where(
                GAME_TABLES.c.chat_id == chat_id, GAME_TABLES.c.status.in_(OPEN_STATUSES)
            )
            if (await conn.execute(busy)).first() is not None:
                raise TableBusy("this chat already has an open table", chat_id=chat_id)
            table_id = (
                await conn.execute(
                    insert(GAME_TABLES)
                    .values(
                        chat_id=chat_id,
                        game=game,
                        players=players,
                        options=dict(options),
                        status=LOBBY,
                        seed=seed,
                        host_user_id=host_user_id,
                        state=None,
                        state_digest=None,
                        version=0,
                        lobby_rev=0,
                        created_at=at,
                        updated_at=at,
                    )
                    .returning(GAME_TABLES.c.id)
                )
            ).scalar_one()
            await write_seats(conn, table_id, seats)
    except IntegrityError as err:
        if "uq_game_tables_open_chat" in str(err) or "game_tables.chat_id" in str(err):
            raise TableBusy("this chat already has an open table", chat_id=chat_id) from None
        raise
    return await table(db, table_id)


async def update_lobby(
    db: Database,
    table_id: int,
    lobby_rev: int,
    *,
    players: int | None = None,
    options: dict[str, Any] | None = None,
    seats: Sequence[SeatSpec] | None = None,
    host_user_id: int | None = None,
) -> TableRec:
    """Change a lobby (players, options, the whole seat list, host) if its revision is still ``lobby_rev``."""
    check_id(table_id)
    check_count(lobby_rev)
    async with db.write() as conn:
        row = (await conn.execute(select(*TABLE_META).where(GAME_TABLES.c.id == table_id))).first()
        if row is None:
            raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        if row.status != LOBBY or row.lobby_rev != lobby_rev or row.broken is not None:
            raise await why_not(conn, table_id, LOBBY)
        new_players = row.players if players is None else players
        new_options = row.options if options is None else options
        check_table_setup(row.game, new_players, new_options)
        if seats is not None:
            check_seats(seats, new_players)
            await check_users(conn, (s.user_id for s in seats))
        else:
            current = await seats_of(conn, [table_id])
            if any(s.seat >= new_players for s in current[table_id]):
                raise InvalidInput("someone sits at a seat the smaller table would not have", "bad_seat")
        if host_user_id is not None:
            await check_users(conn, [host_user_id])
        values: dict[str, Any] = {"lobby_rev": lobby_rev + 1, "updated_at": now()}
        if players is not None:
            values["players"] = players
        if options is not None:
            values["options"] = dict(options)
        if host_user_id is not None:
            values["host_user_id"] = host_user_id
        done = await conn.execute(
            update(GAME_TABLES)
            .where(GAME_TABLES.c.id == table_id, GAME_TABLES.c.lobby_rev == lobby_rev, GAME_TABLES.c.status == LOBBY)
            .values(**values)
        )
        if done.rowcount != 1:
            raise Conflict(f"table {table_id} changed meanwhile", "out_of_date")
        if seats is not None:
            await write_seats(conn, table_id, seats)
            await drop_absent_votes(conn, table_id)
    return await table(db, table_id)


async def start_table(
    db: Database,
    table_id: int,
    lobby_rev: int,
    state: dict[str, Any],
    deadline: datetime | None = None,
    deadline_kind: str | None = None,
) -> TableRec:
    """Lobby -> playing at version 0 with the first state (every seat must be filled); the lobby's votes to
    stop are dropped."""
    check_id(table_id)
    check_count(lobby_rev)
    check_time(deadline, "deadline")
    check_kind(deadline_kind)
    text = state_text(state)
    async with db.write() as conn:
        row = (await conn.execute(select(*TABLE_META).where(GAME_TABLES.c.id == table_id))).first()
        if row is None:
            raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        if row.status != LOBBY or row.lobby_rev != lobby_rev or row.broken is not None:
            raise await why_not(conn, table_id, LOBBY)
        rules = rules_of(row.game)
        try:
            loaded = rules.from_json(state)
        except (GameError, KeyError, TypeError, ValueError) as err:
            raise InvalidInput(f"not a {row.game} state: {err}", "bad_state") from None
        if loaded.players != row.players:
            raise InvalidInput("the state has another number of players", "bad_state")
        seats = (await seats_of(conn, [table_id]))[table_id]
        if sorted(s.seat for s in seats) != list(range(row.players)):
            raise InvalidInput("every seat must be taken before the game starts", "seats_missing")
        full_options = dict(row.options)
        full_options.update(rules.options(row.players, integrity.core_options(row.game, row.options)).to_dict())
        done = await conn.execute(
            update(GAME_TABLES)
            .where(GAME_TABLES.c.id == table_id, GAME_TABLES.c.lobby_rev == lobby_rev, GAME_TABLES.c.status == LOBBY)
            .values(
                status=PLAYING,
                options=full_options,
                state=text,
                state_digest=integrity.digest(text),
                version=0,
                lobby_rev=lobby_rev + 1,
                deadline=deadline,
                deadline_kind=deadline_kind if deadline is not None else None,
                updated_at=now(),
            )
        )
        if done.rowcount != 1:
            raise Conflict(f"table {table_id} changed meanwhile", "out_of_date")
        # votes to close the lobby do not carry into the game: whoever is seated when it starts chose to play
        await drop_votes(conn, table_id)
        await drop_invitations(conn, table_id)
    return await table(db, table_id)


# ---- seats, the public message, abandoning -------------------------------------------------------
async def update_seat_row(conn: AsyncConnection, table_id: int, seat: int, fields: dict[str, Any]) -> None:
    values: dict[str, Any] = {}
    if fields.get("taken_over") is not None:
        values["taken_over"] = bool(fields["taken_over"])
    if fields.get("timeouts") is not None:
        if type(fields["timeouts"]) is not int or fields["timeouts"] < 0:
            raise InvalidInput("timeouts is a non-negative integer", "bad_seat_update")
        values["timeouts"] = fields["timeouts"]
    if "private_ref" in fields:
        values["private_ref"] = fields["private_ref"]
    if not values:
        return
    done = await conn.execute(update(SEATS).where(SEATS.c.table_id == table_id, SEATS.c.seat == seat).values(**values))
    if done.rowcount != 1:
        raise InvalidInput(f"seat {seat} does not exist at this table", "bad_seat", seat=seat)


async def update_seat(
    db: Database,
    table_id: int,
    seat: int,
    *,
    taken_over: bool | None = None,
    timeouts: int | None = None,
    private_ref: Any = KEEP,
) -> TableRec:
    """Change one seat's flags; ``private_ref=None`` clears the reference, leaving it out keeps it."""
    check_id(table_id)
    check_count(seat)
    fields: dict[str, Any] = {"taken_over": taken_over, "timeouts": timeouts}
    if private_ref is not KEEP:
        fields["private_ref"] = private_ref
    async with db.write() as conn:
        if (await conn.execute(select(GAME_TABLES.c.id).where(GAME_TABLES.c.id == table_id))).first() is None:
            raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        await update_seat_row(conn, table_id, seat, fields)
        if taken_over:
            await drop_absent_votes(conn, table_id)
    return await table(db, table_id)


async def set_message_ref(db: Database, table_id: int, ref: dict[str, Any] | None) -> None:
    """Remember (or forget) the platform reference of the table's public message."""
    check_id(table_id)
    async with db.write() as conn:
        done = await conn.execute(update(GAME_TABLES).where(GAME_TABLES.c.id == table_id).values(message_ref=ref))
    if done.rowcount != 1:
        raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)


async def swap_message_ref(
    db: Database, table_id: int, expected: dict[str, Any] | None, ref: dict[str, Any] | None
) -> bool:
    """Compare-and-set of the table's message reference: ``ref`` only if it is still ``expected`` (the row is
    locked meanwhile: one worker of several wins). False when it changed."""
    check_id(table_id)
    async with db.write() as conn:
        row = (
            await conn.execute(select(GAME_TABLES.c.message_ref).where(GAME_TABLES.c.id == table_id).with_for_update())
        ).first()
        if row is None:
            raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        if row.message_ref != expected:
            return False
        await conn.execute(update(GAME_TABLES).where(GAME_TABLES.c.id == table_id).values(message_ref=ref))
    return True


async def abandon_table(db: Database, table_id: int) -> TableRec:
    """Stop a table in the lobby or in play (broken ones too); nobody is rated."""
    check_id(table_id)
    async with db.write() as conn:
        done = await conn.execute(
            update(GAME_TABLES)
            .where(GAME_TABLES.c.id == table_id, GAME_TABLES.c.status.in_(OPEN_STATUSES))
            .values(status=ABANDONED, deadline=None, deadline_kind=None, updated_at=now())
        )
        if done.rowcount != 1:
            row = (await conn.execute(select(GAME_TABLES.c.status).where(GAME_TABLES.c.id == table_id))).first()
            if row is None:
                raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
            raise Conflict(f"table {table_id} is {row.status}", "wrong_status", status=row.status)
        await drop_votes(conn, table_id)
        await drop_invitations(conn, table_id)
    return await table(db, table_id)
