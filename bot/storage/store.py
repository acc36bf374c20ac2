"""``Storage``: the async repository the chat application uses; the only place that writes SQL.

Every call is one short transaction. A move is one compare-and-set transaction (``commit_move``): the
table's version must still be the one the caller loaded, else ``Conflict`` and nothing is written. See
``docs/storage.md`` for the whole API and the decisions behind it.
"""

from __future__ import annotations

import dataclasses
import json
import re
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from bot.storage import integrity, stats
from bot.storage.engine import WRITE_OPTION, create_engine, resolve_url
from bot.storage.errors import BrokenTable, Conflict, InvalidInput, NotFound, StorageError, TableBusy
from bot.storage.migrate import upgrade
from bot.storage.models import Chat, Move, Rating, Result, Seat, StopVote, Table, User
from bot.storage.values import (
    ABANDONED,
    COMPUTER_LEVELS,
    FINISHED,
    LOBBY,
    OPEN_STATUSES,
    PLAYING,
    ChatRec,
    LeaderRow,
    MoveRec,
    PlayerStats,
    RatingRec,
    RecentGame,
    ResultSpec,
    SeatRec,
    SeatSpec,
    StopVotes,
    TableRec,
    UserRec,
)
from core import games
from core.base import Action, GameError, MalformedAction

U = User.__table__
C = Chat.__table__
T = Table.__table__
S = Seat.__table__
M = Move.__table__
R = Result.__table__
RT = Rating.__table__
V = StopVote.__table__

# every column of a table row but the (large) state text
T_META = [c for c in T.c if c.name != "state"]
_LANG = re.compile(r"^[A-Za-z]{2,3}([-_][A-Za-z0-9]{1,8})?$")
_SEAT_FIELDS = {"taken_over", "timeouts", "private_ref"}
_KEEP = object()  # "leave this field as it is"


def _now() -> datetime:
    return datetime.now(UTC)


def _check_language(lang: str | None) -> None:
    if lang is not None and (not isinstance(lang, str) or not _LANG.match(lang)):
        raise InvalidInput(f"not a language code: {lang!r}", "bad_language", language=lang)


def _check_kind(kind: str | None) -> None:
    if kind is not None and (not isinstance(kind, str) or not 0 < len(kind) <= 32):
        raise InvalidInput("a deadline kind is a short name, e.g. 'turn'", "bad_deadline_kind")


def _check_ids(platform: Any, platform_id: Any, thread: Any = None) -> None:
    if not isinstance(platform, str) or not 0 < len(platform) <= 32:
        raise InvalidInput("a platform is a short name, e.g. 'telegram'", "bad_platform")
    if not isinstance(platform_id, str) or not 0 < len(platform_id) <= 128:
        raise InvalidInput("a platform id is a string of 1 to 128 characters", "bad_platform_id")
    if thread is not None and (not isinstance(thread, str) or len(thread) > 128):
        raise InvalidInput("a thread id is a string of at most 128 characters", "bad_thread")


def _check_time(value: datetime | None, what: str) -> None:
    if value is not None and (not isinstance(value, datetime) or value.tzinfo is None):
        raise InvalidInput(f"{what} must be a timezone-aware datetime", "bad_time")


def _user_rec(row: Any) -> UserRec:
    return UserRec(row.id, row.platform, row.platform_id, row.name, row.language)


def _chat_rec(row: Any) -> ChatRec:
    return ChatRec(
        row.id, row.platform, row.platform_id, row.thread or None, row.title, row.language, row.defaults or {}
    )


def _rules(game: str) -> Any:
    try:
        return games.get(game)
    except GameError as err:
        raise InvalidInput(str(err), "unknown_game", game=game) from None


def _check_table_setup(game: str, players: int, options: Any) -> None:
    rules = _rules(game)
    try:
        rules.check_players(players)
        if not isinstance(options, dict):
            raise InvalidInput("options must be a JSON object", "bad_option")
        rules.options(players, integrity.core_options(game, options))
    except GameError as err:
        raise InvalidInput(str(err), err.code, **err.params) from None
    try:
        integrity.canonical(options)
    except (TypeError, ValueError):
        raise InvalidInput("options must be plain JSON data", "bad_option") from None


def _check_seats(seats: Sequence[SeatSpec], players: int) -> None:
    seen: set[int] = set()
    users: set[int] = set()
    for spec in seats:
        if not isinstance(spec, SeatSpec):
            raise InvalidInput("seats must be SeatSpec values", "bad_seat")
        if type(spec.seat) is not int or not 0 <= spec.seat < players or spec.seat in seen:
            raise InvalidInput(f"seat {spec.seat!r} does not exist or is given twice", "bad_seat", seat=spec.seat)
        seen.add(spec.seat)
        if (spec.user_id is None) == (spec.computer is None):
            raise InvalidInput("a seat holds either a user or a computer player", "bad_seat", seat=spec.seat)
        if spec.computer is not None and spec.computer not in COMPUTER_LEVELS:
            raise InvalidInput(f"unknown computer level {spec.computer!r}", "bad_level", level=spec.computer)
        if spec.user_id is not None:
            if spec.user_id in users:
                raise InvalidInput("a user sits at one seat only", "bad_seat", seat=spec.seat)
            users.add(spec.user_id)


class Storage:
    """Tables, seats, the move log, results and ratings in SQLite or PostgreSQL."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self._writer = engine.execution_options(**{WRITE_OPTION: True})
        self.dialect = engine.dialect.name

    # ---- life cycle ------------------------------------------------------------------------------
    @classmethod
    async def open(cls, url: str | None = None, *, data_dir: Path = Path("./data"), migrate: bool = True) -> Storage:
        """Connect to ``url`` (or ``$DATABASE_URL``, or SQLite in ``data_dir``) and apply the migrations."""
        storage = cls(create_engine(resolve_url(url, Path(data_dir))))
        if migrate:
            try:
                await storage.migrate()
            except BaseException:
                await storage.close()
                raise
        return storage

    async def close(self) -> None:
        await self.engine.dispose()

    async def migrate(self) -> None:
        """Alembic upgrade to the newest revision (safe when several workers start at once)."""
        await upgrade(self.engine)

    def _read(self) -> Any:
        return self.engine.connect()

    def _write(self) -> Any:
        return self._writer.begin()

    def _insert(self, table: Any) -> Any:
        if self.dialect == "postgresql":
            from sqlalchemy.dialects.postgresql import insert as pg_insert

            return pg_insert(table)
        from sqlalchemy.dialects.sqlite import insert as sqlite_insert

        return sqlite_insert(table)

    # ---- people and places -----------------------------------------------------------------------
    async def user(self, platform: str, platform_id: str, name: str, language: str | None = None) -> UserRec:
        """The user with this platform id, created or updated (a new name is written; language kept unless given)."""
        _check_ids(platform, platform_id)
        if not isinstance(name, str):
            raise InvalidInput("a user's name is a string", "bad_name")
        _check_language(language)
        ins = self._insert(U).values(
            platform=platform, platform_id=platform_id, name=name[:256], language=language, created_at=_now()
        )
        stmt = ins.on_conflict_do_update(
            index_elements=[U.c.platform, U.c.platform_id],
            set_={"name": ins.excluded.name, "language": func.coalesce(ins.excluded.language, U.c.language)},
        ).returning(*U.c)
        async with self._write() as conn:
            return _user_rec((await conn.execute(stmt)).one())

    async def get_user(self, user_id: int) -> UserRec:
        async with self._read() as conn:
            row = (await conn.execute(select(U).where(U.c.id == user_id))).first()
        if row is None:
            raise NotFound(f"no user {user_id}", "no_user", user_id=user_id)
        return _user_rec(row)

    async def set_user_language(self, user_id: int, lang: str | None) -> UserRec:
        _check_language(lang)
        async with self._write() as conn:
            row = (await conn.execute(update(U).where(U.c.id == user_id).values(language=lang).returning(*U.c))).first()
        if row is None:
            raise NotFound(f"no user {user_id}", "no_user", user_id=user_id)
        return _user_rec(row)

    async def chat(
        self, platform: str, platform_id: str, thread: str | None = None, title: str = "", language: str | None = None
    ) -> ChatRec:
        """The chat (or forum topic) with this id, created or updated (a non-empty new title is written)."""
        _check_ids(platform, platform_id, thread)
        if not isinstance(title, str):
            raise InvalidInput("a chat title is a string", "bad_title")
        _check_language(language)
        ins = self._insert(C).values(
            platform=platform,
            platform_id=platform_id,
            thread=thread or "",
            title=title[:256],
            language=language,
            defaults={},
            created_at=_now(),
        )
        title_set = ins.excluded.title if title else C.c.title
        stmt = ins.on_conflict_do_update(
            index_elements=[C.c.platform, C.c.platform_id, C.c.thread],
            set_={"title": title_set, "language": func.coalesce(ins.excluded.language, C.c.language)},
        ).returning(*C.c)
        async with self._write() as conn:
            return _chat_rec((await conn.execute(stmt)).one())

    async def get_chat(self, chat_id: int) -> ChatRec:
        async with self._read() as conn:
            row = (await conn.execute(select(C).where(C.c.id == chat_id))).first()
        if row is None:
            raise NotFound(f"no chat {chat_id}", "no_chat", chat_id=chat_id)
        return _chat_rec(row)

    async def set_chat_language(self, chat_id: int, lang: str | None) -> ChatRec:
        _check_language(lang)
        async with self._write() as conn:
            row = (await conn.execute(update(C).where(C.c.id == chat_id).values(language=lang).returning(*C.c))).first()
        if row is None:
            raise NotFound(f"no chat {chat_id}", "no_chat", chat_id=chat_id)
        return _chat_rec(row)

    async def set_chat_defaults(self, chat_id: int, game: str, options: dict[str, Any]) -> ChatRec:
        """Replace the chat's default options for one game (checked against the game's conventions)."""
        rules = _rules(game)
        _check_table_setup(game, rules.min_players, options)
        async with self._write() as conn:
            row = (await conn.execute(select(C.c.defaults).where(C.c.id == chat_id))).first()
            if row is None:
                raise NotFound(f"no chat {chat_id}", "no_chat", chat_id=chat_id)
            defaults = dict(row.defaults or {})
            defaults[game] = dict(options)
            out = (
                await conn.execute(update(C).where(C.c.id == chat_id).values(defaults=defaults).returning(*C.c))
            ).one()
        return _chat_rec(out)

    # ---- loading tables --------------------------------------------------------------------------
    async def _seats_of(self, conn: AsyncConnection, table_ids: Iterable[int]) -> dict[int, list[SeatRec]]:
        ids = list(table_ids)
        out: dict[int, list[SeatRec]] = {i: [] for i in ids}
        if not ids:
            return out
        stmt = (
            select(S, U.c.platform, U.c.platform_id, U.c.name, U.c.language)
            .select_from(S.outerjoin(U, U.c.id == S.c.user_id))
            .where(S.c.table_id.in_(ids))
            .order_by(S.c.table_id, S.c.seat)
        )
        for r in await conn.execute(stmt):
            user = None
            if r.user_id is not None:
                user = UserRec(r.user_id, r.platform, r.platform_id, r.name, r.language)
            out[r.table_id].append(
                SeatRec(r.seat, r.user_id, user, r.computer, bool(r.taken_over), r.timeouts, r.private_ref)
            )
        return out

    def _table_rec(self, r: Any, seats: list[SeatRec], state: dict[str, Any] | None, broken: str | None) -> TableRec:
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

    @staticmethod
    def _parse_state(r: Any) -> tuple[dict[str, Any] | None, str | None]:
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

    async def _load(
        self, conn: AsyncConnection, where: Any, order: Any = None, *, in_write: bool = False
    ) -> list[TableRec]:
        """Tables matching ``where`` with their seats; a state failing its digest marks the table broken
        (on ``conn`` itself when it is a write transaction, else in a transaction of its own)."""
        stmt = select(T).where(where)
        if order is not None:
            stmt = stmt.order_by(order)
        rows = (await conn.execute(stmt)).all()
        seats = await self._seats_of(conn, (r.id for r in rows))
        out = []
        newly_broken: list[tuple[int, str]] = []
        for r in rows:
            state, reason = self._parse_state(r)
            if reason is not None and r.broken is None:
                newly_broken.append((r.id, reason))
            out.append(self._table_rec(r, seats[r.id], state, r.broken or reason))
        for table_id, reason in newly_broken:
            if in_write:
                await conn.execute(self._broken_stmt(table_id, reason))
            else:
                await self._mark_broken(table_id, reason)
        return out

    @staticmethod
    def _broken_stmt(table_id: int, reason: str) -> Any:
        return update(T).where(T.c.id == table_id, T.c.broken.is_(None)).values(broken=reason, updated_at=_now())

    async def _mark_broken(self, table_id: int, reason: str) -> None:
        async with self._write() as conn:
            await conn.execute(self._broken_stmt(table_id, reason))

    async def table(self, table_id: int) -> TableRec:
        """One table with its seats; ``NotFound`` if there is none. A state failing its digest marks it broken."""
        async with self._read() as conn:
            recs = await self._load(conn, T.c.id == table_id)
        if not recs:
            raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        return recs[0]

    async def open_table(self, chat_id: int) -> TableRec | None:
        """The chat's table in the lobby or in play (broken ones too, flagged), or None."""
        async with self._read() as conn:
            recs = await self._load(conn, (T.c.chat_id == chat_id) & T.c.status.in_(OPEN_STATUSES))
        return recs[0] if recs else None

    async def tables_for_user(self, user_id: int) -> list[TableRec]:
        """Open tables where this user has a seat."""
        sub = select(S.c.table_id).where(S.c.user_id == user_id)
        async with self._read() as conn:
            return await self._load(conn, T.c.id.in_(sub) & T.c.status.in_(OPEN_STATUSES), T.c.id)

    async def playing_tables(self) -> list[TableRec]:
        """Every table in play that is not broken (to re-arm timers after a restart)."""
        async with self._read() as conn:
            return await self._load(conn, (T.c.status == PLAYING) & T.c.broken.is_(None), T.c.id)

    # ---- the lobby -------------------------------------------------------------------------------
    async def _check_users(self, conn: AsyncConnection, user_ids: Iterable[int | None]) -> None:
        ids = {u for u in user_ids if u is not None}
        if not ids:
            return
        found = set((await conn.execute(select(U.c.id).where(U.c.id.in_(ids)))).scalars())
        missing = sorted(ids - found)
        if missing:
            raise NotFound(f"no user {missing[0]}", "no_user", user_id=missing[0])

    async def _write_seats(self, conn: AsyncConnection, table_id: int, seats: Sequence[SeatSpec]) -> None:
        await conn.execute(delete(S).where(S.c.table_id == table_id))
        if seats:
            await conn.execute(
                insert(S),
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
        self,
        chat_id: int,
        game: str,
        players: int,
        options: dict[str, Any],
        seed: str,
        host_user_id: int | None,
        seats: Sequence[SeatSpec] = (),
    ) -> TableRec:
        """A new table in the lobby; ``TableBusy`` when the chat already has one open (checked by the database)."""
        _check_table_setup(game, players, options)
        _check_seats(seats, players)
        if not isinstance(seed, str) or not seed or len(seed) > 128:
            raise InvalidInput("a seed is a non-empty string of at most 128 characters", "bad_seed")
        now = _now()
        try:
            async with self._write() as conn:
                if (await conn.execute(select(C.c.id).where(C.c.id == chat_id))).first() is None:
                    raise NotFound(f"no chat {chat_id}", "no_chat", chat_id=chat_id)
                await self._check_users(conn, [host_user_id, *(s.user_id for s in seats)])
                busy = select(T.c.id).where(T.c.chat_id == chat_id, T.c.status.in_(OPEN_STATUSES))
                if (await conn.execute(busy)).first() is not None:
                    raise TableBusy("this chat already has an open table", chat_id=chat_id)
                table_id = (
                    await conn.execute(
                        insert(T)
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
                            created_at=now,
                            updated_at=now,
                        )
                        .returning(T.c.id)
                    )
                ).scalar_one()
                await self._write_seats(conn, table_id, seats)
        except IntegrityError as err:
            if "uq_game_tables_open_chat" in str(err) or "game_tables.chat_id" in str(err):
                raise TableBusy("this chat already has an open table", chat_id=chat_id) from None
            raise
        return await self.table(table_id)

    async def _why_not(self, conn: AsyncConnection, table_id: int, want: str) -> StorageError:
        """The typed error for a compare-and-set that matched no row."""
        row = (await conn.execute(select(T.c.status, T.c.broken).where(T.c.id == table_id))).first()
        if row is None:
            return NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        if row.broken is not None:
            return BrokenTable(table_id, row.broken)
        if row.status != want and not (want == "open" and row.status in OPEN_STATUSES):
            return Conflict(f"table {table_id} is {row.status}", "wrong_status", status=row.status)
        return Conflict(f"table {table_id} changed meanwhile", "out_of_date")

    async def update_lobby(
        self,
        table_id: int,
        lobby_rev: int,
        *,
        players: int | None = None,
        options: dict[str, Any] | None = None,
        seats: Sequence[SeatSpec] | None = None,
        host_user_id: int | None = None,
    ) -> TableRec:
        """Change a lobby (players, options, the whole seat list, host) if its revision is still ``lobby_rev``."""
        async with self._write() as conn:
            row = (await conn.execute(select(*T_META).where(T.c.id == table_id))).first()
            if row is None:
                raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
            if row.status != LOBBY or row.lobby_rev != lobby_rev or row.broken is not None:
                raise await self._why_not(conn, table_id, LOBBY)
            new_players = row.players if players is None else players
            new_options = row.options if options is None else options
            _check_table_setup(row.game, new_players, new_options)
            if seats is not None:
                _check_seats(seats, new_players)
                await self._check_users(conn, (s.user_id for s in seats))
            else:
                current = await self._seats_of(conn, [table_id])
                if any(s.seat >= new_players for s in current[table_id]):
                    raise InvalidInput("someone sits at a seat the smaller table would not have", "bad_seat")
            if host_user_id is not None:
                await self._check_users(conn, [host_user_id])
            values: dict[str, Any] = {"lobby_rev": lobby_rev + 1, "updated_at": _now()}
            if players is not None:
                values["players"] = players
            if options is not None:
                values["options"] = dict(options)
            if host_user_id is not None:
                values["host_user_id"] = host_user_id
            done = await conn.execute(
                update(T).where(T.c.id == table_id, T.c.lobby_rev == lobby_rev, T.c.status == LOBBY).values(**values)
            )
            if done.rowcount != 1:
                raise Conflict(f"table {table_id} changed meanwhile", "out_of_date")
            if seats is not None:
                await self._write_seats(conn, table_id, seats)
                await self._drop_absent_votes(conn, table_id)
        return await self.table(table_id)

    async def start_table(
        self,
        table_id: int,
        lobby_rev: int,
        state: dict[str, Any],
        deadline: datetime | None = None,
        deadline_kind: str | None = None,
    ) -> TableRec:
        """Lobby -> playing at version 0 with the first state (every seat must be filled); the lobby's votes to
        stop are dropped."""
        _check_time(deadline, "deadline")
        _check_kind(deadline_kind)
        text = self._state_text(state)
        async with self._write() as conn:
            row = (await conn.execute(select(*T_META).where(T.c.id == table_id))).first()
            if row is None:
                raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
            if row.status != LOBBY or row.lobby_rev != lobby_rev or row.broken is not None:
                raise await self._why_not(conn, table_id, LOBBY)
            rules = _rules(row.game)
            try:
                loaded = rules.from_json(state)
            except (GameError, KeyError, TypeError, ValueError) as err:
                raise InvalidInput(f"not a {row.game} state: {err}", "bad_state") from None
            if loaded.players != row.players:
                raise InvalidInput("the state has another number of players", "bad_state")
            seats = (await self._seats_of(conn, [table_id]))[table_id]
            if sorted(s.seat for s in seats) != list(range(row.players)):
                raise InvalidInput("every seat must be taken before the game starts", "seats_missing")
            full_options = dict(row.options)
            full_options.update(rules.options(row.players, integrity.core_options(row.game, row.options)).to_dict())
            done = await conn.execute(
                update(T)
                .where(T.c.id == table_id, T.c.lobby_rev == lobby_rev, T.c.status == LOBBY)
                .values(
                    status=PLAYING,
                    options=full_options,
                    state=text,
                    state_digest=integrity.digest(text),
                    version=0,
                    lobby_rev=lobby_rev + 1,
                    deadline=deadline,
                    deadline_kind=deadline_kind if deadline is not None else None,
                    updated_at=_now(),
                )
            )
            if done.rowcount != 1:
                raise Conflict(f"table {table_id} changed meanwhile", "out_of_date")
            # votes to close the lobby do not carry into the game: whoever is seated when it starts chose to play
            await self._drop_votes(conn, table_id)
        return await self.table(table_id)

    @staticmethod
    def _state_text(state: Any) -> str:
        if not isinstance(state, dict):
            raise InvalidInput("a state must be a JSON object", "bad_state")
        try:
            return integrity.canonical(state)
        except (TypeError, ValueError):
            raise InvalidInput("a state must be plain JSON data", "bad_state") from None

    # ---- moves -----------------------------------------------------------------------------------
    async def commit_move(
        self,
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
    ) -> TableRec:
        """Store one move in one transaction, only if the table is still at ``version``.

        Writes log row ``version + 1``, the new state and its digest, seat updates, and with ``results`` the
        end of the game (status finished, results, ratings). ``Conflict`` when another move got there first.
        """
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
        _check_time(deadline, "deadline")
        _check_kind(deadline_kind)
        if seat_updates:
            for s, fields in seat_updates.items():
                if type(s) is not int or not isinstance(fields, dict) or not set(fields) <= _SEAT_FIELDS:
                    raise InvalidInput("seat updates hold taken_over, timeouts and private_ref", "bad_seat_update")
        text = self._state_text(state)
        now = _now()
        values: dict[str, Any] = {
            "state": text,
            "state_digest": integrity.digest(text),
            "version": version + 1,
            "deadline": deadline,
            "deadline_kind": deadline_kind if deadline is not None else None,
            "updated_at": now,
        }
        if results is not None:
            values.update(status=FINISHED, deadline=None, deadline_kind=None)
        stmt = (
            update(T)
            .where(T.c.id == table_id, T.c.version == version, T.c.status == PLAYING, T.c.broken.is_(None))
            .values(**values)
            .returning(*T_META)
        )
        async with self._write() as conn:
            row = (await conn.execute(stmt)).first()
            if row is None:
                raise await self._why_not(conn, table_id, PLAYING)
            if not 0 <= seat < row.players:
                raise InvalidInput(f"seat {seat} does not exist at this table", "bad_seat", seat=seat)
            if parsed.type not in integrity.ACTION_TYPES[row.game]:
                raise InvalidInput(f"{row.game} has no action {parsed.type!r}", "bad_action", type=parsed.type)
            await conn.execute(
                insert(M).values(
                    table_id=table_id,
                    seq=version + 1,
                    seat=seat,
                    action=parsed.to_json(),
                    actor_user_id=actor_user_id,
                    by=by,
                    at=now,
                )
            )
            if seat_updates:
                for s, fields in seat_updates.items():
                    await self._update_seat(conn, table_id, s, fields)
                if any(fields.get("taken_over") for fields in seat_updates.values()):
                    await self._drop_absent_votes(conn, table_id)
            if results is not None:
                await self._write_results(conn, row, results, now)
                await self._drop_votes(conn, table_id)
            seats = (await self._seats_of(conn, [table_id]))[table_id]
        return self._table_rec(row, seats, state, None)

    async def _update_seat(self, conn: AsyncConnection, table_id: int, seat: int, fields: dict[str, Any]) -> None:
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
        done = await conn.execute(update(S).where(S.c.table_id == table_id, S.c.seat == seat).values(**values))
        if done.rowcount != 1:
            raise InvalidInput(f"seat {seat} does not exist at this table", "bad_seat", seat=seat)

    async def _write_results(
        self, conn: AsyncConnection, table: Any, results: Sequence[ResultSpec], now: datetime
    ) -> None:
        if sorted(r.seat for r in results) != list(range(table.players)):
            raise InvalidInput("results need exactly one entry per seat", "bad_results")
        await conn.execute(insert(R), [{"table_id": table.id, **dataclasses.asdict(r)} for r in results])
        rated = [r for r in results if r.user_id is not None and r.mu is not None and r.sigma is not None]
        if not rated:
            return
        ins = self._insert(RT)
        stmt = ins.on_conflict_do_update(
            index_elements=[RT.c.chat_id, RT.c.game, RT.c.user_id],
            set_={
                "mu": ins.excluded.mu,
                "sigma": ins.excluded.sigma,
                "rating": ins.excluded.rating,
                "points": RT.c.points + ins.excluded.points,
                "games": RT.c.games + 1,
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
                    "updated_at": now,
                }
                for r in rated
            ],
        )

    async def update_seat(
        self,
        table_id: int,
        seat: int,
        *,
        taken_over: bool | None = None,
        timeouts: int | None = None,
        private_ref: Any = _KEEP,
    ) -> TableRec:
        """Change one seat's flags; ``private_ref=None`` clears the reference, leaving it out keeps it."""
        fields: dict[str, Any] = {"taken_over": taken_over, "timeouts": timeouts}
        if private_ref is not _KEEP:
            fields["private_ref"] = private_ref
        async with self._write() as conn:
            if (await conn.execute(select(T.c.id).where(T.c.id == table_id))).first() is None:
                raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
            await self._update_seat(conn, table_id, seat, fields)
            if taken_over:
                await self._drop_absent_votes(conn, table_id)
        return await self.table(table_id)

    async def set_message_ref(self, table_id: int, ref: dict[str, Any] | None) -> None:
        """Remember (or forget) the platform reference of the table's public message."""
        async with self._write() as conn:
            done = await conn.execute(update(T).where(T.c.id == table_id).values(message_ref=ref))
        if done.rowcount != 1:
            raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)

    async def set_deadline(
        self, table_id: int, version: int, deadline: datetime | None, kind: str | None = None
    ) -> None:
        """Arm (or clear with None) the table's timer, only if it is open and still at ``version``."""
        _check_time(deadline, "deadline")
        _check_kind(kind)
        async with self._write() as conn:
            done = await conn.execute(
                update(T)
                .where(
                    T.c.id == table_id,
                    T.c.version == version,
                    T.c.status.in_(OPEN_STATUSES),
                    T.c.broken.is_(None),
                )
                .values(deadline=deadline, deadline_kind=kind if deadline is not None else None)
            )
            if done.rowcount != 1:
                raise await self._why_not(conn, table_id, "open")

    async def claim_due(self, now: datetime, limit: int = 50) -> list[TableRec]:
        """Tables whose deadline has passed, each handed to exactly one caller across workers.

        The claim clears the deadline in the database; the records returned show the deadline and kind
        that were claimed. PostgreSQL: ``FOR UPDATE SKIP LOCKED``; SQLite: the write transaction is exclusive.
        """
        _check_time(now, "now")
        pick = (
            select(T.c.id, T.c.deadline, T.c.deadline_kind)
            .where(T.c.deadline <= now, T.c.status.in_(OPEN_STATUSES), T.c.broken.is_(None))
            .order_by(T.c.deadline, T.c.id)
            .limit(limit)
            .with_for_update(skip_locked=True)
        )
        async with self._write() as conn:
            due = (await conn.execute(pick)).all()
            if not due:
                return []
            ids = [r.id for r in due]
            await conn.execute(
                update(T).where(T.c.id.in_(ids), T.c.deadline.is_not(None)).values(deadline=None, deadline_kind=None)
            )
            recs = await self._load(conn, T.c.id.in_(ids), T.c.id, in_write=True)
        claimed = {r.id: r for r in due}
        recs = [t for t in recs if t.broken is None]  # a state that fails its digest now: marked, not handed out
        out = [
            dataclasses.replace(t, deadline=claimed[t.id].deadline, deadline_kind=claimed[t.id].deadline_kind)
            for t in recs
        ]
        out.sort(key=lambda t: (t.deadline, t.id))
        return out

    async def abandon_table(self, table_id: int) -> TableRec:
        """Stop a table in the lobby or in play (broken ones too); nobody is rated."""
        async with self._write() as conn:
            done = await conn.execute(
                update(T)
                .where(T.c.id == table_id, T.c.status.in_(OPEN_STATUSES))
                .values(status=ABANDONED, deadline=None, deadline_kind=None, updated_at=_now())
            )
            if done.rowcount != 1:
                row = (await conn.execute(select(T.c.status).where(T.c.id == table_id))).first()
                if row is None:
                    raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
                raise Conflict(f"table {table_id} is {row.status}", "wrong_status", status=row.status)
            await self._drop_votes(conn, table_id)
        return await self.table(table_id)

    # ---- votes to stop --------------------------------------------------------------------------
    @staticmethod
    def _present(table_id: int) -> Any:
        """The user ids of the table's present players: seated people whose seat the computer has not taken."""
        return select(S.c.user_id).where(S.c.table_id == table_id, S.c.user_id.is_not(None), S.c.taken_over.is_(False))

    @staticmethod
    async def _drop_votes(conn: AsyncConnection, table_id: int) -> None:
        """Forget every vote to stop the table (its game starts, finishes or is abandoned)."""
        await conn.execute(delete(V).where(V.c.table_id == table_id))

    async def _drop_absent_votes(self, conn: AsyncConnection, table_id: int) -> None:
        """Forget the votes of players who have left (a lobby seat given up, a seat taken over by the computer)."""
        await conn.execute(delete(V).where(V.c.table_id == table_id, V.c.user_id.not_in(self._present(table_id))))

    async def vote_stop(
        self, table_id: int, user_id: int, *, at: datetime | None = None, since: datetime | None = None
    ) -> StopVotes:
        """Record a present player's vote to stop an open table (once: a repeated vote changes nothing) and
        return the votes now standing. ``at`` is the vote's time (default now); votes cast before ``since`` have
        expired: they are dropped first and do not count. ``Conflict`` when the table is no longer open,
        ``InvalidInput`` (``not_seated``) when the user is not a present player, ``NotFound`` when there is no
        such table.

        The table's row is locked first (PostgreSQL ``FOR UPDATE``; SQLite's write transaction is exclusive), so
        votes on one table are counted one after another: two at once cannot each miss the other's."""
        lock = select(T.c.status).where(T.c.id == table_id).with_for_update()
        async with self._write() as conn:
            row = (await conn.execute(lock)).first()
            if row is None:
                raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
            if row.status not in OPEN_STATUSES:
                raise Conflict(f"table {table_id} is {row.status}", "wrong_status", status=row.status)
            present = set((await conn.execute(self._present(table_id))).scalars())
            if user_id not in present:
                raise InvalidInput(f"user {user_id} does not play at table {table_id}", "not_seated", user_id=user_id)
            _check_time(at, "a vote's time")
            _check_time(since, "the oldest vote that counts")
            if since is not None:
                await conn.execute(delete(V).where(V.c.table_id == table_id, V.c.at < since))
            vote = self._insert(V).values(table_id=table_id, user_id=user_id, at=at or _now())
            await conn.execute(vote.on_conflict_do_nothing(index_elements=[V.c.table_id, V.c.user_id]))
            voters = set((await conn.execute(select(V.c.user_id).where(V.c.table_id == table_id))).scalars())
        return StopVotes(tuple(sorted(voters & present)), len(present))

    async def drop_stop_votes(self, table_id: int) -> None:
        """Forget every vote to stop the table (a player chose to keep playing)."""
        async with self._write() as conn:
            await self._drop_votes(conn, table_id)

    async def moves(self, table_id: int) -> list[MoveRec]:
        """The table's move log in order."""
        async with self._read() as conn:
            rows = (await conn.execute(select(M).where(M.c.table_id == table_id).order_by(M.c.seq))).all()
            if not rows and (await conn.execute(select(T.c.id).where(T.c.id == table_id))).first() is None:
                raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
        return [MoveRec(r.seq, r.seat, r.action, r.actor_user_id, r.by, r.at) for r in rows]

    # ---- integrity -------------------------------------------------------------------------------
    async def _replayed(self, table_id: int) -> tuple[Any, Any]:
        """(row, the game state that matches the stored state) or raises ``BrokenTable`` after marking it."""
        async with self._read() as conn:
            row = (await conn.execute(select(T).where(T.c.id == table_id))).first()
            if row is None:
                raise NotFound(f"no table {table_id}", "no_table", table_id=table_id)
            try:
                moves = (
                    await conn.execute(
                        select(M.c.seq, M.c.seat, M.c.action).where(M.c.table_id == table_id).order_by(M.c.seq)
                    )
                ).all()
            except ValueError:
                moves = None
        reason = row.broken
        replayed = None
        if reason is None and moves is None:
            reason = "a log row is not JSON"
        if reason is None:
            stored, reason = self._parse_state(row)
        if reason is None and stored is None and (moves or row.version):
            reason = "a table that never started has moves"
        elif reason is None and stored is not None:
            if len(moves) != row.version:
                reason = f"the log holds {len(moves)} moves but the table is at version {row.version}"
            else:
                try:
                    replayed = integrity.replay_log(
                        row.game, row.players, row.options, row.seed, [tuple(m) for m in moves]
                    )
                    replayed = integrity.check_state(replayed, stored)
                except integrity.LogMismatch as err:
                    reason = str(err)
        if reason is not None:
            await self._mark_broken(table_id, reason)
            raise BrokenTable(table_id, reason)
        return row, replayed

    async def verify(self, table_id: int) -> TableRec:
        """Full check: the move log replayed through the core equals the stored state; else ``BrokenTable``."""
        await self._replayed(table_id)
        return await self.table(table_id)

    async def verify_open_tables(self) -> list[int]:
        """Check every table in play (at start-up); returns the ids of the broken ones, now marked."""
        async with self._read() as conn:
            ids = list((await conn.execute(select(T.c.id).where(T.c.status == PLAYING).order_by(T.c.id))).scalars())
        broken = []
        for table_id in ids:
            try:
                await self._replayed(table_id)
            except BrokenTable:
                broken.append(table_id)
        return broken

    async def record(self, table_id: int) -> dict[str, Any]:
        """The SCENARIOS.md game record of a started table, rebuilt from its move log."""
        row, replayed = await self._replayed(table_id)
        if replayed is None:
            raise InvalidInput("the game has not started yet", "not_started", table_id=table_id)
        return replayed.record()

    # ---- ratings and statistics ------------------------------------------------------------------
    async def ratings(self, chat_id: int, game: str, user_ids: Iterable[int]) -> dict[int, RatingRec]:
        """Current ratings of these users in this chat and game (absent: not rated yet)."""
        ids = list(user_ids)
        if not ids:
            return {}
        stmt = select(RT).where(RT.c.chat_id == chat_id, RT.c.game == game, RT.c.user_id.in_(ids))
        async with self._read() as conn:
            rows = (await conn.execute(stmt)).all()
        return {r.user_id: RatingRec(r.mu, r.sigma, r.points, r.games, r.rating) for r in rows}

    async def results(self, table_id: int) -> list[ResultSpec]:
        async with self._read() as conn:
            rows = (await conn.execute(select(R).where(R.c.table_id == table_id).order_by(R.c.seat))).all()
        fields = [f.name for f in dataclasses.fields(ResultSpec)]
        return [ResultSpec(**{f: getattr(r, f) for f in fields}) for r in rows]

    async def leaderboard(self, chat_id: int, game: str, limit: int = 10) -> list[LeaderRow]:
        async with self._read() as conn:
            return await stats.leaderboard(conn, chat_id, game, limit)

    async def player_stats(self, chat_id: int, game: str, user_id: int) -> PlayerStats:
        async with self._read() as conn:
            return await stats.player_stats(conn, chat_id, game, user_id)

    async def recent_games(self, chat_id: int, limit: int = 10) -> list[RecentGame]:
        async with self._read() as conn:
            return await stats.recent_games(conn, chat_id, limit)
