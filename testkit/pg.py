"""Throw-away PostgreSQL databases for tests and benchmarks: created on a server (the URL of any database on it,
e.g. ``TEST_DATABASE_URL``), dropped with ``FORCE`` afterwards."""

from __future__ import annotations

import uuid

from sqlalchemy.engine import make_url


async def admin(server_url: str, sql: str) -> None:
    """Run one administrative statement (``CREATE DATABASE``…) on the server of ``server_url``."""
    import asyncpg

    url = make_url(server_url)
    conn = await asyncpg.connect(
        host=url.host or "127.0.0.1",
        port=url.port or 5432,
        user=url.username or "postgres",
        password=url.password,
        database=url.database or "postgres",
    )
    try:
        await conn.execute(sql)
    finally:
        await conn.close()


async def fresh_database(server_url: str) -> str:
    """A new empty database on that server; returns its SQLAlchemy URL (asyncpg)."""
    name = f"tablebot_{uuid.uuid4().hex[:12]}"
    await admin(server_url, f'CREATE DATABASE "{name}"')
    return make_url(server_url).set(drivername="postgresql+asyncpg", database=name).render_as_string(False)


async def drop_database(server_url: str, url: str) -> None:
    await admin(server_url, f'DROP DATABASE IF EXISTS "{make_url(url).database}" WITH (FORCE)')
