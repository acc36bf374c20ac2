"""Alembic migrations run from code: ``upgrade(engine)`` brings a database to the newest revision.

Several workers may start at once: on PostgreSQL the upgrade holds an advisory lock, on SQLite the write
transaction is exclusive, so exactly one of them migrates and the others find the schema current.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.storage.engine import WRITE_OPTION

MIGRATIONS = Path(__file__).with_name("migrations")
ADVISORY_LOCK_KEY = 7_310_001  # any constant shared by every worker of this bot


def alembic_config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


def head_revision() -> str:
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


async def upgrade(engine: AsyncEngine, revision: str = "head") -> None:
    """Upgrade the database to ``revision`` (default: the newest)."""
    cfg = alembic_config()

    def run(sync_conn: Any) -> None:
        if sync_conn.dialect.name == "postgresql":
            sync_conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": ADVISORY_LOCK_KEY})
        cfg.attributes["connection"] = sync_conn
        command.upgrade(cfg, revision)

    async with engine.execution_options(**{WRITE_OPTION: True}).begin() as conn:
        await conn.run_sync(run)


async def current_revision(engine: AsyncEngine) -> str | None:
    async with engine.connect() as conn:
        return await conn.run_sync(lambda c: MigrationContext.configure(c).get_current_revision())
