"""Database URLs and engines: SQLite (the default, a file under ``DATA_DIR``) or PostgreSQL through asyncpg.

Every SQLite connection gets WAL, foreign keys, a busy timeout and full fsync on commit; SQLite transactions
that write start with ``BEGIN IMMEDIATE`` so that two writers queue on the busy timeout instead of failing
half-way. PostgreSQL runs at READ COMMITTED: a compare-and-set ``UPDATE … WHERE version = v`` waits for a
concurrent writer and then finds the version moved.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

SQLITE_BUSY_TIMEOUT_MS = 30_000
# Engine execution option that marks a write transaction (SQLite: BEGIN IMMEDIATE)
WRITE_OPTION = "bot_storage_write"


def resolve_url(url: str | None, data_dir: Path) -> str:
    """``url``, else ``$DATABASE_URL``, else a SQLite file ``bot.sqlite3`` in ``data_dir`` (created)."""
    url = url or os.environ.get("DATABASE_URL") or None
    if url:
        parsed = make_url(url)
        if parsed.get_backend_name() == "postgresql" and parsed.drivername != "postgresql+asyncpg":
            url = parsed.set(drivername="postgresql+asyncpg").render_as_string(hide_password=False)
        elif parsed.get_backend_name() == "sqlite" and parsed.drivername != "sqlite+aiosqlite":
            url = parsed.set(drivername="sqlite+aiosqlite").render_as_string(hide_password=False)
        return url
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite+aiosqlite:///{(data_dir / 'bot.sqlite3').resolve()}"


def create_engine(url: str) -> AsyncEngine:
    """An async engine for a ``sqlite+aiosqlite`` or ``postgresql+asyncpg`` URL, configured as described above."""
    parsed = make_url(url)
    backend = parsed.get_backend_name()
    if backend == "sqlite":
        database = parsed.database or ""
        if database and database != ":memory:" and not database.startswith("file:"):
            Path(database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_async_engine(url, pool_size=5, max_overflow=10)
        _configure_sqlite(engine)
        return engine
    if backend == "postgresql":
        return create_async_engine(url, pool_size=10, max_overflow=20, pool_pre_ping=True)
    raise ValueError(f"unsupported database {backend!r}: use sqlite+aiosqlite or postgresql+asyncpg")


def _configure_sqlite(engine: AsyncEngine) -> None:
    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        # take over BEGIN from the sqlite3 driver (see the SQLAlchemy SQLite transaction docs)
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute(f"PRAGMA busy_timeout = {SQLITE_BUSY_TIMEOUT_MS}")
        cursor.execute("PRAGMA journal_mode = WAL")
        cursor.execute("PRAGMA synchronous = FULL")
        cursor.execute("PRAGMA foreign_keys = ON")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        if conn.get_execution_options().get(WRITE_OPTION):
            conn.exec_driver_sql("BEGIN IMMEDIATE")
        else:
            conn.exec_driver_sql("BEGIN")


class Database:
    """One engine and the three ways ``bot.storage`` uses it: a read, a write transaction, a dialect's upsert."""

    def __init__(self, engine: AsyncEngine) -> None:
        self.engine = engine
        self.writer = engine.execution_options(**{WRITE_OPTION: True})
        self.dialect = engine.dialect.name
        # PostgreSQL: one snapshot for every statement of the transaction (SQLite's read transaction is one)
        self.snapshots = (
            engine.execution_options(isolation_level="REPEATABLE READ") if self.dialect == "postgresql" else engine
        )

    def read(self) -> Any:
        """A connection for reads (one transaction, rolled back at the end)."""
        return self.engine.connect()

    def snapshot(self) -> Any:
        """A read connection whose statements all see the database as of its first one."""
        return self.snapshots.connect()

    def write(self) -> Any:
        """A write transaction, committed at the end (SQLite: ``BEGIN IMMEDIATE``)."""
        return self.writer.begin()

    def insert(self, table: Any) -> Any:
        """The dialect's ``INSERT`` (with ``on_conflict_do_update`` / ``on_conflict_do_nothing``)."""
        return pg_insert(table) if self.dialect == "postgresql" else sqlite_insert(table)
