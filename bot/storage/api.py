"""``Storage``: the async repository the chat application uses; the only place that writes SQL.

One object over one database, composed of the modules that hold each concern — ``people`` (users and chats),
``tables`` (tables, seats, the lobby), ``moves`` (the move log and its compare-and-set), ``timers``, ``votes``,
``invitations``, ``audit`` (the replay check) and ``stats`` — each a set of plain functions over a
``Database``. Every call is one short transaction. ``docs/storage.md`` describes the API and its decisions.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage import audit, daily, earned, invitations, moves, notify, people, seasons, stats, tables, timers, votes
from bot.storage.engine import Database, create_engine, resolve_url
from bot.storage.migrate import upgrade
from bot.storage.values import (
    ChatRec,
    DailyAttemptRec,
    LeaderRow,
    MoveRec,
    PlayerStats,
    RatingRec,
    Reach,
    RecentGame,
    RepairReport,
    ResultSpec,
    SeatSpec,
    StopVotes,
    TableRec,
    UserRec,
)


class Storage:
    """Tables, seats, the move log, results and ratings in SQLite or PostgreSQL."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.db = Database(engine)
        self.engine = engine
        self.dialect = self.db.dialect

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
        return self.db.read()

    def _write(self) -> Any:
        return self.db.write()

    # ---- people and places (people.py) -----------------------------------------------------------
    async def user(self, platform: str, platform_id: str, name: str, language: str | None = None) -> UserRec:
        return await people.user(self.db, platform, platform_id, name, language)

    async def get_user(self, user_id: int) -> UserRec:
        return await people.get_user(self.db, user_id)

    async def set_user_language(self, user_id: int, lang: str | None) -> UserRec:
        return await people.set_user_language(self.db, user_id, lang)

    async def chat(
        self,
        platform: str,
        platform_id: str,
        thread: str | None = None,
        title: str = "",
        language: str | None = None,
        guild: int | None = None,
    ) -> ChatRec:
        return await people.chat(self.db, platform, platform_id, thread, title, language, guild)

    async def get_chat(self, chat_id: int) -> ChatRec:
        return await people.get_chat(self.db, chat_id)

    async def set_chat_language(self, chat_id: int, lang: str | None) -> ChatRec:
        return await people.set_chat_language(self.db, chat_id, lang)

    async def set_chat_defaults(self, chat_id: int, game: str, options: dict[str, Any]) -> ChatRec:
        return await people.set_chat_defaults(self.db, chat_id, game, options)

    # ---- tables, seats, the lobby (tables.py) ----------------------------------------------------
    async def table(self, table_id: int) -> TableRec:
        return await tables.table(self.db, table_id)

    async def versions(self, table_ids: Iterable[int]) -> dict[int, tuple[int, str]]:
        return await tables.versions(self.db, table_ids)

    async def open_table(self, chat_id: int) -> TableRec | None:
        return await tables.open_table(self.db, chat_id)

    async def tables_for_user(self, user_id: int) -> list[TableRec]:
        return await tables.tables_for_user(self.db, user_id)

    async def playing_tables(self, reach: Reach | None = None) -> list[TableRec]:
        return await tables.playing_tables(self.db, reach)

    async def open_counts(self) -> dict[str, int]:
        return await tables.open_counts(self.db)

    async def ping(self) -> None:
        await tables.ping(self.db)

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
        return await tables.create_table(self.db, chat_id, game, players, options, seed, host_user_id, seats)

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
        return await tables.update_lobby(
            self.db, table_id, lobby_rev, players=players, options=options, seats=seats, host_user_id=host_user_id
        )

    async def start_table(
        self,
        table_id: int,
        lobby_rev: int,
        state: dict[str, Any],
        deadline: datetime | None = None,
        deadline_kind: str | None = None,
    ) -> TableRec:
        return await tables.start_table(self.db, table_id, lobby_rev, state, deadline, deadline_kind)

    async def update_seat(
        self,
        table_id: int,
        seat: int,
        *,
        taken_over: bool | None = None,
        timeouts: int | None = None,
        private_ref: Any = tables.KEEP,
    ) -> TableRec:
        return await tables.update_seat(
            self.db, table_id, seat, taken_over=taken_over, timeouts=timeouts, private_ref=private_ref
        )

    async def set_message_ref(self, table_id: int, ref: dict[str, Any] | None) -> None:
        await tables.set_message_ref(self.db, table_id, ref)

    async def mark_deal(self, table_id: int, version: int, ref: dict[str, Any] | None) -> None:
        await tables.mark_deal(self.db, table_id, version, ref)

    async def claim_deal(self, table_id: int, now: float, lease: float) -> bool:
        return await tables.claim_deal(self.db, table_id, now, lease)

    async def deal_shown(self, table_id: int, ref: dict[str, Any] | None) -> None:
        await tables.deal_shown(self.db, table_id, ref)

    async def abandon_table(self, table_id: int) -> TableRec:
        return await tables.abandon_table(self.db, table_id)

    # ---- the move log (moves.py) -----------------------------------------------------------------
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
        press_key: str | None = None,
    ) -> TableRec:
        return await moves.commit_move(
            self.db,
            table_id,
            version,
            seat=seat,
            action=action,
            actor_user_id=actor_user_id,
            by=by,
            state=state,
            deadline=deadline,
            deadline_kind=deadline_kind,
            seat_updates=seat_updates,
            results=results,
            press_key=press_key,
        )

    async def press_outcome(self, press_key: str) -> tuple[int, int] | None:
        return await moves.press_outcome(self.db, press_key)

    async def moves(self, table_id: int) -> list[MoveRec]:
        return await moves.moves(self.db, table_id)

    # ---- timers (timers.py) ----------------------------------------------------------------------
    async def set_deadline(
        self, table_id: int, version: int, deadline: datetime | None, kind: str | None = None
    ) -> None:
        await timers.set_deadline(self.db, table_id, version, deadline, kind)

    async def claim_due(
        self, now: datetime, limit: int = 50, lease: timedelta = timers.LEASE, reach: Reach | None = None
    ) -> list[TableRec]:
        return await timers.claim_due(self.db, now, limit, lease, reach)

    # ---- votes to stop (votes.py) ----------------------------------------------------------------
    async def vote_stop(
        self, table_id: int, user_id: int, *, at: datetime | None = None, since: datetime | None = None
    ) -> StopVotes:
        return await votes.vote_stop(self.db, table_id, user_id, at=at, since=since)

    async def stop_votes(self, table_id: int, *, since: datetime | None = None) -> StopVotes:
        return await votes.stop_votes(self.db, table_id, since=since)

    async def drop_stop_votes(self, table_id: int) -> None:
        return await votes.drop_stop_votes(self.db, table_id)

    # ---- invitations to a private chat (invitations.py) ------------------------------------------
    async def add_invitation(self, table_id: int, user_id: int) -> None:
        await invitations.add_invitation(self.db, table_id, user_id)

    async def invitation_sent(self, table_id: int, user_id: int) -> bool:
        return await invitations.invitation_sent(self.db, table_id, user_id)

    async def clear_invitation(self, table_id: int, user_id: int) -> None:
        await invitations.clear_invitation(self.db, table_id, user_id)

    async def clear_invitations(self, table_id: int, user_ids: Iterable[int] | None = None) -> None:
        await invitations.clear_invitations(self.db, table_id, user_ids)

    async def pending_invitations(self, table_id: int) -> frozenset[int]:
        return await invitations.pending_invitations(self.db, table_id)

    # ---- integrity (audit.py) --------------------------------------------------------------------
    async def verify(self, table_id: int) -> TableRec:
        return await audit.verify(self.db, table_id)

    async def verify_open_tables(self) -> list[int]:
        return await audit.verify_open_tables(self.db)

    async def repair(self, table_id: int) -> RepairReport:
        return await audit.repair(self.db, table_id)

    async def record(self, table_id: int) -> dict[str, Any]:
        return await audit.record(self.db, table_id)

    # ---- results, ratings and statistics (stats.py) ----------------------------------------------
    async def ratings(self, chat_id: int, game: str, user_ids: Iterable[int]) -> dict[int, RatingRec]:
        async with self.db.read() as conn:
            return await stats.ratings(conn, chat_id, game, user_ids)

    async def results(self, table_id: int) -> list[ResultSpec]:
        async with self.db.read() as conn:
            return await stats.results(conn, table_id)

    async def leaderboard(self, chat_id: int, game: str, limit: int = 10) -> list[LeaderRow]:
        async with self.db.read() as conn:
            return await stats.leaderboard(conn, chat_id, game, limit)

    async def player_stats(self, chat_id: int, game: str, user_id: int) -> PlayerStats:
        async with self.db.read() as conn:
            return await stats.player_stats(conn, chat_id, game, user_id)

    async def rating_history(self, chat_id: int, user_id: int) -> dict[str, list[float]]:
        async with self.db.read() as conn:
            return await stats.rating_history(conn, chat_id, user_id)

    async def recent_games(self, chat_id: int, limit: int = 10) -> list[RecentGame]:
        async with self.db.read() as conn:
            return await stats.recent_games(conn, chat_id, limit)

    # ---- the daily deal (daily.py) ---------------------------------------------------------------
    async def claim_attempt(
        self, chat_id: int, game: str, day: str, user_id: int, at: datetime | None = None
    ) -> tuple[DailyAttemptRec, bool]:
        return await daily.claim_attempt(self.db, chat_id, game, day, user_id, at)

    async def set_attempt_table(self, chat_id: int, game: str, day: str, user_id: int, table_id: int) -> None:
        await daily.set_attempt_table(self.db, chat_id, game, day, user_id, table_id)

    async def end_attempt(
        self, table_id: int, status: str, score: int | None, line: dict[str, Any] | None, at: datetime | None = None
    ) -> DailyAttemptRec | None:
        return await daily.end_attempt(self.db, table_id, status, score, line, at)

    async def attempt_of_table(self, table_id: int) -> DailyAttemptRec | None:
        return await daily.attempt_of_table(self.db, table_id)

    async def attempts(
        self, chat_id: int, *, day: str | None = None, user_id: int | None = None, status: str | None = None
    ) -> list[DailyAttemptRec]:
        return await daily.attempts(self.db, chat_id, day=day, user_id=user_id, status=status)

    async def claim_post(self, chat_id: int, day: str) -> bool:
        return await daily.claim_post(self.db, chat_id, day)

    async def set_post_ref(self, chat_id: int, day: str, ref: dict[str, Any] | None) -> None:
        await daily.set_post_ref(self.db, chat_id, day, ref)

    async def post_ref(self, chat_id: int, day: str) -> tuple[bool, dict[str, Any] | None]:
        return await daily.post_ref(self.db, chat_id, day)

    # ---- "call me when a table opens" (notify.py) ------------------------------------------------
    async def set_notify(self, chat_id: int, user_id: int, on: bool) -> None:
        await notify.set_notify(self.db, chat_id, user_id, on)

    async def notify_on(self, chat_id: int, user_id: int) -> bool:
        return await notify.notify_on(self.db, chat_id, user_id)

    async def free_subscribers(self, chat_id: int) -> list[UserRec]:
        return await notify.free_subscribers(self.db, chat_id)

    async def claim_notice(self, table_id: int, user_id: int) -> bool:
        return await notify.claim_notice(self.db, table_id, user_id)

    # ---- achievements (earned.py) ----------------------------------------------------------------
    async def award(
        self, chat_id: int, user_id: int, codes: Sequence[str], table_id: int | None, at: datetime | None = None
    ) -> list[str]:
        return await earned.award(self.db, chat_id, user_id, codes, table_id, at)

    async def earned(self, chat_id: int, user_id: int) -> list[tuple[str, int | None]]:
        return await earned.earned(self.db, chat_id, user_id)

    async def earned_at(self, table_id: int) -> list[tuple[int, str]]:
        return await earned.earned_at(self.db, table_id)

    async def game_counts(self, chat_id: int, user_id: int, upto: int) -> tuple[int, int, frozenset[str]]:
        return await earned.game_counts(self.db, chat_id, user_id, upto)

    async def finished_tables(self) -> list[int]:
        return await earned.finished_tables(self.db)

    # ---- seasons (seasons.py) --------------------------------------------------------------------
    async def set_season_kind(self, chat_id: int, kind: str) -> None:
        await seasons.set_season_kind(self.db, chat_id, kind)

    async def season_kind(self, chat_id: int) -> str | None:
        return await seasons.season_kind(self.db, chat_id)

    async def season_board(
        self, chat_id: int, game: str | None, start: datetime, end: datetime, limit: int = 10
    ) -> list[dict[str, Any]]:
        return await seasons.season_board(self.db, chat_id, game, start, end, limit)

    async def active_chats(self, since: datetime, reach: Reach | None = None) -> list[int]:
        return await seasons.active_chats(self.db, since, reach)

    async def claim_season_post(self, chat_id: int, season: str) -> bool:
        return await seasons.claim_season_post(self.db, chat_id, season)
