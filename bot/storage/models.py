"""SQLAlchemy 2 models of everything the bot keeps: users, chats, tables, seats, the move log, results, ratings
and the votes to stop a table.

Used only inside ``bot.storage`` (queries and migrations); callers get the frozen values of ``values.py``.
Times are stored as naive UTC and handed out timezone-aware. A table's state is stored as canonical JSON
text next to its SHA-256 digest, so a load can check it cheaply.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator


class UTCDateTime(TypeDecorator[datetime]):
    """A timezone-aware UTC datetime in Python, naive UTC in the database (the same on SQLite and PostgreSQL)."""

    impl = DateTime
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("storage times must be timezone-aware")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


# SQLite only makes INTEGER PRIMARY KEY an auto-increment rowid; PostgreSQL gets a BIGINT identity.
Id = BigInteger().with_variant(Integer, "sqlite")
OPEN_WHERE = text("status IN ('lobby', 'playing')")


class Base(DeclarativeBase):
    pass


class User(Base):
    __tablename__ = "users"
    __table_args__ = (UniqueConstraint("platform", "platform_id", name="uq_users_platform_id"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    platform: Mapped[str] = mapped_column(String(32))
    platform_id: Mapped[str] = mapped_column(String(128))
    name: Mapped[str] = mapped_column(String(256))
    language: Mapped[str | None] = mapped_column(String(16))
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Chat(Base):
    __tablename__ = "chats"
    # thread '' stands for "no topic" so that the unique key also holds for chats without topics
    __table_args__ = (UniqueConstraint("platform", "platform_id", "thread", name="uq_chats_platform_id_thread"),)

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    platform: Mapped[str] = mapped_column(String(32))
    platform_id: Mapped[str] = mapped_column(String(128))
    thread: Mapped[str] = mapped_column(String(128))
    title: Mapped[str] = mapped_column(String(256))
    language: Mapped[str | None] = mapped_column(String(16))
    defaults: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # the server the chat belongs to, where the platform shards by it (Discord's guild id; revision 0009)
    guild: Mapped[int | None] = mapped_column(BigInteger)


class Table(Base):
    __tablename__ = "game_tables"
    __table_args__ = (
        # one open table per chat/topic, enforced by the database across workers
        Index("uq_game_tables_open_chat", "chat_id", unique=True, sqlite_where=OPEN_WHERE, postgresql_where=OPEN_WHERE),
        Index("ix_game_tables_deadline", "deadline"),
        Index("ix_game_tables_chat_status", "chat_id", "status"),
    )

    id: Mapped[int] = mapped_column(Id, primary_key=True, autoincrement=True)
    chat_id: Mapped[int] = mapped_column(Id, ForeignKey("chats.id"))
    game: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    seed: Mapped[str] = mapped_column(String(128))
    host_user_id: Mapped[int | None] = mapped_column(Id, ForeignKey("users.id"))
    state: Mapped[str | None] = mapped_column(Text)
    state_digest: Mapped[str | None] = mapped_column(String(64))
    version: Mapped[int] = mapped_column(Integer)
    lobby_rev: Mapped[int] = mapped_column(Integer)
    deadline: Mapped[datetime | None] = mapped_column(UTCDateTime)
    deadline_kind: Mapped[str | None] = mapped_column(String(32))
    message_ref: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    deal_pending: Mapped[int | None] = mapped_column(Integer)  # a finished round on view: its next deal to show
    dealing_at: Mapped[float | None] = mapped_column(Float)  # epoch seconds a worker claimed posting that deal
    broken: Mapped[str | None] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class Seat(Base):
    __tablename__ = "seats"
    __table_args__ = (Index("ix_seats_user", "user_id"),)

    table_id: Mapped[int] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(Id, ForeignKey("users.id"))
    computer: Mapped[str | None] = mapped_column(String(16))
    taken_over: Mapped[bool] = mapped_column(Boolean)
    timeouts: Mapped[int] = mapped_column(Integer)
    private_ref: Mapped[dict[str, Any] | None] = mapped_column(JSON)


class Move(Base):
    """The append-only move log: ``seq`` runs 1..version of its table, with no gaps."""

    __tablename__ = "moves"

    table_id: Mapped[int] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    action: Mapped[dict[str, Any]] = mapped_column(JSON)
    actor_user_id: Mapped[int | None] = mapped_column(Id, ForeignKey("users.id"))
    by: Mapped[str] = mapped_column(String(16))
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class Result(Base):
    """One seat's outcome of a finished table (revision 0002)."""

    __tablename__ = "results"
    __table_args__ = (Index("ix_results_user", "user_id"),)

    table_id: Mapped[int] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int | None] = mapped_column(Id, ForeignKey("users.id"))
    total: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    rating_before: Mapped[float | None] = mapped_column(Float)
    rating_after: Mapped[float | None] = mapped_column(Float)
    mu: Mapped[float | None] = mapped_column(Float)
    sigma: Mapped[float | None] = mapped_column(Float)
    barrels: Mapped[int | None] = mapped_column(Integer)
    bolts: Mapped[int | None] = mapped_column(Integer)
    baits: Mapped[int | None] = mapped_column(Integer)
    kozel: Mapped[bool | None] = mapped_column(Boolean)
    rating_points: Mapped[int | None] = mapped_column(Integer)


class Rating(Base):
    """A user's rating per chat and game (revision 0002)."""

    __tablename__ = "ratings"

    chat_id: Mapped[int] = mapped_column(Id, ForeignKey("chats.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    rating: Mapped[float | None] = mapped_column(Float)
    points: Mapped[int] = mapped_column(Integer)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = mapped_column(UTCDateTime)


class StopVote(Base):
    """A player's vote to stop an open table (revision 0003); gone when the table stops being played."""

    __tablename__ = "stop_votes"

    table_id: Mapped[int] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class Press(Base):
    """The press (callback, interaction or update id) that stored a move (revision 0004); kept about a day."""

    __tablename__ = "presses"
    __table_args__ = (Index("ix_presses_at", "at"),)

    press_key: Mapped[str] = mapped_column(String(128), primary_key=True)
    table_id: Mapped[int] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="CASCADE"))
    seq: Mapped[int] = mapped_column(Integer)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class Invitation(Base):
    """A seated player the bot cannot write to privately yet (revision 0004): ``waiting`` while the host's Start
    waits for him, ``sent_at`` once the invitation went out; gone when the table starts or ends."""

    __tablename__ = "invitations"

    table_id: Mapped[int] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id"), primary_key=True)
    waiting: Mapped[bool] = mapped_column(Boolean)
    sent_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class DailyAttempt(Base):
    """One person's attempt at a chat's daily deal of one game on one day (revision 0005_daily): at most one.

    ``table_id`` is the private table he plays it on (set once it is created); ``score`` and ``line`` (how the
    round went, ``bot.daily.outcome``) are written when the round ends; ``status`` ``playing``, ``done`` or
    ``stopped`` (a stopped attempt counts as played)."""

    __tablename__ = "daily_attempts"
    __table_args__ = (Index("ix_daily_attempts_table", "table_id"),)

    chat_id: Mapped[int] = mapped_column(Id, ForeignKey("chats.id"), primary_key=True)
    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id"), primary_key=True)
    table_id: Mapped[int | None] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="SET NULL"))
    status: Mapped[str] = mapped_column(String(16))
    score: Mapped[int | None] = mapped_column(Integer)
    line: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    started_at: Mapped[datetime] = mapped_column(UTCDateTime)
    ended_at: Mapped[datetime | None] = mapped_column(UTCDateTime)


class DailyPost(Base):
    """The group's one daily message (revision 0005_daily): claimed by the worker that posts it, then its
    platform reference, edited as results come in."""

    __tablename__ = "daily_posts"

    chat_id: Mapped[int] = mapped_column(Id, ForeignKey("chats.id"), primary_key=True)
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    message_ref: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class NotifySub(Base):
    """A person who wants a private message when a table opens in a chat (revision 0006_notify)."""

    __tablename__ = "notify_subs"

    chat_id: Mapped[int] = mapped_column(Id, ForeignKey("chats.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id"), primary_key=True)
    created_at: Mapped[datetime] = mapped_column(UTCDateTime)


class NotifySent(Base):
    """A table's message to one subscriber (revision 0006_notify): at most one, across workers."""

    __tablename__ = "notify_sent"

    table_id: Mapped[int] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id"), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class Earned(Base):
    """An achievement a user earned in a chat (revision 0007_achievements): once, with the table that gave it."""

    __tablename__ = "achievements"
    __table_args__ = (Index("ix_achievements_table", "table_id"),)

    chat_id: Mapped[int] = mapped_column(Id, ForeignKey("chats.id"), primary_key=True)
    user_id: Mapped[int] = mapped_column(Id, ForeignKey("users.id"), primary_key=True)
    code: Mapped[str] = mapped_column(String(32), primary_key=True)
    table_id: Mapped[int | None] = mapped_column(Id, ForeignKey("game_tables.id", ondelete="SET NULL"))
    at: Mapped[datetime] = mapped_column(UTCDateTime)


class SeasonSetting(Base):
    """A chat's season length (revision 0008_seasons): ``month``, ``quarter`` or ``none``; no row: a month."""

    __tablename__ = "season_settings"

    chat_id: Mapped[int] = mapped_column(Id, ForeignKey("chats.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))


class SeasonPost(Base):
    """A chat's summary of a finished season (revision 0008_seasons): claimed once, across workers."""

    __tablename__ = "season_posts"

    chat_id: Mapped[int] = mapped_column(Id, ForeignKey("chats.id"), primary_key=True)
    season: Mapped[str] = mapped_column(String(16), primary_key=True)
    at: Mapped[datetime] = mapped_column(UTCDateTime)


# The Core tables of the models, for queries (full names; ``bot.storage`` builds its SQL on these)
USERS = User.__table__
CHATS = Chat.__table__
GAME_TABLES = Table.__table__
SEATS = Seat.__table__
MOVES = Move.__table__
RESULTS = Result.__table__
RATINGS = Rating.__table__
STOP_VOTES = StopVote.__table__
PRESSES = Press.__table__
INVITATIONS = Invitation.__table__
DAILY_ATTEMPTS = DailyAttempt.__table__
DAILY_POSTS = DailyPost.__table__
NOTIFY_SUBS = NotifySub.__table__
NOTIFY_SENT = NotifySent.__table__
ACHIEVEMENTS = Earned.__table__
SEASON_SETTINGS = SeasonSetting.__table__
SEASON_POSTS = SeasonPost.__table__
